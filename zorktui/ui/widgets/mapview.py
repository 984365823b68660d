"""The Map panel: the memory's map drawn around the player, the current room highlighted."""

from __future__ import annotations

import re

from rich.text import Text
from textual.containers import ScrollableContainer
from textual.widgets import Static

from zorktui.agent.safety import clean_text
from zorktui.memory.maprender import LEGEND
from zorktui.ui.colours import colour

_ARROWS = "▶◀▼▲◢◣◥◤"
_LISTED = re.compile(r" --.+--> ")


def style_map(text: str, accent: str, warning: str, muted: str) -> tuple[Text, tuple[int, int] | None]:
    """Colour a drawn map: the current (double-lined) room, one-way arrows, unexplored stubs.

    Returns:
        The styled text and the (column, line) of the current room's top-left corner, if drawn.
    """
    lines = clean_text(text).split("\n")
    out = Text("\n".join(lines), no_wrap=True, overflow="crop")
    here = None
    offset = 0
    for y, line in enumerate(lines):
        x = line.find("╔")
        if x >= 0 and here is None:
            here = (x, y)
        for i, ch in enumerate(line):
            if ch in _ARROWS:
                out.stylize(f"bold {warning}", offset + i, offset + i + 1)
            elif ch == "?":
                out.stylize(f"bold {warning}", offset + i, offset + i + 1)
        if _LISTED.search(line):
            out.stylize(muted, offset, offset + len(line))
        offset += len(line) + 1
    if here is not None:
        x, y = here
        end = lines[y].find("╗", x)
        offset = sum(len(line) + 1 for line in lines[:y])
        for dy in range(3):
            if y + dy < len(lines):
                out.stylize(f"bold {accent}", offset + x, offset + min(end + 1, len(lines[y + dy])))
                offset += len(lines[y + dy]) + 1
    return out, here


class MapView(ScrollableContainer):
    """Scrollable map, kept centred on the player's room."""

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    MapView {
        border: round $secondary;
        border-title-color: $secondary;
        border-title-style: bold;
        scrollbar-size: 1 1;
    }
    MapView:focus-within { border: round $primary; }
    MapView > Static { width: auto; height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.map_text = ""
        self.can_focus = True

    def compose(self):  # noqa: ANN201 - Textual hook
        yield Static("(the map appears as you explore)", id="map-body")

    def on_mount(self) -> None:
        self.border_title = "Map"
        self.tooltip = LEGEND

    def show(self, text: str | None, as_of: int | None = None) -> None:
        """Draw a map (None: no memory in this session).

        The legend goes to the border (short) and the tooltip (whole), so a
        narrow panel does not crop it and it does not scroll away with the map.
        """
        body = (text or "(no memory in this session: no map)").replace(LEGEND, "").rstrip("\n")
        self.map_text = body
        styled, here = style_map(self.map_text, colour(self.app, "accent", "yellow"),
                                 colour(self.app, "warning", "magenta"), "dim")
        self.query_one("#map-body", Static).update(styled)
        legend = "╔╗ here ▶ one-way ? unexplored"
        self.border_subtitle = f"as of turn {as_of} · {legend}" if as_of is not None else legend
        if here is not None:
            self.call_after_refresh(self._centre, here)

    def _centre(self, here: tuple[int, int]) -> None:
        x, y = here
        self.scroll_to(max(0, x + 9 - self.scrollable_content_region.width // 2),
                       max(0, y + 1 - self.scrollable_content_region.height // 2), animate=False)
