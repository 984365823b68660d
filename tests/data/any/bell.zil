"CLAPPERLESS -- a tiny original ZIL story for zorktui's engine tests.

 Copyright (c) the zorktui authors. Released under the MIT License.
 Our own work: no text, names or puzzles are taken from any other game.

 Target: Z-machine version 3, compiled with zorkie (PyPI):
     zorkie bell.zil -o bell.z3 -v 3
 (then build.sh pins the header serial to 261128 and the release to 2).

 Its own minimal parser, as in tests/data/zil/mini.zil: a verb word and an
 optional noun phrase [adjective...] noun; PUT X IN Y.

 Four rooms: Foundry Yard, Pattern Shed, Furnace Room, Bell Loft.
 Scoring (maximum 30): taking the clapper 5, first reaching the loft 5,
 hanging the clapper in the bell 10, ringing the bell 10 (which wins and
 stops the interpreter at once).

 Two ways to come to grief:
   touching (or taking) the glowing crucible: the heat takes you, and you
     come round in the Foundry Yard five points poorer, your things left by
     the furnace; play goes on.
   jumping from the Bell Loft: your tale stops there; the game then asks,
     in a line of its own, whether to begin again (AGAIN restarts, anything
     else stops the interpreter)."

<VERSION 3>
<CONSTANT RELEASEID 2>

<DIRECTIONS NORTH SOUTH EAST WEST UP DOWN>

;"The three V3 status-line globals must come first."
<GLOBAL HERE 0>
<GLOBAL SCORE 0>
<GLOBAL MOVES 0>

<CONSTANT MAX-SCORE 30>

<GLOBAL READBUF <ITABLE 82 (BYTE)>>
<GLOBAL LEXBUF <ITABLE 50 (BYTE)>>
<GLOBAL NWORDS 0>
<GLOBAL LOFT-SEEN <>>
<GLOBAL HUNG <>>

<OBJECT ROOMS (DESC "Rooms")>

<ROOM YARD
    (IN ROOMS)
    (DESC "Foundry Yard")
    (NORTH TO SHED)
    (EAST TO FURNACE)
    (UP TO LOFT)
    (FLAGS LIGHTBIT)>

<ROOM SHED
    (IN ROOMS)
    (DESC "Pattern Shed")
    (SOUTH TO YARD)
    (FLAGS LIGHTBIT)>

<ROOM FURNACE
    (IN ROOMS)
    (DESC "Furnace Room")
    (WEST TO YARD)
    (FLAGS LIGHTBIT)>

<ROOM LOFT
    (IN ROOMS)
    (DESC "Bell Loft")
    (DOWN TO YARD)
    (FLAGS LIGHTBIT)>

<OBJECT PLAYER
    (IN YARD)
    (DESC "yourself")
    (SYNONYM ME MYSELF SELF)>

<OBJECT APRON
    (IN SHED)
    (DESC "leather apron")
    (SYNONYM APRON)
    (ADJECTIVE LEATHER)
    (FLAGS TAKEBIT)>

<OBJECT CLAPPER
    (IN SHED)
    (DESC "iron clapper")
    (SYNONYM CLAPPER TONGUE)
    (ADJECTIVE IRON HEAVY)
    (FLAGS TAKEBIT)>

<OBJECT CRUCIBLE
    (IN FURNACE)
    (DESC "glowing crucible")
    (SYNONYM CRUCIBLE POT)
    (ADJECTIVE GLOWING)>

<OBJECT BELL
    (IN LOFT)
    (DESC "bronze bell")
    (SYNONYM BELL)
    (ADJECTIVE BRONZE GREAT)
    (FLAGS CONTBIT OPENBIT)>

<ROUTINE ADJ? (O W)
    <COND (<AND <EQUAL? .O ,APRON> <EQUAL? .W ,W?LEATHER>> <RTRUE>)
          (<AND <EQUAL? .O ,CLAPPER> <EQUAL? .W ,W?IRON ,W?HEAVY>> <RTRUE>)
          (<AND <EQUAL? .O ,CRUCIBLE> <EQUAL? .W ,W?GLOWING>> <RTRUE>)
          (<AND <EQUAL? .O ,BELL> <EQUAL? .W ,W?BRONZE ,W?GREAT>> <RTRUE>)>
    <RFALSE>>

