"""The main screen: its layout, its keys, and what the person does on it.

The layout is the status bar, the transcript and the command line, the side
panels (Room, Map, Agent) and the footer; the app
(:class:`zorktui.ui.app.ZorkApp`) composes it on its own default screen, this
one (a screen of its own, as a mode, costs the first frame about 80 ms); the
panels' sizes are in ``app.tcss``.

What the person does (the command line, the app commands of
:mod:`zorktui.ui.app_commands`, the keys) is here; the session's events are
drawn by the screen's :class:`~zorktui.ui.bridge.Bridge`, and everything that
plays goes through its one job queue (:class:`~zorktui.ui.workers.Jobs`).
Widgets and workers post messages to this screen, which hands each to the part
that shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input
from textual.worker import Worker

from zorktui.session import commands as appcmd
from zorktui.session import events as ev
from zorktui.session.commands import Answer, sentence
from zorktui.session.modes import Mode
from zorktui.ui.app_commands import REGISTRY
from zorktui.ui.bridge import Bridge
from zorktui.ui.messages import ActionsReady, Notice, PanelsReady, SessionEvent
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript
from zorktui.ui.workers import Jobs

if TYPE_CHECKING:  # hints only
    from textual.screen import ScreenResultCallbackType

    from zorktui.agent.llm import Usage
    from zorktui.agent.proposal import Proposal
    from zorktui.session.session import Session
    from zorktui.session.view import SessionView
    from zorktui.ui.baseline_view import BaselineView

#: Autopilot delays the speed key cycles through (seconds between commands).
SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)
#: Panels the zoom key cycles through.
ZOOM_ORDER = ("transcript", "room", "map", "agent")


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
    """Co-play on one screen: the keys, the command line, the app commands; the session drawn by its bridge.

    Args:
        session: The session played.
        view: What the panels read of it.
        study: A human-baseline study's rules as the app applies them.
        mcp: (url, token) where outside agents reach this session (None: not served).
        agent_name: How the status line names the agent.
        usage: The model client's running totals (None: no model).
        tearing_down: Whether the app is closing.
    """

    # Quit first: the footer lists keys in the order the bindings are met (the command line's, then these).
    BINDINGS = [
        Binding("ctrl+q", "app.quit", "Quit", id="quit", priority=True, tooltip="Save and quit"),
        Binding("f1", "help", "Help", id="help", tooltip="Every key and app command"),
        Binding("ctrl+y", "accept", "Accept", id="accept", priority=True, show=False,
                tooltip="Play the agent's proposal (Enter on an empty line does too)"),
        Binding("ctrl+r", "reject", "Reject", id="reject", priority=True, tooltip="Refuse the proposal, say why"),
        Binding("ctrl+e", "edit", "Edit", id="edit", priority=True, tooltip="Put the proposal in the command line"),
        Binding("ctrl+a", "autopilot", "Autopilot", id="autopilot", priority=True,
                tooltip="Hand control to the agent, or take it back"),
        Binding("f7", "pause", "Pause", id="pause", tooltip="Pause or resume the autopilot"),
        Binding("f8", "step", "Step", id="step", tooltip="One autopilot command (or play the proposal)"),
        Binding("f9", "speed", "Speed", id="speed", show=False, tooltip="Cycle the autopilot's delay"),
        Binding("f2", "toggle_panel('room')", "Room", id="toggle_room", show=False, tooltip="Hide or show the Room panel"),
        Binding("f3", "toggle_panel('map')", "Map", id="toggle_map", show=False, tooltip="Hide or show the Map panel"),
        Binding("f4", "toggle_panel('agent')", "Agent", id="toggle_agent", show=False,
                tooltip="Hide or show the Agent panel"),
        Binding("f5", "zoom", "Zoom", id="zoom", tooltip="Zoom the panels in turn (Escape unzooms)"),
        Binding("f6", "inspector", "Memory", id="inspector", tooltip="Open the memory inspector"),
    ]

    def __init__(self, session: Session, view: SessionView, study: BaselineView, mcp: tuple[str, str] | None,
                 agent_name: str, usage: Callable[[], Usage | None], tearing_down: Callable[[], bool]) -> None:
        super().__init__(id="_default")
        self.session = session
        self.view = view
        self.study = study
        self.mcp = mcp
        #: The job queue, the panel reader and the valid-action finder.
        self.jobs = Jobs(self, session, view)
        #: Session events to widgets; the status line and the hint.
        self.bridge = Bridge(self, session, view, self.jobs, agent_name, usage, tearing_down)
        #: The proposal put in the command line to change (Enter then plays it as an edit).
        self._editing: Proposal | None = None
        #: The panel zoomed to fill the screen (None: none).
        self.zoomed: str | None = None

    # ------------------------------------------------------------ messages
    def on_session_event(self, message: SessionEvent) -> None:
        if isinstance(message.event, ev.TurnDone):
            self._editing = None
        self.bridge.show(message.event)

    def on_notice(self, message: Notice) -> None:
        self.bridge.notice(message)

    def on_panels_ready(self, message: PanelsReady) -> None:
        self.bridge.panels(message.data)

    def on_actions_ready(self, message: ActionsReady) -> None:
        if message.turn == self.session.current.turn and not self.bridge.tearing_down():
            self.query_one(CommandLine).completer.set_actions(message.actions)
            self.jobs.refresh_panels()  # the memory has learned the ways out the valid actions hold

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker failures are reported."""
        text = self.jobs.failure(event)
        if text is None:
            return
        self.query_one(Transcript).error(text)
        self.notify(text, severity="error", timeout=6)
        if event.worker.group == "game" and not self.bridge.tearing_down():
            self.jobs.serve()

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        # Closing help, the inspector or a dialog leaves the person typing, not on whatever had focus before.
        line = self.query(CommandLine)
        if line and line.first().display:
            line.first().focus()

    # --------------------------------------------- what commands ask of it
    def submit_job(self, call: Callable[[], object], label: str = "") -> None:
        """Queue something that plays or jumps (see :meth:`Jobs.submit`)."""
        self.jobs.submit(call, label)

    def push_screen(self, screen: Screen[Any], callback: ScreenResultCallbackType[Any] | None = None) -> object:
        """Show a screen over this one (a dialog, help, the inspector)."""
        return self.app.push_screen(screen, callback)

    async def action_quit(self) -> None:
        """Save and quit (the app closes the session first)."""
        await self.app.action_quit()

    # ---------------------------------------------------------- command line
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not isinstance(event.input, CommandLine):
            return
        line = event.input
        text = event.value.strip()
        line.value = ""
        line.remember(text)
        try:
            command = appcmd.parse(text)
        except appcmd.CommandError as exc:
            self.query_one(Transcript).error(str(exc))
            return
        if command is not None:
            self.run_app_command(command)
            return
        if text.startswith("//"):
            text = text[1:]
        if not text:
            if self._editing is not None:
                self._editing = None
                return
            self.action_accept()
            return
        if self._editing is not None:
            self._editing = None
            self.jobs.submit(lambda: self.session.edit(text), label=text)
        else:
            self.jobs.submit(lambda: self.session.play(text, actor="human"), label=text)

    def run_app_command(self, command: appcmd.AppCommand) -> None:
        """Run an app command from the registry (they never reach the game)."""
        try:
            if not self.study.allows_command(command.name):
                raise appcmd.CommandError(f"/{command.name} is not part of this study (you play alone)")
            REGISTRY.get(command.name).run(self, command)
        except appcmd.CommandError as exc:
            self.query_one(Transcript).error(str(exc))

    # -------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Game keys do nothing (and leave the footer) while a dialog or the inspector is on top.
        if action in {"accept", "reject", "edit", "autopilot", "pause", "step", "speed", "zoom", "toggle_panel",
                      "inspector"} and len(self.app.screen_stack) > 1:
            return False
        # A baseline participant plays alone: the agent's keys (and the memory, unless shown) are gone.
        return self.study.allows_action(action)

    def action_accept(self) -> None:
        """Play the agent's pending proposal."""
        self.jobs.submit(lambda: self.session.commands.accept().shown or None, label="")

    def action_reject(self) -> None:
        """Refuse the proposal, with an optional reason from a small dialog."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to reject.", timeout=3)
            return
        # deferred: the screen loads when first opened, not with the app's first frame
        from zorktui.ui.screens.reject import RejectScreen

        def done(reason: str | None) -> None:
            if reason is not None:
                self.reject(reason)

        self.app.push_screen(RejectScreen(p.command), done)

    def reject(self, reason: str) -> None:
        """Refuse the pending proposal with a reason ("" for none); the agent thinks again."""
        try:
            answer = self.session.commands.reject(reason)  # quick: it only asks the thinking thread anew
        except appcmd.CommandError as exc:
            self.notify(sentence(str(exc)), timeout=3)
            return
        self.query_one(Transcript).note(answer.text)
        agent = self.query_one(AgentPanel)
        agent.state.proposal = None
        agent.redraw()
        self.bridge.show_hint()
        self.bridge.refresh_status()

    def action_edit(self) -> None:
        """Put the proposal into the command line to change it (Enter then plays it as an edit)."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to edit.", timeout=3)
            return
        line = self.query_one(CommandLine)
        line.put(p.command)  # exactly the proposal: no completion shown after it
        line.focus()
        self._editing = p

    def action_autopilot(self) -> None:
        """Hand control to the agent, or take it back."""
        if self.session.autopilot.running or (self.session.agent is None and self.session.mode == Mode.AUTOPILOT):
            self._say(self.session.commands.take_back)
        else:
            self.start_autopilot(None)

    def start_autopilot(self, steps: int | None) -> None:
        """Hand control to the agent (for at most ``steps`` commands; None: until it stops)."""
        self._say(lambda: self.session.commands.auto(steps), timeout=6)
        self.bridge.show_hint()

    def action_pause(self) -> None:
        """Pause or resume the autopilot."""
        self._say(self.session.commands.pause)

    def action_step(self) -> None:
        """One autopilot command when paused; otherwise play the pending proposal."""
        self.jobs.submit(lambda: self.session.commands.step().shown or None, label="")

    def action_speed(self) -> None:
        """Cycle the autopilot's delay between commands."""
        later = [d for d in SPEEDS if d > self.session.autopilot.delay]
        self.set_delay(later[0] if later else SPEEDS[0])

    def set_delay(self, delay: float | str) -> None:
        """Seconds the autopilot waits between commands.

        Raises:
            CommandError: Not a number of seconds from 0 to 60.
        """
        self.notify(self.session.commands.speed(delay).text, timeout=2)
        self.bridge.refresh_status()

    def set_mode(self, mode: str) -> None:
        """Who plays: "human", "coplay" or "autopilot".

        Raises:
            CommandError: Not a mode, or an agent's mode in a session without one.
        """
        self.session.commands.mode(mode)
        self.bridge.refresh_status()

    def _say(self, verb: Callable[[], Answer], timeout: float = 3) -> None:
        """Run a quick verb of the session's and show its answer (or why it was refused) as a notification."""
        try:
            answer = verb()
        except appcmd.CommandError as exc:
            self.notify(sentence(str(exc)), severity="warning", timeout=timeout)
        else:
            if answer.text:
                self.notify(answer.text, timeout=timeout)
        self.bridge.refresh_status()

    def action_toggle_panel(self, name: str) -> None:
        """Hide or show a side panel."""
        panel = self.query_one(f"#{name}")
        panel.display = not panel.display
        side = self.query_one("#side")
        side.display = any(w.display for w in side.children)

    def action_zoom(self) -> None:
        """Zoom the next panel (transcript, room, map, agent, then none)."""
        order = [None, *self.study.zoom_panels(ZOOM_ORDER)]
        self.zoom_to(order[(order.index(self.zoomed) + 1) % len(order)])

    def zoom_to(self, name: str | None) -> None:
        """Zoom a panel by id to fill the screen (None: unzoom)."""
        self.zoomed = name
        if name is None:
            self.minimize()
            return
        widget = self.query_one(f"#{name}")
        widget.display = True
        self.query_one("#side").display = True
        self.maximize(widget, container=False)

    def action_help(self) -> None:
        """Show every key and app command."""
        # deferred: the screen loads when first opened, not with the app's first frame
        from zorktui.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.key_rows()))

    def key_rows(self) -> list[tuple[str, str, str]]:
        """(keys, id, description) for every binding of the main screen, as remapped by the keymap."""
        keymap = getattr(self.app, "_keymap", {}) or {}
        rows = []
        # The help lists quit last (the footer shows it first).
        mine = sorted(self.BINDINGS, key=lambda b: isinstance(b, Binding) and b.id == "quit")
        for binding in [*mine, *CommandLine.BINDINGS]:
            if not isinstance(binding, Binding):
                continue
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            rows.append((keys.replace(",", ", "), binding.id or "", binding.tooltip or binding.description))
        rows.append(("enter", "", "play the command; on an empty line, play the agent's proposal"))
        rows.append(("escape", "", "unzoom (typing unzooms too, into the command line)"))
        rows.append(("ctrl+p", "", "command palette (app commands, themes, keys, quit)"))
        return rows

    def action_inspector(self) -> None:
        """Open the memory inspector on the current turn."""
        memory = self.view.memory_view(self.jobs.reading)
        if memory is None:
            self.notify("This session keeps no memory (play with a session folder).", severity="warning")
            return
        # deferred: the inspector and the memory queries behind it (about 40 ms) load when first opened
        from zorktui.ui.screens.inspector import InspectorScreen

        self.app.push_screen(InspectorScreen(memory, self.session.current.turn))

    def maximized_changed(self, widget: object | None) -> None:
        """The main screen's zoom changed, by F5, /map or Textual's own Escape: unzoomed, the keys go to the command line."""
        if widget is None:
            self.zoomed = None
            self.set_focus(self.query_one(CommandLine))

    async def on_key(self, event: events.Key) -> None:
        # A key typed where nothing takes text (a zoomed panel, a clicked panel) reaches the app unused:
        # it is not dropped but goes to the command line (unzooming), as if the person had never left it.
        # Keys typed quickly all went to that panel before the first came back here, so each is routed,
        # Enter included, whatever has focus by now (an Input uses every key it is sent).
        if self.app.screen is not self:
            return
        line = self.query_one(CommandLine)
        if event.key == "enter":
            if not (line.value and line.has_focus):
                return
            await line.action_submit()
        elif event.is_printable and event.character is not None:
            if self.zoomed is not None:
                self.zoom_to(None)
            self.set_focus(line)
            line.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()
