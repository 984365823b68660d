"""A small dialog asking why the person refuses the agent's proposal (the reason is optional)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from zorktui.agent.safety import clean_text


class RejectScreen(ModalScreen[str | None]):
    """Returns the reason ("" for none), or None when the person changes their mind (Escape)."""

    DEFAULT_CSS = """
    RejectScreen { align: center middle; }
    RejectScreen > Vertical {
        width: 64; height: auto; padding: 1 2;
        border: round $error; background: $surface;
    }
    RejectScreen Input { margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="reject_cancel")]

    def __init__(self, command: str) -> None:
        super().__init__()
        self.command = command

    def compose(self) -> ComposeResult:
        with Vertical():
            line = Text("Reject ")
            line.append(clean_text(self.command), style="bold")
            line.append("? Say why (optional), Enter to reject, Escape to keep it.")
            yield Static(line)
            yield Input(placeholder="reason (optional)", id="reason")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Keep the proposal."""
        self.dismiss(None)
