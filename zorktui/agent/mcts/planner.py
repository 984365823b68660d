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
* a budget per move in CPU seconds or in simulations; with simulations and a
  seed the search is reproducible.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, TYPE_CHECKING

from zorktui.agent.explorer import Explorer
from zorktui.agent.mcts.prior import DEADLY_HERE, Reflections, heuristic_weights
from zorktui.agent.mcts.reward import Novelty, points, real_novelty, step_reward, things_taken
from zorktui.agent.mcts.routes import routes_from
from zorktui.agent.mcts.tree import Bounds, Edge, Node, expected_line, ranked, select, set_priors
from zorktui.agent.playlog import PlayLog, normal, short_result
from zorktui.agent.proposal import Idea
from zorktui.agent.situation import Situation
from zorktui.engine.directions import COMMON
from zorktui.engine.errors import GameError
from zorktui.engine.game import Game, GameState
from zorktui.engine.turn import Turn

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import LlmClient


#: Rollouts draw from actions whose prior is at least this share of the node's best.
ROLLOUT_MIN_PRIOR = 0.1
#: The share of a timed move's budget that checking nodes' valid actions may take.
VERIFY_SHARE = 0.4
#: How commands that pick a thing up begin.
TAKE_VERBS = ("take ", "get ", "pick up ")
#: Prior weight of a walk to a known room (a direction weighs 1.2, taking a thing 2).
ROUTE_WEIGHT = 0.8


