"""The autopilot: the agent plays on its own thread until a stop rule fires or the person takes over.

A mixin of :class:`zorktui.session.session.Session`, which holds the state it reads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zorktui.agent import guards
from zorktui.engine.errors import one_line
from zorktui.engine.turn import Turn
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


class Autopilot:
    """Autopilot control of a :class:`Session`: start, pause, step, stop, and the rules that stop it."""

    # Held by the host (:class:`Session`), which sets them all in its ``__init__``.
    agent: Policy | None
    usage: Usage | None
    log: PlayLog
    mode: Mode
    stop: StopRules
    pending: Proposal | None
    delay: float
    closed: bool
    _lock: threading.RLock
    _auto: threading.Thread | None
    _auto_stop: threading.Event
    _auto_run: threading.Event
    _auto_step: threading.Event
    _auto_steps: int
    _stop_reason: str
    _ready_at: float

    if TYPE_CHECKING:  # the host's, too
        @property
        def current(self) -> Turn: ...

        def _emit(self, event: ev.Event) -> None: ...

        def _play(self, command: str, actor: str, fate: str) -> Turn: ...

        def _propose_again(self) -> None: ...

        def _think_safely(self, turn_no: int, epoch: int | None = None) -> Proposal | None: ...

    @property
    def autopilot_running(self) -> bool:
        """The autopilot thread is alive (playing or paused)."""
        return self._auto is not None and self._auto.is_alive() and not self._auto_stop.is_set()

    @property
    def autopilot_paused(self) -> bool:
        """Autopilot is on but waiting."""
        return self.autopilot_running and not self._auto_run.is_set()

    def start_autopilot(self, steps: int | None = None) -> None:
        """Let the agent play on its own thread until a stop rule fires."""
        if self.agent is None:
            self._emit(ev.ErrorEvent("no agent to hand control to"))
            return
        if self.autopilot_running:
            self.resume()
            return
        if steps is not None:
            self.stop.steps = steps
        self._auto_stop.clear()
        self._auto_run.set()
        self._auto_steps = 0
        self._stop_reason = ""
        self.mode = Mode.AUTOPILOT
        self._auto = threading.Thread(target=self._autopilot_loop, name="zorktui-autopilot", daemon=True)
        self._auto.start()
        self._emit(ev.AutopilotState("running"))

    def pause(self) -> None:
        """Hold the autopilot after its current step."""
        self._auto_run.clear()
        self._emit(ev.AutopilotState("paused"))

    def resume(self) -> None:
        """Let a paused autopilot play on."""
        self._auto_run.set()
        self._emit(ev.AutopilotState("running"))

    def step_once(self) -> None:
        """Let a paused autopilot play exactly one command."""
        self._auto_step.set()

    def stop_autopilot(self, reason: str = "stopped") -> None:
        """Stop the autopilot (it finishes the step in hand)."""
        if self._auto is None:
            return
        self._auto_stop.set()
        self._auto_run.set()
        self._auto_step.set()
        self._stop_reason = reason

    def wait_autopilot(self, timeout: float | None = None) -> None:
        """Wait for the autopilot thread to end."""
        if self._auto is not None:
            self._auto.join(timeout)

    def run_autopilot(self, steps: int | None = None) -> str:
        """Play on this thread until a stop rule fires; returns the rule (for scripts and ``zorktui run``)."""
        if steps is not None:
            self.stop.steps = steps
        self._auto_steps = 0
        self.mode = Mode.AUTOPILOT
        while True:
            reason = self._auto_step_once()
            if reason:
                return reason

    def _autopilot_loop(self) -> None:
        reason = ""
        try:
            while not self._auto_stop.is_set():
                if not self._auto_run.is_set():
                    # Paused: wait for resume or a single step.
                    while not (self._auto_run.is_set() or self._auto_step.is_set()):
                        self._auto_step.wait(0.1)
                    if self._auto_stop.is_set():
                        break
                    self._auto_step.clear()
                reason = self._auto_step_once()
                if reason:
                    break
                if self.delay:
                    self._auto_stop.wait(self.delay)
        except Exception as exc:  # noqa: BLE001 - reported, never raised in a bare thread
            reason = "error: " + one_line(exc, 200, with_type=True)
            self._emit(ev.ErrorEvent(reason))
        reason = reason or self._stop_reason or "stopped"
        self._auto_stop.set()  # from here on the autopilot no longer counts as running
        if self.mode == Mode.AUTOPILOT:
            self.mode = Mode.COPLAY
            self._emit(ev.ModeChanged(Mode.COPLAY))
        self._emit(ev.AutopilotState("stopped", reason))
        # Handing back: the person gets a proposal for where play stands (unless the game is over).
        self._propose_again()

    def _auto_step_once(self) -> str:
        """One autopilot command; returns the stop rule that fired, or ""."""
        if self.current.done:
            return "the game has ended"
        budget = self._budget_reason()
        if budget:
            return budget
        turn_no = self.current.turn
        proposal = self._think_safely(turn_no)
        if self._auto_stop.is_set():
            return self._stop_reason or "stopped"
        if proposal is None:
            if self.current.turn != turn_no:
                return ""  # someone played meanwhile: think again
            return "the agent had nothing to propose"
        with self._lock:
            if self.closed or self._auto_stop.is_set():
                return self._stop_reason or "stopped"
            if self.current.turn != turn_no or self.pending is not proposal:
                return ""
            turn = self._play(proposal.command, "agent", fate="accepted")
        self._auto_steps += 1
        return self._stop_after(turn)

    def _budget_reason(self) -> str:
        usage = self.usage
        if usage is not None:
            if self.stop.max_tokens is not None and usage.prompt_tokens + usage.completion_tokens >= self.stop.max_tokens:
                return f"token budget reached ({usage.prompt_tokens + usage.completion_tokens})"
            if self.stop.max_cost is not None and usage.cost >= self.stop.max_cost:
                return f"cost budget reached (${usage.cost:.4f})"
        return ""

    def _stop_after(self, turn: Turn) -> str:
        if turn.done:
            return "victory" if turn.victory else ("death" if turn.dead else "the game has ended")
        if self.stop.steps is not None and self._auto_steps >= self.stop.steps:
            return f"step budget reached ({self._auto_steps})"
        if self.stop.on_score_change and turn.reward:
            return f"score changed ({turn.reward:+d})"
        if self.stop.on_loop and guards.inspect(self.log).looping:
            return "going round in circles"
        return self._budget_reason()
