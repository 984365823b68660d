"LAMPLIGHTER -- a tiny original test story for zorktui.

 Copyright (c) the zorktui authors. Released under the MIT License.
 Written from scratch for zorktui's engine tests; no text or code is taken
 from any Infocom or other third-party game.

 Target: Z-machine version 3, compiled with the zorkie ZIL compiler:
     zorkie mini.zil -o mini.z3 -v 3
 (see scripts/build_zil_story.sh).

 It carries its own minimal parser (zorkie ships no ZIL library):
 READ into READBUF/LEXBUF, a verb word, an optional noun phrase
 [adjective...] noun, and for PUT a second noun phrase after IN/INTO.

 V3 status line: HERE, SCORE and MOVES are the first three globals
 (global 0 = current room object, 1 = score, 2 = moves); zorkie reserves
 those slots for them.  MOVES goes up by one after every command the
 parser understood (any command that reached a verb routine, including
 LOOK, INVENTORY, SCORE and failed moves); commands that fail to parse
 (unknown word, unknown object, missing noun) do not count.

 Scoring (maximum 30):
   taking each of the five loose objects for the first time   5 x 2 = 10
   putting the lens, the oilcan and the wick into the housing  3 x 5 = 15
   closing the housing with all three inside (wins the game)           5"

<VERSION 3>
<CONSTANT RELEASEID 1>

<DIRECTIONS NORTH SOUTH EAST WEST UP DOWN>

;"The three V3 status-line globals must come first."
<GLOBAL HERE 0>
<GLOBAL SCORE 0>
<GLOBAL MOVES 0>

<CONSTANT MAX-SCORE 30>

<GLOBAL READBUF <ITABLE 82 (BYTE)>>
<GLOBAL LEXBUF <ITABLE 50 (BYTE)>>
<GLOBAL NWORDS 0>
<GLOBAL WON <>>

;"------------------------------------------------------------------
  The world"

<OBJECT ROOMS (DESC "Rooms")>

<ROOM BEACH
    (IN ROOMS)
    (DESC "Shingle Beach")
    (NORTH TO TOWER-BASE)
    (WEST TO CAVE)
    (FLAGS LIGHTBIT)>

<ROOM CAVE
    (IN ROOMS)
    (DESC "Tide Cave")
    (EAST TO BEACH)
    (FLAGS LIGHTBIT)>

<ROOM TOWER-BASE
    (IN ROOMS)
    (DESC "Lighthouse Base")
    (SOUTH TO BEACH)
    (EAST TO BOATHOUSE)
    (UP TO LAMP-ROOM)
    (FLAGS LIGHTBIT)>

<ROOM BOATHOUSE
    (IN ROOMS)
    (DESC "Boathouse")
    (WEST TO TOWER-BASE)
    (FLAGS LIGHTBIT)>

<ROOM LAMP-ROOM
    (IN ROOMS)
    (DESC "Lamp Room")
    (DOWN TO TOWER-BASE)
    (FLAGS LIGHTBIT)>

<OBJECT PLAYER
    (IN BEACH)
    (DESC "yourself")
    (SYNONYM ME MYSELF SELF)>

<OBJECT WICK
    (IN BEACH)
    (DESC "cotton wick")
    (SYNONYM WICK)
    (ADJECTIVE COTTON)
    (FLAGS TAKEBIT PARTBIT)>

<OBJECT KEY
    (IN CAVE)
    (DESC "brass key")
    (SYNONYM KEY)
    (ADJECTIVE BRASS SMALL)
    (FLAGS TAKEBIT)>

<OBJECT LOGBOOK
    (IN TOWER-BASE)
    (DESC "leather logbook")
    (SYNONYM LOGBOOK BOOK LOG)
    (ADJECTIVE LEATHER)
    (FLAGS TAKEBIT)>

<OBJECT OILCAN
    (IN BOATHOUSE)
    (DESC "tin oilcan")
    (SYNONYM OILCAN CAN)
    (ADJECTIVE TIN)
    (FLAGS TAKEBIT PARTBIT)>

<OBJECT CHEST
    (IN BOATHOUSE)
    (DESC "wooden chest")
    (SYNONYM CHEST)
    (ADJECTIVE WOODEN)
    (FLAGS CONTBIT LOCKEDBIT)>

