"""The main screen's side of the session: session events turned into what the widgets show.

Session events arrive on the session's threads and are posted to the main
screen as :class:`~zorktui.ui.messages.SessionEvent` messages; the screen hands
each to :meth:`Bridge.show` on the UI thread, which calls the method named
after it. The status line and the command line's hint, which many events
change, are drawn here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from textual.css.query import NoMatches

from zorktui.session import events as ev
from zorktui.session.commands import jumped_text
from zorktui.session.view import ending_line, ending_word, refusal_line
from zorktui.ui.messages import Notice, PanelData, SessionEvent
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    from textual.screen import Screen
    from textual.widget import Widget

    from zorktui.agent.llm import Usage
    from zorktui.session.session import Session
    from zorktui.session.view import SessionView
    from zorktui.ui.workers import Jobs

W = TypeVar("W", bound="Widget")


class Bridge:
    """Session events to widgets, and the status line and hint they change.

    Args:
        screen: The main screen, whose widgets show the session.
        session: The session shown.
        view: What the panels read of it.
        jobs: The screen's workers (panels and valid actions are read again after a turn).
        agent_name: How the status line names the agent ("explore (offline)").
        usage: The model client's running totals (None: no model).
        tearing_down: Whether the app is closing (a late message then finds its widgets gone).
    """

    def __init__(self, screen: Screen[None], session: Session, view: SessionView, jobs: Jobs, agent_name: str,
                 usage: Callable[[], Usage | None], tearing_down: Callable[[], bool]) -> None:
        self._screen = screen
        self.session = session
        self.view = view
        self._jobs = jobs
        self.agent_name = agent_name
        self._usage = usage
        self.tearing_down = tearing_down
        self._unsubscribe: Callable[[], None] | None = None

    def query_one(self, selector: type[W]) -> W:
        """The main screen's widget of a type."""
        return self._screen.query_one(selector)

    def notify(self, message: str, *, severity: str = "information", timeout: float = 4) -> None:
        """A notification on the screen."""
        self._screen.notify(message, severity=severity, timeout=timeout)  # type: ignore[arg-type]

    # ------------------------------------------------------- session bridge
    def connect(self) -> None:
        """Start following the session's events."""
        self._unsubscribe = self.session.subscribe(self._forward)

    def disconnect(self) -> None:
        """Stop following the session's events."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _forward(self, event: ev.Event) -> None:
        """Session subscriber: runs on the session's threads, so it only posts."""
        self._screen.post_message(SessionEvent(event))

    def show(self, event: ev.Event) -> None:
        """Show a session event (on the UI thread)."""
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is None:
            return
        try:
            handler(event)
        except NoMatches:
            if not self.tearing_down():
                raise

    def _on_TurnDone(self, event: ev.TurnDone) -> None:  # noqa: N802 - named after the event
        transcript = self.query_one(Transcript)
        turn = event.turn
        if event.jump:
            transcript.note(f"— {jumped_text(event.jump, turn)} —", style="bold italic")
        else:
            transcript.echo(turn.command or "", event.actor)
            transcript.game_text(turn.observation)
        if turn.done:
            transcript.note(ending_line(turn, self.view.max_score), style="bold")
        agent = self.query_one(AgentPanel)
        if agent.state.proposal is not None and agent.state.proposal.turn != turn.turn:
            agent.state.proposal = None
        agent.state.turn = turn.turn
        agent.state.ended = ending_word(turn) if turn.done else ""
        if turn.done:
            agent.state.notes = []  # they were about a game that goes on
        agent.state.usage = self._usage()
        agent.state.objective = self.session.thinker.objective
        agent.redraw()
        self.show_hint()
        self.refresh_status()
        self._jobs.refresh_panels()
        self.after_turn_started()

    def _on_ThinkingStarted(self, event: ev.ThinkingStarted) -> None:  # noqa: N802
        agent = self.query_one(AgentPanel)
        agent.state.thinking = True
        agent.redraw()
        self.refresh_status()

    def _on_ThinkingFinished(self, event: ev.ThinkingFinished) -> None:  # noqa: N802
        agent = self.query_one(AgentPanel)
        agent.state.thinking = False
        agent.state.think_ms = event.ms
        agent.state.usage = self._usage()
        agent.redraw()
        self.refresh_status()

    def _on_ProposalReady(self, event: ev.ProposalReady) -> None:  # noqa: N802
        if event.proposal.turn != self.session.current.turn:
            return
        agent = self.query_one(AgentPanel)
        agent.state.proposal = event.proposal
        agent.state.objective = self.session.thinker.objective
        agent.state.usage = self._usage()
        agent.redraw()
        self.show_hint()
        self.refresh_status()
        client = event.proposal.client
        if client is not None:  # an outside agent waits for the person: say so where the eye is
            self.notify(f"{client} proposes '{event.proposal.command}': Enter plays it, ctrl+r rejects, ctrl+e edits",
                        timeout=6)

    def _on_ProposalDecided(self, event: ev.ProposalDecided) -> None:  # noqa: N802
        # Accepted, edited and superseded proposals leave with their turn; a withdrawn one leaves here.
        if event.fate != "withdrawn":
            return
        self.query_one(Transcript).note(f"The outside agent's '{event.proposal.command}' was withdrawn: {event.reason}.",
                                        style="italic")
        agent = self.query_one(AgentPanel)
        if agent.state.proposal is event.proposal:
            agent.state.proposal = None
            agent.redraw()
        self.show_hint()
        self.refresh_status()

    def _on_CriticVerdict(self, event: ev.CriticVerdict) -> None:  # noqa: N802
        verdict = event.verdict
        if verdict.accepted:
            return
        agent = self.query_one(AgentPanel)
        if agent.state.refuse(event.turn, verdict) and self.session.autopilot.running:
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
        self.show_hint()
        self.refresh_status()

    def _on_AutopilotState(self, event: ev.AutopilotState) -> None:  # noqa: N802
        transcript = self.query_one(Transcript)
        if event.state == "stopped":
            transcript.note(f"Autopilot stopped: {event.reason or 'stopped'}. You have the controls.", style="bold italic")
            self.notify(f"Autopilot stopped: {event.reason or 'stopped'}", timeout=4)
            self.show_hint()  # a proposal made just before the hand-back is the person's now
        elif event.state == "running":
            transcript.note("Autopilot on: the agent plays (ctrl+a or typing takes over).", style="bold italic")
        elif event.state == "paused":
            transcript.note("Autopilot paused (F7 resumes, F8 steps).", style="italic")
        self.refresh_status()

    def _on_GameRebuilt(self, event: ev.GameRebuilt) -> None:  # noqa: N802
        self.query_one(Transcript).note(event.message, style="italic")
        self.notify(event.message, severity="warning", timeout=6)

    def _on_ErrorEvent(self, event: ev.ErrorEvent) -> None:  # noqa: N802
        self.query_one(Transcript).error(event.message)
        self.notify(event.message, severity="error", timeout=6)

    def notice(self, message: Notice) -> None:
        """A worker's line for the person: in the transcript (unless it is only said) and as a notification."""
        if message.transcript:
            transcript = self.query_one(Transcript)
            if message.severity == "error":
                transcript.error(message.text)
            else:
                transcript.note(message.text)
        self.notify(message.text, severity=message.severity, timeout=4)

    def panels(self, data: PanelData) -> None:
        """Show what the panel reader found."""
        if self.tearing_down():
            return
        try:
            self.query_one(RoomPanel).show(data.room)
            self.query_one(MapView).show(data.map_text)
        except NoMatches:
            if not self.tearing_down():
                raise

    # ---------------------------------------------------------- status bits
    def refresh_status(self) -> None:
        """Draw the status line again."""
        s = self.session
        turn = s.current
        agent = self.query_one(AgentPanel).state
        llm = self.agent_name
        if s.agent is not None or s.pending is not None:
            llm += ": thinking…" if agent.thinking else (": ready" if s.pending is not None else ": idle")
        auto = ""
        if s.autopilot.running:
            auto = ("AUTOPILOT paused" if s.autopilot.paused else "AUTOPILOT") + f" {s.autopilot.delay:g}s"
        self.query_one(StatusBar).update_status(
            title=self.view.title,
            location=turn.location.name if turn.location else "",
            score=turn.score, max_score=self.view.max_score, moves=turn.moves, turn=turn.turn,
            mode=s.mode, agent=llm, autopilot=auto,
        )

    def show_hint(self) -> None:
        """Show the pending proposal's keys in the command line's hint (or none)."""
        p = self.session.pending
        line = self.query_one(CommandLine)
        if p is not None and p.turn == self.session.current.turn and not self.session.autopilot.running:
            verdict = ""
            if p.verdict is not None:
                verdict = f"  [critic {'in favour' if p.verdict.accepted else 'against'}, {p.verdict.score:+.2f}]"
            line.set_hint(f"⏎ play '{p.command}' · ^R reject · ^E edit{verdict}")
        else:
            line.set_hint(None)

    def after_turn_started(self) -> None:
        """Look for the new state's valid actions, for completion, unless the autopilot is playing."""
        if not self.session.autopilot.running and not self.session.current.done:
            self._jobs.fetch_actions()
