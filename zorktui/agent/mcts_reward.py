"""What a simulated step is worth to the planner: points first, then news, and death is very bad.

Points are scaled so that a whole game is worth :data:`GAME_VALUE` whatever
its maximum score; a room or a thing the real game has not reached yet is
worth a little (curiosity is how points are found in a game that gives none
for walking), and an ending that is not a win costs more than most points
are worth. Nothing here knows any particular story.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zorktui.engine.turn import Turn

#: What the story's whole maximum score is worth.
GAME_VALUE = 10.0
#: Scale for points when the maximum score is unknown (points taken as they come).
UNKNOWN_MAX_POINT = 0.5
#: Reaching a room the real game has never been in.
NEW_ROOM = 0.3
#: Holding a thing the real game has never held.
NEW_THING = 0.2
#: Dying or losing.
DEATH = -3.0


@dataclass
class Novelty:
    """What the real game has already reached, and what a simulated line has reached since.

    Attributes:
        rooms: Room ids reached (real play plus this line).
        things: Object ids held.
    """

    rooms: set[int] = field(default_factory=set)
    things: set[int] = field(default_factory=set)

    def copy(self) -> "Novelty":
        """A copy for one simulated line."""
        return Novelty(set(self.rooms), set(self.things))


def point_value(max_score: int | None) -> float:
    """What one point is worth in the planner's units."""
    return GAME_VALUE / max_score if max_score else UNKNOWN_MAX_POINT


def step_reward(before: Turn, after: Turn, news: Novelty, max_score: int | None) -> float:
    """The shaped reward of going from ``before`` to ``after``; ``news`` is updated in place."""
    value = 0.0
    if after.score is not None and before.score is not None:
        value += (after.score - before.score) * point_value(max_score)
    if after.done:
        if after.victory:
            value += GAME_VALUE / 2
        elif after.dead or not after.victory:
            value += DEATH
        return value
    if after.location is not None and after.location.id not in news.rooms:
        news.rooms.add(after.location.id)
        value += NEW_ROOM
    for thing in after.inventory:
        if thing.id not in news.things:
            news.things.add(thing.id)
            value += NEW_THING
    return value


def real_novelty(turns: list[Turn]) -> Novelty:
    """What the real line of play has already reached."""
    news = Novelty()
    for t in turns:
        if t.location is not None:
            news.rooms.add(t.location.id)
        news.things.update(o.id for o in t.inventory)
    return news
