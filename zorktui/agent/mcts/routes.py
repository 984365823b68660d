"""Walks to rooms the real game has been in, as single steps for the planner ("go to the kitchen").

A search a few seconds long cannot find that the matches two rooms and four
doors away are what the lamp needs: walking there is most of the line, and
a random line rarely walks it. So the planner may take one step that stands
for a whole known route, AriGraph's "go to" action: the shortest path over
the moves the real game has made (a command that took the player from one
room to another; the latest one from each room wins, as doors open and
close). Nothing here knows any particular story.
"""

from __future__ import annotations

from dataclasses import dataclass

from zorktui.core.turn import Turn
from zorktui.memory.maps.walks import shortest_walks

#: Routes offered at most (nearest first).
MAX_ROUTES = 12


@dataclass(frozen=True)
class Route:
    """A known way to a room.

    Attributes:
        room: The room's object id.
        name: The room's name.
        commands: The commands that walk there, in order.
    """

    room: int
    name: str
    commands: tuple[str, ...]

    @property
    def label(self) -> str:
        """How the planner names the step."""
        return f"go to {self.name}"


def moves_seen(turns: list[Turn]) -> dict[int, list[tuple[str, int]]]:
    """Room -> (command, room it led to), from the moves the line of play made (the latest wins)."""
    graph: dict[int, dict[str, int]] = {}
    for before, after in zip(turns, turns[1:], strict=False):
        if before.location is None or after.location is None or after.command is None:
            continue
        # A move into the dark counts: the engine names the real room there, and a
        # walk through it that kills is seen when the planner plays it.
        if after.location.id != before.location.id and not after.done:
            graph.setdefault(before.location.id, {})[after.command.strip().lower()] = after.location.id
    return {room: list(moves.items()) for room, moves in graph.items()}


def routes_from(turns: list[Turn], here: int) -> list[Route]:
    """Shortest known routes from room ``here`` to every other room the line has been in, two steps or more.

    One step away is already among the valid actions.
    """
    walks = shortest_walks(moves_seen(turns), here)
    names = {t.location.id: t.location.name for t in turns if t.location is not None}
    far = sorted((len(walk), room) for room, walk in walks.items() if len(walk) >= 2)
    return [Route(room, names.get(room, f"room {room}"), walks[room]) for _, room in far[:MAX_ROUTES]]
