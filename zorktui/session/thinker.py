"""How the session thinks: the valid actions found beside the game, the situation gathered, the
policy asked, safety, guards and the critic let refuse, and a fallback when they refuse too often.

A part of :class:`zorktui.session.session.Session` (``session.thinker``), given the
session's collaborators and its table of decisions (:class:`ThinkerHost`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from zorktui.agent import guards
from zorktui.agent.playlog import normal
from zorktui.agent.proposal import Idea, Proposal, Verdict
from zorktui.agent.safety import reserved_reason, safe_command
from zorktui.agent.situation import MapView, Situation, lighting_actions, map_view
from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.core.turn import Turn
from zorktui.engine.directions import COMMON
from zorktui.session import events as ev
from zorktui.session.action_search import ActionSearch

if TYPE_CHECKING:  # the collaborators, named in hints only
    from zorktui.agent.critic import Critic
    from zorktui.agent.knowledge import KnowledgeBase
    from zorktui.agent.llm_judge import LlmJudge
    from zorktui.agent.playlog import PlayLog
    from zorktui.agent.proposal import Policy
    from zorktui.agent.subagents import SubAgents
    from zorktui.engine.game_api import GameApi
    from zorktui.memory.graph import Memory

#: Candidates the critic or guards may refuse before it picks the best untried valid action itself.
MAX_ATTEMPTS = 3
#: Turns between objective refreshes.
OBJECTIVE_EVERY = 25


class ThinkerHost(Protocol):
    """The session's table of decisions, as the thinker reads it and hands its proposals to."""

    closed: bool

    @property
    def pending(self) -> Proposal | None:
        """The proposal waiting for the person."""
        ...

    @property
    def epoch(self) -> int:
        """Counts jumps: a thought begun before one is for a line of play that is gone."""
        ...

    @property
    def rejected(self) -> list[tuple[Proposal, str]]:
        """The proposals the person refused this turn, with why."""
        ...

    def deliver(self, proposal: Proposal, turn_no: int, epoch: int) -> bool:
        """Make a finished thought the pending proposal, unless its turn is gone (False)."""
        ...


