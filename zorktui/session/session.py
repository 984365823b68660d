"""One loop for human, co-play and autopilot play.

The person plays with :meth:`Session.play`; the agent's proposal is taken
with :meth:`accept`, refused with :meth:`reject` or changed with :meth:`edit`;
:meth:`Autopilot.start` (``session.autopilot``) hands control to the agent until a stop rule fires or
the person types. Thinking and autopilot run on their own threads; a game
lock keeps the game, the log and the recorder consistent, and is never held
while a model is being asked, so the person can always act while the agent
thinks (a proposal made for a turn that is gone is dropped).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.agent.critic import Critic
from zorktui.agent.knowledge import KnowledgeBase
from zorktui.agent.playlog import PlayLog
from zorktui.agent.proposal import OUTSIDE_ACTOR, Policy, Proposal, Verdict
from zorktui.agent.subagents import SubAgents
from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameApi
from zorktui.session import events as ev
from zorktui.session.autopilot import Autopilot, StopRules
from zorktui.session.commands.meta import NO_UNDO, UNDO_VERBS
from zorktui.session.commands.surface import Commands
from zorktui.session.decisions import Decisions
from zorktui.session.files.folder import SessionError
from zorktui.session.modes import Mode
from zorktui.session.recording import Closable, MemoryOnly, Recorder, valid_actions_fields
from zorktui.session.thinker import Thinker

if TYPE_CHECKING:  # hints only: the memory and the recorder are built by the factory, which imports them
    from zorktui.agent.llm import Usage
    from zorktui.agent.llm_judge import LlmJudge
    from zorktui.agent.situation import MapView, Situation
    from zorktui.memory.graph import Memory
    from zorktui.session.files.recorder import SessionRecorder

MODES = tuple(Mode)


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
        game: GameApi,
        mode: Mode | str = Mode.HUMAN,
        agent: Policy | None = None,
        recorder: SessionRecorder | None = None,
        memory: Memory | None = None,
        knowledge: KnowledgeBase | None = None,
        critic: bool = True,
        stop: StopRules | None = None,
        subagents: SubAgents | None = None,
        usage: Usage | None = None,
        record_valid_actions: bool = False,
        close_memory: Closable | None = None,
        llm_judge: LlmJudge | None = None,
        log: PlayLog | None = None,
        allow_undo: bool = True,
        agent_info: dict[str, Any] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.game = game
        self.mode = Mode(mode)
        self.agent = agent
        #: The agent's settings as recorded in trajectory headers (never secrets).
        self.agent_info = agent_info
        #: The session folder's writer, when the session keeps one.
        self.recorder = recorder
        self.memory = memory if memory is not None else (recorder.memory if recorder is not None else None)
        # Every turn and jump goes to one recorder: the folder's, or the memory alone.
        self._record: Recorder = recorder if recorder is not None else MemoryOnly(self.memory)
        self.knowledge = knowledge
        self.critic = Critic(peek=game.peek, deadly=knowledge.deadly if knowledge else None,
                             llm_judge=llm_judge) if critic else None
        self.stop = stop or StopRules()
        self.subagents = subagents
        self.usage = usage
        self._calls_recorded = usage.calls if usage is not None else 0
        self.record_valid_actions = record_valid_actions
        self.allow_undo = allow_undo
        self._close_memory = close_memory
        self.log = log if log is not None else PlayLog(game.current)
        #: The proposals of the turn being played and their fates, until it is recorded.
        self.decisions = Decisions()
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[ev.Event], None]] = []
        # Counts jumps (undo, restart, restore): a thought begun before one is for a line of play that is gone.
        self._epoch = 0
        #: Plays on its own thread until a stop rule fires (start, pause, step, stop).
        self.autopilot = Autopilot(self, self._emit, self.stop)
        #: The person's verbs, as every front calls them (undo, checkpoints, who plays...).
        self.commands = Commands(self)
        #: Finds the valid actions, gathers the situation and asks the agent (its own thread).
        self.thinker = Thinker(self, self._emit, game, self._lock, self.log, agent=agent, memory=self.memory,
                               knowledge=knowledge, critic=self.critic, llm_judge=llm_judge, subagents=subagents)
        self._ready_at = time.monotonic()
        self.closed = False
        if hasattr(game, "listener"):  # a game in a worker process says when it was rebuilt in a new one
            game.listener = lambda line: self._emit(ev.GameRebuilt(line))

    # ------------------------------------------------------------- events
    def subscribe(self, callback: Callable[[ev.Event], None]) -> Callable[[], None]:
        """Call ``callback`` with every event; returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _emit(self, event: ev.Event) -> None:
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:  # noqa: BLE001 - a broken subscriber must not break play
                pass

    @property
    def game_lock(self) -> threading.RLock:
        """The lock that guards the game, the play log and the recorder: hold it to judge and play in one step."""
        return self._lock

    def say_not_played(self, command: str, actor: str, why: str) -> None:
        """Tell the subscribers a command was not played, and why (one line)."""
        self._emit(ev.NotPlayed(command, actor, why))

    @property
    def current(self) -> Turn:
        """The current turn."""
        return self.game.current

    # ----------------------------------------------------------- thinking
    def request_proposal(self) -> Future[Proposal | None]:
        """Think about the current turn on the thinking thread; ProposalReady follows (see :class:`Thinker`)."""
        return self.thinker.request_proposal()

    def propose(self) -> Proposal | None:
        """Think about the current turn on this thread (scripts, tests and the autopilot)."""
        return self.thinker.propose()

    def valid_actions(self) -> tuple[str, ...]:
        """The current state's valid actions, searched without holding up play (RuntimeError: closed)."""
        return self.thinker.valid_actions()

    def judge(self, command: str) -> Verdict | None:
        """The critic's verdict on a command someone means to play now (None: no critic; RuntimeError: closed)."""
        return self.thinker.judge(command)

    def situation(self, view: MapView | None = None) -> Situation:
        """What a policy may look at now: valid actions, map, warnings, lessons (RuntimeError: closed)."""
        return self.thinker.situation(view)

    @property
    def epoch(self) -> int:
        """Counts jumps (undo, restart, restore)."""
        return self._epoch

    @property
    def pending(self) -> Proposal | None:
        """The proposal waiting for the person (the agent's, or an outside client's)."""
        return self.decisions.pending

    @property
    def rejected(self) -> list[tuple[Proposal, str]]:
        """The proposals the person refused this turn, with why."""
        return self.decisions.rejected

    def deliver(self, proposal: Proposal, turn_no: int, epoch: int) -> bool:
        """Make the agent's finished thought the pending proposal, unless its turn is gone (False)."""
        with self._lock:
            if self.closed or self.current.turn != turn_no or self._epoch != epoch:
                return False  # the person moved on, went back, or left while the agent thought
            waiting = self.decisions.pending_for(turn_no)
            if waiting is not None and waiting.client is not None:
                return False  # an outside agent's proposal waits for the person: it is not replaced
            self.decisions.take(proposal)
            return True

    # --------------------------------------------------------------- play
    def play(self, command: str, actor: str = "human", extra: dict[str, Any] | None = None) -> Turn:
        """Play a command typed by the person (or a script); a pending proposal is superseded.

        In autopilot, a person's command takes over: autopilot stops and the mode becomes co-play.
        The game's own QUIT, RESTART, SAVE, RESTORE and SCRIPT are answered, not played
        (see :mod:`zorktui.session.commands.meta`): the current turn is returned unchanged.
        ``extra`` adds fields to the turn's trajectory record (e.g. which outside client played it).

        Raises:
            GameError: The engine refused the command (empty, too long, story stopped).
        """
        if self.commands.answer_out_of_world(command, actor):
            return self.current
        # An outside agent on autopilot has no thread of its own to stop: the mode is what hands back.
        if actor == "human" and (self.autopilot.running or self.mode == Mode.AUTOPILOT):
            self.autopilot.stop("the person took over")
            self.set_mode(Mode.COPLAY)
        return self._play(command, actor, fate="superseded", extra=extra)

    def accept(self) -> Turn | None:
        """Play the pending proposal as the agent's command (None when there is none)."""
        with self._lock:
            proposal = self.pending
            if proposal is None or proposal.turn != self.current.turn:
                return None
            if proposal.client is not None:  # an outside agent's proposal: played as its command
                return self._play(proposal.command, OUTSIDE_ACTOR, fate="accepted", extra={"client": proposal.client})
            return self._play(proposal.command, "agent", fate="accepted")

    def offer(self, proposal: Proposal) -> None:
        """Make an outside agent's command the pending proposal (it replaces the own agent's, noted)."""
        with self._lock:
            replaced = self.decisions.pending_for(self.current.turn)
            if replaced is not None:
                proposal.notes.append(f"in place of {replaced.source}'s proposal '{replaced.command}'")
            self.decisions.pending = proposal
        self._emit(ev.ProposalReady(proposal))

    def withdraw(self, proposal: Proposal, reason: str) -> None:
        """Take back a pending proposal undecided (recorded with the next turn as superseded, with why)."""
        with self._lock:
            if not self.decisions.take_back(proposal, reason):
                return
        self._emit(ev.ProposalDecided(proposal, "withdrawn", reason=reason))
        self.propose_again()

    def edit(self, command: str) -> Turn:
        """Play the person's edited version of the pending proposal (an out-of-world verb is answered)."""
        if self.commands.answer_out_of_world(command, "human"):
            return self.current
        return self._play(command, "human", fate="edited")

    def reject(self, reason: str = "") -> None:
        """Refuse the pending proposal; the agent hears the reason and proposes again."""
        with self._lock:
            proposal = self.decisions.refuse(reason)
        if proposal is None:
            return
        self._emit(ev.ProposalDecided(proposal, "rejected", reason=reason))
        if self.agent is not None and self.mode == Mode.COPLAY:
            self.request_proposal()

    def _play(self, command: str, actor: str, fate: str, extra: dict[str, Any] | None = None) -> Turn:
        if not self.allow_undo and " ".join(command.lower().split()) in UNDO_VERBS:
            raise SessionError(NO_UNDO)
        with self._lock:
            before = self.current
            decided = self.decisions.pending_for(before.turn)
            turn = self.game.step(command)
            extra = {**(extra or {}), **self._decided(fate)}
            extra.update(self.valid_extra())
            if "valid_actions" in extra:
                # Found for the record: the memory reads them from the same Turn (its ways out).
                turn = replace(turn, valid_actions=tuple(extra["valid_actions"]))
            record = self._record.turn(turn, actor=actor, extra=extra)
            self.log.add(turn)
            if turn.dead and not before.dead and self.knowledge is not None:  # one lesson a death (not its offer and its end)
                self.knowledge.death(before.location.name if before.location else "?", command, turn.observation)
        self._ready_at = time.monotonic()
        self._emit(ev.TurnDone(turn, actor, record))
        if decided is not None:
            self._emit(ev.ProposalDecided(decided, fate, turn))
        if self.mode == Mode.COPLAY and self.agent is not None and not turn.done:
            self.request_proposal()
        return turn

    def valid_extra(self) -> dict[str, Any]:
        """``valid_actions`` and ``valid_actions_ms`` for the current state, when they are recorded."""
        return valid_actions_fields(self.game) if self.record_valid_actions else {}

    def _decided(self, fate: str) -> dict[str, Any]:
        """The proposal and spending fields of the turn being recorded; clears the table."""
        extra = self.decisions.record(fate, self.current.turn - 1)
        # Think time runs from the moment the prompt was ready to the command, whoever typed it.
        extra["think_ms"] = round((time.monotonic() - self._ready_at) * 1000, 1)
        extra.update(self.decisions.spent())
        if self.usage is not None and self.usage.calls > self._calls_recorded:
            # Every model call since the last record (agent, critic, sub-agents, prior, a probe).
            extra["llm_calls"] = self.usage.calls - self._calls_recorded
            self._calls_recorded = self.usage.calls
        self.decisions.clear()
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
            self._record.undo(turn, levels=n)
        self._emit(ev.TurnDone(turn, "game", jump="undo"))
        self.propose_again()
        return turn

    def restart(self) -> Turn:
        """Start the story again."""
        with self._lock:
            turn = self.game.restart()
            self._jumped(turn)
            self._record.restart(turn)
        self._emit(ev.TurnDone(turn, "game", jump="restart"))
        self.propose_again()
        return turn

    def save(self, name: str, folder: Path | None = None) -> Path:
        """Save a named checkpoint (in the session's ``saves/`` unless a folder is given)."""
        with self._lock:
            path = self.game.save_checkpoint(self._saves(folder), name)
            self._record.save(name, self.current)
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
            self._record.restore(name, turn)
        self._emit(ev.TurnDone(turn, "game", jump="restore"))
        self.propose_again()
        return turn

    def checkpoints(self, folder: Path | None = None) -> list[dict[str, Any]]:
        """The named checkpoints there are."""
        return self.game.checkpoints(self._saves(folder))

    def _saves(self, folder: Path | None) -> Path:
        if folder is not None:
            return folder
        if self.recorder is not None:
            return self.recorder.folder.saves
        # deferred: loaded already with the engine; kept beside its one use
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
        self.decisions.clear()
        self._epoch += 1
        self.thinker.jumped()

    def play_accepted(self, proposal: Proposal) -> Turn:
        """Play a proposal as the agent's command (the autopilot's move; call with the game lock held)."""
        return self._play(proposal.command, "agent", fate="accepted")

    def propose_again(self) -> None:
        """In co-play, ask the agent about the current turn (after a jump, or the autopilot handing back)."""
        if self.mode == Mode.COPLAY and self.agent is not None and not self.closed and not self.current.done \
                and not self.autopilot.running and self.pending is None:
            try:
                self.request_proposal()
            except RuntimeError:  # the thinking thread was shut down: the session is closing
                pass

    # --------------------------------------------------------------- mode
    def set_mode(self, mode: Mode | str) -> None:
        """Switch between human, co-play and autopilot (autopilot starts playing at once)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        mode = Mode(mode)
        if mode != Mode.AUTOPILOT and self.autopilot.running:
            self.autopilot.stop("mode changed")
        self.mode = mode
        self._emit(ev.ModeChanged(mode))
        if mode == Mode.AUTOPILOT and not self.autopilot.running:
            if self.agent is not None:  # without one, an outside agent (MCP) is the autopilot
                self.autopilot.start()
        elif mode == Mode.COPLAY and self.agent is not None and self.pending is None and not self.current.done:
            self.request_proposal()

    # -------------------------------------------------------------- close
    def close(self) -> None:
        """Stop the agent, note how the game went, and close the recorder, the memory and the game.

        The session owns the game's whole life: the game is closed last, even when
        closing the record fails (a full disk), which is raised after.
        """
        if self.closed:
            return
        self.autopilot.stop("session closed")
        # A model call in flight is not waited for: its answer is dropped (closed is checked under the lock).
        self.thinker.close()
        with self._lock:
            self.closed = True
        self.autopilot.wait(5)
        close_agent = getattr(self.agent, "close", None)
        if close_agent is not None:
            close_agent()  # a planner's fork: waits for a search in flight to stop
        self.thinker.close_search()
        try:
            with self._lock:
                turn = self.current
                if self.knowledge is not None and turn.turn > 0:
                    self.knowledge.game_over(turn, len(self.log.rooms_seen()), self.game.max_score)
                self._record.close()
                if self._close_memory is not None:
                    self._close_memory.close()
        finally:
            self.game.close()
