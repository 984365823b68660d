"""The planner's whole search in a worker process: ``--agent mcts`` where games play in workers.

The search plays thousands of lines a move on an interpreter of its own; run
in the worker, a line is a call into Frotz there, not a round trip from the
application. The application keeps only what is its own: the model, asked
for its opinion of the root's actions between the two halves of a move
(:meth:`MctsPlanner.begin` sets the root, :meth:`MctsPlanner.finish`
searches and chooses), so its calls, tokens and budget are counted with the
session's.

A worker that dies in a move (a line that corrupted Frotz) is replaced and
the move searched again, once; the tree and the lessons of dead lines start
again in the new worker, and the move's notes say so. A second death in one
move fails the move (the session says the agent failed and play goes on).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.agent.mcts.choice import SearchReport
from zorktui.agent.mcts.planner import MctsPlanner, PlannerSettings
from zorktui.agent.proposal import Idea
from zorktui.agent.situation import Situation
from zorktui.core.errors import GameError, ZorkTuiError
from zorktui.engine.worker.channel import Channel, WorkerDied

if TYPE_CHECKING:  # hints only
    from zorktui.agent.llm import LlmClient
    from zorktui.engine.game_api import GameApi

_HOST = "zorktui.agent.mcts.planner_process:PlannerHost"
_WHAT = "the planner's search"


@dataclass(frozen=True)
class PlannerSpec:
    """What the worker needs: the story, the game's seed and the search's settings."""

    path: str
    seed: int
    settings: PlannerSettings


class PlannerHost:
    """The worker's side: a game of its own and a planner searching it.

    Args:
        spec: The story, seed and settings.
    """

    def __init__(self, spec: PlannerSpec) -> None:
        from zorktui.engine.game import Game  # deferred: the worker's own game, played in this process

        self.game = Game(spec.path, seed=spec.seed, undo_levels=1)
        self.planner = MctsPlanner(self.game, spec.settings)
        self._situation: Situation | None = None

    def opened(self) -> dict[str, Any]:
        """Nothing to report at the start."""
        return {}

    def begin(self, situation: Situation) -> tuple[dict[str, float] | None, list[str]]:
        """Set the root (see :meth:`MctsPlanner.begin`); also the newest lessons, for the model's prompt."""
        self._situation = situation
        return self.planner.begin(situation), self.planner.reflections.recent()

    def finish(self, priors: dict[str, float] | None, tokens: int, cost: float,
               notes: list[str]) -> tuple[Idea, SearchReport]:
        """Search and choose (see :meth:`MctsPlanner.finish`); also the search's report."""
        if self._situation is None:
            raise GameError("the planner was asked to finish a move it did not begin")
        idea = self.planner.finish(self._situation, priors, tokens, cost, notes)
        return idea, self.planner.report


class PlannerProcess:
    """The MCTS planner, searching in a worker process; the same policy as :class:`MctsPlanner`.

    Args:
        game: The game being played (its story and seed; the search never touches it).
        settings: Budget and shape of the search.
        llm: An LLM client for the root's priors (None: heuristic priors only).

    Raises:
        GameError: The worker could not start.
    """

    name = "mcts"
    #: The session puts the game's full state in each situation for this policy.
    needs_state = True

    def __init__(self, game: GameApi, settings: PlannerSettings | None = None, llm: LlmClient | None = None) -> None:
        self.settings = settings or PlannerSettings()
        self._spec = PlannerSpec(str(Path(game.story.zcode_path).resolve()), game.seed, self.settings)
        self.report = SearchReport()
        self._lock = threading.Lock()
        self._closed = False
        #: How many times the worker was replaced after it died.
        self.restarts = 0
        self.llm_prior = None
        if llm is not None:
            # deferred: the LLM prior loads only for a planner that has a model
            from zorktui.agent.mcts.llm_prior import LlmPrior

            self.llm_prior = LlmPrior(llm)
        self._channel: Channel | None = self._start()

    @property
    def worker_pid(self) -> int | None:
        """The search worker's process id (None when none is running)."""
        return self._channel.pid if self._channel is not None else None

    def _start(self) -> Channel:
        channel = Channel("zorktui.engine.worker")
        try:
            channel.open_host(_HOST, self._spec, _WHAT)
        except (WorkerDied, ZorkTuiError) as exc:
            channel.close()
            raise GameError(f"the planner's search could not start ({exc})") from None
        return channel

    def suggest(self, situation: Situation) -> Idea:
        """Search from the situation's state in the worker (or reuse its last search) and pick a command."""
        with self._lock:
            adjusted: tuple[dict[str, float] | None, int, float, list[str]] | None = None
            restarted = ""
            for attempt in (1, 2):
                try:
                    if self._closed:
                        raise GameError("the planner has been closed")
                    if self._channel is None:
                        self._channel = self._start()
                    priors, lessons = self._channel.call("begin", situation, what=_WHAT)
                    if adjusted is None:
                        adjusted = self._model_prior(situation, priors, lessons)
                    idea, self.report = self._channel.call("finish", *adjusted, what=_WHAT)
                    if restarted:
                        idea.notes.insert(0, restarted)
                    return idea  # type: ignore[no-any-return]
                except WorkerDied as death:
                    if self._channel is not None:
                        self._channel.close()
                        self._channel = None
                    if self._closed:
                        raise GameError("the planner has been closed") from None
                    if attempt == 2:
                        raise GameError(f"the planner's search stopped twice in one move ({death})") from None
                    self.restarts += 1
                    restarted = (f"The planner's search process stopped ({death}); searched again in a new one "
                                 "(its tree and lessons start again).")
            raise AssertionError("unreachable")

    def _model_prior(self, situation: Situation, priors: dict[str, float] | None,
                     lessons: list[str]) -> tuple[dict[str, float] | None, int, float, list[str]]:
        """The root's priors with the model's opinion mixed in, and what it cost."""
        if not priors or self.llm_prior is None:
            return priors, 0, 0.0, []
        mixed, tokens, cost, note = self.llm_prior.adjust(situation, priors, lessons)
        return mixed, tokens, cost, [note] if note else []

    def close(self) -> None:
        """Stop the worker (a move in flight ends with "the planner has been closed")."""
        self._closed = True
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.close()
