"""The Room panel: where you are, the ways out known and unexplored, what is here, what you carry, what was tried."""

from __future__ import annotations

from rich.text import Text

from zorktui.agent.safety import clean_text
from zorktui.session.view import RoomInfo
from zorktui.ui.colours import colour
from zorktui.ui.widgets.panel import TitledPanel


def render_room(info: RoomInfo, accent: str = "yellow", warning: str = "magenta") -> Text:
    """The panel's text (names from the game kept literal)."""
    out = Text()
    out.append(clean_text(info.room) or "(somewhere)", style=f"bold {accent}")
    if info.dark:
        out.append("  (dark)", style="dim")
    rows: list[tuple[str, Text]] = []
    if info.question is not None:
        answers = ", ".join(info.question) or "the game's own words"
        rows.append(("Question", Text(f"the game waits for an answer: {clean_text(answers)}", style=f"bold {warning}")))
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
