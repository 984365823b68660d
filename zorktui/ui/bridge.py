"""The app's side of the session: session events turned into what the widgets show.

A mixin of :class:`zorktui.ui.app.ZorkApp`: session events arrive on the
session's threads and are posted as :class:`~zorktui.ui.messages.SessionEvent`
messages; each is handled here on the UI thread, by a method named after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.query import NoMatches

from zorktui.session import events as ev
from zorktui.ui.app_host import AppMixin
from zorktui.ui.messages import Notice, SessionEvent
from zorktui.ui.widgets.agentpanel import AgentPanel, ending_line, ending_word, refusal_line
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    from textual.worker import Worker

    from zorktui.agent.llm import Usage
    from zorktui.agent.proposal import Proposal
    from zorktui.session.session import Session
    from zorktui.session.view import SessionView


class SessionBridge(AppMixin):
    """Session events to widgets, and the status line and hint they change."""

    # Held by the app (:class:`ZorkApp`), which sets them in its ``__init__``.
    session: Session
    view: SessionView
    _editing: Proposal | None
    _quitting: bool
    _agent_name: str

    if TYPE_CHECKING:  # the app's and the other mixins'
        def _usage(self) -> Usage | None: ...

        def refresh_panels(self) -> None: ...

        def fetch_actions(self) -> Worker[None]: ...

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
            transcript.note(ending_line(turn, self.view.max_score), style="bold")
        self._editing = None
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
        agent.state.objective = self.session.thinker.objective
        agent.state.usage = self._usage()
        agent.redraw()
        self._show_hint()
        self._refresh_status()
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
        self._show_hint()
        self._refresh_status()

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

    def _on_GameRebuilt(self, event: ev.GameRebuilt) -> None:  # noqa: N802
        self.query_one(Transcript).note(event.message, style="italic")
        self.notify(event.message, severity="warning", timeout=6)

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

    def _show_hint(self) -> None:
        p = self.session.pending
        line = self.query_one(CommandLine)
        if p is not None and p.turn == self.session.current.turn and not self.session.autopilot.running:
            verdict = ""
            if p.verdict is not None:
                verdict = f"  [critic {'in favour' if p.verdict.accepted else 'against'}, {p.verdict.score:+.2f}]"
            line.set_hint(f"⏎ play '{p.command}' · ^R reject · ^E edit{verdict}")
        else:
            line.set_hint(None)

    def _after_turn_started(self) -> None:
        if not self.session.autopilot.running and not self.session.current.done:
            self.fetch_actions()
