"""The consent screen of a human-baseline session: the study's text, agree or decline."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConsentScreen(ModalScreen[bool]):
    """Asks the participant to agree; dismisses with True (agreed) or False (declined).

    Args:
        text: The consent text (shown literally, never as markup).
        participant: The participant id, shown so a mistyped one is noticed before play.
    """

    DEFAULT_CSS = """
    ConsentScreen { align: center middle; }
    ConsentScreen > VerticalScroll {
        width: 90%; max-width: 90; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 1 2;
    }
    ConsentScreen #consent-text { margin-bottom: 1; }
    ConsentScreen Horizontal { height: auto; align-horizontal: center; }
    ConsentScreen Button { margin: 0 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Agree", id="consent_agree"),
        Binding("n,escape", "answer(False)", "Decline", id="consent_decline"),
    ]

    def __init__(self, text: str, participant: str) -> None:
        super().__init__()
        self.text = text
        self.participant = participant

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Before you play"
            box.border_subtitle = f"participant {self.participant}"
            yield Static(Text(self.text), id="consent-text")
            with Horizontal():
                yield Button("I agree (y)", id="agree", variant="success")
                yield Button("I do not agree (n)", id="decline", variant="error")

    def on_mount(self) -> None:
        self.query_one("#agree", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "agree")

    def action_answer(self, agreed: bool) -> None:
        """Answer with a key."""
        self.dismiss(agreed)