<ROUTINE ROOM-TEXT ()
    <COND (<EQUAL? ,HERE ,YARD>
           <TELL "Cracked cobbles, cold ash and a ladder climbing to the
bell loft. The pattern shed is north; heat breathes from the furnace room
to the east." CR>)
          (<EQUAL? ,HERE ,SHED>
           <TELL "Wooden patterns for bells of every size hang on pegs.
The yard is south." CR>)
          (<EQUAL? ,HERE ,FURNACE>
           <TELL "The furnace mouth glows orange. The air wavers. The yard
is back to the west." CR>)
          (<EQUAL? ,HERE ,LOFT>
           <TELL "Open beams, pigeons and a long drop to the cobbles far
below. The ladder leads down." CR>)>>

<ROUTINE OBJ-TEXT (O)
    <COND (<EQUAL? .O ,APRON> <TELL "Scorched in places, but sound." CR>)
          (<EQUAL? .O ,CLAPPER> <TELL "A heavy iron tongue with a loop at the top." CR>)
          (<EQUAL? .O ,CRUCIBLE> <TELL "It glows so brightly it hurts to look at." CR>)
          (<EQUAL? .O ,BELL>
           <COND (,HUNG <TELL "A great bronze bell, its clapper in place." CR>)
                 (T <TELL "A great bronze bell. Inside it hangs nothing at all." CR>)>)
          (<EQUAL? .O ,PLAYER> <TELL "Soot to the elbows." CR>)
          (T <TELL "Nothing remarkable." CR>)>>

<ROUTINE DESCRIBE-ROOM ("AUX" O)
    <TELL D ,HERE CR>
    <ROOM-TEXT>
    <SET O <FIRST? ,HERE>>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <COND (<NOT <EQUAL? .O ,PLAYER>>
               <TELL "The " D .O " is here." CR>)>
        <SET O <NEXT? .O>>>>

<ROUTINE WORD-AT (I)
    <GET ,LEXBUF <+ 1 <* 2 .I>>>>

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

<ROUTINE SEARCH (C S E "AUX" O R)
    <SET O <FIRST? .C>>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <COND (<MATCH? .O .S .E> <SET R .O> <RETURN>)>
        <SET O <NEXT? .O>>>
    .R>

<ROUTINE FIND-OBJECT (S E "AUX" O)
    <COND (<NOT <L? .S .E>>
           <TELL "Name the thing, please." CR>
           <RFALSE>)>
    <COND (<MATCH? ,PLAYER .S .E> <RETURN ,PLAYER>)>
    <SET O <SEARCH ,PLAYER .S .E>>
    <COND (<NOT .O> <SET O <SEARCH ,HERE .S .E>>)>
    <COND (<NOT .O>
           <TELL "Nothing like that is within reach." CR>
           <RFALSE>)>
    .O>

<ROUTINE DIR-PROP (W)
    <COND (<EQUAL? .W ,W?NORTH ,W?N> <RETURN ,P?NORTH>)
          (<EQUAL? .W ,W?SOUTH ,W?S> <RETURN ,P?SOUTH>)
          (<EQUAL? .W ,W?EAST ,W?E> <RETURN ,P?EAST>)
          (<EQUAL? .W ,W?WEST ,W?W> <RETURN ,P?WEST>)
          (<EQUAL? .W ,W?UP ,W?U> <RETURN ,P?UP>)
          (<EQUAL? .W ,W?DOWN ,W?D> <RETURN ,P?DOWN>)>
    <RETURN 0>>

<ROUTINE ADD-SCORE (N)
    <SETG SCORE <+ ,SCORE .N>>
    <TELL "(+" N .N ")" CR>>

;"------------------------------------------------------------------
  Coming to grief"

;"The crucible: you come round in the yard, five points poorer."
<ROUTINE SCALDED ("AUX" O N)
    <TELL "You lay a hand on the crucible. Heat roars up your arm and the
world turns white, then nothing at all." CR CR>
    <TELL "...after a time there is grass, and cool air, and a sparrow
looking at you. The forge has taken its fee." CR CR>
    <SET O <FIRST? ,PLAYER>>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <SET N <NEXT? .O>>
        <MOVE .O ,FURNACE>
        <SET O .N>>
    <SETG SCORE <- ,SCORE 5>>
    <SETG HERE ,YARD>
    <MOVE ,PLAYER ,HERE>
    <DESCRIBE-ROOM>>

;"The leap: the tale stops; a line of its own asks whether to begin again."
<ROUTINE LEAP ()
    <TELL "You step off the beam. The cobbles come up very fast, and your
tale ends on them." CR CR>
    <TELL "You scored " N ,SCORE " of " N ,MAX-SCORE "." CR CR>
    <TELL "Type AGAIN to begin at the yard gate, or anything else to stop: ">
    <READ ,READBUF ,LEXBUF>
    <COND (<AND <G? <GETB ,LEXBUF 1> 0> <EQUAL? <WORD-AT 0> ,W?AGAIN>>
           <RESTART>)
          (T
           <TELL "So be it." CR>
           <QUIT>)>>

;"------------------------------------------------------------------
  Verbs"

<ROUTINE V-GO (P "AUX" PT)
    <SET PT <GETPT ,HERE .P>>
    <COND (<NOT .PT> <TELL "No way leads there." CR> <RTRUE>)>
    <SETG HERE <GETB .PT 0>>
    <MOVE ,PLAYER ,HERE>
    <DESCRIBE-ROOM>
    <COND (<AND <EQUAL? ,HERE ,LOFT> <NOT ,LOFT-SEEN>>
           <SETG LOFT-SEEN T>
           <ADD-SCORE 5>)>>

<ROUTINE V-INVENTORY ("AUX" O)
    <SET O <FIRST? ,PLAYER>>
    <COND (<NOT .O> <TELL "Your hands are empty." CR> <RTRUE>)>
    <TELL "You hold:" CR>
    <REPEAT ()
        <COND (<NOT .O> <RETURN>)>
        <TELL "  the " D .O CR>
        <SET O <NEXT? .O>>>>

<ROUTINE V-SCORE ()
    <TELL "Score " N ,SCORE " of " N ,MAX-SCORE ", " N ,MOVES " moves." CR>>

<ROUTINE V-TAKE (O)
    <COND (<EQUAL? .O ,CRUCIBLE> <SCALDED>)
          (<EQUAL? .O ,PLAYER> <TELL "You are already yours." CR>)
          (<IN? .O ,PLAYER> <TELL "You have it." CR>)
          (<NOT <FSET? .O ,TAKEBIT>> <TELL "It stays where it is." CR>)
          (T
           <MOVE .O ,PLAYER>
           <TELL "You pick up the " D .O "." CR>
           <COND (<AND <EQUAL? .O ,CLAPPER> <NOT <FSET? .O ,TOUCHBIT>>>
                  <FSET .O ,TOUCHBIT>
                  <ADD-SCORE 5>)>)>>

<ROUTINE V-DROP (O)
    <COND (<NOT <IN? .O ,PLAYER>> <TELL "You are not holding it." CR>)
          (T <MOVE .O ,HERE> <TELL "You set down the " D .O "." CR>)>>

<ROUTINE V-TOUCH (O)
    <COND (<EQUAL? .O ,CRUCIBLE> <SCALDED>)
          (T <TELL "It feels much as you expected." CR>)>>

<ROUTINE V-PUT (O C)
    <COND (<NOT <IN? .O ,PLAYER>> <TELL "You are not holding the " D .O "." CR>)
          (<NOT <EQUAL? .C ,BELL>> <TELL "That will not hold it." CR>)
          (<NOT <EQUAL? .O ,CLAPPER>> <TELL "It does not belong in a bell." CR>)
          (T
           <MOVE .O .C>
           <SETG HUNG T>
           <TELL "You hook the clapper onto the loop inside the bell. It
swings there, ready." CR>
           <ADD-SCORE 10>)>>

<ROUTINE V-RING (O)
    <COND (<NOT <EQUAL? .O ,BELL>> <TELL "It makes no sound worth hearing." CR>)
          (<NOT ,HUNG> <TELL "You shove the bell. It swings in silence." CR>)
          (T
           <ADD-SCORE 10>
           <TELL "You swing the bell and the clapper strikes. One deep note
rolls over the roofs of the town, and then another, and every window
opens to listen." CR CR>
           <TELL "   ~ the bell has its voice back; the tale rests here ~" CR CR>
           <TELL "You scored " N ,SCORE " of " N ,MAX-SCORE "." CR>
           <QUIT>)>>

<ROUTINE V-JUMP ()
    <COND (<EQUAL? ,HERE ,LOFT> <LEAP>)
          (T <TELL "You hop on the spot." CR>)>>

<ROUTINE PERFORM ("AUX" V I P O C K)
    <SET I 0>
    <REPEAT ()
        <COND (<NOT <L? .I ,NWORDS>> <RETURN>)>
        <COND (<0? <WORD-AT .I>>
               <TELL "That word is new to me." CR>
               <RFALSE>)>
        <SET I <+ .I 1>>>
    <SET V <WORD-AT 0>>
    <COND (<AND <EQUAL? .V ,W?GO ,W?WALK> <G? ,NWORDS 1>>
           <SET V <WORD-AT 1>>
           <SET P <DIR-PROP .V>>
           <COND (<0? .P> <TELL "Which way?" CR> <RFALSE>)>
           <V-GO .P>
           <RTRUE>)>
    <SET P <DIR-PROP .V>>
    <COND (<NOT <0? .P>> <V-GO .P> <RTRUE>)
          (<EQUAL? .V ,W?LOOK ,W?L> <DESCRIBE-ROOM> <RTRUE>)
          (<EQUAL? .V ,W?INVENTORY ,W?I> <V-INVENTORY> <RTRUE>)
          (<EQUAL? .V ,W?SCORE> <V-SCORE> <RTRUE>)
          (<EQUAL? .V ,W?JUMP ,W?LEAP> <V-JUMP> <RTRUE>)
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
           <OBJ-TEXT .O> <RTRUE>)
          (<EQUAL? .V ,W?TOUCH ,W?FEEL>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-TOUCH .O> <RTRUE>)
          (<EQUAL? .V ,W?RING ,W?STRIKE>
           <SET O <FIND-OBJECT 1 ,NWORDS>>
           <COND (<NOT .O> <RFALSE>)>
           <V-RING .O> <RTRUE>)
          (<EQUAL? .V ,W?PUT ,W?HANG>
           <SET K 2>
           <REPEAT ()
               <COND (<NOT <L? .K ,NWORDS>> <SET K 0> <RETURN>)>
               <COND (<EQUAL? <WORD-AT .K> ,W?IN ,W?INTO> <RETURN>)>
               <SET K <+ .K 1>>>
           <COND (<0? .K> <TELL "Put it in what?" CR> <RFALSE>)>
           <SET O <FIND-OBJECT 1 .K>>
           <COND (<NOT .O> <RFALSE>)>
           <SET C <FIND-OBJECT <+ .K 1> ,NWORDS>>
           <COND (<NOT .C> <RFALSE>)>
           <V-PUT .O .C> <RTRUE>)>
    <TELL "That sentence beats me." CR>
    <RFALSE>>

<ROUTINE GO ()
    <PUTB ,READBUF 0 80>
    <PUTB ,LEXBUF 0 12>
    <SETG HERE ,YARD>
    <MOVE ,PLAYER ,HERE>
    <TELL "CLAPPERLESS" CR
          "A tiny test story for zorktui. Release 2." CR CR
          "The town bell has hung dumb since its clapper was taken down for
mending. The mending is done." CR CR>
    <DESCRIBE-ROOM>
    <MAIN-LOOP>>

<ROUTINE MAIN-LOOP ()
    <REPEAT ()
        <CRLF>
        <TELL ">">
        <READ ,READBUF ,LEXBUF>
        <SETG NWORDS <GETB ,LEXBUF 1>>
        <COND (<0? ,NWORDS> <TELL "Say something." CR>)
              (<PERFORM> <SETG MOVES <+ ,MOVES 1>>)>>>
