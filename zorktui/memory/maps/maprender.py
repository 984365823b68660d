"""Draws a :class:`MapModel` as box-drawing text for a terminal.

Each room is a box holding its whole name, wrapped (the current room
doubled); rooms in line along a compass way are joined by a line, solid where
someone walked it and dotted where only the look-ahead saw where it leads;
exits proven one-way end in an arrow, ways nobody has taken (the game accepts
them, or its text points there) show as a ``?`` stub. Links that do not fit
the grid (up, down, in, out, other commands, a maze's crossings) are listed
under the drawing, under a line that says so: no way is dropped.
"""

from __future__ import annotations

import textwrap

from zorktui.engine.directions import GRID_OFFSET
from zorktui.memory.maps.mapmodel import MapLink, MapModel, MapRoom

BOX_W = 18
BOX_H = 3
GAP_X = 5
GAP_Y = 2

_SINGLE = "┌┐└┘─│"
_DOUBLE = "╔╗╚╝═║"
_ARROWS = {(1, 0): "▶", (-1, 0): "◀", (0, 1): "▼", (0, -1): "▲", (1, 1): "◢", (-1, 1): "◣", (1, -1): "◥", (-1, -1): "◤"}
LEGEND = "╔═╗ you are here   ▶ one-way   ┈ seen ahead, not walked   ? unexplored   ↑↓ up/down   ░ dark"
#: The line over the ways the drawing has no room for.
NOT_DRAWN = "Ways not drawn on the grid:"
_DOTTED = {"─": "┈", "│": "┊", "╲": "·", "╱": "·"}


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


def _name_lines(room: MapRoom) -> list[str]:
    """The room's whole name, wrapped to the box (a word too long for it is broken, never cut)."""
    return textwrap.wrap(room.name, BOX_W - 2, break_long_words=True) or [""]


def _box(canvas: _Canvas, room: MapRoom, x: int, y: int, height: int) -> None:
    tl, tr, bl, br, h, v = tuple(_DOUBLE if room.current else _SINGLE)
    inner = BOX_W - 2
    marks = ("↑" if room.up else "") + ("↓" if room.down else "") + ("░" if room.dark else "")
    canvas.put(x, y, tl + h * inner + tr)
    names = _name_lines(room)
    for i in range(height - 2):
        canvas.put(x, y + 1 + i, v + (names[i] if i < len(names) else "").ljust(inner) + v)
    bottom = (h + marks + h * inner)[:inner] if marks else h * inner
    canvas.put(x, y + height - 1, bl + bottom + br)


def _anchor(x: int, y: int, height: int, dc: int, dr: int) -> tuple[int, int]:
    """The point on a box's border facing the offset (dc, dr)."""
    ax = x + (BOX_W // 2 if dc == 0 else (BOX_W if dc > 0 else -1))
    ay = y + (1 if dr == 0 else (height if dr > 0 else -1))
    return ax, ay


def _link(canvas: _Canvas, link: MapLink, a: tuple[int, int, int], b: tuple[int, int, int],
          offset: tuple[int, int]) -> None:
    """A line from box ``a`` towards box ``b`` (boxes as x, y, height), dotted unless walked."""
    dc, dr = offset
    sx, sy = _anchor(*a, dc, dr)
    if dr == 0:
        length = abs(_anchor(*b, -dc, 0)[0] - sx) + 1
    elif dc == 0:
        length = abs(_anchor(*b, 0, -dr)[1] - sy) + 1
    else:
        length = GAP_Y
    ch = "─" if dr == 0 else "│" if dc == 0 else ("╲" if dc == dr else "╱")
    if not link.walked:
        ch = _DOTTED[ch]
    end = _ARROWS[offset] if link.one_way else ""
    for i in range(length):
        canvas.put(sx + dc * i, sy + dr * i, end if i == length - 1 and end else ch)


def render_map(model: MapModel) -> str:
    """The map as lines of text (with a legend and the links that do not fit the grid)."""
    if not model.rooms:
        return "(no rooms visited yet)"
    min_col = min(r.col for r in model.rooms.values())
    min_row = min(r.row for r in model.rooms.values())
    max_col = max(r.col for r in model.rooms.values())
    max_row = max(r.row for r in model.rooms.values())
    # Each grid row is as tall as its longest wrapped name needs; rows stack with GAP_Y between.
    heights = {row: BOX_H for row in range(min_row, max_row + 1)}
    for room in model.rooms.values():
        heights[room.row] = max(heights[room.row], len(_name_lines(room)) + 2)
    tops, y = {}, 1
    for row in range(min_row, max_row + 1):
        tops[row] = y
        y += heights[row] + GAP_Y
    canvas = _Canvas((max_col - min_col + 1) * (BOX_W + GAP_X) + 4, y + 1)
    taken = {(r.col, r.row) for r in model.rooms.values()}
    boxes = {rid: ((r.col - min_col) * (BOX_W + GAP_X) + 2, tops[r.row], heights[r.row])
             for rid, r in model.rooms.items()}
    listed: list[str] = []
    for link in model.links:
        offset = GRID_OFFSET.get(link.direction)
        if link.grid and offset:
            _link(canvas, link, boxes[link.a], boxes[link.b], offset)
        else:
            a, b = model.rooms[link.a].name, model.rooms[link.b].name
            if link.back:
                arrow = f" ({link.back} back)"
            elif link.likely_back:
                arrow = f" ({link.likely_back} back, likely)"
            else:
                arrow = " (one-way)" if link.one_way else ""
            seen = "" if link.walked else " (seen ahead, not walked)"
            listed.append(f"{a} --{link.direction}--> {b}{arrow}{seen}")
    for room in model.rooms.values():
        for direction in room.unexplored:
            offset = GRID_OFFSET.get(direction)
            if offset and (room.col + offset[0], room.row + offset[1]) not in taken:
                x, y = _anchor(*boxes[room.id], *offset)
                canvas.put(x, y, "?")
    for room in model.rooms.values():
        _box(canvas, room, *boxes[room.id])
    out = [canvas.text()]
    if listed:
        out.append("")
        out.append(NOT_DRAWN)
        out.extend(listed)
    out.append("")
    out.append(LEGEND)
    return "\n".join(out)
