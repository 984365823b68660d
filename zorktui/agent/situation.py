"""Everything a policy or the critic may look at before choosing a command, gathered once per turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zorktui.agent.guards import GuardReport
from zorktui.agent.playlog import PlayLog, put_out_by
from zorktui.core.errors import GameError
from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameState

if TYPE_CHECKING:  # hints only
    from zorktui.memory.graph import Memory


@dataclass
class MapView:
    """What the memory knows about the map around the player (empty without a memory).

    Attributes:
        exits: Known ways out of here as lines ("north -> Kitchen",
            "south (back to Hall, likely)", "down (not walked yet)").
        exit_directions: The directions walked from here.
        back: The likely ways back from here, not walked yet.
        blocked: Directions found blocked here.
        unexplored: Ways nobody has taken from here: those the game accepts,
            then those its text points to, then untried compass guesses.
        accepted: The directions the valid actions hold that nobody has walked from here.
        mentioned: The untried directions the game's text points to (not among the accepted).
        frontiers: Nearest rooms with ways nobody has taken: (room, directions, path).
        walks: The shortest known walk to each room reached so far, by room object number.
        rooms: Rooms visited, in the order first seen.
        belief: The memory's belief-state block.
    """

    exits: list[str] = field(default_factory=list)
    exit_directions: list[str] = field(default_factory=list)
    back: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    unexplored: list[str] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    frontiers: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    walks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    rooms: list[str] = field(default_factory=list)
    belief: str = ""


def lighting_actions(peek: Callable[[str], Turn], now: Turn, actions: tuple[str, ...]) -> tuple[str, ...]:
    """The actions that end the dark where the player stands, each played on a snapshot (``peek``).

    Args:
        peek: Plays a command on a copy of the current state (``Game.peek``).
        now: The current turn (dark).
        actions: The valid actions here.
    """
    here = now.location.id if now.location else None
    found = []
    for action in actions:
        try:
            after = peek(action)
        except GameError:
            continue
        if not after.dark and not after.dead and (after.location.id if after.location else None) == here:
            found.append(action)
    return tuple(found)


def map_view(memory: Memory | None) -> MapView:
    """Read the map around the player from an AriGraph memory (None gives an empty view)."""
    view = MapView()
    if memory is None:
        return view
    # deferred: the memory's query modules (about 40 ms with difflib) load on the first map view, not with the agent
    from zorktui.memory import queries
    from zorktui.memory.answers import BACK, WALKED
    from zorktui.memory.belief import belief_state
    from zorktui.memory.schema import object_number

    _, found, blocked = queries.exits(memory)
    view.exits = [e.text() for e in found]
    view.exit_directions = [e.direction for e in found if e.kind == WALKED]
    view.back = [e.direction for e in found if e.kind == BACK]
    view.blocked = list(blocked)
    open_ways = queries.unexplored(memory)
    if open_ways is not None:
        view.accepted = list(open_ways.accepted)
        view.mentioned = list(open_ways.mentioned)
        view.unexplored = open_ways.ways
    paths = queries.walks(memory)  # once, for the frontiers and the walks back alike
    view.frontiers = [(f.room.name, f.directions, f.path) for f in queries.frontiers(memory, paths=paths)]
    view.walks = {number: path for rid, path in paths.items() if (number := object_number(rid)) is not None}
    view.rooms = [p.name for p in queries.rooms(memory)]
    view.belief = belief_state(memory).text()
    return view


@dataclass
class Situation:
    """The state of play one proposal is made for.

    Attributes:
        turn: The current turn.
        log: The line of play so far.
        valid_actions: Commands known to change the world from here (None: not computed).
        blocked_takes: Takes the game refuses here for what the player already carries.
        map: The memory's view of the map.
        guards: Loop and stuck warnings.
        objective: The agent's standing objective.
        feedback: Why earlier proposals for this turn were refused (newest last).
        refused: The commands refused for this turn (by the person, the critic or a guard).
        lessons: Lessons from earlier sessions of this story.
        notes: Sub-agent notes (narrative, hints, conversation).
        max_score: The story's maximum score where known.
        refresh_objective: Time to reconsider the objective.
        state: The game's complete state, for a planner to search from on its own fork.
        lighting: In the dark, the valid actions after which the player sees where they stand
            (played on a snapshot: whatever the verb, "on", "light lamp", "strike match").
        acceptable: The valid actions the guards and the critic would let through now, for a
            policy that offers a model only those (None: not screened).
    """

    turn: Turn
    log: PlayLog
    valid_actions: tuple[str, ...] | None = None
    blocked_takes: tuple[str, ...] = ()
    map: MapView = field(default_factory=MapView)
    guards: GuardReport = field(default_factory=GuardReport)
    objective: str = ""
    feedback: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    lessons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    max_score: int | None = None
    refresh_objective: bool = False
    state: GameState | None = None
    lighting: tuple[str, ...] = ()
    acceptable: tuple[str, ...] | None = None

    def lights(self) -> set[int]:
        """Object numbers of the lights carried: lit on this line of play, or burning now.

        A thing a valid action here would put out is burning (Zork III's torch,
        found lit: no command of the player's ever lit it).
        """
        found = self.log.lights()
        for action in self.valid_actions or ():
            found |= put_out_by(action, self.turn.inventory)
        return found

    @property
    def room_id(self) -> int:
        """The current room's object id (0 when unknown)."""
        return self.turn.location.id if self.turn.location else 0

    @property
    def room(self) -> str:
        """The current room's name."""
        return self.turn.location.name if self.turn.location else "unknown"
