"""What a simulated step is worth to the planner: points first, then news, and death is very bad.

Points are scaled so that a whole game is worth :data:`GAME_VALUE` whatever
its maximum score; a room or a thing the real game has not reached yet is
worth a little (curiosity is how points are found in a game that gives none
for walking), and an ending that is not a win costs more than most points
are worth. Nothing here knows any particular story.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from zorktui.core.turn import Turn

#: What the story's whole maximum score is worth (points must outweigh a long line's curiosity,
#: or the planner keeps exploring past points it could take now).
GAME_VALUE = 30.0
#: Scale for points when the maximum score is unknown (points taken as they come).
UNKNOWN_MAX_POINT = 0.5
#: Seeing a room the real game has never seen (a room entered in the dark is not seen yet).
NEW_ROOM = 0.3
#: Holding a thing the real game has never held.
NEW_THING = 0.2
#: Parting with a thing carried (dropped, eaten, given) when no points come of it: a line that
#: drops and takes things back reaches world states the real game has not been in, which would
#: otherwise look fresher than walking on through rooms it has (a cooking game's potato left
#: on the bathroom toilet, the recipe then out of reach).
LOST_THING = 0.3
#: Dying or losing.
DEATH = -10.0
#: Coming back to a world state the real game has already been in, per earlier visit.
REVISIT = 0.05
#: Earlier visits counted at most.
REVISIT_CAP = 10


@dataclass
class Novelty:
    """What the real game has already reached, and what a simulated line has reached since.

    Attributes:
        rooms: Room ids seen lit (real play plus this line): a room walked into
            in the dark still has its things to show once there is light.
        things: Object ids held.
        visits: How often the real game has been in each world state (a line
            that only walks back and forth between them is worth less than
            nothing: it is how a player goes round in circles).
    """

    rooms: set[int] = field(default_factory=set)
    things: set[int] = field(default_factory=set)
    visits: Counter[str] = field(default_factory=Counter)

    def copy(self) -> Novelty:
        """A copy for one simulated line (the real visits are shared: a line does not change them)."""
        return Novelty(set(self.rooms), set(self.things), self.visits)


def point_value(max_score: int | None) -> float:
    """What one point is worth in the planner's units."""
    return GAME_VALUE / max_score if max_score else UNKNOWN_MAX_POINT


def points(before: Turn, after: Turn) -> int:
    """The score change from ``before`` to ``after`` (0 where the story keeps no score)."""
    if after.score is None or before.score is None:
        return 0
    return after.score - before.score


def things_taken(before: Turn, after: Turn) -> set[int]:
    """Ids of the things carried after ``after`` that were not before it (swap the turns: things parted with)."""
    return {o.id for o in after.inventory} - {o.id for o in before.inventory}


def step_reward(before: Turn, after: Turn, news: Novelty, max_score: int | None, died: bool | None = None) -> float:
    """The shaped reward of going from ``before`` to ``after``; ``news`` is updated in place.

    ``died`` says whether the step killed the player when ``after`` is not the turn the step
    played (a state first reached otherwise); by default ``after.dead`` says it.
    """
    value = points(before, after) * point_value(max_score)
    if after.done or (after.dead if died is None else died):  # a death with a new life costs as much (Zork)
        return value + (GAME_VALUE / 2 if after.victory else DEATH)
    value -= REVISIT * min(news.visits.get(after.key, 0), REVISIT_CAP)
    value -= LOST_THING * len(things_taken(after, before))
    if after.location is not None and not after.dark and after.location.id not in news.rooms:
        news.rooms.add(after.location.id)
        value += NEW_ROOM
    for thing in after.inventory:
        if thing.id not in news.things:
            news.things.add(thing.id)
            value += NEW_THING
    return value


def real_novelty(turns: list[Turn]) -> Novelty:
    """What the real line of play has already reached."""
    news = Novelty(visits=Counter(t.key for t in turns))
    for t in turns:
        if t.location is not None and not t.dark:
            news.rooms.add(t.location.id)
        news.things.update(o.id for o in t.inventory)
    return news
