"""An outside agent's commands in a running session, under the person's veto.

An outside agent (an MCP client of ``zorktui play --mcp-port``) does not play
on its own in co-play: its command becomes the session's pending proposal,
the same one the app's own agent makes, shown in the Agent panel with the
critic's verdict, and :meth:`OutsideGate.wait` returns once the person has
accepted, edited or rejected it, played a command of their own instead, or
the proposal was withdrawn (the client went away, nobody decided in time,
the session closed). In autopilot the outside agent's command plays at once,
unless the critic is against it. Everything plays under the session's game
lock, so the person's commands and the agent's never interleave.

Plain Python: the app wires it to its keys, the MCP server to its tools.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zorktui.agent.proposal import OUTSIDE_ACTOR, Proposal, Verdict
from zorktui.session import events as ev
from zorktui.session.modes import Mode

if TYPE_CHECKING:  # hints only
    from zorktui.core.turn import Turn
    from zorktui.session.session import Session

ACTOR = OUTSIDE_ACTOR
#: Seconds a proposal waits for the person before it is withdrawn.
DECIDE_TIMEOUT = 600.0


class OutsideRefused(Exception):
    """The outside agent's command was not played; one line says why."""


def source_of(client: str | None) -> str:
    """A proposal's ``source`` for an outside client ("mcp:claude-code")."""
    return f"{ACTOR}:{(client or 'client')[:60]}"


@dataclass
class Decision:
    """What became of an outside command.

    Attributes:
        fate: "accepted", "edited" or "played" (autopilot): ``turn`` is what was played;
            "rejected", "superseded" or "withdrawn": nothing of the agent's was played.
        turn: The turn played (the person's own for "superseded").
        reason: The person's reason for a rejection, or why it was withdrawn.
        verdict: The critic's verdict on the agent's command.
    """

    fate: str
    turn: Turn | None = None
    reason: str = ""
    verdict: Verdict | None = None


@dataclass
class Waiting:
    """An outside proposal waiting for the person."""

    proposal: Proposal
    since: float = field(default_factory=time.monotonic)
    done: threading.Event = field(default_factory=threading.Event)
    decision: Decision | None = None


class OutsideGate:
    """Outside agents' commands into one session (one waiting proposal at a time).

    Args:
        session: The session the app plays.
        timeout: Seconds a proposal waits for the person before it is withdrawn.
    """

    def __init__(self, session: Session, timeout: float = DECIDE_TIMEOUT) -> None:
        self.session = session
        self.timeout = timeout
        self._lock = threading.Lock()
        self._waiting: Waiting | None = None
        self._unsubscribe = session.subscribe(self._on_event)

    @property
    def waiting(self) -> Waiting | None:
        """The outside proposal waiting for the person, if any."""
        return self._waiting

    def submit(self, command: str, client: str | None) -> Waiting | Decision:
        """Hand in a checked command: a :class:`Waiting` proposal in co-play, a :class:`Decision` in autopilot.

        Raises:
            OutsideRefused: Another proposal is waiting, the game has ended, or (autopilot) the critic is against it.
        """
        session = self.session
        if session.mode == Mode.AUTOPILOT:
            return self._play_now(command, client)
        with self._lock:
            if self._waiting is not None:
                raise OutsideRefused(f"not played: '{self._waiting.proposal.command}' is still waiting for the "
                                     "person's decision; one proposal at a time")
            with session.game_lock:  # the verdict is about the state it is shown in
                if session.current.done:
                    raise OutsideRefused("the game has ended: undo(1) or restore_checkpoint(name) to play on")
                verdict = session.judge(command)
                proposal = Proposal(command, source_of(client), session.current.turn, verdict=verdict,
                                    client=(client or "client")[:60])
                waiting = Waiting(proposal)
                self._waiting = waiting
                session.offer(proposal)
        return waiting

    def wait(self, waiting: Waiting, cancel: threading.Event | None = None, poll: float = 0.1) -> Decision:
        """Block until the person decides (or ``cancel`` is set, or the timeout passes: then it is withdrawn)."""
        while not waiting.done.wait(poll):
            if cancel is not None and cancel.is_set():
                self.withdraw(waiting, "the outside agent went away")
            elif self.session.closed:
                self._finish(waiting, Decision("withdrawn", reason="the app closed"))
            elif time.monotonic() - waiting.since > self.timeout:
                self.withdraw(waiting, f"no decision within {self.timeout:g} s")
        assert waiting.decision is not None
        return waiting.decision

    def withdraw(self, waiting: Waiting, reason: str) -> None:
        """Take a proposal back before the person decided (recorded as superseded, with the reason)."""
        if not waiting.done.is_set():
            self.session.withdraw(waiting.proposal, reason)
            self._finish(waiting, Decision("withdrawn", reason=reason))

    def close(self) -> None:
        """Stop listening to the session; a waiting proposal is withdrawn."""
        waiting = self._waiting
        if waiting is not None:
            self._finish(waiting, Decision("withdrawn", reason="the app closed"))
        self._unsubscribe()

    # ----------------------------------------------------------- helpers
    def _play_now(self, command: str, client: str | None) -> Decision:
        session = self.session
        with session.game_lock:  # judged and played in one hold: nothing plays between
            if session.current.done:
                raise OutsideRefused("the game has ended: undo(1) or restore_checkpoint(name) to play on")
            verdict = session.judge(command)
            if verdict is not None and not verdict.accepted:
                why = f"not played: the critic is against it: {verdict.text()}"
                session.say_not_played(command, ACTOR, why)  # the person sees the refusal too
                raise OutsideRefused(why)
            extra: dict[str, Any] = {"client": client[:80]} if client else {}
            if verdict is not None:
                extra["critic"] = verdict.to_record()
            turn = session.play(command, actor=ACTOR, extra=extra)
        return Decision("played", turn, verdict=verdict)

    def _finish(self, waiting: Waiting, decision: Decision) -> None:
        with self._lock:
            if waiting.done.is_set():
                return
            if decision.verdict is None:
                decision.verdict = waiting.proposal.verdict
            waiting.decision = decision
            if self._waiting is waiting:
                self._waiting = None
            waiting.done.set()

    def _on_event(self, event: ev.Event) -> None:
        """Session subscriber (any thread): the person's decision on the waiting proposal."""
        waiting = self._waiting
        if waiting is None:
            return
        if isinstance(event, ev.ProposalDecided) and event.proposal is waiting.proposal:
            self._finish(waiting, Decision(event.fate, event.turn, event.reason))
        elif isinstance(event, ev.TurnDone) and event.jump and self.session.pending is not waiting.proposal:
            where = f"back to turn {event.turn.turn}"
            self._finish(waiting, Decision("superseded", event.turn, f"the person went {where} ({event.jump})"))
