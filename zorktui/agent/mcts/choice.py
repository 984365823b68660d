"""How the planner picks its move from a finished search: a line to points, else the explorer's walk.

A search that found points within its depth knows what to do next: the
first command of the shortest line that scored, unless every line through
it died or it leaves the player in the dark with nothing that gives light.
A search that found none rates every room about alike, and following it
drifts between rooms; the explorer's orderly walk over the map (frontiers
first, then errands, then the room seen longest ago) is then the better
guide, with the search as its guard: an idea the search saw end in a death
is put to the explorer again. Things lying here are picked up before a line
to points more than one command away (the sword the troll below calls for).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from zorktui.agent.explorer import MAKING_ROOM, Explorer
from zorktui.agent.mcts.tree import Edge, Node, expected_line, ranked
from zorktui.agent.playlog import TAKE, normal
from zorktui.agent.proposal import Idea
from zorktui.agent.situation import Situation


@dataclass
class SearchReport:
    """What the last search did (for the proposal's reasoning and benchmarks).

    Attributes:
        sims: Simulations run.
        seconds: CPU seconds spent.
        wall: Wall-clock seconds spent.
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
    wall: float = 0.0
    depth: int = 0
    nodes: int = 0
    verified: int = 0
    found_points: bool = False
    to_points: dict[str, int] = field(default_factory=dict)
    chosen_by: str = ""
    edges: list[dict[str, Any]] = field(default_factory=list)

    def trace(self) -> dict[str, Any]:
        """The report as one JSON-ready record (``bench_mcts.py --trace``)."""
        return {"sims": self.sims, "seconds": round(self.seconds, 3), "wall": round(self.wall, 3), "depth": self.depth,
                "nodes": self.nodes, "verified": self.verified, "to_points": self.to_points, "chosen_by": self.chosen_by,
                "edges": self.edges}


class Chooser:
    """Picks the planner's move; keeps the explorer that walks when no line scores.

    Args:
        name: The policy's name, given as each idea's source.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        #: Asked every move, followed or not: it keeps its own account of the map.
        self.explorer = Explorer()

    def choose(self, situation: Situation, nodes: dict[str, Node], root: Node | None, report: SearchReport,
               tokens: int, cost: float, notes: list[str]) -> Idea:
        """The move, from the search just made at ``root`` (None: no search), as an idea with its reasons.

        Args:
            situation: The situation searched.
            nodes: The search tree's states by key.
            root: The node of the situation's state.
            report: The search's report; who chose is noted in it.
            tokens, cost: Model spend of the search.
            notes: Lines for people gathered so far.
        """
        refused = {normal(c) for c in situation.refused}
        options = [e for e in ranked(root) if normal(e.first) not in refused] if root is not None else []
        r = report
        r.edges = [{"command": e.action, "visits": e.visits, "value": round(e.value, 3), "prior": round(e.prior, 3),
                    "played": e.child is not None, "noop": e.noop} for e in (root.edges if root else [])]
        explored = self._explored(situation, root)
        # A line to points: the first command of the shortest one, when some line through it is
        # worth something (not points and then a death) and it does not leave the player in
        # the dark with nothing that gives light.
        scoring = [e for e in options if e.action in r.to_points and e.best > 0 and not _dark_trap(nodes, e)]
        # Picking up what lies here (or making room for it) comes first, unless points are one
        # command away: the sword left in the living room is what the troll below calls for.
        if explored is not None and (is_take(explored.command) or explored.objective == MAKING_ROOM) \
                and not any(r.to_points[e.action] == 1 for e in scoring):
            scoring = []
        if not scoring and (explored is not None or not options):
            # No line found points: the explorer's orderly walk over the map beats a search that
            # rates every room alike (it drifts to and fro between them).
            r.chosen_by = "explorer"
            if explored is None:
                explored = self.explorer.suggest(situation)
            explored.source = self.name
            explored.reflection = (f"Searched {r.sims} lines in {r.seconds:.1f}s (depth {r.depth}, {r.nodes} states); "
                                   f"none scored. {explored.reflection}")
            explored.tokens, explored.cost = tokens, cost
            explored.notes = notes + explored.notes
            return explored
        best = min(scoring, key=lambda e: r.to_points[e.action]) if scoring else options[0]
        r.chosen_by = "search"
        self.explorer.overruled()
        assert root is not None
        line = expected_line(nodes, root, limit=6)
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
            idea = self.explorer.suggest(replace(situation, refused=refused))
            if not self._deadly(root, idea.command):
                return idea
            refused.append(idea.command)
        self.explorer.overruled()
        return None

    def _deadly(self, root: Node | None, command: str) -> bool:
        """Whether the search saw ``command`` end the game from the root (a loss)."""
        if root is None:
            return False
        return any(e.died for e in root.edges if not e.path and normal(e.action) == normal(command))


def is_take(command: str) -> bool:
    """Whether a command picks a thing up."""
    return normal(command).startswith(TAKE)


def _dark_trap(nodes: dict[str, Node], edge: Edge) -> bool:
    """Whether ``edge`` leads into the dark with nothing that gives light (no action there lights the room)."""
    child = nodes.get(edge.child) if edge.child else None
    if child is None or not child.turn.dark:
        return False
    place = child.turn.location.id if child.turn.location else None
    for e in child.edges:
        after = nodes.get(e.child) if e.child else None
        if after is not None and not after.turn.dark and after.turn.location is not None \
                and after.turn.location.id == place:
            return False
    return True
