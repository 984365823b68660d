"""The offline explorer: a game-agnostic policy that needs no model.

At a question the story asks away from its prompt, an answer it offers.
Otherwise, in order of preference: in the dark, what the look-ahead saw end
the dark (with nothing, back the way in); opening a thing just unlocked;
picking up things; a way out of here nobody has
taken (one the valid actions hold, then one the text points to; never the
way back), lighting a light carried and never lit before it; opening things; a way that
failed here once but is a valid action now (a door was opened); any other
untried valid action that undoes nothing; the walk towards the nearest room
with a way nobody has taken; the walk back to the nearest room whose valid
actions, when last seen, held one never tried; the rest of the untried valid
actions; an untried compass direction (one the valid actions include, when
they are known); commands tried elsewhere but not here; the walk to the room
seen longest ago; and as a last resort the valid action tried least here,
a way on before the way back. Nothing known to have done nothing here is
repeated, nothing refused for this turn is suggested again, and nothing that
puts out a light, closes, locks or drops a thing is chosen on its own.
"""

from __future__ import annotations

from zorktui.agent.playlog import DROP, LIGHT_UP, PUT_OUT, TAKE, PlayLog, normal
from zorktui.agent.proposal import Idea
from zorktui.agent.safety import presentation_only
from zorktui.agent.situation import Situation
from zorktui.engine.directions import COMMON, OPPOSITE, direction_of

#: The objective of a drop that makes room for a thing the load kept out of reach.
MAKING_ROOM = "make room"
_OPEN = ("open ", "unlock ")
#: Verbs explored after the map: they rarely help and often hurt (cutting the portrait that was
#: the treasure), or undo what was just done (closing the door just opened); a bare "switch" or
#: "turn" flips a device either way.
_LAST = ("put ", "transfer ", "throw ", "eat ", "drink ", "attack ", "kill ", "break ", "burn ", "insert ", "switch ",
         "cut ", "destroy ", "tear ", "rip ")
#: Verbs the explorer never picks on its own: dropping things undoes collecting them, closing
#: and locking undo opening (a door shut behind it cuts the map in two), and putting out a
#: light (however the game words it) leaves it in the dark.
_NEVER = DROP + ("close ", "shut ", "lock ") + PUT_OUT


def _carried_words(situation: Situation) -> set[str]:
    """Words of the names of the things the player carries."""
    return {w for o in situation.turn.inventory for w in o.name.lower().split()}


def _only_about(command: str, carried: set[str]) -> bool:
    """Whether every word after a command's verb names something carried ("shake bottle")."""
    words = [w for w in normal(command).split()[1:] if w not in ("on", "off", "up", "the", "a", "with", "in", "to")]
    return bool(words) and all(w in carried for w in words)


#: Turns a command refused in a world state stays refused when that state comes back.
_REFUSALS_KEPT = 8
#: A room seen within this many turns is no goal for a walk once the map is spent.
_STALE = 8
#: A thing picked up within this many moves is put down to make room only when nothing older can go.
_FRESH = 5
#: Things put down at most to make room for one thing.
_ROOM_MADE_AT_MOST = 2
#: Walks up to this long count as "nearby" when a way down waits for the ways on this level.
_NEAR = 6


def came_from(log: PlayLog) -> str | None:
    """The direction straight back, when the last command walked here by a direction."""
    if not log.consequences:
        return None
    last = log.consequences[-1]
    direction = direction_of(last.command) if last.moved_to else None
    return OPPOSITE.get(direction) if direction else None


