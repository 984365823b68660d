"""The planner policy (``--agent mcts``): Monte Carlo tree search over the emulator, after MC-DML.

Each move, the planner plays many short lines of play on a private fork of
the game (its own interpreter: the real game is never touched, so the person
can act while it thinks) and picks the command whose lines went best:

* selection by PUCT over the state's actions, with priors from the explorer's
  sense of what is worth trying, lessons from dead lines, and a model's
  opinion when one is configured (:mod:`zorktui.agent.mcts.llm_prior`);
* one node per world state (the engine's state hash), shared by every line
  that reaches it, kept from move to move;
* a new node inherits its parent's actions plus the compass, which costs
  nothing; an action that turns out to change nothing is dropped, and once a
  node has been visited a few times its actions are replaced by the engine's
  verified valid actions (dear: a few per move);
* a short random rollout past each new node, discounted returns, values
  normalised over what has been seen;
* dynamic depth (MC-DML's pruning): a move whose search found no points
  lets the next one look deeper, and depth falls back once points are found;
* a budget per move in seconds (this process's CPU, plus the time it waits
  on valid-action searches in the worker processes) or in simulations; with simulations and a
  seed the search is reproducible;
* the move itself is the first command of the shortest line that scored,
  and the explorer's when no line did (:mod:`zorktui.agent.mcts.choice`).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zorktui.agent.mcts.choice import Chooser, SearchReport
from zorktui.agent.mcts.prior import DEADLY_HERE, Reflections, heuristic_weights
from zorktui.agent.mcts.reward import Novelty, points, real_novelty, step_reward, things_taken
from zorktui.agent.mcts.routes import routes_from
from zorktui.agent.mcts.tree import Bounds, Edge, Node, select, set_priors
from zorktui.agent.playlog import PlayLog, normal, short_result
from zorktui.agent.proposal import Idea
from zorktui.agent.situation import Situation
from zorktui.core.errors import GameError
from zorktui.core.turn import Turn
from zorktui.engine.directions import COMMON
from zorktui.engine.game import Game
from zorktui.engine.game_api import GameState

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import LlmClient


#: Rollouts draw from actions whose prior is at least this share of the node's best.
ROLLOUT_MIN_PRIOR = 0.1
#: The share of a timed move's budget that checking nodes' valid actions may take.
VERIFY_SHARE = 0.4
#: Prior weight of a walk to a known room (a direction weighs 1.2, taking a thing 2).
ROUTE_WEIGHT = 0.8


@dataclass
class PlannerSettings:
    """How hard and how far the planner looks.

    Attributes:
        sims: Simulations per move (None: search until ``time_per_move`` is spent).
        time_per_move: Seconds per move when ``sims`` is None: CPU of this process plus its
            waits on the valid-action search's worker processes.
        seed: Seed for the rollouts' choices.
        gamma: Discount per step.
        depth: The starting depth of a line (steps past the root).
        max_depth: How deep dynamic depth may go.
        depth_step: How much deeper the next search looks after one that found no points.
        rollout: Random steps played past a new node.
        verify_after: Visits before a node's inherited actions are replaced by valid actions.
        verify_per_move: At most this many such replacements per move (each costs a valid-action search).
        verify_eager: At most this many more per move for nodes checked on their first visit
            (where a walk to a known room ends, or a thing was just taken).
        max_nodes: The tree is cut back to the root when it grows past this many states.
    """

    sims: int | None = None
    time_per_move: float = 2.0
    seed: int = 0
    gamma: float = 0.95
    depth: int = 8
    max_depth: int = 24
    depth_step: int = 4
    rollout: int = 4
    verify_after: int = 3
    verify_per_move: int = 4
    verify_eager: int = 8
    max_nodes: int = 3000


class MctsPlanner:
    """Suggests the command whose simulated futures went best.

    Args:
        game: The game being played (the planner searches a fork of it, never it).
        settings: Budget and shape of the search.
        llm: An LLM client for priors (None: heuristic priors only).
    """

    name = "mcts"
    #: The session puts the game's full state in each situation for this policy.
    needs_state = True

    def __init__(self, game: Game, settings: PlannerSettings | None = None, llm: LlmClient | None = None) -> None:
        self.settings = settings or PlannerSettings()
        self._fork = game.fork()
        self._rng = random.Random(self.settings.seed)
        self.nodes: dict[str, Node] = {}
        self.bounds = Bounds()
        self.reflections = Reflections()
        self.depth = self.settings.depth
        self.report = SearchReport()
        self._lock = threading.Lock()
        self._closed = False
        self._last_root: str | None = None
        self._verified_now = 0
        self._eager_now = 0
        self._verify_seconds = 0.0
        #: Seconds this move's search waited on valid-action searches in other processes.
        self._waited = 0.0
        #: What checking an uncached node's valid actions has been costing (a running estimate).
        self._verify_cost = 0.0
        self._fork_searched = False
        self._chooser = Chooser(self.name)
        self._new_lessons: list[str] = []
        self.llm_prior = None
        if llm is not None:
            # deferred: the LLM prior loads only for a planner that has a model
            from zorktui.agent.mcts.llm_prior import LlmPrior

            self.llm_prior = LlmPrior(llm)

    # ------------------------------------------------------------- policy
    def suggest(self, situation: Situation) -> Idea:
        """Search from the situation's state (or reuse the search just made for it) and pick a command."""
        with self._lock:
            try:
                priors = self.begin(situation)
                tokens, cost, notes = 0, 0.0, []
                if priors and self.llm_prior is not None:
                    priors, tokens, cost, note = self.llm_prior.adjust(situation, priors, self.reflections.recent())
                    notes = [note] if note else []
                return self.finish(situation, priors, tokens, cost, notes)
            finally:
                if self._closed:
                    self._release()  # closed while searching: the search thread lets go of the fork

    def begin(self, situation: Situation) -> dict[str, float] | None:
        """Set the search's root at the situation's state: the prior of each of its actions.

        None when the search just made for this state is to be reused (a
        proposal of it was refused: the next best line is chosen instead).
        The priors may be adjusted (by a model) before :meth:`finish`.
        """
        if self._closed:
            raise GameError("the planner has been closed")
        if situation.state is None:
            raise GameError("the planner needs the game's state in the situation")
        if situation.turn.key == self._last_root and situation.refused:
            return None
        root = self._root(situation.state, situation)
        return {e.action: e.prior for e in root.edges}

    def finish(self, situation: Situation, priors: dict[str, float] | None, tokens: int = 0, cost: float = 0.0,
               notes: list[str] | None = None) -> Idea:
        """Search from the root :meth:`begin` set (with ``priors``; None: reuse the last search) and choose."""
        notes = list(notes or [])
        key = situation.turn.key
        root = self.nodes.get(key)
        if priors is not None and root is not None:
            if priors != {e.action: e.prior for e in root.edges}:  # adjusted by a model
                set_priors(root, priors)
            notes.extend(self._search(situation, root))
            self._last_root = key
        return self._chooser.choose(situation, self.nodes, self.nodes.get(key), self.report, tokens, cost, notes)

    def close(self) -> None:
        """Stop searching and release the fork.

        Never waits: a search in flight (or a model call it is making) notices
        and releases the fork itself when it returns.
        """
        self._closed = True
        if self._lock.acquire(blocking=False):
            try:
                self._release()
            finally:
                self._lock.release()

    def _release(self) -> None:
        if self._fork is not None:
            self._fork.close()
            self._fork = None  # type: ignore[assignment]
        self.nodes.clear()

    # ------------------------------------------------------------- search
    def _search(self, situation: Situation, root: Node) -> list[str]:
        """Simulate lines from ``root`` until the budget is spent; what was learned, as notes."""
        s = self.settings
        notes: list[str] = []
        news = real_novelty(situation.log.turns)
        report = SearchReport(depth=self.depth)
        self.report = report  # the lines' scoring steps are noted in it as they are found
        self._verified_now, self._eager_now, self._verify_seconds, self._waited = 0, 0, 0.0, 0.0
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        while not self._closed and root.live_edges():
            if s.sims is not None:
                if report.sims >= s.sims:
                    break
            else:
                spent = time.process_time() - start_cpu + self._waited
                if spent >= s.time_per_move or time.perf_counter() - start_wall >= 2 * s.time_per_move:
                    break
            if self._simulate(root, news, situation.max_score):
                report.found_points = True
            report.sims += 1
        report.seconds = time.process_time() - start_cpu
        report.wall = time.perf_counter() - start_wall
        report.nodes = len(self.nodes)
        report.verified = self._verified_now
        self.report = report
        # Dynamic depth: a search that found no points lets the next one look further.
        self.depth = self.settings.depth if report.found_points else min(self.depth + s.depth_step, s.max_depth)
        notes.extend(f"learned: {lesson}" for lesson in dict.fromkeys(self._new_lessons))
        self._new_lessons = []
        return notes

    def _root(self, state: GameState, situation: Situation) -> Node:
        key = state.turn.key
        if len(self.nodes) > self.settings.max_nodes:
            self.nodes.clear()
            self.bounds = Bounds()
        root = self.nodes.get(key)
        if root is None:
            root = Node(key, state, state.turn)
            self.nodes[key] = root
        # The root always plays from the real state and offers exactly the valid actions.
        root.state, root.turn = state, state.turn
        actions = list(situation.valid_actions or ())
        if not actions:
            actions = list(COMMON)
        # Ways nobody has taken (the game accepts them or its text points there; never the way back).
        untaken = [*situation.map.accepted, *situation.map.mentioned]
        weights = self._weights(actions, key, situation.room_id, situation.log, untaken)
        # Walks to rooms the game has been in, each one step of the search (see mcts_routes).
        routes = {r.label: r for r in routes_from(situation.log.turns, situation.room_id)}
        for label in routes:
            weights.setdefault(label, ROUTE_WEIGHT)
        set_priors(root, weights)
        for e in root.edges:
            route = routes.get(e.action)
            if route is not None and e.path != route.commands:
                e.path, e.child = route.commands, None  # a shorter way may have been found: walk it again
        root.verified = True
        return root

    def _weights(self, actions: list[str], state: str, room: int, log: PlayLog | None = None,
                 mentioned: list[str] | tuple[str, ...] = ()) -> dict[str, float]:
        """Prior weights for ``actions`` in a state: the heuristic ones, lowered by what dead lines taught."""
        weights = heuristic_weights(actions, log, room, mentioned)
        return {a: w * self.reflections.penalty(state, room, a) for a, w in weights.items()}

    def _expand(self, node: Node, inherited: list[str]) -> None:
        room = node.turn.location.id if node.turn.location else 0
        set_priors(node, self._weights(list(dict.fromkeys(inherited + list(COMMON))), node.key, room))

    def _verify(self, node: Node) -> None:
        """Replace a node's guessed actions by the engine's valid actions, keeping what was learned."""
        s = self.settings
        self._fork.set_state(node.state)
        cached = self._fork.valid_actions_cached()  # found before, here or by the game: free
        if cached is None:
            done = self._eager_now if node.eager else self._verified_now - self._eager_now
            if done >= (s.verify_eager if node.eager else s.verify_per_move):
                return
            if s.sims is None and self._verify_seconds + self._verify_cost > VERIFY_SHARE * s.time_per_move:
                return  # spent, or the next check would likely overrun the move (some states cost seconds)
            started, started_cpu = time.perf_counter(), time.process_time()
            cached = self._fork.valid_actions()
            # The search's worker processes play the candidates: their time is this process's
            # wait, which its CPU clock does not count but the person waiting does.
            spent = time.perf_counter() - started
            self._waited += max(0.0, spent - (time.process_time() - started_cpu))
            self._verify_seconds += spent
            if self._fork_searched:  # the fork's first search also learns the game's templates: not typical
                self._verify_cost = spent if not self._verify_cost else 0.5 * (self._verify_cost + spent)
            self._fork_searched = True
            self._verified_now += 1
            self._eager_now += node.eager
        room = node.turn.location.id if node.turn.location else 0
        set_priors(node, self._weights(list(cached) or list(COMMON), node.key, room))
        node.verified = True

    def _simulate(self, root: Node, news0: Novelty, max_score: int | None) -> bool:
        """One line of play from the root: select, expand, roll out, back up. True if it scored."""
        s = self.settings
        news = news0.copy()
        path: list[tuple[Node, Edge, float]] = []
        on_line = {root.key}
        node = root
        value = 0.0
        scored = False
        steps = 0  # commands played from the root
        while len(path) < self.depth and not node.terminal and not self._closed:
            if not node.verified and (node.eager or node.visits >= s.verify_after):
                self._verify(node)
            edge = select(node, self.bounds)
            if edge is None:
                break
            fresh = False
            if edge.child is None:
                self._fork.set_state(node.state)
                try:
                    after = self._walk(edge.path) if edge.path else self._fork.step(edge.action, undoable=False)
                except GameError:
                    edge.noop = True
                    continue
                if after.key == node.key:
                    edge.noop = True  # changes nothing from here: never worth a simulation
                    continue
                edge.died = (after.dead or after.done) and not after.victory
                child = self.nodes.get(after.key)
                if child is None:
                    child = Node(after.key, self._fork.state(), after)
                    self.nodes[child.key] = child
                    fresh = True
                edge.child = child.key
            child = self.nodes.get(edge.child) if edge.child else None
            if child is None:  # cut away with the tree: play it again next time
                edge.child = None
                break
            # What can be done is worth knowing at once where a walk ends, where a thing was taken
            # or put down (a load lightened lets another be taken), where a thing came into sight
            # (a trap door under the rug: news), and in a room real play has never seen (the
            # painting in the gallery a line walks through).
            place = child.turn.location
            if edge.path or (fresh and (things_taken(node.turn, child.turn) or things_taken(child.turn, node.turn)
                                        or _revealed(node.turn, child.turn)
                                        or (place is not None and not child.turn.dark and place.id not in news.rooms))):
                child.eager = True
            reward = step_reward(node.turn, child.turn, news, max_score, died=edge.died)
            steps += edge.steps
            if points(node.turn, child.turn) > 0:
                scored = True
                self._scoring_line(path[0][1] if path else edge, steps)
            if edge.died:
                self._learn(node, edge.action, child)
            path.append((node, edge, reward))
            if edge.died:
                break  # a line past a death is not one to follow
            if child.key in on_line:
                break  # a loop back to a state on this line adds nothing
            on_line.add(child.key)
            node = child
            if fresh:
                if not child.terminal:
                    self._expand(child, [e.action for e in path[-1][0].live_edges() if not e.path])
                    value, scored_after = self._rollout(child, news, max_score)
                    if scored_after is not None and path:
                        scored = True
                        self._scoring_line(path[0][1], steps + scored_after)
                break
        # Back up discounted returns along the line.
        g = value
        for parent, edge, reward in reversed(path):
            g = reward + s.gamma ** edge.steps * g
            edge.add(g)
            parent.visits += 1
            self.bounds.see(edge.value)
        return scored

    def _scoring_line(self, first: Edge, steps: int) -> None:
        """Note that a line starting with the root's edge ``first`` scored after ``steps`` commands."""
        known = self.report.to_points.get(first.action)
        if known is None or steps < known:
            self.report.to_points[first.action] = steps

    def _rollout(self, node: Node, news: Novelty, max_score: int | None) -> tuple[float, int | None]:
        """A few random steps from a new node: their discounted shaped reward, and after how many it first scored."""
        s = self.settings
        # Commands the prior all but rules out (presentation options, undoing progress) stay out of rollouts.
        if not node.edges or s.rollout <= 0:
            return 0.0, None
        floor = ROLLOUT_MIN_PRIOR * max(e.prior for e in node.edges)
        pool = [e.action for e in node.edges if e.prior >= floor and not e.path]
        if not pool:
            return 0.0, None
        self._fork.set_state(node.state)
        before = node.turn
        value, discount, scored = 0.0, 1.0, None
        for step in range(1, s.rollout + 1):
            try:
                after = self._fork.step(self._rng.choice(pool), undoable=False)
            except GameError:
                break
            discount *= s.gamma
            value += discount * step_reward(before, after, news, max_score)
            if scored is None and points(before, after) > 0:
                scored = step
            if after.done or after.dead:
                break
            before = after
        return value, scored

    def _walk(self, commands: tuple[str, ...]) -> Turn:
        """Play a known route on the fork; it stops where the game ends."""
        after = self._fork.current
        for command in commands:
            after = self._fork.step(command, undoable=False)
            if after.done or after.dead:
                break
        return after

    def _learn(self, node: Node, command: str, child: Node) -> None:
        room = node.turn.location
        lesson = self.reflections.add(node.key, room.name if room else "an unknown place", room.id if room else 0,
                                      command, short_result(child.turn.observation, 60))
        if lesson is not None:
            self._new_lessons.append(lesson.text)
            for e in node.edges:
                if normal(e.action) == lesson.command:
                    e.prior *= DEADLY_HERE

    # ------------------------------------------------------------- choice


def _revealed(before: Turn, after: Turn) -> bool:
    """Whether a command in one room brought a thing into sight there (a trap door under a rug)."""
    if before.location is None or after.location is None or before.location.id != after.location.id:
        return False
    return bool({o.id for o in after.visible} - {o.id for o in before.visible} - {o.id for o in before.inventory})
