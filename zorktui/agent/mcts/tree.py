"""The search tree of the planner: states as nodes (shared by every line that reaches them), actions as edges.

Nodes are keyed by the engine's world-state hash, so two lines of play that
reach the same world share one node and its statistics (a transposition
table). Edges hold the PUCT statistics: prior, visits and summed return.
Values are compared after min-max normalisation over everything seen so far,
so the exploration constant works the same whether a game gives 1 point or
50 for a step forward.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameState

#: PUCT's exploration constant (on values normalised to [0, 1]).
C_PUCT = 1.25
#: How much an action's value is the best return seen through it rather than the mean.
#: A story played from a saved state is deterministic, so the best line found is one the
#: player can really follow; the mean alone drowns it in random rollouts that die
#: (holding food where "eat" ends the game made dropping it look best).
BEST_WEIGHT = 0.75


@dataclass
class Edge:
    """One action from a node.

    Attributes:
        action: The command.
        prior: The policy's probability for it.
        visits: Simulations that took it.
        total: Sum of the returns those simulations got from here.
        best: The best return one of them got.
        child: The state it leads to (None until played).
        reward: The immediate reward of playing it (shaped; see :mod:`mcts_reward`).
        noop: Playing it changed nothing (it is dropped from selection).
        path: For a walk to a known room (:mod:`mcts_routes`), the commands it stands
            for; empty for a plain command.
        died: Playing it killed the player or lost the game. A property of the step, not of
            the state it leads to: Zork's new life after a death is a world state that
            walking into the barrow reaches too.
    """

    action: str
    prior: float
    visits: int = 0
    total: float = 0.0
    best: float = -math.inf
    child: str | None = None
    reward: float = 0.0
    noop: bool = False
    path: tuple[str, ...] = ()
    died: bool = False

    @property
    def steps(self) -> int:
        """How many commands playing it takes."""
        return len(self.path) or 1

    @property
    def first(self) -> str:
        """The command to type now to take this action."""
        return self.path[0] if self.path else self.action

    @property
    def mean(self) -> float:
        """Mean return (0 when unvisited)."""
        return self.total / self.visits if self.visits else 0.0

    @property
    def value(self) -> float:
        """What the action is worth: mostly the best return seen, partly the mean (0 when unvisited)."""
        if not self.visits:
            return 0.0
        return BEST_WEIGHT * self.best + (1 - BEST_WEIGHT) * self.mean

    def add(self, ret: float) -> None:
        """Count one simulation's return."""
        self.visits += 1
        self.total += ret
        self.best = max(self.best, ret)


@dataclass
class Node:
    """A world state in the tree.

    Attributes:
        key: The state hash.
        state: The engine state to restore to play on from here.
        turn: The turn that reached it first.
        edges: Actions from here (empty until expanded).
        verified: The actions are the engine's valid actions (not inherited from the parent).
        visits: Simulations through this node.
        eager: Its actions are checked on the first visit, not the third: a walk to a
            known room ends here (what can be done there with what is now held is why
            one walks), or a thing was just taken (what it is for: "chop" once the knife
            is held).
    """

    key: str
    state: GameState
    turn: Turn
    edges: list[Edge] = field(default_factory=list)
    verified: bool = False
    visits: int = 0
    eager: bool = False

    @property
    def expanded(self) -> bool:
        """Actions have been given to this node."""
        return bool(self.edges)

    @property
    def terminal(self) -> bool:
        """The game has ended here."""
        return self.turn.done

    def live_edges(self) -> list[Edge]:
        """Edges still worth selecting (not known to do nothing)."""
        return [e for e in self.edges if not e.noop]


class Bounds:
    """Running minimum and maximum of values, to normalise them to [0, 1]."""

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def see(self, value: float) -> None:
        """Widen the bounds to include ``value``."""
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    def normal(self, value: float) -> float:
        """``value`` on [0, 1] (0.5 while nothing distinguishes values)."""
        if self.high - self.low < 1e-9:
            return 0.5
        return (value - self.low) / (self.high - self.low)


def select(node: Node, bounds: Bounds, c_puct: float = C_PUCT) -> Edge | None:
    """The edge PUCT prefers: normalised value plus prior-weighted exploration.

    Unvisited edges take the visit-weighted value of the parent's tried
    actions (not zero), so an action is not tried merely because the others
    have done badly so far.
    """
    edges = node.live_edges()
    if not edges:
        return None
    visited = [e for e in edges if e.visits]
    parent_value = sum(e.value * e.visits for e in visited) / max(1, sum(e.visits for e in visited)) if visited else 0.0
    root_n = math.sqrt(max(1, node.visits))
    best, best_score = None, -math.inf
    for e in edges:
        q = bounds.normal(e.value if e.visits else parent_value)
        u = c_puct * e.prior * root_n / (1 + e.visits)
        score = q + u
        if score > best_score:
            best, best_score = e, score
    return best


def set_priors(node: Node, priors: dict[str, float]) -> None:
    """Give ``node`` one edge per action with its (normalised) prior.

    An action the node already had keeps its statistics (visits, value, where
    it leads); actions missing from ``priors`` are dropped.
    """
    total = sum(max(p, 0.0) for p in priors.values()) or 1.0
    old = {e.action: e for e in node.edges}
    edges = []
    for action, p in priors.items():
        edge = old.get(action) or Edge(action, 0.0)
        edge.prior = max(p, 0.0) / total
        edges.append(edge)
    node.edges = edges


#: An action is chosen on its value only once it has at least this share of the most visits.
TRUSTED_SHARE = 0.25


def ranked(node: Node) -> list[Edge]:
    """The node's live edges, best first.

    The most valuable of those searched nearly as much as the most visited
    one, then the rest by visits: visits lag behind a line found late in
    the move ("take potato" worth a point, found after 400 visits went east).
    """
    edges = node.live_edges()
    trusted = max(1, math.ceil(TRUSTED_SHARE * max((e.visits for e in edges), default=0)))
    by_visits = sorted(edges, key=lambda e: (-e.visits, -e.value, -e.prior))
    return (sorted((e for e in by_visits if e.visits >= trusted), key=lambda e: -e.value)
            + [e for e in by_visits if e.visits < trusted])


def expected_line(nodes: dict[str, Node], root: Node, limit: int = 6) -> list[str]:
    """The line the search expects: the most visited action from each node in turn."""
    line: list[str] = []
    node: Node | None = root
    seen: set[str] = set()
    while node is not None and len(line) < limit and node.key not in seen:
        seen.add(node.key)
        edges = [e for e in ranked(node) if e.visits]
        if not edges:
            break
        line.append(edges[0].action)
        node = nodes.get(edges[0].child) if edges[0].child else None
    return line