@dataclass
class PlannerSettings:
    """How hard and how far the planner looks.

    Attributes:
        sims: Simulations per move (None: search until ``time_per_move`` is spent).
        time_per_move: CPU seconds per move when ``sims`` is None.
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


@dataclass
class SearchReport:
    """What the last search did (for the proposal's reasoning and benchmarks).

    Attributes:
        sims: Simulations run.
        seconds: CPU seconds spent.
        depth: The depth it searched to.
        nodes: States in the tree.
        verified: Nodes whose actions were checked against the valid actions this move.
        found_points: Some line scored points.
        to_points: For each first command whose lines scored, the fewest commands to the points.
        chosen_by: Who chose the move: "search" (a line to points) or "explorer" (none found).
        edges: The root's actions as searched: command, visits, value, prior, whether played.
    """

    sims: int = 0
    seconds: float = 0.0
    depth: int = 0
    nodes: int = 0
    verified: int = 0
    found_points: bool = False
    to_points: dict[str, int] = field(default_factory=dict)
    chosen_by: str = ""
    edges: list[dict[str, Any]] = field(default_factory=list)

    def trace(self) -> dict[str, Any]:
        """The report as one JSON-ready record (``bench_mcts.py --trace``)."""
        return {"sims": self.sims, "seconds": round(self.seconds, 3), "depth": self.depth, "nodes": self.nodes,
                "verified": self.verified, "to_points": self.to_points, "chosen_by": self.chosen_by,
                "edges": self.edges}


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
        #: What checking an uncached node's valid actions has been costing (a running estimate).
        self._verify_cost = 0.0
        self._fork_searched = False
        #: The explorer plays the moves from which no line found points: it walks the map in
        #: order, where a search that sees no points only drifts between rooms it rates alike.
        self._explorer = Explorer()
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
                if self._closed:
                    raise GameError("the planner has been closed")
                if situation.state is None:
                    raise GameError("the planner needs the game's state in the situation")
                key = situation.turn.state_hash
                tokens, cost = 0, 0.0
                notes: list[str] = []
                if key != self._last_root or not situation.refused:
                    tokens, cost, notes = self._search(situation)
                    self._last_root = key
                return self._choose(situation, tokens, cost, notes)
            finally:
                if self._closed:
                    self._release()  # closed while searching: the search thread lets go of the fork

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
    def _search(self, situation: Situation) -> tuple[int, float, list[str]]:
        s = self.settings
        assert situation.state is not None
        root = self._root(situation.state, situation)
        notes: list[str] = []
        tokens, cost = 0, 0.0
        if self.llm_prior is not None and root.edges:
            mixed, tokens, cost, note = self.llm_prior.adjust(situation, {e.action: e.prior for e in root.edges},
                                                              self.reflections.recent())
            if note:
                notes.append(note)
            set_priors(root, mixed)
        news = real_novelty(situation.log.turns)
        report = SearchReport(depth=self.depth)
        self.report = report  # the lines' scoring steps are noted in it as they are found
        self._verified_now, self._eager_now, self._verify_seconds = 0, 0, 0.0
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        while not self._closed and root.live_edges():
            if s.sims is not None:
                if report.sims >= s.sims:
                    break
            else:
                spent = time.process_time() - start_cpu
                if spent >= s.time_per_move or time.perf_counter() - start_wall >= 2 * s.time_per_move:
                    break
            if self._simulate(root, news, situation.max_score):
                report.found_points = True
            report.sims += 1
        report.seconds = time.process_time() - start_cpu
        report.nodes = len(self.nodes)
        report.verified = self._verified_now
        self.report = report
        # Dynamic depth: a search that found no points lets the next one look further.
        self.depth = self.settings.depth if report.found_points else min(self.depth + s.depth_step, s.max_depth)
        notes.extend(f"learned: {lesson}" for lesson in dict.fromkeys(self._new_lessons))
        self._new_lessons = []
        return tokens, cost, notes

    def _root(self, state: GameState, situation: Situation) -> Node:
        key = state.turn.state_hash
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
            started = time.process_time()
            cached = self._fork.valid_actions()
            spent = time.process_time() - started
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
                if after.state_hash == node.key:
                    edge.noop = True  # changes nothing from here: never worth a simulation
                    continue
                child = self.nodes.get(after.state_hash)
                if child is None:
                    child = Node(after.state_hash, self._fork.state(), after)
                    self.nodes[child.key] = child
                    fresh = True
                edge.child = child.key
            child = self.nodes.get(edge.child) if edge.child else None
            if child is None:  # cut away with the tree: play it again next time
                edge.child = None
                break
            # What can be done is worth knowing at once where a walk ends, where a thing was taken
            # or put down (a load lightened lets another be taken), and in a room real play has
            # never seen (the painting in the gallery a line walks through).
            place = child.turn.location
            if edge.path or (fresh and (things_taken(node.turn, child.turn) or things_taken(child.turn, node.turn)
                                        or (place is not None and not child.turn.dark and place.id not in news.rooms))):
                child.eager = True
            reward = step_reward(node.turn, child.turn, news, max_score)
            steps += edge.steps
            if points(node.turn, child.turn) > 0:
                scored = True
                self._scoring_line(path[0][1] if path else edge, steps)
            if (child.turn.done or child.turn.dead) and not child.turn.victory:
                self._learn(node, edge.action, child)
            path.append((node, edge, reward))
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
            if after.done:
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
    def _choose(self, situation: Situation, tokens: int, cost: float, notes: list[str]) -> Idea:
        root = self.nodes.get(situation.turn.state_hash)
        refused = {normal(c) for c in situation.refused}
        options = [e for e in ranked(root) if normal(e.first) not in refused] if root is not None else []
        r = self.report
        r.edges = [{"command": e.action, "visits": e.visits, "value": round(e.value, 3), "prior": round(e.prior, 3),
                    "played": e.child is not None, "noop": e.noop} for e in (root.edges if root else [])]
        explored = self._explored(situation, root)
        # A line to points: the first command of the shortest one, when some line through it is
        # worth something (not points and then a death) and it does not leave the player in
        # the dark with nothing that gives light.
        scoring = [e for e in options if e.action in r.to_points and e.best > 0 and not self._dark_trap(e)]
        # Picking up what lies here comes first, unless points are one command away: the
        # sword left in the living room is what the troll below calls for.
        if explored is not None and _is_take(explored.command) \
                and not any(r.to_points[e.action] == 1 for e in scoring):
            scoring = []
        if not scoring and (explored is not None or not options):
            # No line found points: the explorer's orderly walk over the map beats a search that
            # rates every room alike (it drifts to and fro between them).
            r.chosen_by = "explorer"
            if explored is None:
                explored = self._explorer.suggest(situation)
            explored.source = self.name
            explored.reflection = (f"Searched {r.sims} lines in {r.seconds:.1f}s (depth {r.depth}, {r.nodes} states); "
                                   f"none scored. {explored.reflection}")
            explored.tokens, explored.cost = tokens, cost
            explored.notes = notes + explored.notes
            return explored
        best = min(scoring, key=lambda e: r.to_points[e.action]) if scoring else options[0]
        r.chosen_by = "search"
        self._explorer.overruled()
        assert root is not None
        line = expected_line(self.nodes, root, limit=6)
        if not line or line[0] != best.action:
            line = [best.action]
        why = (f"Searched {r.sims} lines in {r.seconds:.1f}s (depth {r.depth}, {r.nodes} states): "
               f"'{best.action}' {best.visits} visits, value {best.value:+.2f}")
        if best.action in r.to_points:
            why += f", points within {r.to_points[best.action]} commands"
        why += f". Expects: {' > '.join(line)}."
        if best.path:
            why += f" On the way: {', '.join(best.path)}."
        others = [f"{e.action}: {e.visits} visits, value {e.value:+.2f}, prior {e.prior:.2f}" for e in options[:4]
                  if e is not best][:3]
        objective = "score points" if scoring else "stay alive"
        return Idea(command=best.first, source=self.name, reflection=why, objective=objective, tokens=tokens,
                    cost=cost, notes=notes + (["also weighed: " + "; ".join(others)] if others else []), searched=True)

    def _explored(self, situation: Situation, root: Node | None) -> Idea | None:
        """The explorer's idea, asked again (up to three times) while the search saw it end in a death."""
        refused = list(situation.refused)
        for _ in range(3):
            # Every move, not only when it is followed: it keeps its own account of the map.
            idea = self._explorer.suggest(replace(situation, refused=refused))
            if not self._deadly(root, idea.command):
                return idea
            refused.append(idea.command)
        self._explorer.overruled()
        return None

    def _dark_trap(self, edge: Edge) -> bool:
        """Whether ``edge`` leads into the dark with nothing that gives light (no action there lights the room)."""
        child = self.nodes.get(edge.child) if edge.child else None
        if child is None or not child.turn.dark:
            return False
        place = child.turn.location.id if child.turn.location else None
        for e in child.edges:
            after = self.nodes.get(e.child) if e.child else None
            if after is not None and not after.turn.dark and after.turn.location is not None \
                    and after.turn.location.id == place:
                return False
        return True

    def _deadly(self, root: Node | None, command: str) -> bool:
        """Whether the search saw ``command`` end the game from the root (a loss)."""
        if root is None:
            return False
        for e in root.edges:
            if normal(e.first) == normal(command) and e.child is not None:
                child = self.nodes.get(e.child)
                if child is not None and (child.turn.done or child.turn.dead) and not child.turn.victory:
                    return True
        return False


def _is_take(command: str) -> bool:
    """Whether a command picks a thing up."""
    return normal(command).startswith(TAKE_VERBS)
