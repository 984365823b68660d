"""Shortest walks over a graph of rooms joined by commands (AriGraph's "go to").

Pure Python with no database: the memory's learned exits and the planner's
record of moves made both walk it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

Room = TypeVar("Room", bound=Hashable)


def shortest_walks(graph: Mapping[Room, Iterable[tuple[str, Room]]], start: Room) -> dict[Room, tuple[str, ...]]:
    """The commands of the shortest walk from ``start`` to every room it reaches (breadth first).

    Args:
        graph: For each room, (command, room it leads to) pairs.
        start: Where the walks begin (reached by the empty walk).
    """
    walks: dict[Room, tuple[str, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for command, there in graph.get(here, ()):
            if there not in walks:
                walks[there] = walks[here] + (command,)
                queue.append(there)
    return walks
