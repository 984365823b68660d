"""The Room panel: where you are, the ways out known and unexplored, what is here, what you carry, what was tried."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from zorktui.agent.safety import clean_text
from zorktui.ui.colours import colour
from zorktui.ui.widgets.panel import TitledPanel


@dataclass
class RoomInfo:
    """The facts the Room panel shows.

    Attributes:
        room: The room's name ("" when unknown).
        dark: The room is dark.
        exits: Known ways out as (direction, what is known of it: "→ Kitchen",
            "(back to Hall, likely)", "(not walked yet)", one-way proven).
        unexplored: Ways nobody has taken that the game's text points to
            (those the game accepts are among the exits).
        blocked: Directions tried that went nowhere.
        objects: Things here (nested ones as "x (in y)" or "x (on y)").
        inventory: Things carried.
        tried: Commands already typed here, oldest first.
    """

    room: str = ""
    dark: bool = False
    exits: list[tuple[str, str, bool]] = field(default_factory=list)
    unexplored: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    inventory: list[str] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)


def objects_here(visible: Any) -> list[str]:
    """What the player can see lying about: "matches (on mantelpiece)", "leaflet (in mailbox)".

    Things in someone else's hands are left out (the engine keeps them for the
    parser's sake, but nobody has shown them), and so is anything whose holder
    is not listed.
    """
    names = {o.id: o.name for o in visible if o.relation != "held"}
    out = []
    for o in visible:
        if o.relation == "held" or (o.parent and o.parent not in names and o.relation):
            continue
        out.append(f"{o.name} ({o.relation or 'in'} {names[o.parent]})" if o.parent in names else o.name)
    return out


def room_info(session: Any) -> RoomInfo:
    """Gather the Room panel's facts from the session and its memory (call off the UI thread)."""
    turn = session.current
    info = RoomInfo(room=turn.location.name if turn.location else "", dark=turn.dark)
    info.objects = objects_here(turn.visible)
    info.inventory = [o.name for o in turn.inventory]
    info.tried = session.log.tried_here()
    memory = session.memory
    if memory is not None:
        from zorktui.memory import queries

        _, found, blocked = queries.exits(memory)
        info.exits = [(e.direction, e.note(arrow="→"), e.one_way) for e in found]
        info.blocked = list(blocked)
        open_ways = queries.unexplored(memory)
        if open_ways is not None:
            info.unexplored = list(open_ways.mentioned)
    return info


def render_room(info: RoomInfo, accent: str = "yellow", warning: str = "magenta") -> Text:
    """The panel's text (names from the game kept literal)."""
    out = Text()
    out.append(clean_text(info.room) or "(somewhere)", style=f"bold {accent}")
    if info.dark:
        out.append("  (dark)", style="dim")
    rows: list[tuple[str, Text]] = []
    exits = Text()
    for i, (direction, to, one_way) in enumerate(info.exits):
        if i:
            exits.append(", ")
        exits.append(direction, style="bold")
        exits.append(f" {clean_text(to)}")
        if one_way:
            exits.append(" (one-way)", style=warning)
    rows.append(("Exits", exits if info.exits else Text("none known yet", style="dim")))
    if info.unexplored:
        rows.append(("Unexplored", Text(", ".join(info.unexplored), style=f"bold {warning}")))
    if info.blocked:
        rows.append(("Blocked", Text(", ".join(info.blocked), style="dim")))
    rows.append(("Here", Text(clean_text(", ".join(info.objects)) if info.objects else "nothing noted",
                              style="" if info.objects else "dim")))
    rows.append(("Carrying", Text(clean_text(", ".join(info.inventory)) if info.inventory else "nothing",
                                  style="" if info.inventory else "dim")))
    rows.append(("Tried here", Text(clean_text(", ".join(info.tried)) if info.tried else "nothing yet",
                                    style="" if info.tried else "dim")))
    for label, value in rows:
        out.append("\n")
        out.append(f"{label}: ", style="bold")
        out.append_text(value)
    return out


class RoomPanel(TitledPanel):
    """Bordered, scrollable room-state block."""

    PANEL_TITLE = "Room"
    BODY_ID = "room-body"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.info = RoomInfo()

    def show(self, info: RoomInfo) -> None:
        """Show new facts."""
        self.info = info
        self.body.update(
            render_room(info, colour(self.app, "accent", "yellow"), colour(self.app, "warning", "magenta")))

    @property
    def text(self) -> str:
        """The panel as plain text."""
        return render_room(self.info).plain
