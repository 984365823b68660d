"""Draws a :class:`MapModel` as box-drawing text for a terminal.

Each room is a box (the current room doubled); neighbouring rooms are joined
by lines, exits proven one-way end in an arrow, ways nobody has taken (the
game accepts them, or its text points there) show as a ``?`` stub. Links that do not fit the grid (up, down,
in, out, other commands, long jumps) are listed under the drawing.
"""

from __future__ import annotations

from zorktui.engine.directions import GRID_OFFSET
from zorktui.memory.maps.mapmodel import MapLink, MapModel, MapRoom

BOX_W = 18
BOX_H = 3
GAP_X = 5
GAP_Y = 2

_SINGLE = "┌┐└┘─│"
_DOUBLE = "╔╗╚╝═║"
_ARROWS = {(1, 0): "▶", (-1, 0): "◀", (0, 1): "▼", (0, -1): "▲", (1, 1): "◢", (-1, 1): "◣", (1, -1): "◥", (-1, -1): "◤"}
LEGEND = "╔═╗ you are here   ▶ one-way   ? unexplored   ↑↓ up/down   ░ dark"


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.cells = [[" "] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str) -> None:
        if 0 <= y < len(self.cells):
            row = self.cells[y]
            for i, ch in enumerate(text):
                if 0 <= x + i < len(row):
                    row[x + i] = ch

    def text(self) -> str:
        return "\n".join("".join(r).rstrip() for r in self.cells).rstrip("\n")


def _origin(room: MapRoom, min_col: int, min_row: int) -> tuple[int, int]:
    return (room.col - min_col) * (BOX_W + GAP_X) + 2, (room.row - min_row) * (BOX_H + GAP_Y) + 1


def _box(canvas: _Canvas, room: MapRoom, x: int, y: int) -> None:
    tl, tr, bl, br, h, v = tuple(_DOUBLE if room.current else _SINGLE)
    inner = BOX_W - 2
    name = room.name if len(room.name) <= inner else room.name[: inner - 1] + "…"
    marks = ("↑" if room.up else "") + ("↓" if room.down else "") + ("░" if room.dark else "")
    canvas.put(x, y, tl + h * inner + tr)
    canvas.put(x, y + 1, v + name.ljust(inner) + v)
    bottom = (h + marks + h * inner)[:inner] if marks else h * inner
    canvas.put(x, y + 2, bl + bottom + br)


def _anchor(x: int, y: int, dc: int, dr: int) -> tuple[int, int]:
    """The point on a box's border facing the offset (dc, dr)."""
    ax = x + (BOX_W // 2 if dc == 0 else (BOX_W if dc > 0 else -1))
    ay = y + (1 if dr == 0 else (BOX_H if dr > 0 else -1))
    return ax, ay


def _line(canvas: _Canvas, x: int, y: int, dc: int, dr: int, length: int, end: str) -> None:
    ch = "─" if dr == 0 else "│" if dc == 0 else ("╲" if dc == dr else "╱")
    for i in range(length):
        canvas.put(x + dc * i, y + dr * i, end if i == length - 1 and end else ch)


def _link(canvas: _Canvas, link: MapLink, a: tuple[int, int], offset: tuple[int, int]) -> None:
    dc, dr = offset
    sx, sy = _anchor(*a, dc, dr)
    length = GAP_X if dr == 0 else GAP_Y
    if dc and dr:
        length = GAP_Y
    _line(canvas, sx, sy, dc, dr, length, _ARROWS[offset] if link.one_way else "")


def render_map(model: MapModel) -> str:
    """The map as lines of text (with a legend and the links that do not fit the grid)."""
    if not model.rooms:
        return "(no rooms visited yet)"
    min_col = min(r.col for r in model.rooms.values())
    min_row = min(r.row for r in model.rooms.values())
    max_col = max(r.col for r in model.rooms.values())
    max_row = max(r.row for r in model.rooms.values())
    canvas = _Canvas((max_col - min_col + 1) * (BOX_W + GAP_X) + 4, (max_row - min_row + 1) * (BOX_H + GAP_Y) + 2)
    taken = {(r.col, r.row) for r in model.rooms.values()}
    origins = {rid: _origin(r, min_col, min_row) for rid, r in model.rooms.items()}
    listed: list[str] = []
    for link in model.links:
        offset = GRID_OFFSET.get(link.direction)
        if link.grid and offset:
            _link(canvas, link, origins[link.a], offset)
        else:
            a, b = model.rooms[link.a].name, model.rooms[link.b].name
            if link.back:
                arrow = f" ({link.back} back)"
            elif link.likely_back:
                arrow = f" ({link.likely_back} back, likely)"
            else:
                arrow = " (one-way)" if link.one_way else ""
            listed.append(f"{a} --{link.direction}--> {b}{arrow}")
    for room in model.rooms.values():
        for direction in room.unexplored:
            offset = GRID_OFFSET.get(direction)
            if offset and (room.col + offset[0], room.row + offset[1]) not in taken:
                x, y = _anchor(*origins[room.id], *offset)
                canvas.put(x, y, "?")
    for room in model.rooms.values():
        _box(canvas, room, *origins[room.id])
    out = [canvas.text()]
    if listed:
        out.append("")
        out.extend(listed)
    out.append("")
    out.append(LEGEND)
    return "\n".join(out)
