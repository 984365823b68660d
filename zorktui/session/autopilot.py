"""The autopilot: the agent plays on its own thread until a stop rule fires or the person takes over.

A part of :class:`zorktui.session.session.Session` (``session.autopilot``), given
the session's public face (:class:`AutopilotHost`) and its event channel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from zorktui.agent import guards
from zorktui.core.errors import one_line
from zorktui.core.turn import Turn
from zorktui.session import events as ev
from zorktui.session.modes import Mode

if TYPE_CHECKING:  # the host's parts, named in hints only
    from zorktui.agent.llm import Usage
    from zorktui.agent.playlog import PlayLog
    from zorktui.agent.proposal import Policy, Proposal


@dataclass
class StopRules:
    """When autopilot hands control back.

    Attributes:
        steps: Commands the agent may play (None: no limit).
        on_score_change: Stop when the score changes.
        on_death: Stop when the game ends (it cannot go on anyway; the flag only names the rule).
        on_loop: Stop when play goes round in circles.
        max_tokens: Model tokens for the session (None: no limit).
        max_cost: Dollars for the session (None: no limit).
    """

    steps: int | None = None
    on_score_change: bool = False
    on_death: bool = True
    on_loop: bool = True
    max_tokens: int | None = None
    max_cost: float | None = None


class AutopilotHost(Protocol):
    """What the autopilot asks of the session it plays in."""

    agent: Policy | None
    usage: Usage | None
    log: PlayLog
    mode: Mode
    closed: bool

    @property
    def pending(self) -> Proposal | None: ...

    @property
    def current(self) -> Turn: ...

    @property
    def game_lock(self) -> threading.RLock: ...

    def propose(self) -> Proposal | None: ...

    def play_accepted(self, proposal: Proposal) -> Turn: ...

    def propose_again(self) -> None: ...


class Autopilot:
    """Autopilot control of a session: start, pause, step, stop, and the rules that stop it.

    Args:
        host: The session it plays in.
        emit: The session's event channel.
        rules: When to hand control back (the session's own, shared).
    """

    def __init__(self, host: AutopilotHost, emit: Callable[[ev.Event], None], rules: StopRules) -> None:
        self._host = host
        self._emit = emit
        self.rules = rules
        # The budget the session was made with: a start without one goes back to it, not to the last one asked.
        self._configured_steps = rules.steps
        #: Seconds the autopilot waits between its commands (the UI's speed setting).
        self.delay = 0.0
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._playing = threading.Event()
        self._one_step = threading.Event()
        self._steps = 0
        self._stop_reason = ""

    @property
    def running(self) -> bool:
        """The autopilot thread is alive (playing or paused)."""
        return self._thread is not None and self._thread.is_alive() and not self._stopping.is_set()

    @property
    def paused(self) -> bool:
        """Autopilot is on but waiting."""
        return self.running and not self._playing.is_set()

    def start(self, steps: int | None = None) -> None:
        """Let the agent play on its own thread until a stop rule fires.

        Args:
            steps: Commands it may play this time (None: the session's own budget, if it has one).
        """
        if self._host.agent is None:
            self._emit(ev.ErrorEvent("no agent to hand control to"))
            return
        if self.running:
            self.resume()
            return
        self.rules.steps = steps if steps is not None else self._configured_steps
        self._stopping.clear()
        self._playing.set()
        self._steps = 0
        self._stop_reason = ""
        self._host.mode = Mode.AUTOPILOT
        self._thread = threading.Thread(target=self._loop, name="zorktui-autopilot", daemon=True)
        self._thread.start()
        self._emit(ev.AutopilotState("running"))

    def pause(self) -> None:
        """Hold the autopilot after its current step."""
        self._playing.clear()
        self._emit(ev.AutopilotState("paused"))

    def resume(self) -> None:
        """Let a paused autopilot play on."""
        self._playing.set()
        self._emit(ev.AutopilotState("running"))

    def step_once(self) -> None:
        """Let a paused autopilot play exactly one command."""
        self._one_step.set()

    def stop(self, reason: str = "stopped") -> None:
        """Stop the autopilot (it finishes the step in hand)."""
        if self._thread is None:
            return
        self._stopping.set()
        self._playing.set()
        self._one_step.set()
        self._stop_reason = reason

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the autopilot thread to end."""
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self, steps: int | None = None) -> str:
        """Play on this thread until a stop rule fires; returns the rule (for scripts and ``zorktui run``)."""
        if steps is not None:
            self.rules.steps = steps
        self._steps = 0
        self._host.mode = Mode.AUTOPILOT
        while True:
            reason = self._step()
            if reason:
                return reason

    def _loop(self) -> None:
        reason = ""
        try:
            while not self._stopping.is_set():
                if not self._playing.is_set():
                    # Paused: wait for resume or a single step.
                    while not (self._playing.is_set() or self._one_step.is_set()):
                        self._one_step.wait(0.1)
                    if self._stopping.is_set():
                        break
                    self._one_step.clear()
                reason = self._step()
                if reason:
                    break
                if self.delay:
                    self._stopping.wait(self.delay)
        except Exception as exc:  # noqa: BLE001 - reported, never raised in a bare thread
            reason = "error: " + one_line(exc, 200, with_type=True)
            self._emit(ev.ErrorEvent(reason))
        reason = reason or self._stop_reason or "stopped"
        self._stopping.set()  # from here on the autopilot no longer counts as running
        if self._host.mode == Mode.AUTOPILOT:
            self._host.mode = Mode.COPLAY
            self._emit(ev.ModeChanged(Mode.COPLAY))
        self._emit(ev.AutopilotState("stopped", reason))
        # Handing back: the person gets a proposal for where play stands (unless the game is over).
        self._host.propose_again()

    def _step(self) -> str:
        """One autopilot command; returns the stop rule that fired, or ""."""
        host = self._host
        if host.current.done:
            return "the game has ended"
        budget = self._budget_reason()
        if budget:
            return budget
        turn_no = host.current.turn
        proposal = host.propose()
        if self._stopping.is_set():
            return self._stop_reason or "stopped"
        if proposal is None:
            if host.current.turn != turn_no:
                return ""  # someone played meanwhile: think again
            return "the agent had nothing to propose"
        with host.game_lock:
            if host.closed or self._stopping.is_set():
                return self._stop_reason or "stopped"
            if host.current.turn != turn_no or host.pending is not proposal:
                return ""
            turn = host.play_accepted(proposal)
        self._steps += 1
        return self._stop_after(turn)

    def _budget_reason(self) -> str:
        usage, rules = self._host.usage, self.rules
        if usage is not None:
            if rules.max_tokens is not None and usage.prompt_tokens + usage.completion_tokens >= rules.max_tokens:
                return f"token budget reached ({usage.prompt_tokens + usage.completion_tokens})"
            if rules.max_cost is not None and usage.cost >= rules.max_cost:
                return f"cost budget reached (${usage.cost:.4f})"
        return ""

    def _stop_after(self, turn: Turn) -> str:
        rules = self.rules
        if turn.done:
            return "victory" if turn.victory else ("death" if turn.dead else "the game has ended")
        if rules.steps is not None and self._steps >= rules.steps:
            return f"step budget reached ({self._steps})"
        if rules.on_score_change and turn.reward:
            return f"score changed ({turn.reward:+d})"
        if rules.on_loop and guards.inspect(self._host.log).looping:
            return "going round in circles"
        return self._budget_reason()