class Thinker:
    """The proposal pipeline of a :class:`Session` (thinking thread, scripts, the autopilot).

    Args:
        host: The session's table of decisions.
        emit: The session's event channel.
        game: The session's game.
        game_lock: The lock that guards the game, the log and the table.
        log: The line of play.
        agent: The policy that proposes commands (None: no agent).
        memory: The AriGraph memory the map and the ways out are read from.
        knowledge: Lessons of this story from earlier sessions.
        critic: The critic's rules (None: off).
        llm_judge: The critic's model stage, whose spending a proposal carries.
        subagents: Narrator, room hints and conversation tracker (None: off).
    """

    def __init__(self, host: ThinkerHost, emit: Callable[[ev.Event], None], game: GameApi,
                 game_lock: threading.RLock, log: PlayLog, agent: Policy | None = None,
                 memory: Memory | None = None, knowledge: KnowledgeBase | None = None,
                 critic: Critic | None = None, llm_judge: LlmJudge | None = None,
                 subagents: SubAgents | None = None) -> None:
        self._host = host
        self._emit = emit
        self.game = game
        self._lock = game_lock
        self.log = log
        self.agent = agent
        self.memory = memory
        self.knowledge = knowledge
        self.critic = critic
        self.llm_judge = llm_judge
        self.subagents = subagents
        #: The agent's current objective (kept from its last proposal that named one).
        self.objective = ""
        #: The critic's last verdict on the agent's own proposals.
        self.last_verdict: Verdict | None = None
        #: Valid actions searched on a fork of the game, so play is never held up.
        self.search = ActionSearch(game, game_lock)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zorktui-think")
        # The thought asked for last: (turn, epoch, future), so one request per turn is enough.
        self._asked: tuple[int, int, Future[Proposal | None]] | None = None
        # (turn, state hash) whose valid actions the memory last learned ways out from.
        self._ways_learned: tuple[int, str] | None = None
        self._notes_turn = -1

    @property
    def current(self) -> Turn:
        """The game's current turn."""
        return self.game.current

    @property
    def closed(self) -> bool:
        """The session is closed."""
        return self._host.closed

    @property
    def thinking(self) -> bool:
        """A thought asked for on the thinking thread is not finished yet."""
        asked = self._asked
        return asked is not None and not asked[2].done()

    def jumped(self) -> None:
        """Play jumped (undo, restart, restore): the notes are rebuilt for the state jumped to."""
        self._notes_turn = -1

    def close(self) -> None:
        """Stop thinking: a model call in flight is not waited for (its answer is dropped)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close_search(self) -> None:
        """Stop the valid-action search (waits for the one in flight)."""
        self.search.close()

    def request_proposal(self) -> Future[Proposal | None]:
        """Think about the current turn on the thinking thread; ProposalReady follows.

        A request for a turn already being thought about is the same request.
        """
        with self._lock:
            turn_no, epoch = self.current.turn, self._host.epoch
            asked = self._asked
            if asked is not None and asked[:2] == (turn_no, epoch) and not asked[2].done():
                return asked[2]
            future = self._pool.submit(self.think_safely, turn_no, epoch)
            self._asked = (turn_no, epoch, future)
            return future

    def propose(self) -> Proposal | None:
        """Think about the current turn on this thread (scripts, tests and the autopilot)."""
        return self.think_safely(self.current.turn)

    def think_safely(self, turn_no: int, epoch: int | None = None) -> Proposal | None:
        """Think about a turn; a failure is an ErrorEvent and None, never raised."""
        try:
            return self._think(turn_no, self._host.epoch if epoch is None else epoch)
        except Exception as exc:  # noqa: BLE001 - reported as an event, never raised into a thread pool
            if not self.closed:  # a thought cut short by closing the session is no failure
                self._emit(ev.ErrorEvent("the agent failed: " + one_line(exc, with_type=True)))
            return None

    def valid_actions(self) -> tuple[str, ...]:
        """The valid actions of the current state, searched without holding up play.

        The memory learns the ways out they hold, if play is still in that state.

        Raises:
            RuntimeError: The session is closed.
        """
        actions = self.search.current()
        with self._lock:
            if not self.closed and self.game.valid_actions_cached() == actions:
                self._learn_ways(self.current, actions)
        return actions

    def _learn_ways(self, turn: Turn, actions: tuple[str, ...]) -> None:
        """Hand the memory a turn's valid actions once (the search runs after the turn was ingested).

        Call with the game lock held.
        """
        if self.memory is None or turn.valid_actions is not None or turn.done:
            return
        key = (turn.turn, turn.state_hash)
        if key != self._ways_learned:
            self._ways_learned = key
            self.memory.learn_valid_actions(replace(turn, valid_actions=actions), self.game.valid_destinations())

    def judge(self, command: str) -> Verdict | None:
        """The critic's verdict on a command someone means to play now (None when the critic is off).

        For a command from outside the session's own agent (an MCP client); the
        agent's proposals are judged as they are made.

        Raises:
            RuntimeError: The session is closed.
        """
        if self.critic is None:
            return None
        with self._lock:
            return self.critic.judge(command, self.situation())

    def situation(self, view: MapView | None = None) -> Situation:
        """Gather what a policy may look at now (valid actions, map, warnings, lessons).

        Args:
            view: The memory's map as read for this turn (None: read it now, under the game lock).

        Raises:
            RuntimeError: The session is closed.
        """
        with self._lock:
            if self.closed:
                raise RuntimeError("the session is closed")
            turn = self.current
            # Found beforehand off the lock where it matters (see _think); searched here only on a miss.
            actions = self.game.valid_actions() if not turn.done else ()
            self._learn_ways(turn, actions)
            report = guards.inspect(self.log)
            feedback = [f"'{p.command}' was refused by your partner" + (f": {r}" if r else "") for p, r in self._host.rejected]
            notes = self.subagents.notes.lines(turn.location.id if turn.location else 0) if self.subagents else []
            return Situation(
                turn=turn,
                log=self.log,
                valid_actions=actions,
                blocked_takes=self.game.blocked_takes() if not turn.done else (),
                map=view if view is not None else map_view(self.memory),
                guards=report,
                objective=self.objective,
                feedback=feedback,
                refused=[p.command for p, _ in self._host.rejected],
                lessons=self.knowledge.for_prompt() if self.knowledge else [],
                notes=notes,
                max_score=self.game.max_score,
                refresh_objective=turn.turn > 0 and turn.turn % OBJECTIVE_EVERY == 0,
                state=self.game.state() if getattr(self.agent, "needs_state", False) else None,
                lighting=lighting_actions(self.game.peek, turn, actions) if turn.dark and not turn.question else (),
            )

    def _gone(self, turn_no: int, epoch: int) -> bool:
        """The turn a thought is for is no longer the current one (played on, or jumped)."""
        return self.closed or self.current.turn != turn_no or self._host.epoch != epoch

    def _think(self, turn_no: int, epoch: int) -> Proposal | None:
        if self.agent is None or self._gone(turn_no, epoch) or self.current.done:
            return None
        start = time.perf_counter()
        self._emit(ev.ThinkingStarted(turn_no))
        proposal: Proposal | None = None
        try:
            try:
                self.valid_actions()  # off the game lock: the person may play meanwhile
            except RuntimeError:
                return None  # closed while it searched
            try:
                view = map_view(self.memory)  # the memory has a lock of its own; the game's stays free
            except ZorkTuiError:
                if self.closed:
                    return None  # the memory closed with the session while it was read
                raise
            if self.current.turn != turn_no:
                return None
            situation = self.situation(view)
            if situation.turn.turn != turn_no:
                return None
            spent_tokens, spent_cost = 0, 0.0
            if self.subagents is not None and self._notes_turn != turn_no:
                self._notes_turn = turn_no
                before = (self.subagents.notes.tokens, self.subagents.notes.cost)
                self.subagents.after_turn(situation)
                spent_tokens += self.subagents.notes.tokens - before[0]
                spent_cost += self.subagents.notes.cost - before[1]
                situation.notes = self.subagents.notes.lines(situation.room_id)
            # The whole set of notes for this state, every time (an empty set clears the panel's).
            self._emit(ev.Notes(tuple(dict.fromkeys([*situation.notes, *situation.guards.warnings]))))
            judged = (self.llm_judge.tokens, self.llm_judge.cost) if self.llm_judge else (0, 0.0)
            proposal = self._decide(situation, turn_no)
            if proposal is None:
                return None
            if self.llm_judge is not None:
                spent_tokens += self.llm_judge.tokens - judged[0]
                spent_cost += self.llm_judge.cost - judged[1]
            proposal.tokens += spent_tokens
            proposal.cost += spent_cost
            proposal.think_ms = (time.perf_counter() - start) * 1000
            if not self._host.deliver(proposal, turn_no, epoch):
                return None  # the person moved on, went back, or left while the agent thought
            if proposal.objective:
                self.objective = proposal.objective
            self._emit(ev.ProposalReady(proposal))
            return proposal
        finally:
            self._emit(ev.ThinkingFinished(turn_no, (time.perf_counter() - start) * 1000))

    def _decide(self, situation: Situation, turn_no: int) -> Proposal | None:
        """Ask the policy, let safety, guards and the critic refuse, at most MAX_ATTEMPTS times."""
        assert self.agent is not None
        refused: list[dict[str, Any]] = []
        tokens, cost, notes = 0, 0.0, []
        last: Idea | None = None
        # The verdicts of the screening are the critic's final word on those commands (the same
        # situation, the same stages) unless a model stage still has to be asked.
        screened: dict[str, Verdict] = {}
        if getattr(self.agent, "wants_screening", False) and situation.valid_actions and not situation.turn.question:
            situation.acceptable = self._screened(situation, turn_no, screened)
        if self.critic is not None and self.critic.llm_judge is not None:
            screened = {}
        for _ in range(MAX_ATTEMPTS):
            idea = self.agent.suggest(situation)
            tokens, cost = tokens + idea.tokens, cost + idea.cost
            notes += idea.notes
            last = idea
            command = safe_command(idea.command)
            why = reserved_reason(command) or guards.refuse_repeat(self.log, command)
            verdict = None
            if why is None and self.critic is not None:
                with self._lock:
                    if self.closed or self.current.turn != turn_no:
                        return None
                    verdict = screened.get(command) or self.critic.judge(command, situation)
                self.last_verdict = verdict
                self._emit(ev.CriticVerdict(verdict, turn_no))
                # A command chosen by playing the consequences out on the emulator knows more than the
                # critic's rules of thumb: for it the critic vetoes only what it saw end the game or
                # lose the light (beyond any search's horizon, every dark room needs it).
                overrule = idea.searched and not verdict.grave
                if not verdict.accepted and not overrule:
                    why = "critic: " + "; ".join(r for r in verdict.reasons if r) or "critic: scored too low"
            if why is None:
                return Proposal(command, idea.source, turn_no, idea.reflection, idea.objective, verdict, refused,
                                tokens=tokens, cost=cost, notes=notes)
            refused.append({"command": command, "by": "critic" if verdict else "guard", "reason": why})
            situation.feedback.append(f"'{command}' was refused: {why}")
            situation.refused.append(command)
        return self._fallback(situation, turn_no, last, refused, tokens, cost, notes)

    def _screened(self, situation: Situation, turn_no: int, verdicts: dict[str, Verdict]) -> tuple[str, ...] | None:
        """The valid actions the guards and the critic's own stages would let through (None: no critic).

        A model offered only these chooses a command that passes the first time: no call
        is spent on a proposal the critic refuses. The critic's model stage is not asked.
        """
        if self.critic is None:
            return None
        passed = []
        for action in situation.valid_actions or ():
            if reserved_reason(action) or guards.refuse_repeat(self.log, action):
                continue
            with self._lock:
                if self.closed or self.current.turn != turn_no:
                    return None
                verdict = self.critic.judge(action, situation, ask_model=False)
            verdicts[action] = verdict
            if verdict.accepted:
                passed.append(action)
        return tuple(passed)

    def _fallback(self, situation: Situation, turn_no: int, last: Idea | None, refused: list[dict[str, Any]],
                  tokens: int, cost: float, notes: list[str]) -> Proposal | None:
        """After refusals: the critic's best untried valid action, else any command the guards allow."""
        exclude = {r["command"] for r in refused}
        best = None
        if self.critic is not None:
            with self._lock:
                if self.closed or self.current.turn != turn_no:
                    return None
                best = self.critic.best_untried(situation, exclude)
        if best is not None and reserved_reason(best[0]) is None and guards.refuse_repeat(self.log, best[0]) is None:
            command, verdict = best
            self._emit(ev.CriticVerdict(verdict, turn_no))
            notes.append(f"{len(refused)} proposals refused; playing the best untried valid action")
            return Proposal(command, "critic", turn_no, last.reflection if last else "", last.objective if last else "",
                            verdict, refused, tokens=tokens, cost=cost, notes=notes)
        # At a question only its answers will do; elsewhere any command the guards allow.
        others = [] if situation.turn.question else list(COMMON) + ["look"]
        for command in list(situation.valid_actions or ()) + others:
            if normal(command) not in {normal(c) for c in exclude} and guards.refuse_repeat(self.log, command) is None:
                notes.append(f"{len(refused)} proposals refused; trying '{command}'")
                return Proposal(command, "guard", turn_no, last.reflection if last else "", last.objective if last else "",
                                None, refused, tokens=tokens, cost=cost, notes=notes)
        return None
