"""The map as the memory knows it, laid out on a compass grid around the player.

Rooms are placed breadth-first from the current room: each compass exit puts
its neighbour one cell that way (further along if the cell is taken). Up,
down, in, out and other movement commands have no compass place; their rooms
go to a free cell nearby and the link is listed rather than drawn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from zorktui.engine.directions import GRID_OFFSET, OPPOSITE, direction_of
from zorktui.memory.graph import Memory
from zorktui.memory.queries import all_exits, rooms, turn_of, where_am_i
from zorktui.memory.schema import AT, IS, PLAYER, state_id
from zorktui.memory.ways import by_order, way_map


@dataclass
class MapRoom:
    """A room on the map.

    Attributes:
        id: Entity id.
        name: Room name.
        col, row: Grid cell (row grows southwards).
        current: The player is here.
        dark: The room was dark when last seen.
        up, down: It has a known way up / down (walked or the likely way back).
        unexplored: Ways nobody has taken: those the game accepts, then those its text points to.
        blocked: Directions tried that went nowhere.
    """

    id: str
    name: str
    col: int = 0
    row: int = 0
    current: bool = False
    dark: bool = False
    up: bool = False
    down: bool = False
    unexplored: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)


@dataclass
class MapLink:
    """A learned exit between two rooms.

    Attributes:
        a, b: From and to room ids.
        direction: Direction or command from ``a``.
        back: The direction from ``b`` back to ``a``, when it was walked.
        likely_back: The opposite direction, the likely way back while nobody has walked it.
        one_way: Proven to have no way back (the opposite was tried from ``b``
            and led elsewhere or nowhere).
        grid: The link is drawn: ``b`` lies ``span`` cells from ``a`` in the link's own
            direction with no room between, rather than being listed.
        span: How many cells the drawn link crosses (1: neighbours).
        walked: Someone walked it (either way); a way known only from the look-ahead
            (the valid-action search saw where it leads) is not.
    """

    a: str
    b: str
    direction: str
    back: str | None = None
    likely_back: str | None = None
    one_way: bool = False
    grid: bool = False
    span: int = 1
    walked: bool = True


@dataclass
class MapModel:
    """Rooms on a grid and the links between them, as of one turn."""

    rooms: dict[str, MapRoom]
    links: list[MapLink]
    current: str | None
    as_of: int

    def to_json(self) -> dict[str, Any]:
        """JSON form (for the UI and ``--json``)."""
        return {
            "as_of": self.as_of,
            "current": self.current,
            "rooms": [vars(r) for r in self.rooms.values()],
            "links": [vars(link) for link in self.links],
        }


def _spiral(col: int, row: int, limit: int = 60) -> Iterator[tuple[int, int]]:
    yield col, row
    for radius in range(1, limit):
        for dr in range(-radius, radius + 1):
            for dc in range(-radius, radius + 1):
                if max(abs(dr), abs(dc)) == radius:
                    yield col + dc, row + dr


def _compass_component(root: str, neighbours: dict[str, list[tuple[str, str, int]]],
                       done: set[str]) -> dict[str, tuple[int, int]]:
    """Cells, relative to ``root``, of the rooms joined to it by compass exits."""
    pos = {root: (0, 0)}
    taken = {(0, 0)}
    queue = deque([root])
    while queue:
        here = queue.popleft()
        hc, hr = pos[here]
        for there, direction, sign in neighbours[here]:
            offset = GRID_OFFSET.get(direction)
            if there in pos or there in done or offset is None:
                continue
            dc, dr = offset[0] * sign, offset[1] * sign
            cell = next(
                ((hc + dc * k, hr + dr * k) for k in range(1, 4) if (hc + dc * k, hr + dr * k) not in taken), None
            ) or next(c for c in _spiral(hc + dc, hr + dr) if c not in taken)
            pos[there] = cell
            taken.add(cell)
            queue.append(there)
    return pos


def _layout(room_ids: list[str], links: list[MapLink], start: str | None) -> dict[str, tuple[int, int]]:
    """Grid cells: compass-joined groups keep their shape; other links join groups side by side."""
    neighbours: dict[str, list[tuple[str, str, int]]] = {r: [] for r in room_ids}
    for link in links:
        if link.a in neighbours and link.b in neighbours:
            neighbours[link.a].append((link.b, link.direction, 1))
            neighbours[link.b].append((link.a, link.direction, -1))
    pos: dict[str, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    order = ([start] if start in neighbours else []) + [r for r in room_ids if r != start]
    pending = deque(order)
    while pending:
        # Next group: one linked (by up, down, in...) to a placed room, else the next unplaced room.
        anchor: tuple[int, int] | None = None
        root = None
        for rid in pos:
            root = next((n for n, _, _ in neighbours[rid] if n not in pos), None)
            if root is not None:
                anchor = pos[rid]
                break
        if root is None:
            root = pending.popleft()
            if root in pos:
                continue
            anchor = (0, max((r for _, r in taken), default=-2) + 2)
        group = _compass_component(root, neighbours, set(pos))
        assert anchor is not None  # set by the loop above or from the rows taken
        for col, row in _spiral(anchor[0], anchor[1], limit=200):
            if all((col + dc, row + dr) not in taken for dc, dr in group.values()):
                break
        for rid, (dc, dr) in group.items():
            pos[rid] = (col + dc, row + dr)
            taken.add(pos[rid])
    return pos


def walked_ways(memory: Memory, t: int) -> set[tuple[str, str, str]]:
    """(from room, direction or command, to room) of every step the player took up to turn ``t``.

    Read from the player's places over time and the command of the turn each
    place began: a way the valid-action search found is known, but not walked.
    """
    places = memory.store.rows(
        "MATCH (p:Entity {id: $p})-[f:Fact]->(r:Entity) WHERE f.relation = $at AND f.source = 'engine'"
        " AND f.valid_from <= $t RETURN r.id, f.valid_from, f.valid_to ORDER BY f.valid_from",
        {"p": PLAYER, "at": AT, "t": t},
    )
    # Only the turns a place began at: the map is drawn after every turn, and episodes grow with play.
    began = sorted({int(since) for _, since, _ in places})
    commands = dict(memory.store.rows("MATCH (e:Episode) WHERE list_contains($turns, e.turn) RETURN e.turn, e.command",
                                      {"turns": began}))
    ended = {int(until): room for room, _, until in places}
    walked = set()
    for room, since, _ in places:
        before, command = ended.get(int(since)), commands.get(int(since))
        if before is not None and before != room and command:
            walked.add((before, direction_of(command) or " ".join(command.lower().split()), room))
    return walked


def _span(start: MapRoom, end: MapRoom, offset: tuple[int, int], taken: set[tuple[int, int]]) -> int:
    """How many cells ``end`` lies from ``start`` along ``offset`` with none taken between (0: not so)."""
    for k in range(1, 5):
        if (end.col - start.col, end.row - start.row) == (offset[0] * k, offset[1] * k):
            between = ((start.col + offset[0] * i, start.row + offset[1] * i) for i in range(1, k))
            return k if not any(cell in taken for cell in between) else 0
    return 0


def build_map(memory: Memory, as_of: int | None = None) -> MapModel:
    """The map as of a turn: visited rooms, learned exits, unexplored stubs, dark rooms.

    Args:
        memory: The session memory.
        as_of: The turn (None: now).
    """
    t = turn_of(memory, as_of)
    here, _ = where_am_i(memory, t)
    found = {r.id: MapRoom(r.id, r.name) for r in rooms(memory, t)}
    ways = way_map(memory, t)
    links: list[MapLink] = []
    by_pair: dict[tuple[str, str], MapLink] = {}
    for a, direction, b, _ in all_exits(memory, t):
        if a not in found or b not in found:
            continue
        reverse = by_pair.get((b, a))
        if reverse is not None and reverse.back is None:
            reverse.back = direction
            reverse.likely_back = None
            continue
        link = MapLink(a, b, direction, one_way=ways.one_way(a, direction, b))
        if ways.room(b).back.get(OPPOSITE.get(direction, "")) == a:
            link.likely_back = OPPOSITE[direction]
        by_pair[(a, b)] = link
        links.append(link)
        if direction == "up":
            found[a].up = True
        if direction == "down":
            found[a].down = True
    for rid, room in found.items():
        room.unexplored = ways.room(rid).open_ways()
        room.blocked = by_order(ways.room(rid).blocked)
    for rid, in memory.store.rows(
        "MATCH (a:Entity)-[f:Fact]->(b:Entity {id: $dark}) WHERE f.relation = $is AND f.source = 'engine'"
        " AND f.valid_from <= $t AND f.valid_to > $t AND a.kind = 'room' RETURN a.id",
        {"is": IS, "t": t, "dark": state_id("dark")},
    ):
        if rid in found:
            found[rid].dark = True
    for link in links:
        back = link.back or link.likely_back
        if back in ("up", "down"):
            found[link.b].up |= back == "up"
            found[link.b].down |= back == "down"
    current = here.id if here else None
    pos = _layout(list(found), links, current)
    for rid, (col, row) in pos.items():
        found[rid].col, found[rid].row = col, row
        found[rid].current = rid == current
    walked = walked_ways(memory, t)
    taken = {(r.col, r.row) for r in found.values()}
    for link in links:
        link.walked = (link.a, link.direction, link.b) in walked or (
            link.back is not None and (link.b, link.back, link.a) in walked)
        offset = GRID_OFFSET.get(link.direction)
        if offset is not None:
            link.span = _span(found[link.a], found[link.b], offset, taken)
            # A diagonal is drawn only between neighbours: a long one would cross other rooms' rows.
            link.grid = link.span == 1 or (link.span > 1 and 0 in offset)
    return MapModel(found, links, current, t)