<OBJECT LENS
    (IN CHEST)
    (DESC "glass lens")
    (SYNONYM LENS)
    (ADJECTIVE GLASS)
    (FLAGS TAKEBIT PARTBIT)>

<OBJECT HOUSING
    (IN LAMP-ROOM)
    (DESC "lamp housing")
    (SYNONYM HOUSING)
    (ADJECTIVE LAMP IRON)
    (FLAGS CONTBIT)>

;"Adjectives, checked by the parser.  They mirror the ADJECTIVE properties
  above (kept for a conventional V3 object table); zorkie encodes V3
  ADJECTIVE properties as adjective-number bytes, so the parser compares
  dictionary words here instead."
<ROUTINE ADJ? (O W)
    <COND (<AND <EQUAL? .O ,WICK> <EQUAL? .W ,W?COTTON>> <RTRUE>)
          (<AND <EQUAL? .O ,KEY> <EQUAL? .W ,W?BRASS ,W?SMALL>> <RTRUE>)
          (<AND <EQUAL? .O ,LOGBOOK> <EQUAL? .W ,W?LEATHER>> <RTRUE>)
          (<AND <EQUAL? .O ,OILCAN> <EQUAL? .W ,W?TIN>> <RTRUE>)
          (<AND <EQUAL? .O ,CHEST> <EQUAL? .W ,W?WOODEN>> <RTRUE>)
          (<AND <EQUAL? .O ,LENS> <EQUAL? .W ,W?GLASS>> <RTRUE>)
          (<AND <EQUAL? .O ,HOUSING> <EQUAL? .W ,W?LAMP ,W?IRON>> <RTRUE>)>
    <RFALSE>>

;"------------------------------------------------------------------
  Descriptions"

