"""The one record of what happened on a turn; memory, agent, record and UI all read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ObjectRef:
    """A game object named by its stable Z-machine object number.

    Attributes:
        id: Object number in the story's object table.
        name: The object's short name as the game prints it.
        parent: The object it is in or on (0 at top level), where it matters.
        relation: How the parent holds it where the engine knows: "on" a supporter, "in" a
            container, "held" by another person ("" where unknown or at top level).
    """

    id: int
    name: str
    parent: int = 0
    relation: str = ""

    def to_record(self) -> dict[str, object]:
        """JSON form: id and name (parent and relation only when set)."""
        data: dict[str, object] = {"id": self.id, "name": self.name}
        if self.parent:
            data["parent"] = self.parent
        if self.relation:
            data["relation"] = self.relation
        return data


@dataclass(frozen=True)
class Turn:
    """Everything the engine knows about one step of play.

    Attributes:
        turn: 0 for the opening text, then 1, 2, ... per command.
        command: The command sent (None for the opening).
        observation: The game's reply, without status line or prompt.
        score: Score after the command (None if the story keeps none).
        moves: The game's move counter after the command (None if unknown).
        reward: Score change caused by this command.
        location: The room the player is in (by object id).
        dark: The game says the player cannot see (Inform's darkness).
        inventory: Objects the player carries, direct children of the player.
        visible: Objects in the location (not the player nor what it carries),
            with their parent so containers and supporters can be shown; a
            thing inside another that the parser cannot see (in a shut box)
            is left out where the parser can be asked (see ``engine/world/sight.py``)
            or the library's attributes tell (``engine/world/holders.py``, which also
            sets each nested thing's ``relation``); none at all in the dark.
        done: The game has ended (death, victory or another ending).
        victory: The ending was a win.
        dead: The player died or lost: the story ended without a win, or it offers a new life
            (a question, ``done`` false), or it gave one (the player set down elsewhere, points or
            possessions gone, ``done`` false).
        question: The story waits for an answer away from its command prompt (yes or no, a new
            life, what now after the end): the observation is the question.
        state_hash: Fingerprint of the world state (ignores turn counters and
            the parser's scratch memory), equal for equal worlds.
        changed: The command changed the world state.
        valid_actions: Filled when asked for: commands that change the world
            from the state after this turn.
    """

    turn: int
    command: str | None
    observation: str
    score: int | None
    moves: int | None
    reward: int
    location: ObjectRef | None
    dark: bool
    inventory: tuple[ObjectRef, ...]
    visible: tuple[ObjectRef, ...]
    done: bool
    victory: bool
    dead: bool
    state_hash: str
    changed: bool = True
    question: bool = False
    valid_actions: tuple[str, ...] | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """The moment's identity: the world's hash, told apart while the story waits at a question.

        A question is often asked before anything in the world changes ("Shall
        I split the floor?"): same world, another moment, other things to type.
        Searches, loop guards and novelty count moments; the trajectory keeps
        ``state_hash``, the world's.
        """
        return f"{self.state_hash}?" if self.question else self.state_hash

    def to_record(self) -> dict[str, object]:
        """The turn's fields as in the trajectory schema v1 (without session-level fields)."""
        return {
            "turn": self.turn,
            "command": self.command,
            "observation": self.observation,
            "score": self.score,
            "moves": self.moves,
            "reward": self.reward,
            "location": self.location.to_record() if self.location else None,
            "dark": self.dark,
            "inventory": [o.name for o in self.inventory],
            "inventory_ids": [o.id for o in self.inventory],
            "visible": [o.to_record() for o in self.visible],
            "done": self.done,
            "victory": self.victory,
            "dead": self.dead,
            "question": self.question,
            "state_hash": self.state_hash,
            "changed": self.changed,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Turn:
        """Rebuild a turn from its trajectory record (the inverse of :meth:`to_record`).

        Used to replay a session's trajectory into memory after a crash.
        Missing optional fields get neutral values.
        """
        location = record.get("location")
        names = record.get("inventory") or []
        ids = record.get("inventory_ids") or []
        inventory = tuple(ObjectRef(int(i), str(n)) for i, n in zip(ids, names, strict=False))
        visible = tuple(
            ObjectRef(int(v["id"]), str(v.get("name", "")), int(v.get("parent", 0)), str(v.get("relation", "")))
            for v in record.get("visible") or []
        )
        actions = record.get("valid_actions")
        return cls(
            turn=int(record["turn"]),
            command=record.get("command"),
            observation=str(record.get("observation", "")),
            score=record.get("score"),
            moves=record.get("moves"),
            reward=int(record.get("reward") or 0),
            location=ObjectRef(int(location["id"]), str(location.get("name", ""))) if location else None,
            dark=bool(record.get("dark", False)),
            inventory=inventory,
            visible=visible,
            done=bool(record.get("done", False)),
            victory=bool(record.get("victory", False)),
            dead=bool(record.get("dead", False)),
            state_hash=str(record.get("state_hash", "")),
            changed=bool(record.get("changed", True)),
            question=bool(record.get("question", False)),
            valid_actions=tuple(actions) if actions is not None else None,
        )
