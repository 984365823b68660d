"""The command line: an Input with history (up/down) and completion (Tab or →)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from zorktui.ui.suggest import CommandSuggester

PLACEHOLDER = "Type a command, /help for app commands"


class CommandLine(Input):
    """Where the person types game commands and app commands."""

    DEFAULT_CSS = """
    CommandLine {
        border: round $accent 70%;
        height: 3;
    }
    CommandLine:focus { border: round $accent; }
    """
    BINDINGS = [
        Binding("up", "history(-1)", "Previous command", show=False, id="history_back"),
        Binding("down", "history(1)", "Next command", show=False, id="history_forward"),
        Binding("tab", "complete", "Complete", show=False, id="complete"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        self.completer = CommandSuggester()
        # Focus coming back (after a zoom, a dialog, a typed key) keeps what is typed: no select-all to overwrite.
        super().__init__(placeholder=PLACEHOLDER, suggester=self.completer, id=id, select_on_focus=False)
        self.history: list[str] = []
        self._index = 0
        self._draft = ""

    def remember(self, text: str) -> None:
        """Add a submitted line to the history (no immediate repeats)."""
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._index = len(self.history)
        self._draft = ""
        if text and not text.startswith("/"):
            self.completer.remember(text)

    def put(self, text: str) -> None:
        """Show ``text`` in the line as it is (no completion after it), the cursor at its end."""
        self.completer.hold(text)
        self.value = text
        self.cursor_position = len(text)

    def action_history(self, step: int) -> None:
        """Walk back (-1) or forward (+1) through earlier lines."""
        if not self.history:
            return
        if self._index == len(self.history):
            self._draft = self.value
        self._index = max(0, min(len(self.history), self._index + step))
        if self._index < len(self.history):
            self.put(self.history[self._index])
        else:  # back to what the person was typing: completion as before
            self.value = self._draft
            self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        """Take the shown suggestion (Tab); without one, move focus on as usual."""
        if self._suggestion and self.cursor_position == len(self.value):
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()

    def set_hint(self, hint: str | None) -> None:
        """Show a hint in the empty line (the pending proposal), or the default one."""
        self.placeholder = hint or PLACEHOLDER
