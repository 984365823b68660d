"""Facts read from Z-machine memory: score, moves, player, location, inventory, surroundings.

Generic rules, no per-game tables:

* Score and moves: the status-line globals. In v3 the Standard fixes them
  (global 1 = score, global 2 = moves, or hours and minutes in a time game);
  Inform 6 and Inform 7 keep the same convention for every version (``sline1``
  and ``sline2`` are set from ``score`` and ``turns`` before each prompt).
  ZIL stories of version 4 on: the globals the game's own "score" prints
  (see ``calibrate.find_status_globals``). Stories from other
  compilers fall back on the numbers in the status line.
* Location: global 0 is the current room (the v3 status line room; Inform's
  ``location``). Inform sets it to a "darkness" object when the player cannot
  see, so the room is then found by climbing the player's parents.
* The player: the object that moves when global 0 changes (found once by
  probing the exits of the first room), else a conventional self name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zorktui.core.turn import ObjectRef
from zorktui.engine.zmachine.printed_names import PrintedNames, plain_name
from zorktui.engine.zmachine.zmachine import ZMachine

_SELF_NAMES = ("yourself", "you", "self", "myself", "me", "player", "cretin", "(self object)", "adventurer")
_STATUS_SCORE = re.compile(r"score:?\s*(-?\d+)", re.I)
_STATUS_MOVES = re.compile(r"(?:moves|turns):?\s*(\d+)", re.I)
_STATUS_PAIR = re.compile(r"(-?\d+)\s*/\s*(\d+)\s*$")
_STATUS_NUMBERS = re.compile(r"(?:(?:score|moves|turns|time):?\s*-?\d+(?::\d+)?\s*|-?\d+\s*/\s*\d+\s*)+$", re.I)


@dataclass(frozen=True)
class Place:
    """Where the player is: the room object, and whether the game says it is dark."""

    room: int
    dark: bool


class FactReader:
    """Reads the facts of the current state from a :class:`ZMachine`.

    Args:
        zm: The memory reader (refreshed by the caller before each read).
        player: The player object number.
    """

    def __init__(self, zm: ZMachine, player: int, room_global: int = 0) -> None:
        self.zm = zm
        self.player = player
        #: The global holding the current room; score and moves follow it.
        self.room_global = room_global
        header = zm.header
        #: Whether globals hold score and moves (``score_global``, ``moves_global``).
        self.status_globals = header.version <= 3 or header.is_inform
        #: The score and moves globals: the two after the room in v3 and Inform;
        #: found by asking the game elsewhere (see ``calibrate.find_status_globals``).
        self.score_global = room_global + 1
        self.moves_global = room_global + 2
        self.time_game = header.status_is_time
        self.known_rooms: set[int] = set()
        self._room_roots: set[int] = set()
        #: Names kept out of the object table (Inform 7), learned from the status line.
        self.printed = PrintedNames(zm)

    @property
    def world_globals(self) -> frozenset[int]:
        """Globals that are the world's however often commands change them: the room and the score."""
        return frozenset((self.room_global, self.score_global))

    def copy_for(self, zm: ZMachine) -> FactReader:
        """The same reader, with what it has learned about rooms so far, over another memory image."""
        other = FactReader(zm, self.player, self.room_global)
        other.status_globals = self.status_globals
        other.score_global, other.moves_global = self.score_global, self.moves_global
        other.known_rooms = set(self.known_rooms)
        other._room_roots = set(self._room_roots)
        other.printed = self.printed.copy_for(zm)
        return other

    def score_and_moves(self, status_text: str = "") -> tuple[int | None, int | None]:
        """The game's score and move counter (None where the story keeps none)."""
        if self.time_game:
            return None, None
        if self.status_globals:
            return self.zm.signed_global(self.score_global), self.zm.global_var(self.moves_global)
        score = moves = None
        m = _STATUS_SCORE.search(status_text)
        if m:
            score = int(m.group(1))
        m = _STATUS_MOVES.search(status_text)
        if m:
            moves = int(m.group(1))
        if score is None:
            pair = _STATUS_PAIR.search(status_text)
            if pair:
                score, moves = int(pair.group(1)), int(pair.group(2))
        return score, moves

    def place(self) -> Place | None:
        """The player's room (None if the player is nowhere, as after some endings)."""
        objects = self.zm.objects
        here = self.zm.global_var(self.room_global)
        chain = objects.ancestors(self.player) if objects.valid(self.player) else []
        if here in chain:
            self.known_rooms.add(here)
            parent = objects.parent(here)
            if parent:
                self._room_roots.add(parent)
            return Place(here, dark=False)
        if not chain:
            if objects.valid(here):
                return Place(here, dark=False)
            return None
        # Global 0 is not among the player's parents: Inform's darkness.
        for obj in chain:
            if obj in self.known_rooms:
                return Place(obj, dark=True)
        top = chain[-1]
        if top in self._room_roots and len(chain) >= 2:
            return Place(chain[-2], dark=True)
        return Place(top, dark=True)

    def room_ref(self, room: int, status_text: str) -> ObjectRef:
        """The room, named from the status line when the object table has no name.

        Inform 7 games keep printed names out of the object table; their status
        line shows the room ("Kitchen   0/1"), which tells which property holds
        them (see :class:`PrintedNames`), and is the fallback.
        """
        name = self.zm.objects.name(room)
        if not name:
            shown = plain_name(_STATUS_NUMBERS.sub("", status_text)) if status_text else ""
            if shown:
                self.printed.learn(room, shown)
            name = self.printed.name(room) or shown
        return ObjectRef(room, name)

    def name(self, obj: int) -> str:
        """The object's name: its short name, else its printed name (Inform 7), else ""."""
        return self.zm.objects.name(obj) or self.printed.name(obj)

    def ref(self, obj: int, parent: int = 0) -> ObjectRef:
        """An object reference with the object's current name."""
        return ObjectRef(obj, self.name(obj), parent)

    def inventory(self) -> tuple[ObjectRef, ...]:
        """What the player carries or wears (direct children of the player).

        Objects whose names are computed by the game (some Inform 7 names) are listed
        by id with an empty name.
        """
        objects = self.zm.objects
        if not objects.valid(self.player):
            return ()
        return tuple(self.ref(o) for o in objects.children(self.player))

    def room_objects(self, room: int, max_depth: int = 3) -> list[int]:
        """Objects in the room's tree, named or not, except the player and what it carries."""
        objects = self.zm.objects
        out: list[int] = []
        skip_below: int | None = None
        for obj, depth in objects.descendants(room, max_depth=max_depth):
            if skip_below is not None:
                if depth > skip_below:
                    continue
                skip_below = None
            if obj == self.player:
                skip_below = depth
                continue
            out.append(obj)
        return out

    def visible(self, room: int, max_depth: int = 3) -> tuple[ObjectRef, ...]:
        """Named objects in the room's tree, except the player and what it carries."""
        parent = self.zm.objects.parent
        named = ((obj, self.name(obj)) for obj in self.room_objects(room, max_depth))
        return tuple(ObjectRef(obj, name, parent(obj)) for obj, name in named if name)


def self_named_object(zm: ZMachine, near: int) -> int:
    """Find the player by its conventional name, preferring objects near ``near``.

    Args:
        zm: The memory reader.
        near: The room the player is believed to be in (global 0).

    Returns:
        An object number, or 0 when nothing looks like the player.
    """
    objects = zm.objects
    candidates = []
    for obj in range(1, objects.count + 1):
        name = objects.name(obj).strip().lower()
        if name in _SELF_NAMES:
            rank = _SELF_NAMES.index(name)
            candidates.append((0 if near in objects.ancestors(obj) else 1, rank, obj))
    return min(candidates)[2] if candidates else 0


def moved_object(zm: ZMachine, before: dict[int, int], new_room: int) -> int:
    """The object that followed a change of room: the player.

    Args:
        zm: The memory reader, refreshed after the move.
        before: Parent of each candidate object before the move.
        new_room: Global 0 after the move.

    Returns:
        The moved object nearest to the new room, or 0.
    """
    objects = zm.objects
    moved = []
    for obj, old_parent in before.items():
        chain = objects.ancestors(obj)
        if new_room in chain and objects.parent(obj) != old_parent:
            moved.append((chain.index(new_room), obj))
    return min(moved)[1] if moved else 0
