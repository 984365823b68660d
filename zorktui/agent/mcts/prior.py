"""Priors for the planner without a model: the explorer's sense of what is worth trying, and lessons from dead lines.

A command's weight starts at 1 and is raised for what usually moves a game
on (a mentioned exit, taking or opening things, anything not tried in this
room yet) and lowered for what rarely does or undoes progress (dropping,
closing, attacking), for what did nothing when tried here, and, sharply,
for a command a simulated line died of in this very state. The planner
normalises the weights into probabilities.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from zorktui.agent.playlog import TAKE, PlayLog, normal
from zorktui.agent.safety import presentation_only
from zorktui.engine.directions import direction_of

_OPEN = ("open ", "unlock ")
_RISKY = ("attack ", "kill ", "break ", "burn ", "eat ", "drink ", "throw ", "jump", "hit ")
_UNDOING = ("drop ", "discard ", "close ", "lock ", "shut ", "extinguish ", "blow out ", "turn off ", "switch off ",
            "put out ")
#: The weight of a command that only changes how the game prints (see :func:`presentation_only`).
PRESENTATION = 0.01
#: The weight left on a command a simulated line died of, in the state it died from.
DEADLY_HERE = 0.02
#: The weight left on a command that led to death from another state of the same room.
DEADLY_ROOM = 0.3


@dataclass(frozen=True)
class Reflection:
    """A lesson from a simulated line that went badly.

    Attributes:
        state: The state hash the command was played in.
        room: The room's name.
        room_id: The room's id.
        command: The command.
        text: The lesson in words (for the Agent panel and a model's prompt).
    """

    state: str
    room: str
    room_id: int
    command: str
    text: str


@dataclass
class Reflections:
    """Lessons gathered while planning; kept for the whole game (cross-trial memory)."""

    items: list[Reflection] = field(default_factory=list)
    _seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, state: str, room: str, room_id: int, command: str, result: str) -> Reflection | None:
        """Record that ``command`` in ``state`` ended the game; None when it was already known."""
        key = (state, normal(command))
        if key in self._seen:
            return None
        self._seen.add(key)
        lesson = Reflection(state, room, room_id, normal(command),
                            f"'{command}' in {room} led to death" + (f": {result}" if result else ""))
        self.items.append(lesson)
        return lesson

    def penalty(self, state: str, room_id: int, command: str) -> float:
        """The factor a command's prior is multiplied by for what is known about it here."""
        c = normal(command)
        if (state, c) in self._seen:
            return DEADLY_HERE
        if any(r.command == c and r.room_id == room_id for r in self.items):
            return DEADLY_ROOM
        return 1.0

    def recent(self, n: int = 5) -> list[str]:
        """The newest lessons, as text."""
        return [r.text for r in self.items[-n:]]


def heuristic_weights(actions: list[str], log: PlayLog | None, room_id: int,
                      mentioned: Collection[str] = ()) -> dict[str, float]:
    """Unnormalised prior weights for ``actions`` in the current room.

    Args:
        actions: The candidate commands.
        log: The real line of play (None inside a simulation: no history there).
        room_id: The room the commands would be typed in.
        mentioned: Ways nobody has taken from here (the game accepts them or its text points there).
    """
    tried = set(log.tried_here(room_id)) if log is not None else set()
    useless = log.useless_here(room_id) if log is not None else set()
    weights: dict[str, float] = {}
    for action in actions:
        c = normal(action)
        w = 1.0
        direction = direction_of(c)
        if direction is not None:
            w = 1.5 if direction in mentioned else 1.2
        elif c.startswith(TAKE):
            w = 2.0
        elif c.startswith(_OPEN):
            w = 1.6
        elif c.startswith(_RISKY):
            w = 0.4
        elif c.startswith(_UNDOING):
            w = 0.15
        if presentation_only(c):
            w = PRESENTATION
        if c in useless:
            w *= 0.1
        elif c not in tried:
            w *= 1.5
        weights[action] = w
    return weights
