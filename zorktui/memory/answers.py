"""What the memory's questions answer with: places, exits, whereabouts, facts in words, ways not taken."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zorktui.memory.schema import ACCEPTS, AT, BLOCKED, EXIT, HAS, IN, IS, LEADS, PLAYER


@dataclass(frozen=True)
class Place:
    """An entity in the answer: its id and name."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        """JSON form."""
        return {"id": self.id, "name": self.name}


#: Kinds of :class:`Exit`: walked, the likely way back (not walked yet), or a way the valid actions hold.
WALKED, BACK, ACCEPTED = "walked", "back", "accepted"


@dataclass(frozen=True)
class Exit:
    """A way out of a room: walked, likely back, or accepted by the game but not walked yet.

    Attributes:
        direction: Compass word, or the command for other movement.
        to: Where it leads (None while nobody has walked it and it is not a way back).
        one_way: Proven to have no way back: the opposite direction was
            tried from the far side and led elsewhere or nowhere.
        since: Turn it was learned.
        kind: ``walked``, ``back`` (the likely way back to where you came
            from, not walked yet) or ``accepted`` (the valid actions hold it).
    """

    direction: str
    to: Place | None
    one_way: bool = False
    since: int = 0
    kind: str = WALKED

    @property
    def command(self) -> str:
        """What to type to take this exit."""
        return self.direction

    def note(self, arrow: str = "->") -> str:
        """What is known of the way, after its direction: "-> Kitchen", "(back to Hall, likely)", "(not walked yet)"."""
        if self.kind == BACK and self.to is not None:
            return f"(back to {self.to.name}, likely)"
        if self.to is None:
            return "(not walked yet)"
        return f"{arrow} {self.to.name}"

    def text(self) -> str:
        """The way as people read it: "north -> Kitchen", "south (back to Hall, likely)", "down (not walked yet)"."""
        return f"{self.direction} {self.note()}{' (one-way)' if self.one_way else ''}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"direction": self.direction, "to": self.to.to_json() if self.to else None,
                "one_way": self.one_way, "since": self.since, "kind": self.kind}


@dataclass(frozen=True)
class Whereabouts:
    """Where an object is (or was last seen), with the containers around it.

    Attributes:
        thing: The object.
        chain: Containers from the nearest outwards, ending at a room or "you".
        current: The fact still holds at the asked turn.
        since: First turn of the fact; ``until`` the turn it stopped holding.
    """

    thing: Place
    chain: tuple[Place, ...]
    carried: bool
    current: bool
    since: int
    until: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"thing": self.thing.to_json(), "in": [p.to_json() for p in self.chain], "carried": self.carried,
                "current": self.current, "since": self.since, "until": self.until}


@dataclass(frozen=True)
class EpisodeHit:
    """A past turn ranked by AriGraph's episodic relevance."""

    turn: int
    command: str | None
    observation: str
    relevance: float
    matched: int
    mentions: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"turn": self.turn, "command": self.command, "observation": self.observation,
                "relevance": round(self.relevance, 4), "matched": self.matched, "mentions": self.mentions}


@dataclass(frozen=True)
class FactRow:
    """One semantic fact as stored."""

    subject: Place
    relation: str
    object: Place
    detail: str
    valid_from: int
    valid_to: int | None
    source: str

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"subject": self.subject.to_json(), "relation": self.relation, "object": self.object.to_json(),
                "detail": self.detail, "valid_from": self.valid_from, "valid_to": self.valid_to, "source": self.source}

    def text(self) -> str:
        """The fact as a short line for people ("you have brass lantern  [turn 3-7, engine]")."""
        until = "" if self.valid_to is None else f"-{self.valid_to - 1}"
        sentence = fact_sentence(self.subject, self.relation, self.object, self.detail)
        return f"{sentence}  [turn {self.valid_from}{until}, {self.source}]"


def fact_sentence(subject: Place, relation: str, obj: Place, detail: str = "") -> str:
    """A fact in words: "you are in Kitchen", "you have lamp", "Kitchen: west leads to Hall"."""
    you = subject.id == PLAYER
    s, o = subject.name, obj.name
    if relation == AT:
        return f"{s} {'are' if you else 'is'} in {o}"
    if relation == HAS:
        return f"{s} {'have' if you else 'has'} {o}"
    if relation == IN:
        return f"{s}: in {o}"
    if relation == EXIT:
        return f"{s}: {detail or '?'} leads to {o}"
    if relation == LEADS:
        return f"{s}: a way {detail or o} (not taken yet)"
    if relation == ACCEPTS:
        return f"{s}: the game takes {detail or o} as a way out"
    if relation == BLOCKED:
        return f"{s}: {detail or o} is blocked"
    if relation == IS:
        return f"{s} is {o}"
    return f"{s} {relation} {detail + ' ' if detail else ''}{o}"


@dataclass
class Unexplored:
    """Directions from a room nobody has taken, best first.

    Attributes:
        room: The room.
        accepted: Directions the valid actions hold, not walked yet.
        mentioned: Directions the game's text points to, never tried (and not accepted).
        plausible: The usual compass directions never tried (guesses).
        back: The likely ways back (direction, room), left out of the lists above.
    """

    room: Place
    accepted: list[str] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    plausible: list[str] = field(default_factory=list)
    back: list[tuple[str, Place]] = field(default_factory=list)

    @property
    def ways(self) -> list[str]:
        """Every direction in the order worth trying: accepted, mentioned, then guesses."""
        return self.accepted + self.mentioned + self.plausible

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"room": self.room.to_json(), "accepted": self.accepted, "mentioned": self.mentioned,
                "plausible": self.plausible, "back": [{"direction": d, "to": p.to_json()} for d, p in self.back]}


@dataclass(frozen=True)
class Frontier:
    """A room with directions the game mentioned but nobody has tried, and the walk there.

    Attributes:
        room: The room.
        directions: Mentioned, untried directions from it.
        path: Commands from where the player is (empty when already there).
    """

    room: Place
    directions: tuple[str, ...]
    path: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"room": self.room.to_json(), "directions": list(self.directions), "path": list(self.path)}
