"""Ways out of every room as of one turn: walked, likely back, accepted, mentioned, blocked.

One query reads the engine's way facts; the rest is worked out here:

* a walked exit ``A -d-> B`` makes the opposite of ``d`` from ``B`` the likely
  way back to ``A``, until that direction is tried from ``B`` or ``B`` is
  known to lead back to ``A`` some other way;
* a walked exit is one-way only when proven: from ``B`` the opposite
  direction was tried and led elsewhere (or nowhere), and no known exit of
  ``B`` leads back to ``A``;
* walks (the "path to" answer) go over walked exits and likely ways back,
  preferring walked ones.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import count

from zorktui.engine.directions import OPPOSITE, ORDER
from zorktui.memory.graph import Memory
from zorktui.memory.schema import ACCEPTS, BLOCKED, EXIT, LEADS

#: What a likely way back costs a walk, against 1 for a walked exit: a walked route of
#: the same length is preferred, a much longer one is not.
LIKELY_COST = 1.25

_RANK = {d: i for i, d in enumerate(ORDER)}


def by_order(directions: Iterable[str]) -> list[str]:
    """Directions in the order people list them (compass first), others after by name."""
    return sorted(set(directions), key=lambda d: (_RANK.get(d, len(_RANK)), d))


@dataclass
class RoomWays:
    """The ways out of one room.

    Attributes:
        id, name: The room.
        exits: Walked exits still believed: direction (or command) -> room id.
        blocked: Directions tried that went nowhere (and not accepted since).
        accepted: Directions the latest valid actions here hold, not walked yet.
        mentioned: Directions the game's text points to, never tried.
        tried: Every direction ever walked or found blocked here.
        back: Likely ways back, not walked yet: direction -> room id.
        since: The turn each walked exit was learned.
    """

    id: str
    name: str
    exits: dict[str, str] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)
    accepted: set[str] = field(default_factory=set)
    mentioned: set[str] = field(default_factory=set)
    tried: set[str] = field(default_factory=set)
    back: dict[str, str] = field(default_factory=dict)
    since: dict[str, int] = field(default_factory=dict)

    def open_ways(self) -> list[str]:
        """Ways nobody has taken: accepted ones first, then mentioned ones (the way back left out)."""
        accepted = [d for d in by_order(self.accepted) if d not in self.exits and d not in self.back]
        mentioned = [d for d in by_order(self.mentioned - self.tried) if d not in accepted and d not in self.back]
        return accepted + mentioned


@dataclass
class WayMap:
    """The ways out of every room known at one turn."""

    rooms: dict[str, RoomWays]

    def room(self, rid: str) -> RoomWays:
        """The ways of a room (empty when nothing is known of it)."""
        return self.rooms.get(rid) or RoomWays(rid, rid)

    def one_way(self, a: str, direction: str, b: str) -> bool:
        """Whether the walked exit ``a -direction-> b`` is proven to have no way back."""
        there = self.room(b)
        if a in there.exits.values():
            return False
        opposite = OPPOSITE.get(direction)
        if opposite is None:
            return False
        return (opposite in there.exits and there.exits[opposite] != a) or opposite in there.blocked

    def walks(self, start: str) -> dict[str, tuple[str, ...]]:
        """The cheapest walk from ``start`` to every room reached, over walked exits and likely ways back."""
        best: dict[str, float] = {start: 0.0}
        walks: dict[str, tuple[str, ...]] = {start: ()}
        tie = count()
        queue: list[tuple[float, int, str]] = [(0.0, next(tie), start)]
        while queue:
            cost, _, here = heapq.heappop(queue)
            if cost > best.get(here, float("inf")):
                continue
            ways = self.room(here)
            steps = [(d, r, 1.0) for d, r in ways.exits.items()] + [(d, r, LIKELY_COST) for d, r in ways.back.items()]
            for direction, there, step in sorted(steps, key=lambda s: (_RANK.get(s[0], len(_RANK)), s[0])):
                total = cost + step
                if total < best.get(there, float("inf")) - 1e-9:
                    best[there] = total
                    walks[there] = walks[here] + (direction,)
                    heapq.heappush(queue, (total, next(tie), there))
        return walks

    def likely_steps(self, start: str, walk: tuple[str, ...]) -> list[int]:
        """Which steps of a walk from ``start`` (by index) take a likely way back nobody has walked."""
        out: list[int] = []
        here = start
        for i, direction in enumerate(walk):
            ways = self.room(here)
            if direction in ways.exits:
                here = ways.exits[direction]
            else:
                out.append(i)
                here = ways.back.get(direction, here)
        return out


def way_map(memory: Memory, t: int) -> WayMap:
    """Read the ways out of every room at turn ``t`` (one query).

    Args:
        memory: The session memory (flushed by the caller's ``turn_of``).
        t: The turn.
    """
    rows = memory.store.rows(
        "MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.relation IN [$exit, $blocked, $accepts, $leads]"
        " AND f.source = 'engine' AND f.valid_from <= $t AND a.kind = 'room'"
        " RETURN a.id, a.name, f.relation, f.detail, b.id, f.valid_to > $t, f.valid_from ORDER BY f.valid_from, f.key",
        {"exit": EXIT, "blocked": BLOCKED, "accepts": ACCEPTS, "leads": LEADS, "t": t},
    )
    rooms: dict[str, RoomWays] = {}
    arrivals: list[tuple[str, str, str]] = []
    for rid, name, relation, detail, to, holds, since in rows:
        ways = rooms.setdefault(rid, RoomWays(rid, name))
        if relation in (EXIT, BLOCKED):
            ways.tried.add(detail)
        if not holds:
            continue
        if relation == EXIT:
            ways.exits[detail] = to
            ways.since[detail] = int(since)
            arrivals.append((rid, detail, to))
        elif relation == BLOCKED:
            ways.blocked.add(detail)
        elif relation == ACCEPTS:
            ways.accepted.add(detail)
        elif relation == LEADS:
            ways.mentioned.add(detail)
    found = WayMap(rooms)
    for a, direction, b in arrivals:  # oldest first: the latest arrival's way back wins a tie
        opposite = OPPOSITE.get(direction)
        there = found.room(b)
        if opposite is None or opposite in there.exits or opposite in there.blocked or a in there.exits.values():
            continue
        rooms.setdefault(b, there).back[opposite] = a
    return found