class Explorer:
    """Explores without a model; deterministic for a given situation and what it has seen."""

    name = "explore"

    def __init__(self) -> None:
        # The valid actions last offered in each room (by object number): what a
        # room still has to try once the explorer has walked on.
        self._offered: dict[int, tuple[str, ...]] = {}
        # Commands refused in each room (the critic's veto on jumping off a cliff):
        # no reason to walk back there.
        self._refused: dict[int, set[str]] = {}
        # Commands other than ways refused anywhere (eating a thing refused once is refused elsewhere).
        self._refused_anywhere: set[str] = set()
        # Commands refused in each world state (by its hash), with the turn: back in the same state
        # soon after, the critic would refuse them again (a way out of a trap it will not let the
        # player take). Kept a few turns only: a fingerprint leaves timers out, so a state that
        # looks the same later may not be (frozen by a spell, then free again).
        self._refused_in_state: dict[str, dict[str, int]] = {}
        # Ways refused recently, by (room, direction), with the turn: a walk through that room that
        # way would be refused on the way (a frontier behind a trap's shut door).
        self._ways_refused: dict[tuple[int, str], int] = {}
        # The last idea given: (turn, state hash, room, command). When the next turn played
        # something else, the idea was refused after the last question (the critic's third veto,
        # the person's own command): it counts as refused in that state.
        self._last_idea: tuple[int, str, int, str] | None = None
        # Ways that led into the dark with nothing to light, by (room, direction), with what was
        # carried then: not taken again until the player carries something else (a light, maybe).
        self._dark_ways: dict[tuple[int, str], frozenset[int]] = {}
        # Things put down to make room for another (as the drop named them): not picked up again,
        # which would only swap one load for the other to and fro.
        self._left_behind: set[str] = set()
        # Things put down for each take the load refused: a take still refused after a couple
        # wants more than room (a story may say "load" of a thing too big for any load).
        self._made_room: dict[str, int] = {}
        # The room being walked to once the map is spent.
        self._goal: int | None = None
        # The room being walked back to for something left to try there: kept until reached, so
        # two errands in opposite directions do not pull it to and fro.
        self._errand: int | None = None

    def overruled(self) -> None:
        """The last idea was set aside by the caller, not refused: it tells nothing about the state."""
        self._last_idea = None

    def _was_left(self, take: str) -> bool:
        """Whether a take names a thing put down to make room for another."""
        thing = _taken_thing(take)
        return thing is not None and any(_same_thing(thing, left) or _same_thing(left, thing)
                                         for left in self._left_behind)

    def _worth_taking(self, command: str, banked: set[str]) -> bool:
        """Whether a command is no take of a thing left to make room or put away for points (any other command is)."""
        thing = _taken_thing(command)
        if thing is None:
            return True
        return not self._was_left(command) and not any(_same_thing(thing, b) for b in banked)

    def _left_in(self, situation: Situation, room_id: int, anywhere: set[str]) -> list[str]:
        """Commands a room last offered that were never typed there nor anywhere else (moves aside).

        Not those on offer here too, nor those about things carried: they need no walk.
        """
        tried = set(situation.log.tried_here(room_id)) - situation.log.changed_since(room_id)
        tried |= self._refused.get(room_id, set())
        here = {normal(a) for a in situation.valid_actions or ()}
        carried = _carried_words(situation)
        banked = situation.log.banked()
        return [a for a in self._offered.get(room_id, ())
                if self._worth_taking(a, banked)
                and normal(a) not in tried and normal(a) not in anywhere and normal(a) not in here
                and normal(a) not in self._refused_anywhere
                and direction_of(a) is None and not _only_about(a, carried)
                and not normal(a).startswith(_NEVER + _LAST) and not presentation_only(a)]

    def suggest(self, situation: Situation) -> Idea:
        """The next command, with a one-line reason as its reflection."""
        log = situation.log
        if situation.valid_actions is not None and situation.room_id:
            self._offered[situation.room_id] = situation.valid_actions
        self._refused.setdefault(situation.room_id, set()).update(normal(c) for c in situation.refused)
        self._refused_anywhere.update(normal(c) for c in situation.refused if direction_of(c) is None)
        refused = {normal(c) for c in situation.refused}
        now = situation.turn.turn
        if self._last_idea is not None and self._last_idea[0] == now - 1 \
                and normal(situation.turn.command or "") != self._last_idea[3]:
            turn, state, where, command = self._last_idea
            self._refused_in_state.setdefault(state, {})[command] = turn
            if direction_of(command):
                self._ways_refused[(where, direction_of(command) or command)] = turn
        in_state = self._refused_in_state.setdefault(situation.turn.key, {})
        in_state.update(dict.fromkeys(refused, now))
        refused_before = {c for c, when in in_state.items() if now - when <= _REFUSALS_KEPT} - refused
        for said in refused:
            if direction_of(said):
                self._ways_refused[(situation.room_id, direction_of(said) or said)] = now
        # Rooms along each known walk, by the walk's first steps (the walks are a shortest-path tree).
        along = {path: rid for rid, path in situation.map.walks.items()}
        carrying = frozenset(o.id for o in situation.turn.inventory)

        def refused_on_the_way(path: tuple[str, ...]) -> bool:
            for k, step in enumerate(path):
                at = situation.room_id if k == 0 else along.get(tuple(path[:k]))
                way = (at or -1, direction_of(step) or normal(step))
                when = self._ways_refused.get(way)
                if (when is not None and now - when <= _REFUSALS_KEPT) or self._dark_ways.get(way) == carrying:
                    return True
            return False
        # What did nothing here with a thing changed since (the flask filled) is worth another try.
        tried = set(log.tried_here(situation.room_id)) - log.changed_since(situation.room_id)
        useless = log.useless_here(situation.room_id)
        # Things refused here on an earlier turn (the critic's look-ahead saw them lose something)
        # are not proposed again (a way refused then may be open now: a door was unlocked).
        earlier = {c for c in self._refused.get(situation.room_id, set()) if direction_of(c) is None}
        into_dark = {d for (rid, d), held in self._dark_ways.items() if rid == situation.room_id and held == carrying}
        avoid = refused | useless | earlier | refused_before | into_dark
        valid = [a for a in (situation.valid_actions or ()) if normal(a) not in avoid and not presentation_only(a)]
        # A pair of commands seen to undo each other (on and off) is nothing new in any room.
        undone = log.undone()
        # Never a thing whose putting away earned points (a treasure in its case), nor one left to make room.
        banked = log.banked()
        untried = [a for a in valid if normal(a) not in tried | undone and not normal(a).startswith(_NEVER)
                   and self._worth_taking(a, banked)]
        blocked = set(situation.map.blocked)
        failed = log.failed_moves_here(situation.room_id)
        walked = set(situation.map.exit_directions)
        # The memory knows the likely ways back; without one, the way the last move came in.
        back = set(situation.map.back) if situation.map.rooms else {came_from(log)} - {None}

        def idea(command: str, why: str, objective: str) -> Idea:
            self._last_idea = (now, situation.turn.key, situation.room_id, normal(command))
            return Idea(command=command, source=self.name, reflection=why, objective=objective)

        if situation.turn.question:
            # The story waits for an answer: only one it offers will do (never a way to walk); those
            # that would end the story come last among them.
            answers = [a for a in situation.valid_actions or () if normal(a) not in refused] or ["no", "yes"]
            return idea(answers[0], "The story asks a question: answer it.", situation.objective or "answer the question")
        if situation.turn.dark:
            # Lit here before or not, the light is out now: what the look-ahead saw end the dark, else a lighting verb.
            lighting = [a for a in situation.lighting if normal(a) not in avoid]
            for a in lighting or [a for a in valid if normal(a).startswith(LIGHT_UP)]:
                return idea(a, "It is dark here: light what can be lit.", "see where you are")
            # Nothing to light: onward in the dark is where stories hide their grues and pits; the
            # way in is the one way known to lead somewhere that could be seen.
            way_back = came_from(log)
            if way_back and way_back not in refused:
                way_in = OPPOSITE.get(way_back)
                before = log.turns[-2].location if len(log.turns) >= 2 else None
                if way_in and before is not None:
                    self._dark_ways[(before.id, way_in)] = carrying
                return idea(way_back, "It is dark here and nothing gives light: back the way in.", "find a light")
        # A thing just unlocked is opened next, before any walk away from it (a grate, a door).
        last = log.consequences[-1] if log.consequences else None
        if last is not None and last.changed and normal(last.command).startswith("unlock "):
            unlocked = normal(last.command)[len("unlock "):].split(" with ")[0]
            for a in valid:
                if normal(a).startswith("open ") and unlocked in normal(a):
                    return idea(a, f"The {unlocked} is unlocked: open it.", situation.objective or "get through")
        # What was carried once and is within reach again (dropped by a death, lost in the water)
        # comes back first, tried here or not: a light left behind sends every later step into the dark.
        for a in valid:
            thing = _taken_thing(a)
            if thing and any(_same_thing(thing, had) for had in log.carried_once()) and self._worth_taking(a, banked):
                return idea(a, f"Pick up the {thing} again: it was carried before.", "collect useful things")
        for a in untried:
            if normal(a).startswith(TAKE) and self._worth_taking(a, banked):
                return idea(a, "Pick up what can be carried.", "collect useful things")
        # A thing here the game will not let the player take for what is carried already (the
        # sword in a living room reached with arms full of leaves and nests): leave the least
        # used thing here to make room.
        wanted = [c for c in situation.blocked_takes if normal(c) not in avoid and not self._was_left(c)
                  and self._made_room.get(normal(c), 0) < _ROOM_MADE_AT_MOST]
        if wanted:
            drop = to_leave(situation, valid)
            if drop is not None:
                self._left_behind.add(_dropped_thing(drop))
                self._made_room[normal(wanted[0])] = self._made_room.get(normal(wanted[0]), 0) + 1
                return idea(drop, f"Too much carried to {normal(wanted[0])}: leave the {_dropped_thing(drop)} here.",
                            MAKING_ROOM)
        # Ways on: the game accepts them (or its text points there) and nobody has taken them.
        # Without a memory, the valid actions' directions not typed here stand in for them.
        offered = list(situation.map.accepted) + list(situation.map.mentioned)
        if not situation.map.exits and not offered:
            offered = [d for a in untried if (d := direction_of(a))]
        # A way down (a trap door, a chute, a slide) is often one-way: it waits while a way on
        # this level is still open nearby.
        ids = {name: rid for rid, name in log.rooms_seen().items()}

        def still_open(room: str, directions: tuple[str, ...]) -> bool:
            # Not towards exits refused there (a locked door the critic will not let it try), nor
            # towards ways already typed there: the memory keeps no way that leads back into the
            # same room (a maze kept as one room object), so it goes on calling them unwalked.
            rid = ids.get(room, -1)
            return not set(directions) <= self._refused.get(rid, set()) | set(log.tried_here(rid))

        frontiers = [f for f in situation.map.frontiers if still_open(f[0], f[1]) and not refused_on_the_way(f[2])]
        level = [f for f in frontiers if set(f[1]) - {"down"} and len(f[2]) <= _NEAR]
        # Commands typed anywhere before: opening a bottle carried from room to room is no news.
        anywhere = {normal(c.command) for c in log.consequences}
        carried = _carried_words(situation)
        # A light carried and never lit is lit before a way nobody has walked: the room beyond may
        # be dark (a cellar below a trap door), and the search cannot see past a grue.
        light_first = next((a for a in valid if normal(a).startswith(LIGHT_UP) and _only_about(a, carried)
                            and normal(a) not in anywhere), None)
        for d in offered:
            if d not in tried and d not in avoid and d not in blocked and d not in walked and d not in back \
                    and not failed.get(d) and not (d == "down" and level):
                if light_first is not None:
                    return idea(light_first, f"Light it before the way {d}: the room beyond may be dark.",
                                "see where you go")
                return idea(d, f"The way {d} has not been walked yet.", "explore unexplored exits")
        for a in untried:
            if normal(a).startswith(_OPEN) and normal(a) not in anywhere:
                return idea(a, "Open what can be opened.", "look inside things")
        # A way that was shut before but is a valid action now (a door was opened): once more.
        now_valid = {normal(a) for a in situation.valid_actions or ()}
        for d, failures in failed.items():
            if failures < 2 and d in now_valid and d not in refused and d not in walked:
                return idea(d, f"Going {d} failed before, but it looks possible now.", "explore unexplored exits")
        # Things to do with what is in this room, never typed anywhere; what only concerns
        # things carried can be done anywhere, so it waits until the map is spent.
        actions = [a for a in untried if direction_of(a) is None]
        for a in actions:
            if normal(a) not in anywhere and not normal(a).startswith(_LAST) and not _only_about(a, carried):
                return idea(a, "Not tried here yet and it changes something.", "try everything in reach")
        for room, directions, path in sorted(frontiers, key=lambda f: (not (set(f[1]) - {"down"}), len(f[2]))):
            if path and normal(path[0]) not in avoid:
                return idea(path[0], f"Heading to {room}, which has ways not walked yet ({', '.join(directions)}).",
                            f"reach {room}")
        # Back to the nearest room that offered something never tried (the things
        # in a kitchen passed through on the way to exits mentioned elsewhere).
        if self._errand == situation.room_id:
            self._errand = None
        errands = sorted(situation.map.walks.items(), key=lambda kv: (kv[0] != self._errand, len(kv[1])))
        for room_id, path in errands:
            if path and room_id != situation.room_id and normal(path[0]) not in avoid \
                    and not refused_on_the_way(path):
                left = self._left_in(situation, room_id, anywhere)
                if left:
                    self._errand = room_id
                    room = log.rooms_seen().get(room_id, "a room seen before")
                    return idea(path[0], f"Heading back to {room} to try {left[0]}.", f"try {left[0]} in {room}")
        # The rest never typed anywhere (the risky and undoing verbs too), one refusal a turn at
        # most: a critic that refused one "put X in Y" refuses its cousins, and three refusals
        # hand the turn to its own pick.
        if not refused:
            for a in actions:
                if normal(a) not in anywhere and normal(a) not in self._refused_anywhere:
                    return idea(a, "Not tried here yet and it changes something.", "try everything in reach")
        # Untried compass directions, when nothing says whether they lead anywhere: a valid-action
        # search plays every direction, so one missing from its list goes nowhere from here (and
        # proposing it anyway only hands the turn to the critic's pick).
        guesses = [d for d in COMMON if situation.valid_actions is None or d in now_valid]
        for d in guesses:
            if d not in tried and d not in avoid and d not in blocked and d not in walked and d not in back:
                return idea(d, f"Trying {d}, never tried here.", "find new exits")
        if not refused:
            for a in actions:
                if not normal(a).startswith(_LAST) and normal(a) not in self._refused_anywhere:
                    return idea(a, "Tried elsewhere, not here yet.", "try everything in reach")
        # The map is spent: walk to the room seen longest ago rather than pace between two
        # (a new look there may find what changed since).
        # Once chosen, the room is walked to (a refusal on the way picks another, not the reverse).
        last_seen = {t.location.id: i for i, t in enumerate(log.turns) if t.location}
        # Not straight back to the room just left when it was seen a few turns ago: in a corner of
        # the map (a trap, a dead end behind a refused way) that only paces between two rooms; the
        # leftovers below may find the way out.
        recent = len(log.turns) - _STALE
        previous = next((t.location.id for t in reversed(log.turns[:-1])
                         if t.location and t.location.id != situation.room_id), None)
        far = [(rid != self._goal, last_seen.get(rid, -1), rid, path) for rid, path in situation.map.walks.items()
               if path and rid != situation.room_id and normal(path[0]) not in avoid and not refused_on_the_way(path)
               and not (rid == previous and len(path) == 1 and last_seen.get(rid, -1) >= recent)]
        if far:
            _, _, rid, path = min(far)
            self._goal = rid
            room = log.rooms_seen().get(rid, "a room seen before")
            return idea(path[0], f"Nothing new here: walking to {room}, the room seen longest ago.", f"revisit {room}")
        counts = {normal(c.command): 0 for c in log.here(situation.room_id)}
        for c in log.here(situation.room_id):
            counts[normal(c.command)] += 1
        # Not what flips a device typed anywhere before (a lamp switched in every room it reaches).
        leftovers = ([a for a in valid if not normal(a).startswith(_NEVER)
                      and not (normal(a).startswith(_LAST) and normal(a) in anywhere)] or list(walked)
                     or list(situation.valid_actions or ()))
        if leftovers:
            # A way on before the way back, then the least tried.
            choice = min(leftovers, key=lambda a: (direction_of(a) in back, counts.get(normal(a), 0), a))
            return idea(choice, "Everything obvious was tried; the least-tried action.", "get unstuck")
        return idea("look", "Nothing else to try: look around again.", "get unstuck")


