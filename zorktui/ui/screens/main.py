"""The main screen's layout: status bar, transcript and command line, the side panels, the footer.

The app (:class:`zorktui.ui.app.ZorkApp`) composes it on its own default
screen (a screen of its own, as a mode, costs the first frame about 80 ms)
and keeps the bindings and the behaviour; the panels' sizes are in ``app.tcss``.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript


def main_layout() -> ComposeResult:
    """The main screen's widgets by id (#status, #transcript, #command, #room, #map, #agent)."""
    yield StatusBar(id="status")
    with Horizontal(id="main"):
        with Vertical(id="left"):
            yield Transcript(id="transcript")
            yield CommandLine(id="command")
        with Vertical(id="side"):
            yield RoomPanel(id="room")
            yield MapView(id="map")
            yield AgentPanel(id="agent")
    yield Footer(compact=True)



class MainScreen(Screen[None]):
    """The app's default screen: the command line takes the keys back whenever this screen is shown again."""

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        # Closing help, the inspector or a dialog leaves the person typing, not on whatever had focus before.
        line = self.query(CommandLine)
        if line and line.first().display:
            line.first().focus()
