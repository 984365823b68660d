"""The offline explorer: a game-agnostic policy that needs no model.

In order of preference: a mentioned but untried exit from here; a direction
that failed here once but is a valid action now (a door was opened); picking up
things; opening things; any other untried valid action; the walk towards the
nearest room with an unexplored exit; the walk back to the nearest room whose
valid actions, when last seen, held one never tried; an untried compass direction (one the
valid actions include, when they are known); and as a
last resort the valid action tried least here. Nothing known to have done
nothing here is repeated, and nothing refused for this turn is suggested again.
"""

from __future__ import annotations

from zorktui.agent.playlog import normal
from zorktui.agent.proposal import Idea
from zorktui.agent.safety import presentation_only
from zorktui.agent.situation import Situation
from zorktui.engine.directions import COMMON, direction_of

_TAKE = ("take ", "get ", "pick up ")
_OPEN = ("open ", "unlock ")
#: Verbs explored after the rest: they rarely help and often hurt, or undo what was just done
#: (closing the door just opened, putting out the lamp just lit).
_LAST = ("put ", "throw ", "eat ", "drink ", "attack ", "kill ", "break ", "burn ",
         "close ", "lock ", "shut ", "extinguish ", "blow out ", "douse ", "switch off ", "turn off ")
#: Verbs the explorer never picks on its own: dropping things undoes collecting them.
_NEVER = ("drop ", "discard ")


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

    def _left_in(self, situation: Situation, room_id: int, anywhere: set[str]) -> list[str]:
        """Commands a room last offered that were never typed there nor anywhere else (moves aside)."""
        tried = set(situation.log.tried_here(room_id)) | self._refused.get(room_id, set())
        return [a for a in self._offered.get(room_id, ())
                if normal(a) not in tried and normal(a) not in anywhere and direction_of(a) is None
                and not normal(a).startswith(_NEVER + _LAST) and not presentation_only(a)]

    def suggest(self, situation: Situation) -> Idea:
        """The next command, with a one-line reason as its reflection."""
        log = situation.log
        if situation.valid_actions is not None and situation.room_id:
            self._offered[situation.room_id] = situation.valid_actions
        self._refused.setdefault(situation.room_id, set()).update(normal(c) for c in situation.refused)
        refused = {normal(c) for c in situation.refused}
        tried = set(log.tried_here(situation.room_id))
        useless = log.useless_here(situation.room_id)
        avoid = refused | useless
        valid = [a for a in (situation.valid_actions or ()) if normal(a) not in avoid and not presentation_only(a)]
        untried = [a for a in valid if normal(a) not in tried and not normal(a).startswith(_NEVER)]
        blocked = set(situation.map.blocked)

        def idea(command: str, why: str, objective: str) -> Idea:
            return Idea(command=command, source=self.name, reflection=why, objective=objective)

        for d in situation.map.mentioned:
            if d not in tried and d not in avoid and d not in blocked:
                return idea(d, f"The way {d} was mentioned but never tried.", "explore unexplored exits")
        # A way that was shut before but is a valid action now (a door was opened): once more.
        now_valid = {normal(a) for a in situation.valid_actions or ()}
        for d, failures in log.failed_moves_here(situation.room_id).items():
            if failures < 2 and d in now_valid and d not in refused:
                return idea(d, f"Going {d} failed before, but it looks possible now.", "explore unexplored exits")
        for prefixes, why, goal in ((_TAKE, "Pick up what can be carried.", "collect useful things"),
                                    (_OPEN, "Open what can be opened.", "look inside things")):
            for a in untried:
                if normal(a).startswith(prefixes):
                    return idea(a, why, goal)
        # Commands never typed anywhere come first; ones already typed elsewhere (switching a lamp
        # on and off in every room) wait until the map has nothing new to offer.
        anywhere = {normal(c.command) for c in log.consequences}
        fresh = [a for a in untried if normal(a) not in anywhere or direction_of(a) is not None]
        stale = [a for a in untried if a not in fresh]
        for a in sorted(fresh, key=lambda a: (normal(a).startswith(_LAST), direction_of(a) is None)):
            if direction_of(a) is None or direction_of(a) not in blocked:
                return idea(a, "Not tried here yet and it changes something.", "try everything in reach")
        ids = {name: rid for rid, name in log.rooms_seen().items()}
        for room, directions, path in situation.map.frontiers:
            # Not towards exits refused there (a locked door the critic will not let it try).
            if set(directions) <= self._refused.get(ids.get(room, -1), set()):
                continue
            if path and normal(path[0]) not in avoid:
                return idea(path[0], f"Heading to {room}, which has untried exits ({', '.join(directions)}).",
                            f"reach {room}")
        # Back to the nearest room that offered something never tried (the things
        # in a kitchen passed through on the way to exits mentioned elsewhere).
        for room_id, path in sorted(situation.map.walks.items(), key=lambda kv: len(kv[1])):
            if path and room_id != situation.room_id and normal(path[0]) not in avoid:
                left = self._left_in(situation, room_id, anywhere)
                if left:
                    room = log.rooms_seen().get(room_id, "a room seen before")
                    return idea(path[0], f"Heading back to {room} to try {left[0]}.", f"try {left[0]} in {room}")
        # Untried compass directions, when nothing says whether they lead anywhere: a valid-action
        # search plays every direction, so one missing from its list goes nowhere from here (and
        # proposing it anyway only hands the turn to the critic's pick).
        guesses = [d for d in COMMON if situation.valid_actions is None or d in now_valid]
        for d in guesses:
            if d not in tried and d not in avoid and d not in blocked and d not in situation.map.exit_directions:
                return idea(d, f"Trying {d}, never tried here.", "find new exits")
        for a in stale:
            return idea(a, "Tried elsewhere, not here yet.", "try everything in reach")
        counts = {normal(c.command): 0 for c in log.here(situation.room_id)}
        for c in log.here(situation.room_id):
            counts[normal(c.command)] += 1
        leftovers = ([a for a in valid if not normal(a).startswith(_NEVER)] or list(situation.map.exit_directions)
                     or list(situation.valid_actions or ()))
        if leftovers:
            choice = min(leftovers, key=lambda a: (counts.get(normal(a), 0), a))
            return idea(choice, "Everything obvious was tried; the least-tried action.", "get unstuck")
        return idea("look", "Nothing else to try: look around again.", "get unstuck")