def _taken_thing(command: str) -> str | None:
    """The thing a take command names ("lamp" of "take lamp", "key" of "take key from box"), else None."""
    said = normal(command)
    for verb in TAKE:
        if said.startswith(verb):
            return said[len(verb):].split(" from ")[0].strip() or None
    return None


def _dropped_thing(command: str) -> str:
    """The thing a drop command names ("sword" of "drop sword")."""
    said = normal(command)
    verb = next((v for v in DROP if said.startswith(v)), "")
    return said[len(verb):].strip()


def to_leave(situation: Situation, valid: list[str] | tuple[str, ...]) -> str | None:
    """The drop of the carried thing least worth keeping, to make room for another (None: nothing to leave).

    Never a light (one lit, or one a valid action here would light) nor a thing whose taking
    scored; then the thing named in fewest commands, typed or on offer here, other than taking,
    dropping and the risky verbs (a pile of leaves nothing is done with, before a bottle that
    opens); then the one picked up last, but not one picked up in the last few moves.
    """
    log = situation.log
    lights = situation.lights()
    lit_here = " ".join(normal(a) for a in situation.valid_actions or () if normal(a).startswith(LIGHT_UP))
    said = [normal(c.command) for c in log.consequences if not normal(c.command).startswith(TAKE + DROP)]
    said += [normal(a) for a in situation.valid_actions or () if not normal(a).startswith(TAKE + DROP + _LAST)]
    scored = {name for c in log.consequences if c.reward > 0 for name in c.gained}
    taken_at = {name: i for i, c in enumerate(log.consequences) for name in c.gained}
    options = []
    for a in valid:
        if not normal(a).startswith(DROP) or " in " in normal(a) or " on " in normal(a):
            continue
        thing = _dropped_thing(a)
        held = next((o for o in situation.turn.inventory if _same_thing(thing, o.name)), None)
        if held is None or held.id in lights or f" {thing}" in f" {lit_here}" \
                or any(_same_thing(thing, name) for name in scored):
            continue
        uses = sum(1 for c in said if f" {thing}" in f" {c}")
        taken = max((i for name, i in taken_at.items() if _same_thing(thing, name)), default=-1)
        # Not what was picked up a moment ago while older things can go: taking the screwdriver
        # only to put it down for the wrench is two moves for nothing.
        fresh = taken >= len(log.consequences) - _FRESH
        options.append((fresh, uses, -taken, a))
    return min(options)[3] if options else None


def _same_thing(named: str, carried: str) -> bool:
    """Whether a command's name for a thing and a carried thing's printed name are the same thing."""
    carried = carried.lower()
    return named == carried or carried.endswith(" " + named) or named.endswith(" " + carried)
