"""The zorktui app: the main screen, its bindings, its workers and its closing.

Session events are shown by :mod:`zorktui.ui.bridge`; what the person does
(command line, app commands, keys) is in :mod:`zorktui.ui.player_actions`.

Threads: session events arrive on whatever thread made them and are posted
to the app as :class:`~zorktui.ui.messages.SessionEvent` messages. Everything
that plays (commands, accept, undo, save...) goes through one queue served by
one thread worker, so commands play in the order they were typed and the UI
never waits for the game lock. Panel refreshes and valid actions are thread
workers too; workers only post messages.
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Footer
from textual.worker import Worker, WorkerState, get_current_worker

from zorktui.engine.errors import ZorkTuiError, one_line
from zorktui.session.modes import Mode
from zorktui.ui.baseline_view import BaselineView
from zorktui.ui.bridge import SessionBridge
from zorktui.ui.keymap import UiConfig, load_config
from zorktui.ui.messages import ActionsReady, Notice, PanelData, PanelsReady, SessionClosed
from zorktui.ui.palette import AppCommandProvider
from zorktui.ui.player_actions import PlayerActions
from zorktui.ui.app_base import ZorkTuiAppBase
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel, room_info
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

#: Seconds between autopilot commands in the app unless config.toml says otherwise.
DEFAULT_AUTOPILOT_DELAY = 0.25


class ZorkApp(SessionBridge, PlayerActions, ZorkTuiAppBase):
    """Co-play of a Z-machine story by a person and an agent.

    Args:
        built: What :func:`zorktui.session.factory.build_session` made (session, warnings, LLM client).
        theme: Theme name to start with (else the config file's, else the default).
        config: Settings (default: read ``config_dir()/config.toml``).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
    """

    CSS_PATH = [ZorkTuiAppBase.LAYOUT_CSS, "app.tcss"]
    # The palette lists the app commands beside Textual's own (themes, keys, quit).
    COMMANDS = ZorkTuiAppBase.COMMANDS | {AppCommandProvider}
    TITLE = "zorktui"
    BINDINGS = [
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
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True, tooltip="Save and quit"),
    ]

    def __init__(self, built: Any, theme: str | None = None, config: UiConfig | None = None,
                 themes_dir: Path | None = None) -> None:
        ids = {b.id for b in self.BINDINGS if isinstance(b, Binding) and b.id}
        super().__init__(config if config is not None else load_config(binding_ids=ids), theme=theme,
                         themes_dir=themes_dir)
        self.built = built
        self.session = built.session
        #: A human-baseline study's rules as the app applies them (nothing hidden in an ordinary session).
        self.study = BaselineView(getattr(built, "baseline", None))
        self.startup_notes[:0] = built.warnings
        # A person watches the autopilot here: a short pause between its commands unless configured.
        self.session.delay = self.ui_config.autopilot_delay if self.ui_config.autopilot_delay is not None \
            else DEFAULT_AUTOPILOT_DELAY
        # The line that answers the game's own QUIT names this front's way.
        self.session.quit_how = "press ctrl+q (your session is kept)"
        self._jobs: queue.Queue[tuple[str, Callable[[], Any]] | None] = queue.Queue()
        self._editing: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self._quitting = False
        # Readers of the memory and the game hold this; closing takes it so no read outlives the database.
        self._reading = threading.Lock()
        # The panel reader's state (see refresh_panels).
        self._panels_lock = threading.Lock()
        self._panels_wanted = False
        self._panels_reading = False
        #: The panel zoomed to fill the screen (None: none).
        self.zoomed: str | None = None
        self._agent_name = self._describe_agent()
        #: perf_counter when the first story text was written (for the start-up benchmark).
        self.first_text_at: float | None = None

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
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

    def on_mount(self) -> None:
        if self.ui_config.keymap:
            self.set_keymap(self.ui_config.keymap)
        self.study.apply_layout(self.screen)
        transcript = self.query_one(Transcript)
        turn = self.session.current
        if turn.turn > 0:
            transcript.note(f"Resuming at turn {turn.turn}.")
        transcript.game_text(turn.observation)
        self.first_text_at = time.perf_counter()
        for note in self.startup_notes:
            transcript.note(note, style="italic")
            self.notify(note, severity="warning", timeout=6)
        words = [w.text if hasattr(w, "text") else str(w) for w in getattr(self.session.game.zm.dictionary, "words", [])]
        self.query_one(CommandLine).completer.set_words(words)
        agent = self.query_one(AgentPanel)
        agent.state.agent = self._agent_name if self.session.agent is not None else ""
        agent.state.usage = self._usage()
        agent.redraw()
        self._refresh_status()
        self._unsubscribe = self.session.subscribe(self._forward)
        self._serve_jobs()
        self.refresh_panels()
        self._after_turn_started()
        self.study.ask_consent(self, getattr(self.built, "consent", None))
        if self.session.agent is not None and not self.session.current.done:
            if self.session.mode == Mode.AUTOPILOT:
                self.session.start_autopilot()
            elif self.session.mode == Mode.COPLAY and self.session.pending is None:
                self.session.request_proposal()
        self.query_one(CommandLine).focus()

    # --------------------------------------------------------------- agent
    def _describe_agent(self) -> str:
        agent = self.session.agent
        study_name = self.study.agent_name()
        if study_name is not None:
            return study_name
        if agent is None:
            return "no agent"
        llm = self.built.llm
        if llm is not None and getattr(agent, "name", "") != "explore":
            return f"llm {getattr(llm.config, 'model', '')}".strip()
        return f"{getattr(agent, 'name', 'agent')} (offline)"

    def _usage(self) -> Any:
        return self.built.llm.usage if self.built.llm is not None else None

    # -------------------------------------------------------------- workers
    @work(thread=True, group="game", exit_on_error=False, name="game loop")
    def _serve_jobs(self) -> None:
        """Play queued jobs one at a time, in order, until the app closes."""
        worker = get_current_worker()
        while not worker.is_cancelled:
            try:
                job = self._jobs.get(timeout=0.1)
            except queue.Empty:
                continue
            if job is None:
                self._jobs.task_done()
                return
            label, call = job
            try:
                result = call()
            except (ZorkTuiError, ValueError, OSError) as exc:
                text = one_line(exc)
                self.post_message(Notice(f"{label}: {text}" if label else text, "error"))
            else:
                if isinstance(result, str):
                    self.post_message(Notice(result))
            finally:
                self._jobs.task_done()

    @property
    def busy(self) -> bool:
        """Commands are queued or playing."""
        return self._jobs.unfinished_tasks > 0

    def submit_job(self, call: Callable[[], Any], label: str = "") -> None:
        """Queue something that plays or jumps (runs on the game worker, in order).

        ``call`` may return a string: it is shown to the person.
        """
        self._jobs.put((label, call))

    def refresh_panels(self) -> None:
        """Ask for the Room and Map panels to be read again (off the UI thread).

        Requests coalesce: one reader runs at a time and reads again while
        more were asked for, so a fast autopilot never starves the panels
        (cancelling a reader per turn would, as none would ever finish).
        """
        with self._panels_lock:
            self._panels_wanted = True
            if self._panels_reading:
                return
            self._panels_reading = True
        self._read_panels()

    @work(thread=True, group="panels", exit_on_error=False)
    def _read_panels(self) -> None:
        session = self.session
        try:
            while True:
                with self._panels_lock:
                    if not self._panels_wanted:
                        self._panels_reading = False
                        return
                    self._panels_wanted = False
                with self._reading:
                    if session.closed:
                        return
                    turn = session.current.turn
                    info = room_info(session)
                    map_text = None
                    if session.memory is not None:
                        from zorktui.memory.mapmodel import build_map
                        from zorktui.memory.maprender import render_map

                        map_text = render_map(build_map(session.memory))
                self.post_message(PanelsReady(PanelData(turn, info, map_text)))
        finally:
            with self._panels_lock:
                self._panels_reading = False

    def on_panels_ready(self, message: PanelsReady) -> None:
        if self._tearing_down():
            return
        try:
            self.query_one(RoomPanel).show(message.data.room)
            self.query_one(MapView).show(message.data.map_text)
        except NoMatches:
            if not self._tearing_down():
                raise

    @work(thread=True, exclusive=True, group="actions", exit_on_error=False)
    def fetch_actions(self) -> None:
        """Valid actions of the current state, for completion (searched beside the game: play goes on)."""
        if self.session.closed:
            return
        turn = self.session.current.turn
        try:
            actions = self.session.valid_actions()
        except RuntimeError:
            return  # the session closed while it searched
        if not get_current_worker().is_cancelled:
            self.post_message(ActionsReady(turn, actions))

    def on_actions_ready(self, message: ActionsReady) -> None:
        if message.turn == self.session.current.turn and not self._quitting:
            self.query_one(CommandLine).completer.set_actions(message.actions)
            self.refresh_panels()  # the memory has learned the ways out the valid actions hold

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker failures are reported."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            text = f"{event.worker.name or 'worker'} failed: {one_line(error, 200, with_type=True)}"
            self.query_one(Transcript).error(text)
            self.notify(text, severity="error", timeout=6)
            if event.worker.group == "game" and not self._quitting:
                self._serve_jobs()

    # ----------------------------------------------------------------- quit
    async def action_quit(self) -> None:
        """Save and quit: the session is closed (last turn written, memory flushed) before the app exits."""
        if self._quitting:
            return
        self._quitting = True
        self.query_one(Transcript).note("Saving and closing…")
        self._close_session()

    @work(thread=True, group="close", exit_on_error=False)
    def _close_session(self) -> None:
        self._close_everything()
        self.post_message(SessionClosed())

    def on_session_closed(self, _: SessionClosed) -> None:
        self.exit()

    def _close_everything(self) -> None:
        """Close the session and the game once (any thread)."""
        self._jobs.put(None)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._reading:
            if not self.session.closed:
                self.session.close()
                self.session.game.close()

    def on_unmount(self) -> None:
        # Closing the app any other way (tests, ctrl+c) still writes the last turn.
        self._close_everything()


def create_app(built: Any, theme: str | None = None, config: UiConfig | None = None,
               themes_dir: Path | None = None) -> ZorkApp:
    """The app for a built session (the CLI and the tests share this).

    Args:
        built: :class:`zorktui.session.factory.Built`.
        theme: Theme name (``--theme``).
        config: Settings (default: the config file).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
    """
    return ZorkApp(built, theme=theme, config=config, themes_dir=themes_dir)
