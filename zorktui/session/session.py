"""One loop for human, co-play and autopilot play.

The person plays with :meth:`Session.play`; the agent's proposal is taken
with :meth:`accept`, refused with :meth:`reject` or changed with :meth:`edit`;
:meth:`start_autopilot` hands control to the agent until a stop rule fires or
the person types. Thinking and autopilot run on their own threads; a game
lock keeps the game, the log and the recorder consistent, and is never held
while a model is being asked, so the person can always act while the agent
thinks (a proposal made for a turn that is gone is dropped).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from zorktui.agent import guards
from zorktui.agent.critic import Critic, Verdict
from zorktui.agent.knowledge import KnowledgeBase
from zorktui.agent.playlog import PlayLog, normal
from zorktui.agent.proposal import Idea, Policy, Proposal
from zorktui.agent.safety import reserved_reason, safe_command
from zorktui.agent.situation import MapView, Situation, map_view
from zorktui.agent.subagents import SubAgents
from zorktui.engine.directions import COMMON
from zorktui.engine.errors import ZorkTuiError
from zorktui.engine.game import Game
from zorktui.engine.turn import Turn
from zorktui.record.trajectory import turn_record
from zorktui.session import events as ev
from zorktui.session.action_search import ActionSearch
from zorktui.session.folder import SessionError
from zorktui.session.meta import instead, meta_verb

MODES = ("human", "coplay", "autopilot")
#: Candidates the critic or guards may refuse before it picks the best untried valid action itself.
MAX_ATTEMPTS = 3
#: Turns between objective refreshes.
OBJECTIVE_EVERY = 25


def valid_actions_fields(game: Game) -> dict[str, Any]:
    """The trajectory's ``valid_actions`` and ``valid_actions_ms`` for a game's current state."""
    start = time.perf_counter()
    actions = list(game.valid_actions())
    return {"valid_actions": actions, "valid_actions_ms": round((time.perf_counter() - start) * 1000, 2)}


#: The game's own ways back, refused when a session does not allow undo.
UNDO_VERBS = frozenset({"undo", "oops undo"})
NO_UNDO = "undo is switched off in this session (a baseline study's rule)"


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


class Session:
    """A game being played by a person, an agent, or both.

    Args:
        game: The game, at its opening (or wherever play resumes).
        mode: "human", "coplay" or "autopilot".
        agent: The policy that proposes commands (None: no agent).
        recorder: Writes the trajectory and feeds the memory (None: nothing recorded).
        memory: The AriGraph memory to read the map from (default: the recorder's).
        knowledge: Lessons of this story from earlier sessions.
        critic: Judge proposals before they are shown or played.
        stop: Autopilot stop rules.
        subagents: Narrator, room hints and conversation tracker (None: off).
        usage: The LLM client's running totals, for token and cost budgets.
        record_valid_actions: Write each state's valid actions into the trajectory.
        close_memory: A memory the session owns and closes (one made just for an agent).
        llm_judge: The critic's optional model stage (:class:`~zorktui.agent.llm_judge.LlmJudge`).
        log: The line of play so far (a resumed session); default: from the game's current turn.
        allow_undo: Whether undo, restoring a checkpoint and the game's own UNDO verb are
            allowed (a human-baseline study may forbid them).
        agent_info: The agent's settings for trajectory headers (never secrets).
    """

    def __init__(
        self,
        game: Game,
        mode: str = "human",
        agent: Policy | None = None,
        recorder: Any = None,
        memory: Any = None,
        knowledge: KnowledgeBase | None = None,
        critic: bool = True,
        stop: StopRules | None = None,
        subagents: SubAgents | None = None,
        usage: Any = None,
        record_valid_actions: bool = False,
        close_memory: Any = None,
        llm_judge: Any = None,
        log: PlayLog | None = None,
        allow_undo: bool = True,
        agent_info: dict[str, Any] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.game = game
        self.mode = mode
        self.agent = agent
        #: The agent's settings as recorded in trajectory headers (never secrets).
        self.agent_info = agent_info
        self.recorder = recorder
        self.memory = memory if memory is not None else (recorder.memory if recorder is not None else None)
        self.knowledge = knowledge
        self.llm_judge = llm_judge
        self.critic = Critic(peek=game.peek, deadly=knowledge.deadly if knowledge else None,
                             llm_judge=llm_judge) if critic else None
        self.stop = stop or StopRules()
        self.subagents = subagents
        self.usage = usage
        self.record_valid_actions = record_valid_actions
        self.allow_undo = allow_undo
        self._close_memory = close_memory
        self.log = log if log is not None else PlayLog(game.current)
        self.objective = ""
        self.pending: Proposal | None = None
        self.last_verdict: Verdict | None = None
        self._rejected: list[tuple[Proposal, str]] = []
        self._spend = {"think_ms": 0.0, "tokens": 0, "cost": 0.0}
        self._lock = threading.RLock()
        self._search = ActionSearch(game, self._lock)
        # (turn, state hash) whose valid actions the memory last learned ways out from.
        self._ways_learned: tuple[int, str] | None = None
        self._subscribers: list[Callable[[ev.Event], None]] = []
        self._thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zorktui-think")
        self._player = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zorktui-play")
        self._notes_turn = -1
        #: Counts jumps (undo, restart, restore): a thought begun before one is for a line of play that is gone.
        self._epoch = 0
        # The thought asked for last: (turn, epoch, future), so one request per turn is enough.
        self._asked: tuple[int, int, Future[Proposal | None]] | None = None
        #: How this front quits, for the line that answers the game's own QUIT.
        self.quit_how = "type /quit"
        self._auto: threading.Thread | None = None
        self._auto_stop = threading.Event()
        self._auto_run = threading.Event()
        self._auto_step = threading.Event()
        self._auto_steps = 0
        #: Seconds the autopilot waits between its commands (the UI's speed setting).
        self.delay = 0.0
        self._stop_reason = ""
        self._ready_at = time.monotonic()
        self.closed = False

    # ------------------------------------------------------------- events
    def subscribe(self, callback: Callable[[ev.Event], None]) -> Callable[[], None]:
        """Call ``callback`` with every event; returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _emit(self, event: ev.Event) -> None:
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:  # a broken subscriber must not break play
                pass

    @property
    def current(self) -> Turn:
        """The current turn."""
        return self.game.current

    # --------------------------------------------------------------- play
    def play(self, command: str, actor: str = "human") -> Turn:
        """Play a command typed by the person (or a script); a pending proposal is superseded.

        In autopilot, a person's command takes over: autopilot stops and the mode becomes co-play.
        The game's own QUIT, RESTART, SAVE, RESTORE and SCRIPT are answered, not played
        (see :mod:`zorktui.session.meta`): the current turn is returned unchanged.

        Raises:
            GameError: The engine refused the command (empty, too long, story stopped).
        """
        if self._answered(command, actor):
            return self.current
        if actor == "human" and self.autopilot_running:
            self.stop_autopilot("the person took over")
            self.set_mode("coplay")
        return self._play(command, actor, fate="superseded")

    def _answered(self, command: str, actor: str) -> bool:
        """Answer an out-of-world command with one line (a NotPlayed event); False for a command to play."""
        action = meta_verb(command, self.game.zm.dictionary)
        if action is None:
            return False
        self._emit(ev.NotPlayed(" ".join(command.split()), actor, instead(action, self.quit_how)))
        return True

    def submit(self, method: str, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run a playing method (``"play"``, ``"accept"``, ``"edit"``, ``"undo"``, ...) off the caller's thread.

        Calls run one at a time, in order. A :class:`GameError` or any other
        failure becomes an :class:`ErrorEvent` (one line) and the future's result is None.
        """
        if method not in ("play", "accept", "edit", "reject", "undo", "restart", "save", "restore", "set_mode"):
            raise ValueError(f"not a playing method: {method}")

        def call() -> Any:
            try:
                return getattr(self, method)(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - reported as an event for the UI
                text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                self._emit(ev.ErrorEvent(text[:300], {"method": method}))
                return None

        return self._player.submit(call)

    def accept(self) -> Turn | None:
        """Play the pending proposal as the agent's command (None when there is none)."""
        with self._lock:
            proposal = self.pending
            if proposal is None or proposal.turn != self.current.turn:
                return None
            return self._play(proposal.command, "agent", fate="accepted")

    def edit(self, command: str) -> Turn:
        """Play the person's edited version of the pending proposal (an out-of-world verb is answered)."""
        if self._answered(command, "human"):
            return self.current
        return self._play(command, "human", fate="edited")

    def reject(self, reason: str = "") -> None:
        """Refuse the pending proposal; the agent hears the reason and proposes again."""
        with self._lock:
            proposal = self.pending
            if proposal is None:
                return
            self.pending = None
            self._rejected.append((proposal, reason))
        if self.agent is not None and self.mode == "coplay":
            self.request_proposal()

    def _play(self, command: str, actor: str, fate: str) -> Turn:
        if not self.allow_undo and " ".join(command.lower().split()) in UNDO_VERBS:
            raise SessionError(NO_UNDO)
        with self._lock:
            before = self.current
            turn = self.game.step(command)
            extra = self._decided(fate)
            extra.update(self.valid_extra())
            if "valid_actions" in extra:
                # Found for the record: the memory reads them from the same Turn (its ways out).
                turn = replace(turn, valid_actions=tuple(extra["valid_actions"]))
            if self.recorder is not None:
                record = self.recorder.turn(turn, actor=actor, extra=extra)
            else:
                record = turn_record(turn, actor=actor, extra=extra)
                if self.memory is not None:
                    self.memory.ingest(turn, actor=actor)
            self.log.add(turn)
            if turn.dead and self.knowledge is not None:
                self.knowledge.death(before.location.name if before.location else "?", command, turn.observation)
        self._ready_at = time.monotonic()
        self._emit(ev.TurnDone(turn, actor, record))
        if self.mode == "coplay" and self.agent is not None and not turn.done:
            self.request_proposal()
        return turn

    def valid_extra(self) -> dict[str, Any]:
        """``valid_actions`` and ``valid_actions_ms`` for the current state, when they are recorded."""
        return valid_actions_fields(self.game) if self.record_valid_actions else {}

    def _decided(self, fate: str) -> dict[str, Any]:
        """The proposal fields of the turn being recorded; clears what was pending."""
        extra: dict[str, Any] = {}
        proposal, reason = self.pending, None
        if proposal is not None and proposal.turn != self.current.turn - 1:
            proposal = None
        if proposal is None and self._rejected:
            proposal, reason = self._rejected.pop()
            fate = "rejected"
        if proposal is not None:
            record = proposal.to_record(fate, reason or None)
            earlier = [{"command": p.command, "by": "person", "reason": r or None} for p, r in self._rejected]
            if earlier:
                record["refused"] = earlier + record.get("refused", [])
            extra["proposal"] = record
        # Think time runs from the moment the prompt was ready to the command, whoever typed it.
        extra["think_ms"] = round((time.monotonic() - self._ready_at) * 1000, 1)
        if self._spend["think_ms"]:
            extra["agent_ms"] = round(self._spend["think_ms"], 1)
        if self._spend["tokens"]:
            extra["tokens"] = self._spend["tokens"]
        if self._spend["cost"]:
            extra["cost"] = round(self._spend["cost"], 6)
        self.pending = None
        self._rejected = []
        self._spend = {"think_ms": 0.0, "tokens": 0, "cost": 0.0}
        return extra

    # -------------------------------------------------------------- jumps
    def undo(self, n: int = 1) -> Turn:
        """Go back ``n`` turns.

        Raises:
            SessionError: Undo is not allowed in this session.
        """
        if not self.allow_undo:
            raise SessionError(NO_UNDO)
        with self._lock:
            turn = self.game.undo(n)
            self._jumped(turn)
            if self.recorder:
                self.recorder.undo(turn, levels=n)
            elif self.memory is not None:
                self.memory.apply({"type": "undo", "turn": turn.turn, "levels": n})
        self._emit(ev.TurnDone(turn, "game", jump="undo"))
        self._propose_again()
        return turn

    def restart(self) -> Turn:
        """Start the story again."""
        with self._lock:
            turn = self.game.restart()
            self._jumped(turn)
            if self.recorder:
                self.recorder.restart(turn)
            elif self.memory is not None:
                self.memory.apply({"type": "restart", "turn": turn.turn})
        self._emit(ev.TurnDone(turn, "game", jump="restart"))
        self._propose_again()
        return turn

    def save(self, name: str, folder: Path | None = None) -> Path:
        """Save a named checkpoint (in the session's ``saves/`` unless a folder is given)."""
        with self._lock:
            path = self.game.save_checkpoint(self._saves(folder), name)
            if self.recorder is not None:
                self.recorder.save(name, self.current)
            return path

    def restore(self, name: str, folder: Path | None = None) -> Turn:
        """Return to a named checkpoint.

        Raises:
            SessionError: Going back is not allowed in this session.
        """
        if not self.allow_undo:
            raise SessionError(NO_UNDO)
        with self._lock:
            turn = self.game.restore_checkpoint(self._saves(folder), name)
            self._jumped(turn)
            if self.recorder:
                self.recorder.restore(name, turn)
            elif self.memory is not None:
                self.memory.apply({"type": "restore", "record": turn_record(turn, actor="game")})
        self._emit(ev.TurnDone(turn, "game", jump="restore"))
        self._propose_again()
        return turn

    def checkpoints(self, folder: Path | None = None) -> list[dict[str, Any]]:
        """The named checkpoints there are."""
        return Game.checkpoints(self._saves(folder))

    def _saves(self, folder: Path | None) -> Path:
        if folder is not None:
            return folder
        if self.recorder is not None:
            return self.recorder.folder.saves
        from zorktui.locations import data_dir

        return data_dir() / "saves" / self.game.story.md5

    def mark_ready(self) -> None:
        """The prompt is ready from now on (think time of the next command counts from here).

        For a front end that showed something first, e.g. a consent screen.
        """
        self._ready_at = time.monotonic()

    def _jumped(self, turn: Turn) -> None:
        self._ready_at = time.monotonic()
        self.log.reset(turn)
        self.pending = None
        self._rejected = []
        self._epoch += 1
        self._notes_turn = -1  # the notes are rebuilt for the state jumped to

    def _propose_again(self) -> None:
        """In co-play, ask the agent about the current turn (after a jump, or the autopilot handing back)."""
        if self.mode == "coplay" and self.agent is not None and not self.closed and not self.current.done \
                and not self.autopilot_running and self.pending is None:
            try:
                self.request_proposal()
            except RuntimeError:  # the thinking thread was shut down: the session is closing
                pass

    # --------------------------------------------------------------- mode
    def set_mode(self, mode: str) -> None:
        """Switch between human, co-play and autopilot (autopilot starts playing at once)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if mode != "autopilot" and self.autopilot_running:
            self.stop_autopilot("mode changed")
        self.mode = mode
        self._emit(ev.ModeChanged(mode))
        if mode == "autopilot" and not self.autopilot_running:
            self.start_autopilot()
        elif mode == "coplay" and self.agent is not None and self.pending is None and not self.current.done:
            self.request_proposal()

    # ----------------------------------------------------------- thinking
    def request_proposal(self) -> Future[Proposal | None]:
        """Think about the current turn on the thinking thread; ProposalReady follows.

        A request for a turn already being thought about is the same request.
        """
        with self._lock:
            turn_no, epoch = self.current.turn, self._epoch
            asked = self._asked
            if asked is not None and asked[:2] == (turn_no, epoch) and not asked[2].done():
                return asked[2]
            future = self._thinker.submit(self._think_safely, turn_no, epoch)
            self._asked = (turn_no, epoch, future)
            return future

    def propose(self) -> Proposal | None:
        """Think about the current turn on this thread (scripts, tests and the autopilot)."""
        return self._think_safely(self.current.turn)

    def _think_safely(self, turn_no: int, epoch: int | None = None) -> Proposal | None:
        try:
            return self._think(turn_no, self._epoch if epoch is None else epoch)
        except Exception as exc:  # noqa: BLE001 - reported as an event, never raised into a thread pool
            self._emit(ev.ErrorEvent(f"the agent failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]))
            return None

    def valid_actions(self) -> tuple[str, ...]:
        """The valid actions of the current state, searched without holding up play.

        The memory learns the ways out they hold, if play is still in that state.

        Raises:
            RuntimeError: The session is closed.
        """
        actions = self._search.current()
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
            self.memory.learn_valid_actions(replace(turn, valid_actions=actions))

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
            feedback = [f"'{p.command}' was refused by your partner" + (f": {r}" if r else "") for p, r in self._rejected]
            notes = self.subagents.notes.lines(turn.location.id if turn.location else 0) if self.subagents else []
            return Situation(
                turn=turn,
                log=self.log,
                valid_actions=actions,
                map=view if view is not None else map_view(self.memory),
                guards=report,
                objective=self.objective,
                feedback=feedback,
                refused=[p.command for p, _ in self._rejected],
                lessons=self.knowledge.for_prompt() if self.knowledge else [],
                notes=notes,
                max_score=self.game.max_score,
                refresh_objective=turn.turn > 0 and turn.turn % OBJECTIVE_EVERY == 0,
                state=self.game.state() if getattr(self.agent, "needs_state", False) else None,
            )

    def _gone(self, turn_no: int, epoch: int) -> bool:
        """The turn a thought is for is no longer the current one (played on, or jumped)."""
        return self.closed or self.current.turn != turn_no or self._epoch != epoch

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
            with self._lock:
                if self._gone(turn_no, epoch):
                    return None  # the person moved on, went back, or left while the agent thought
                self._spend["think_ms"] += proposal.think_ms
                self._spend["tokens"] += proposal.tokens
                self._spend["cost"] += proposal.cost
                if proposal.objective:
                    self.objective = proposal.objective
                self.pending = proposal
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
                    verdict = self.critic.judge(command, situation)
                self.last_verdict = verdict
                self._emit(ev.CriticVerdict(verdict, turn_no))
                # A policy that has played the consequences out on the emulator knows more than the
                # critic's rules of thumb: for it the critic vetoes only what it saw end the game.
                overrule = getattr(self.agent, "searches_consequences", False) and not verdict.fatal
                if not verdict.accepted and not overrule:
                    why = "critic: " + "; ".join(r for r in verdict.reasons if r) or "critic: scored too low"
            if why is None:
                return Proposal(command, idea.source, turn_no, idea.reflection, idea.objective, verdict, refused,
                                tokens=tokens, cost=cost, notes=notes)
            refused.append({"command": command, "by": "critic" if verdict else "guard", "reason": why})
            situation.feedback.append(f"'{command}' was refused: {why}")
            situation.refused.append(command)
        return self._fallback(situation, turn_no, last, refused, tokens, cost, notes)

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
        for command in list(situation.valid_actions or ()) + list(COMMON) + ["look"]:
            if normal(command) not in {normal(c) for c in exclude} and guards.refuse_repeat(self.log, command) is None:
                notes.append(f"{len(refused)} proposals refused; trying '{command}'")
                return Proposal(command, "guard", turn_no, last.reflection if last else "", last.objective if last else "",
                                None, refused, tokens=tokens, cost=cost, notes=notes)
        return None

    # ---------------------------------------------------------- autopilot
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
        self.mode = "autopilot"
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
        self.mode = "autopilot"
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
            reason = f"error: {type(exc).__name__}: {exc}"[:200]
            self._emit(ev.ErrorEvent(reason))
        reason = reason or self._stop_reason or "stopped"
        self._auto_stop.set()  # from here on the autopilot no longer counts as running
        if self.mode == "autopilot":
            self.mode = "coplay"
            self._emit(ev.ModeChanged("coplay"))
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

    # -------------------------------------------------------------- close
    def close(self) -> None:
        """Stop the agent, note how the game went, and close the recorder and memory."""
        if self.closed:
            return
        self.stop_autopilot("session closed")
        # A model call in flight is not waited for: its answer is dropped (closed is checked under the lock).
        self._thinker.shutdown(wait=False, cancel_futures=True)
        self._player.shutdown(wait=True)  # commands already sent are played and recorded
        with self._lock:
            self.closed = True
        self.wait_autopilot(5)
        close_agent = getattr(self.agent, "close", None)
        if close_agent is not None:
            close_agent()  # a planner's fork: waits for a search in flight to stop
        self._search.close()
        with self._lock:
            turn = self.current
            if self.knowledge is not None and turn.turn > 0:
                rooms = len(self.log.rooms_seen())
                score = "no score" if turn.score is None else f"score {turn.score}" + (
                    f"/{self.game.max_score}" if self.game.max_score else "")
                how = "won" if turn.victory else ("died" if turn.dead else ("ended" if turn.done else "stopped"))
                self.knowledge.ending(f"An earlier game {how} after {turn.turn} turns with {score}, "
                                      f"{rooms} rooms seen, last in {turn.location.name if turn.location else '?'}.")
            if self.recorder is not None:
                self.recorder.close()
            if self._close_memory is not None:
                self._close_memory.close()
