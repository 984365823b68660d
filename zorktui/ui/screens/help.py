"""The help screen (F1): every key and every app command."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from zorktui.ui.app_commands import REGISTRY


def key_table(rows: list[tuple[str, str, str]]) -> Table:
    """A table of (keys, binding id, what it does)."""
    table = Table(box=None, show_header=True, header_style="bold", expand=False, pad_edge=False)
    table.add_column("key")
    table.add_column("id", style="dim")
    table.add_column("does")
    for keys, binding_id, description in rows:
        table.add_row(Text(keys, style="bold"), binding_id, description)
    return table


def command_table() -> Table:
    """A table of the app commands, from the registry the command line and the palette use."""
    table = Table(box=None, show_header=True, header_style="bold", expand=False, pad_edge=False)
    table.add_column("command")
    table.add_column("does")
    for entry in REGISTRY:
        table.add_row(Text(entry.usage, style="bold"), entry.help)
    return table


class HelpScreen(ModalScreen[None]):
    """Keys and app commands; any of Escape, F1 or q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: round $primary; background: $surface; padding: 0 2;
    }
    HelpScreen Static { width: 1fr; margin-bottom: 1; }
    """
    BINDINGS = [Binding("escape,f1,q", "close", "Close", id="help_close")]

    def __init__(self, keys: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Help"
            yield Static(Text("Keys (change them under [keymap] in config.toml, by id)", style="bold underline"))
            yield Static(key_table(self.keys), id="help-keys")
            yield Static(Text("App commands (typed on the command line; they never reach the game)",
                              style="bold underline"))
            yield Static(command_table(), id="help-commands")
            yield Static(Text(
                "Co-play: the agent's proposal shows in the Agent panel and the empty command line. "
                "Enter on an empty line plays it; typing your own command passes it over. "
                "Themes: the command palette (ctrl+p) → 'Change theme', or /theme NAME. Escape closes this.",
            ))

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
