"""The Transcript panel: the game's text and every command, with who sent it."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from zorktui.agent.safety import clean_text
from zorktui.ui.colours import colour

#: Entries kept for re-wrapping when the panel changes width (zoom, hiding panels, resizing).
KEEP = 3000
#: How each author is named in the echo.
ACTOR_LABEL = {"human": "you", "agent": "agent", "script": "script", "game": "game"}


class Transcript(RichLog):
    """Scrollable play log. Game and model text is always written as plain ``Text`` (never markup)."""

    DEFAULT_CSS = """
    Transcript {
        border: round $primary 60%;
        border-title-color: $primary;
        border-title-style: bold;
        background: $background;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    Transcript:focus { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=5000, auto_scroll=True,
                         min_width=20)
        self._items: list[Text] = []
        self._flow_width = 0

    def on_mount(self) -> None:
        self.border_title = "Transcript"

    def add(self, text: Text) -> None:
        """Write an entry and keep it for re-wrapping."""
        self._items.append(text)
        if len(self._items) > KEEP:
            del self._items[: len(self._items) - KEEP]
        self.write(text)

    def reset(self) -> None:
        """Empty the panel (and what it keeps for re-wrapping)."""
        self._items.clear()
        self.clear()

    def on_resize(self, event: Resize) -> None:
        # RichLog wraps once, at write time: wrap everything again at the new width.
        width = self.scrollable_content_region.width
        if self._size_known and self._items and width != self._flow_width:
            self._flow_width = width
            self.clear()
            for item in self._items:
                self.write(item, scroll_end=False)
            self.scroll_end(animate=False, immediate=False)
        elif not self._flow_width:
            self._flow_width = width

    def _colour(self, name: str, fallback: str) -> str:
        return colour(self.app, name, fallback)

    def game_text(self, text: str) -> None:
        """The game's reply, exactly as the game printed it."""
        body = clean_text(text).strip("\n")
        if body:
            self.add(Text(body))

    def echo(self, command: str, actor: str) -> None:
        """A command as sent, labelled with its author."""
        label = ACTOR_LABEL.get(actor, actor)
        colour = self._colour("success" if actor == "human" else "accent", "green")
        line = Text()
        line.append("\n")
        line.append(f"{label} ", style=f"bold {colour}")
        line.append("> ", style="dim")
        line.append(clean_text(command), style="bold")
        self.add(line)

    def note(self, text: str, style: str = "dim italic") -> None:
        """An app line (undo, autopilot stopped, critic refusals)."""
        self.add(Text(clean_text(text), style=style))

    def error(self, text: str) -> None:
        """A refused command or a failure, in the error colour."""
        self.add(Text(clean_text(text), style=f"bold {self._colour('error', 'red')}"))

    @property
    def text(self) -> str:
        """Everything shown, as plain lines (as wrapped on screen)."""
        return "\n".join(strip.text.rstrip() for strip in self.lines)
