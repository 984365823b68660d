"""The Map panel: the memory's map drawn around the player, the current room highlighted."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer, Vertical
from textual.widgets import Static

from zorktui.agent.safety import clean_text
from zorktui.session.memory_view import MAP_LEGEND as LEGEND
from zorktui.session.memory_view import MAP_NOT_DRAWN as NOT_DRAWN
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
        for line in lines[y:]:  # the box's lines, down to its bottom corner (a long name makes it taller)
            out.stylize(f"bold {accent}", offset + x, offset + min(end + 1, len(line)))
            offset += len(line) + 1
            if line[x:x + 1] == "╚":
                break
    return out, here


def split_notes(text: str) -> tuple[str, list[str]]:
    """The drawing, and the links listed under it ("A --down--> B (up back)"), apart."""
    drawing: list[str] = []
    notes: list[str] = []
    for line in text.split("\n"):
        (notes if _LISTED.search(line) or line == NOT_DRAWN else drawing).append(line)
    return "\n".join(drawing).rstrip("\n"), notes


class MapView(Vertical):
    """The map: its drawing scrolls (kept centred on the player's room), its notes wrap beneath it.

    The notes are not part of the scrolled drawing: centring a wide map had
    cut them on the left. Scrollbars are hidden (the drawing is centred for
    you; the arrow keys and the mouse still scroll it when focused).
    """

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    MapView {
        border: round $secondary;
        border-title-color: $secondary;
        border-title-style: bold;
    }
    MapView:focus-within { border: round $primary; }
    MapView > #map-scroll { height: 1fr; scrollbar-size: 0 0; }
    MapView > #map-scroll > Static { width: auto; height: auto; }
    MapView > #map-notes { height: auto; max-height: 40%; width: 1fr; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        #: What is drawn, notes included, as plain text.
        self.map_text = ""
        self.can_focus = False

    def compose(self) -> ComposeResult:
        with ScrollableContainer(id="map-scroll"):
            yield Static("(the map appears as you explore)", id="map-body")
        yield Static("", id="map-notes")

    def on_mount(self) -> None:
        self.border_title = "Map"
        self.tooltip = LEGEND
        self.query_one("#map-notes").display = False

    def show(self, text: str | None, as_of: int | None = None) -> None:
        """Draw a map (None: no memory in this session).

        The legend goes to the border (short) and the tooltip (whole), so a
        narrow panel does not crop it and it does not scroll away with the map.
        """
        body = (text or "(no memory in this session: no map)").replace(LEGEND, "").rstrip("\n")
        self.map_text = body
        drawing, notes = split_notes(body)
        styled, here = style_map(drawing, colour(self.app, "accent", "yellow"),
                                 colour(self.app, "warning", "magenta"), "dim")
        self.query_one("#map-body", Static).update(styled)
        shown = self.query_one("#map-notes", Static)
        shown.update(Text("\n".join(clean_text(n) for n in notes)))
        shown.display = bool(notes)
        legend = "╔╗ here ▶ one-way ┈ unwalked ? open"
        self.border_subtitle = f"as of turn {as_of} · {legend}" if as_of is not None else legend
        if here is not None:
            self.call_after_refresh(self._centre, here)

    def _centre(self, here: tuple[int, int]) -> None:
        x, y = here
        scroll = self.query_one("#map-scroll", ScrollableContainer)
        region = scroll.scrollable_content_region
        scroll.scroll_to(max(0, x + 9 - region.width // 2), max(0, y + 1 - region.height // 2), animate=False)