<ROUTINE ROOM-TEXT ()
    <COND (<EQUAL? ,HERE ,BEACH>
           <TELL "Grey pebbles clatter under a cold wind. A white tower stands
to the north; a dark cleft in the cliff opens to the west." CR>)
          (<EQUAL? ,HERE ,CAVE>
           <TELL "Water drips from the low roof and gathers in still pools.
Daylight shows the way back east." CR>)
          (<EQUAL? ,HERE ,TOWER-BASE>
           <TELL "An iron stair spirals up inside the tower. The beach lies
south and a weathered boathouse leans against the wall to the east." CR>)
          (<EQUAL? ,HERE ,BOATHOUSE>
           <TELL "Nets and broken oars hang from the rafters. The only door
leads west." CR>)
          (<EQUAL? ,HERE ,LAMP-ROOM>
           <TELL "Salt-streaked windows look out over the sea. The stair
leads back down." CR>
           <COND (,WON <TELL "The great lamp burns steadily." CR>)
                 (T <TELL "The great lamp is dark." CR>)>)>>

<ROUTINE OBJ-TEXT (O)
    <COND (<EQUAL? .O ,WICK>
           <TELL "A fat braid of cotton, clean and dry." CR>)
          (<EQUAL? .O ,KEY>
           <TELL "A small brass key, green at the edges." CR>)
          (<EQUAL? .O ,LOGBOOK>
           <TELL "The last entry reads: Lamp out. Lens in the boathouse
chest, oil and wick to be fetched." CR>)
          (<EQUAL? .O ,OILCAN>
           <TELL "A dented tin oilcan. It sloshes when shaken." CR>)
          (<EQUAL? .O ,CHEST>
           <TELL "A sturdy sea chest with a brass lock." CR>)
          (<EQUAL? .O ,LENS>
           <TELL "A ring of thick glass that bends the light into a
beam." CR>)
          (<EQUAL? .O ,HOUSING>
           <TELL "An iron cage at the heart of the lamp, with room for a
wick, oil and a lens." CR>)
          (<EQUAL? .O ,PLAYER>
           <TELL "You look ready for a long night." CR>)
          (T <TELL "You see nothing special." CR>)>
    <COND (<FSET? .O ,CONTBIT>
           <COND (<FSET? .O ,OPENBIT> <TELL "It is open." CR>)
                 (T <TELL "It is closed." CR>)>
           <LIST-CONTENTS .O>)>>

;"Prints 'The X contains:' and one line per child, if open and not empty."
<ROUTINE LIST-CONTENTS (C "AUX" O)
    <COND (<AND <FSET? .C ,OPENBIT> <FIRST? .C>>
           <TELL "The " D .C " contains:" CR>
           <SET O <FIRST? .C>>
           <REPEAT ()
               <COND (<NOT .O> <RETURN>)>
               <TELL "  a " D .O CR>
               <SET O <NEXT? .O>>>)>>

<ROUTINE DESCRIBE-ROOM ("AUX" O)
    <TELL D ,HERE CR>
    <ROOM-TEXT>
    <SET O <FIRST? ,HERE>>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <COND (<NOT <EQUAL? .O ,PLAYER>>
               <TELL "There is a " D .O " here." CR>
               <COND (<FSET? .O ,CONTBIT> <LIST-CONTENTS .O>)>)>
        <SET O <NEXT? .O>>>>

;"------------------------------------------------------------------
  Parser helpers"

<ROUTINE WORD-AT (I)
    <GET ,LEXBUF <+ 1 <* 2 .I>>>>

<ROUTINE PRINT-WORD (I "AUX" LEN POS)
    <SET LEN <GETB ,LEXBUF <+ 4 <* 4 .I>>>>
    <SET POS <GETB ,LEXBUF <+ 5 <* 4 .I>>>>
    <REPEAT ()
        <COND (<0? .LEN> <RETURN>)>
        <PRINTC <GETB ,READBUF .POS>>
        <SET POS <+ .POS 1>>
        <SET LEN <- .LEN 1>>>>

;"Is word W one of O's SYNONYM words?"
<ROUTINE NOUN? (O W "AUX" PT LEN I)
    <SET PT <GETPT .O ,P?SYNONYM>>
    <COND (<NOT .PT> <RFALSE>)>
    <SET LEN </ <PTSIZE .PT> 2>>
    <SET I 0>
    <REPEAT ()
        <COND (<NOT <L? .I .LEN>> <RETURN>)>
        <COND (<EQUAL? <GET .PT .I> .W> <RTRUE>)>
        <SET I <+ .I 1>>>
    <RFALSE>>

;"Do words S .. E-1 (articles, adjectives, then a noun) describe O?"
<ROUTINE MATCH? (O S E "AUX" I W)
    <COND (<NOT <NOUN? .O <WORD-AT <- .E 1>>>> <RFALSE>)>
    <SET I .S>
    <REPEAT ()
        <COND (<NOT <L? .I <- .E 1>>> <RETURN>)>
        <SET W <WORD-AT .I>>
        <COND (<EQUAL? .W ,W?THE ,W?A ,W?AN>)
              (<NOT <ADJ? .O .W>> <RFALSE>)>
        <SET I <+ .I 1>>>
    <RTRUE>>

;"Depth-first search of C's children (and the insides of open containers)."
<ROUTINE SEARCH (C S E "AUX" O R)
    <SET O <FIRST? .C>>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <COND (<MATCH? .O .S .E> <SET R .O> <RETURN>)>
        <COND (<AND <FSET? .O ,CONTBIT> <FSET? .O ,OPENBIT>>
               <SET R <SEARCH .O .S .E>>
               <COND (.R <RETURN>)>)>
        <SET O <NEXT? .O>>>
    .R>

;"Resolve the noun phrase in words S .. E-1; prints a message and returns
  false when that fails."
<ROUTINE FIND-OBJECT (S E "AUX" O)
    <COND (<NOT <L? .S .E>>
           <TELL "What do you want to do that to?" CR>
           <RFALSE>)>
    <COND (<MATCH? ,PLAYER .S .E> <RETURN ,PLAYER>)>
    <SET O <SEARCH ,PLAYER .S .E>>
    <COND (<NOT .O> <SET O <SEARCH ,HERE .S .E>>)>
    <COND (<NOT .O>
           <TELL "You can't see any such thing here." CR>
           <RFALSE>)>
    .O>

;"Direction word -> exit property number, or 0."
<ROUTINE DIR-PROP (W)
    <COND (<EQUAL? .W ,W?NORTH ,W?N> <RETURN ,P?NORTH>)
          (<EQUAL? .W ,W?SOUTH ,W?S> <RETURN ,P?SOUTH>)
          (<EQUAL? .W ,W?EAST ,W?E> <RETURN ,P?EAST>)
          (<EQUAL? .W ,W?WEST ,W?W> <RETURN ,P?WEST>)
          (<EQUAL? .W ,W?UP ,W?U> <RETURN ,P?UP>)
          (<EQUAL? .W ,W?DOWN ,W?D> <RETURN ,P?DOWN>)>
    <RETURN 0>>

;"------------------------------------------------------------------
  Scoring"

<ROUTINE ADD-SCORE (N)
    <SETG SCORE <+ ,SCORE .N>>
    <TELL "[Your score has gone up by " N .N " points.]" CR>>

;"------------------------------------------------------------------
  Verbs"

<ROUTINE V-GO (P "AUX" PT)
    <SET PT <GETPT ,HERE .P>>
    <COND (<NOT .PT> <TELL "You can't go that way." CR> <RTRUE>)>
    <SETG HERE <GETB .PT 0>>
    <MOVE ,PLAYER ,HERE>
    <DESCRIBE-ROOM>>

<ROUTINE V-INVENTORY ("AUX" O)
    <SET O <FIRST? ,PLAYER>>
    <COND (<NOT .O> <TELL "You are empty-handed." CR> <RTRUE>)>
    <TELL "You are carrying:" CR>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <TELL "  a " D .O CR>
        <SET O <NEXT? .O>>>>

<ROUTINE V-SCORE ()
    <TELL "Your score is " N ,SCORE " of a possible " N ,MAX-SCORE
          ", in " N ,MOVES " moves." CR>>

<ROUTINE V-TAKE (O)
    <COND (<EQUAL? .O ,PLAYER> <TELL "That would be quite a trick." CR>)
          (<IN? .O ,PLAYER> <TELL "You already have the " D .O "." CR>)
          (<NOT <FSET? .O ,TAKEBIT>> <TELL "The " D .O " will not budge." CR>)
          (T
           <MOVE .O ,PLAYER>
           <TELL "You take the " D .O "." CR>
           <COND (<NOT <FSET? .O ,TOUCHBIT>>
                  <FSET .O ,TOUCHBIT>
                  <ADD-SCORE 2>)>)>>

<ROUTINE V-DROP (O)
    <COND (<NOT <IN? .O ,PLAYER>> <TELL "You aren't holding that." CR>)
          (T <MOVE .O ,HERE> <TELL "You drop the " D .O "." CR>)>>

<ROUTINE V-EXAMINE (O)
    <OBJ-TEXT .O>>

<ROUTINE V-OPEN (O)
    <COND (<NOT <FSET? .O ,CONTBIT>> <TELL "You can't open that." CR>)
          (<FSET? .O ,OPENBIT> <TELL "The " D .O " is already open." CR>)
          (<FSET? .O ,LOCKEDBIT>
           <COND (<IN? ,KEY ,PLAYER>
                  <FCLEAR .O ,LOCKEDBIT>
                  <FSET .O ,OPENBIT>
                  <TELL "You unlock the " D .O " with the brass key and lift
the lid." CR>
                  <LIST-CONTENTS .O>)
                 (T <TELL "The " D .O " is locked." CR>)>)
          (T
           <FSET .O ,OPENBIT>
           <TELL "You open the " D .O "." CR>
           <LIST-CONTENTS .O>)>>

<ROUTINE V-CLOSE (O)
    <COND (<NOT <FSET? .O ,CONTBIT>> <TELL "You can't close that." CR>)
          (<NOT <FSET? .O ,OPENBIT>> <TELL "The " D .O " is already closed." CR>)
          (T
           <FCLEAR .O ,OPENBIT>
           <TELL "You close the " D .O "." CR>
           <COND (<AND <EQUAL? .O ,HOUSING>
                       <NOT ,WON>
                       <IN? ,LENS ,HOUSING>
                       <IN? ,OILCAN ,HOUSING>
                       <IN? ,WICK ,HOUSING>>
                  <TELL CR "Oil soaks into the wick, a spark catches, and the lens
throws a long white beam across the water. The lighthouse is lit!" CR>
                  <SETG WON T>
                  <ADD-SCORE 5>
                  <TELL CR "*** You have won ***" CR>
                  <TELL "(You may keep exploring.)" CR>)>)>>

<ROUTINE V-PUT (O C)
    <COND (<NOT <IN? .O ,PLAYER>> <TELL "You aren't holding the " D .O "." CR>)
          (<EQUAL? .O .C> <TELL "That is impossible." CR>)
          (<NOT <FSET? .C ,CONTBIT>> <TELL "You can't put things in that." CR>)
          (<NOT <FSET? .C ,OPENBIT>> <TELL "The " D .C " is closed." CR>)
          (T
           <MOVE .O .C>
           <TELL "You put the " D .O " in the " D .C "." CR>
           <COND (<AND <EQUAL? .C ,HOUSING>
                       <FSET? .O ,PARTBIT>
                       <NOT <FSET? .O ,PLACEDBIT>>>
                  <FSET .O ,PLACEDBIT>
                  <ADD-SCORE 5>)>)>>

;"------------------------------------------------------------------
  Command dispatch.  Returns true when the command was understood (and
  so used up a move)."

<ROUTINE PERFORM ("AUX" V I P O C K)
    <SET I 0>
    <REPEAT ()
        <COND (<NOT <L? .I ,NWORDS>> <RETURN>)>
        <COND (<0? <WORD-AT .I>>
               <TELL "I don't know the word \"">
               <PRINT-WORD .I>
               <TELL "\"." CR>
               <RFALSE>)>
        <SET I <+ .I 1>>>
    <SET V <WORD-AT 0>>
    <COND (<AND <EQUAL? .V ,W?GO ,W?WALK> <G? ,NWORDS 1>>
           <SET V <WORD-AT 1>>
           <SET P <DIR-PROP .V>>
           <COND (<0? .P> <TELL "Go where?" CR> <RFALSE>)>
           <V-GO .P>
           <RTRUE>)>
    <SET P <DIR-PROP .V>>
    <COND (<NOT <0? .P>> <V-GO .P> <RTRUE>)
          (<EQUAL? .V ,W?LOOK ,W?L> <DESCRIBE-ROOM> <RTRUE>)
          (<EQUAL? .V ,W?INVENTORY ,W?I> <V-INVENTORY> <RTRUE>)
          (<EQUAL? .V ,W?SCORE> <V-SCORE> <RTRUE>)
          (<EQUAL? .V ,W?TAKE ,W?GET>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-TAKE .O> <RTRUE>)
          (<EQUAL? .V ,W?DROP>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-DROP .O> <RTRUE>)
          (<EQUAL? .V ,W?EXAMINE ,W?X>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-EXAMINE .O> <RTRUE>)
          (<EQUAL? .V ,W?OPEN>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-OPEN .O> <RTRUE>)
          (<EQUAL? .V ,W?CLOSE ,W?SHUT>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-CLOSE .O> <RTRUE>)
          (<EQUAL? .V ,W?PUT ,W?INSERT>
           <SET K 2>
           <REPEAT ()
               <COND (<NOT <L? .K ,NWORDS>> <SET K 0> <RETURN>)>
               <COND (<EQUAL? <WORD-AT .K> ,W?IN ,W?INTO> <RETURN>)>
               <SET K <+ .K 1>>>
           <COND (<0? .K> <TELL "What do you want to put it in?" CR> <RFALSE>)>
           <SET O <FIND-OBJECT 1 .K>>
           <COND (<NOT .O> <RFALSE>)>
           <SET C <FIND-OBJECT <+ .K 1> ,NWORDS>>
           <COND (<NOT .C> <RFALSE>)>
           <V-PUT .O .C> <RTRUE>)>
    <TELL "I don't understand that sentence." CR>
    <RFALSE>>

;"------------------------------------------------------------------
  Main loop"

<ROUTINE GO ()
    <PUTB ,READBUF 0 80>
    <PUTB ,LEXBUF 0 12>
    <SETG HERE ,BEACH>
    <MOVE ,PLAYER ,HERE>
    <TELL "LAMPLIGHTER" CR
          "A tiny test story for zorktui. Release 1." CR CR>
    <DESCRIBE-ROOM>
    <MAIN-LOOP>>

<ROUTINE MAIN-LOOP ()
    <REPEAT ()
        <CRLF>
        <TELL ">">
        <READ ,READBUF ,LEXBUF>
        <SETG NWORDS <GETB ,LEXBUF 1>>
        <COND (<0? ,NWORDS> <TELL "I beg your pardon?" CR>)
              (<PERFORM> <SETG MOVES <+ ,MOVES 1>>)>>>
