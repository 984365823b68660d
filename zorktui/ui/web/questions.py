"""Short question apps that run before the main one: a participant's pseudonym, which session to watch."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from zorktui.session.baseline import BaselineError, check_participant
from zorktui.ui.app_base import ZorkTuiAppBase
from zorktui.ui.keymap import load_config

_CSS = """
Screen { align: center middle; }
#ask { width: 90%; max-width: 80; height: auto; border: round $primary; background: $surface; padding: 1 2; }
#why { color: $error; height: auto; }
"""


class PseudonymApp(ZorkTuiAppBase):
    """Asks a study's participant for a pseudonym; :attr:`answer` holds it (None: the person quit).

    Args:
        theme: Theme name (else the config file's, else the default).
    """

    TITLE = "zorktui study"
    CSS = _CSS
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="quit", priority=True)]

    def __init__(self, theme: str | None = None) -> None:
        super().__init__(load_config(), theme=theme)
        self.answer: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="ask") as box:
            box.border_title = "A study of how people play"
            yield Static("Your pseudonym, as the person running the study gave it to you (e.g. P-017). "
                         "Please do not type your name.\n")
            yield Input(placeholder="pseudonym, then Enter", id="pseudonym", max_length=64)
            yield Static(id="why")
        yield Footer(compact=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            self.answer = check_participant(event.value.strip())
        except BaselineError as exc:
            self.query_one("#why", Static).update(str(exc))
            return
        self.exit()


class ChooserApp(ZorkTuiAppBase):
    """Asks which of several session folders to watch; :attr:`answer` holds its index (None: the person quit).

    Args:
        folders: The session folders.
        theme: Theme name.
    """

    TITLE = "zorktui watch"
    CSS = _CSS + "#sessions { height: auto; max-height: 20; }"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="quit", priority=True)]

    def __init__(self, folders: list[Path], theme: str | None = None) -> None:
        super().__init__(load_config(), theme=theme)
        self.folders = folders
        self.answer: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="ask") as box:
            box.border_title = "Watch a session"
            yield Static("Which session? (arrows and Enter; each is shown live as it is played)\n")
            yield OptionList(*(Option(str(folder), id=str(i)) for i, folder in enumerate(self.folders)), id="sessions")
        yield Footer(compact=True)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer = int(event.option.id or 0)
        self.exit()
