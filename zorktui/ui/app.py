"""The zorktui app: the main screen, its bindings, and the bridge between the session and the widgets.

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
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input
from textual.worker import Worker, WorkerState, get_current_worker

from zorktui.engine.errors import ZorkTuiError
from zorktui.session import events as ev
from zorktui.ui import commands as appcmd
from zorktui.ui.keymap import UiConfig, load_config
from zorktui.ui.messages import ActionsReady, Notice, PanelData, PanelsReady, SessionClosed, SessionEvent
from zorktui.ui.themes import BUILTIN_THEMES, DEFAULT_THEME, load_user_themes
from zorktui.ui.widgets.agentpanel import AgentPanel, ending_line, ending_word, refusal_line
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel, room_info
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

#: Seconds between autopilot commands in the app unless config.toml says otherwise.
DEFAULT_AUTOPILOT_DELAY = 0.25
#: Autopilot delays the speed key cycles through (seconds between commands).
SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)
#: Actions a human-baseline participant does not get (the inspector only when the study shows the memory).
BASELINE_HIDDEN = frozenset({"accept", "reject", "edit", "autopilot", "pause", "step", "speed", "inspector",
                             "toggle_panel"})
#: App commands a baseline participant does not get.
BASELINE_COMMANDS_OFF = frozenset({"mode", "auto", "pause", "step", "speed", "reject", "memory", "map"})
#: Panels the zoom key cycles through.
ZOOM_ORDER = ("transcript", "room", "map", "agent")


class ZorkApp(App[None]):
    """Co-play of a Z-machine story by a person and an agent.

    Args:
        built: What :func:`zorktui.session.factory.build_session` made (session, warnings, LLM client).
        theme: Theme name to start with (else the config file's, else the default).
        config: Settings (default: read ``config_dir()/config.toml``).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
    """

    CSS_PATH = "app.tcss"
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
        super().__init__()
        self.built = built
        self.session = built.session
        #: A human-baseline study's rules (None: an ordinary session).
        self.baseline = getattr(built, "baseline", None)
        ids = {b.id for b in self.BINDINGS if isinstance(b, Binding) and b.id}
        self.ui_config = config if config is not None else load_config(binding_ids=ids)
        self.startup_notes: list[str] = list(built.warnings) + list(self.ui_config.warnings)
        for builtin in BUILTIN_THEMES:
            self.register_theme(builtin)
        if themes_dir is None:
            from zorktui.locations import config_dir

            themes_dir = config_dir() / "themes"
        user_themes, warnings = load_user_themes(themes_dir)
        for user_theme in user_themes:
            self.register_theme(user_theme)
        self.startup_notes += warnings
        wanted = theme or self.ui_config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.startup_notes.append(f"no theme called {wanted!r}; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME
        self.theme = wanted
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
        self._zoomed: str | None = None
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
        if self.baseline is not None:
            self._baseline_layout()
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
        if self.baseline is not None:
            self._ask_consent()
        if self.session.agent is not None and not self.session.current.done:
            if self.session.mode == "autopilot":
                self.session.start_autopilot()
            elif self.session.mode == "coplay" and self.session.pending is None:
                self.session.request_proposal()
        self.query_one(CommandLine).focus()

    # ------------------------------------------------------------ baseline
    def _baseline_layout(self) -> None:
        """No agent panel; the memory's panels only if the study shows them."""
        self.query_one("#agent").display = False
        if not self.baseline.show_memory:
            self.query_one("#room").display = False
            self.query_one("#map").display = False
            self.query_one("#side").display = False

    def _ask_consent(self) -> None:
        """Ask before the first command (a resumed session that was agreed to is not asked again)."""
        from zorktui.ui.screens.consent import ConsentScreen

        answer = getattr(self.built, "consent", None)
        if answer is True:
            return
        if answer is False:
            self.notify("This participant declined; the session stays closed.", severity="error")
            self.call_after_refresh(self.action_quit)
            return
        self.push_screen(ConsentScreen(self.baseline.consent, self.baseline.participant), self._consented)

    def _consented(self, agreed: bool | None) -> None:
        rules = self.baseline
        answer = "agreed" if agreed else "declined"
        recorder = self.session.recorder

        def record() -> None:
            if recorder is not None:
                recorder.consent(answer, rules.consent, rules.header_fields())
            # Think time of the first command starts now, not while the consent text was read.
            self.session.mark_ready()

        self.submit_job(record, label="consent")
        transcript = self.query_one(Transcript)
        if agreed:
            transcript.note(f"Thank you. Participant {rules.participant}: play begins"
                            + ("" if rules.allow_undo else " (undo is off in this study)") + ".", style="bold italic")
            self.query_one(CommandLine).focus()
        else:
            transcript.note("You declined: nothing will be played. Closing.", style="bold italic")
            self.call_after_refresh(self.action_quit)

    def _describe_agent(self) -> str:
        agent = self.session.agent
        if self.baseline is not None:
            return f"baseline {self.baseline.participant}"
        if agent is None:
            return "no agent"
        llm = self.built.llm
        if llm is not None and getattr(agent, "name", "") != "explore":
            return f"llm {getattr(llm.config, 'model', '')}".strip()
        return f"{getattr(agent, 'name', 'agent')} (offline)"

    def _usage(self) -> Any:
        return self.built.llm.usage if self.built.llm is not None else None

    # ------------------------------------------------------- session bridge
    def _forward(self, event: ev.Event) -> None:
        """Session subscriber: runs on the session's threads, so it only posts."""
        self.post_message(SessionEvent(event))

    def on_session_event(self, message: SessionEvent) -> None:
        event = message.event
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is None:
            return
        try:
            handler(event)
        except NoMatches:
            if not self._tearing_down():
                raise

    def _tearing_down(self) -> bool:
        """The app is closing: a message arriving now may find its widgets already gone.

        Textual removes widgets before (or while) it clears ``is_running``, so
        a late event or a panel reader's result has nothing to be shown on.
        """
        return self._quitting or not self.is_running or self._closing or self._closed

    def _on_TurnDone(self, event: ev.TurnDone) -> None:  # noqa: N802 - named after the event
        transcript = self.query_one(Transcript)
        turn = event.turn
        if event.jump:
            where = turn.location.name if turn.location else "?"
            transcript.note(f"— {event.jump}: back to turn {turn.turn} ({where}) —", style="bold italic")
        else:
            transcript.echo(turn.command or "", event.actor)
            transcript.game_text(turn.observation)
        if turn.done:
            transcript.note(ending_line(turn, self.session.game.max_score), style="bold")
        self._editing = None
        agent = self.query_one(AgentPanel)
        if agent.state.proposal is not None and agent.state.proposal.turn != turn.turn:
            agent.state.proposal = None
        agent.state.turn = turn.turn
        agent.state.ended = ending_word(turn) if turn.done else ""
        if turn.done:
            agent.state.notes = []  # they were about a game that goes on
        agent.state.usage = self._usage()
        agent.state.objective = self.session.objective
        agent.redraw()
        self._show_hint()
        self._refresh_status()
        self.refresh_panels()
        self._after_turn_started()

    def _on_ThinkingStarted(self, event: ev.ThinkingStarted) -> None:  # noqa: N802
        agent = self.query_one(AgentPanel)
        agent.state.thinking = True
        agent.redraw()
        self._refresh_status()

    def _on_ThinkingFinished(self, event: ev.ThinkingFinished) -> None:  # noqa: N802
        agent = self.query_one(AgentPanel)
        agent.state.thinking = False
        agent.state.think_ms = event.ms
        agent.state.usage = self._usage()
        agent.redraw()
        self._refresh_status()

    def _on_ProposalReady(self, event: ev.ProposalReady) -> None:  # noqa: N802
        if event.proposal.turn != self.session.current.turn:
            return
        agent = self.query_one(AgentPanel)
        agent.state.proposal = event.proposal
        agent.state.objective = self.session.objective
        agent.state.usage = self._usage()
        agent.redraw()
        self._show_hint()

    def _on_CriticVerdict(self, event: ev.CriticVerdict) -> None:  # noqa: N802
        verdict = event.verdict
        if verdict.accepted:
            return
        agent = self.query_one(AgentPanel)
        if agent.state.refuse(event.turn, verdict) and self.session.autopilot_running:
            self.query_one(Transcript).note(f"The critic refused {refusal_line(verdict)}")
        agent.redraw()

    def _on_NotPlayed(self, event: ev.NotPlayed) -> None:  # noqa: N802
        transcript = self.query_one(Transcript)
        transcript.echo(event.command, event.actor)
        transcript.note(event.message, style="bold")

    def _on_Notes(self, event: ev.Notes) -> None:  # noqa: N802
        agent = self.query_one(AgentPanel)
        agent.state.notes = list(event.lines)
        agent.redraw()

    def _on_ModeChanged(self, event: ev.ModeChanged) -> None:  # noqa: N802
        self._show_hint()
        self._refresh_status()

    def _on_AutopilotState(self, event: ev.AutopilotState) -> None:  # noqa: N802
        transcript = self.query_one(Transcript)
        if event.state == "stopped":
            transcript.note(f"Autopilot stopped: {event.reason or 'stopped'}. You have the controls.", style="bold italic")
            self.notify(f"Autopilot stopped: {event.reason or 'stopped'}", timeout=4)
            self._show_hint()  # a proposal made just before the hand-back is the person's now
        elif event.state == "running":
            transcript.note("Autopilot on: the agent plays (ctrl+a or typing takes over).", style="bold italic")
        elif event.state == "paused":
            transcript.note("Autopilot paused (F7 resumes, F8 steps).", style="italic")
        self._refresh_status()

    def _on_ErrorEvent(self, event: ev.ErrorEvent) -> None:  # noqa: N802
        self.query_one(Transcript).error(event.message)
        self.notify(event.message, severity="error", timeout=6)

    def on_notice(self, message: Notice) -> None:
        if message.transcript:
            transcript = self.query_one(Transcript)
            if message.severity == "error":
                transcript.error(message.text)
            else:
                transcript.note(message.text)
        self.notify(message.text, severity=message.severity, timeout=4)  # type: ignore[arg-type]

    # ---------------------------------------------------------- status bits
    def _refresh_status(self) -> None:
        s = self.session
        turn = s.current
        agent = self.query_one(AgentPanel).state
        llm = self._agent_name
        if s.agent is not None:
            llm += ": thinking…" if agent.thinking else (": ready" if s.pending is not None else ": idle")
        auto = ""
        if s.autopilot_running:
            auto = ("AUTOPILOT paused" if s.autopilot_paused else "AUTOPILOT") + f" {s.delay:g}s"
        self.query_one(StatusBar).update_status(
            title=s.game.story.title or Path(str(s.game.story.path)).stem,
            location=turn.location.name if turn.location else "",
            score=turn.score, max_score=s.game.max_score, moves=turn.moves, turn=turn.turn,
            mode=s.mode, agent=llm, autopilot=auto,
        )

    def _show_hint(self) -> None:
        p = self.session.pending
        line = self.query_one(CommandLine)
        if p is not None and p.turn == self.session.current.turn and not self.session.autopilot_running:
            verdict = ""
            if p.verdict is not None:
                verdict = f"  [critic {'in favour' if p.verdict.accepted else 'against'}, {p.verdict.score:+.2f}]"
            line.set_hint(f"⏎ play '{p.command}' · ^R reject · ^E edit{verdict}")
        else:
            line.set_hint(None)

    def _after_turn_started(self) -> None:
        if not self.session.autopilot_running and not self.session.current.done:
            self.fetch_actions()

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
                text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
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
            text = f"{event.worker.name or 'worker'} failed: {type(error).__name__}: {error}".splitlines()[0][:200]
            self.query_one(Transcript).error(text)
            self.notify(text, severity="error", timeout=6)
            if event.worker.group == "game" and not self._quitting:
                self._serve_jobs()

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
            self.submit_job(lambda: self.session.edit(text), label=text)
        else:
            self.submit_job(lambda: self.session.play(text, actor="human"), label=text)

    def run_app_command(self, command: appcmd.AppCommand) -> None:
        """Run an app command (they never reach the game)."""
        s = self.session
        name, arg = command.name, command.arg
        try:
            if self.baseline is not None and name in BASELINE_COMMANDS_OFF and not (
                    name in ("memory", "map") and self.baseline.show_memory):
                raise appcmd.CommandError(f"/{name} is not part of this study (you play alone)")
            if name == "undo":
                n = command.int_arg(1)
                self.submit_job(lambda: s.undo(n) and None, label="/undo")
            elif name == "save":
                if not arg:
                    raise appcmd.CommandError("/save needs a name, e.g. /save before-the-cellar")
                self.submit_job(lambda: f"Saved checkpoint '{arg}' ({s.save(arg).name})", label="/save")
            elif name == "restore":
                if not arg:
                    raise appcmd.CommandError("/restore needs a name (/saves lists them)")
                self.submit_job(lambda: s.restore(arg) and None, label="/restore")
            elif name == "saves":
                self.submit_job(self._list_saves, label="/saves")
            elif name == "restart":
                self.submit_job(lambda: s.restart() and None, label="/restart")
            elif name == "mode":
                self._set_mode(arg)
            elif name == "auto":
                steps = command.int_arg(0, minimum=0) or None
                self._start_autopilot(steps)
            elif name == "pause":
                self.action_pause()
            elif name == "step":
                self.action_step()
            elif name == "speed":
                try:
                    delay = float(arg)
                except ValueError:
                    raise appcmd.CommandError("/speed takes seconds, e.g. /speed 0.5") from None
                if delay < 0 or delay > 60:
                    raise appcmd.CommandError("/speed takes 0 to 60 seconds")
                self._set_delay(delay)
            elif name == "reject":
                self._reject(arg)
            elif name == "memory":
                self.action_inspector()
            elif name == "map":
                self._zoom_to(None if self._zoomed == "map" else "map")
            elif name == "theme":
                if arg not in self.available_themes:
                    raise appcmd.CommandError(f"no theme {arg!r}; there are {', '.join(sorted(self.available_themes))}")
                self.theme = arg
            elif name == "help":
                self.action_help()
            elif name == "quit":
                self.action_quit()
        except appcmd.CommandError as exc:
            self.query_one(Transcript).error(str(exc))

    def _list_saves(self) -> str:
        saves = self.session.checkpoints()
        if not saves:
            return "No checkpoints yet (/save NAME makes one)."
        return "Checkpoints: " + ", ".join(
            f"{c.get('name', '?')} (turn {c.get('turn', '?')}, {c.get('location') or '?'})" for c in saves)

    # -------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Game keys do nothing while a dialog or the inspector is on top.
        if action in {"accept", "reject", "edit", "autopilot", "pause", "step", "speed", "zoom", "toggle_panel",
                      "inspector"} and len(self.screen_stack) > 1:
            return False
        # A baseline participant plays alone: the agent's keys (and the memory, unless shown) are gone.
        if self.baseline is not None and action in BASELINE_HIDDEN:
            return action == "inspector" and self.baseline.show_memory
        return True

    def action_accept(self) -> None:
        """Play the agent's pending proposal."""
        p = self.session.pending
        if p is None or p.turn != self.session.current.turn:
            s = self.session
            if s.agent is None:
                why = "No agent in this session."
            elif s.current.done:
                why = "The story has ended: /undo, /restore NAME or /restart to play on."
            elif self.query_one(AgentPanel).state.thinking:
                why = "The agent is still thinking; Enter again once its proposal shows."
            elif s.mode == "human":
                why = "No proposals in human mode (/mode coplay turns them on)."
            else:
                why = "No proposal to accept yet."
            self.notify(why, timeout=3)
            return
        self.submit_job(lambda: None if self.session.accept() else "The proposal went stale; the agent thinks again.",
                        label="accept")

    def action_reject(self) -> None:
        """Refuse the proposal, with an optional reason from a small dialog."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to reject.", timeout=3)
            return
        from zorktui.ui.screens.reject import RejectScreen

        def done(reason: str | None) -> None:
            if reason is not None:
                self._reject(reason)

        self.push_screen(RejectScreen(p.command), done)

    def _reject(self, reason: str) -> None:
        p = self.session.pending
        if p is None:
            self.notify("No proposal to reject.", timeout=3)
            return
        self.query_one(Transcript).note(f"You refused '{p.command}'" + (f": {reason}" if reason else "."))
        agent = self.query_one(AgentPanel)
        agent.state.proposal = None
        agent.redraw()
        self.session.reject(reason)  # quick: it only asks the thinking thread for a new proposal
        self._show_hint()
        self._refresh_status()

    def action_edit(self) -> None:
        """Put the proposal into the command line to change it (Enter then plays it as an edit)."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to edit.", timeout=3)
            return
        line = self.query_one(CommandLine)
        line.value = p.command
        line.cursor_position = len(p.command)
        line.focus()
        self._editing = p

    def action_autopilot(self) -> None:
        """Hand control to the agent, or take it back."""
        if self.session.autopilot_running:
            self.session.stop_autopilot("you took the controls back")
        else:
            self._start_autopilot(None)

    def _start_autopilot(self, steps: int | None) -> None:
        if self.session.agent is None:
            self.notify("No agent in this session (start with --agent explore or --agent llm).", severity="warning")
            return
        if self.session.current.done:
            self.notify("The story has ended; /undo or /restart first.", severity="warning")
            return
        self.session.start_autopilot(steps)
        self._show_hint()
        self._refresh_status()

    def action_pause(self) -> None:
        """Pause or resume the autopilot."""
        s = self.session
        if not s.autopilot_running:
            self.notify("The autopilot is not on (ctrl+a).", timeout=3)
        elif s.autopilot_paused:
            s.resume()
        else:
            s.pause()
        self._refresh_status()

    def action_step(self) -> None:
        """One autopilot command when paused; otherwise play the pending proposal."""
        if self.session.autopilot_running:
            if not self.session.autopilot_paused:
                self.session.pause()
            self.session.step_once()
        else:
            self.action_accept()

    def action_speed(self) -> None:
        """Cycle the autopilot's delay between commands."""
        later = [d for d in SPEEDS if d > self.session.delay]
        self._set_delay(later[0] if later else SPEEDS[0])

    def _set_delay(self, delay: float) -> None:
        self.session.delay = delay
        self.notify(f"Autopilot delay {delay:g} s", timeout=2)
        self._refresh_status()

    def _set_mode(self, mode: str) -> None:
        if mode not in ("human", "coplay", "autopilot"):
            raise appcmd.CommandError("/mode takes human, coplay or autopilot")
        if mode != "human" and self.session.agent is None:
            raise appcmd.CommandError("no agent in this session (start with --agent explore or --agent llm)")
        self.session.set_mode(mode)
        self._refresh_status()

    def action_toggle_panel(self, name: str) -> None:
        """Hide or show a side panel."""
        panel = self.query_one(f"#{name}")
        panel.display = not panel.display
        side = self.query_one("#side")
        side.display = any(w.display for w in side.children)

    def action_zoom(self) -> None:
        """Zoom the next panel (transcript, room, map, agent, then none)."""
        panels = ZOOM_ORDER
        if self.baseline is not None:  # never reveal what the study hides
            panels = ("transcript", "room", "map") if self.baseline.show_memory else ("transcript",)
        order = [None, *panels]
        self._zoom_to(order[(order.index(self._zoomed) + 1) % len(order)])

    def _zoom_to(self, name: str | None) -> None:
        self._zoomed = name
        if name is None:
            self.screen.minimize()
            self.query_one(CommandLine).focus()
            return
        widget = self.query_one(f"#{name}")
        widget.display = True
        self.query_one("#side").display = True
        self.screen.maximize(widget, container=False)

    def action_help(self) -> None:
        """Show every key and app command."""
        from zorktui.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.key_rows()))

    def key_rows(self) -> list[tuple[str, str, str]]:
        """(keys, id, description) for every binding of the main screen, as remapped by the keymap."""
        keymap = getattr(self, "_keymap", {}) or {}
        rows = []
        for binding in [*self.BINDINGS, *CommandLine.BINDINGS]:
            if not isinstance(binding, Binding):
                continue
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            rows.append((keys.replace(",", ", "), binding.id or "", binding.tooltip or binding.description))
        rows.append(("enter", "", "play the command; on an empty line, play the agent's proposal"))
        rows.append(("escape", "", "unzoom"))
        rows.append(("ctrl+p", "", "command palette (themes, keys, quit)"))
        return rows

    def action_inspector(self) -> None:
        """Open the memory inspector on the current turn."""
        if self.session.memory is None:
            self.notify("This session keeps no memory (play with a session folder).", severity="warning")
            return
        from zorktui.ui.screens.inspector import InspectorScreen

        self.push_screen(InspectorScreen(self.session.memory, self.session.current.turn, reading=self._reading))

    def on_key(self, event: Any) -> None:
        if event.key == "escape" and self._zoomed is not None and len(self.screen_stack) == 1:
            self._zoom_to(None)

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
