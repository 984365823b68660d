"""Deterministic ingestion: a :class:`Turn`'s engine facts become graph rows, no LLM.

Rules (all generic, from the engine's facts and English movement words):

* ``player at room`` and ``player has object`` follow the engine exactly:
  whatever stopped holding is closed at this turn.
* ``object in room|object`` for what the player can see (nothing is learned
  in the dark); an object that was here and is gone is closed.
* ``room exit room`` (detail: the direction, or the command for other
  movement) is learned only from actual movement, one way at a time; a
  direction that left the player where they were is ``room blocked dir``.
* ``room accepts dir``: a direction among the valid actions of the latest
  state seen in the room, not walked yet (the game takes the move);
  ``room leads dir``: a direction the game's text points to, never tried.
* ``room is dark`` holds while the player finds the room dark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from zorktui.core.turn import ObjectRef, Turn
from zorktui.engine.directions import OPPOSITE, direction_of, is_movement
from zorktui.memory.mentions import mentioned_directions
from zorktui.memory.mirror import EntityInfo, Mirror, OpenFact
from zorktui.memory.schema import (
    ACCEPTS,
    AT,
    BLOCKED,
    ENGINE,
    EXIT,
    HAS,
    IN,
    IS,
    LEADS,
    OPEN,
    PLAYER,
    direction_id,
    object_id,
    state_id,
)

#: Looks up the game's own words for an object number (empty when unknown).
Vocabulary = Callable[[int], list[str]]

_WORD = re.compile(r"[a-z][a-z'-]*")


@dataclass
class Batch:
    """Rows waiting to be written in one transaction."""

    entities: list[dict[str, Any]] = field(default_factory=list)
    renames: list[dict[str, Any]] = field(default_factory=list)
    episodes: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    opened: dict[int, dict[str, Any]] = field(default_factory=dict)
    closed: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def __bool__(self) -> bool:
        return bool(self.entities or self.renames or self.episodes or self.mentions or self.opened or self.closed)

    def statements(self) -> list[tuple[str, dict[str, Any]]]:
        """The Cypher that writes this batch, in dependency order."""
        out: list[tuple[str, dict[str, Any]]] = []
        if self.entities:
            out.append((
                "UNWIND $rows AS r CREATE (:Entity {id: r.id, kind: r.kind, name: r.name, words: r.words,"
                " obj: r.obj, first_turn: r.first})",
                {"rows": self.entities},
            ))
        if self.renames:
            out.append(("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.name = r.name", {"rows": self.renames}))
        if self.episodes:
            out.append((
                "UNWIND $rows AS r CREATE (:Episode {turn: r.turn, command: r.command, observation: r.observation,"
                " score: r.score, moves: r.moves, reward: r.reward, location: r.location, actor: r.actor,"
                " state_hash: r.state_hash, links: r.links})",
                {"rows": self.episodes},
            ))
        if self.mentions:
            out.append((
                "UNWIND $rows AS r MATCH (e:Episode {turn: r.turn}), (x:Entity {id: r.id})"
                " CREATE (e)-[:Mentions {role: r.role}]->(x)",
                {"rows": self.mentions},
            ))
        if self.opened:
            out.append((
                "UNWIND $rows AS r MATCH (a:Entity {id: r.src}), (b:Entity {id: r.dst})"
                " CREATE (a)-[:Fact {key: r.key, relation: r.relation, detail: r.detail, valid_from: r.valid_from,"
                " valid_to: r.valid_to, source: r.source}]->(b)",
                {"rows": list(self.opened.values())},
            ))
        if self.closed:
            out.append((
                "UNWIND $rows AS r MATCH (a:Entity {id: r.src})-[f:Fact]->() WHERE f.key = r.key SET f.valid_to = r.t",
                {"rows": self.closed},
            ))
        return out


_LOOK = frozenset(("look", "l", "look around"))


def _looks(command: str | None) -> bool:
    """Whether a command asks for the room's description (the opening counts)."""
    return command is None or " ".join(command.lower().split()) in _LOOK


def words_in(text: str) -> set[str]:
    """Lower-case words of a text, for matching vocabulary against it."""
    return set(_WORD.findall(text.lower()))


class Ingestor:
    """Turns engine facts into batch rows, keeping the mirror current.

    Args:
        mirror: The open facts and known entities (changed in place).
        vocabulary: The game's words for an object number, for new entities.
    """

    def __init__(self, mirror: Mirror, vocabulary: Vocabulary | None = None) -> None:
        self.mirror = mirror
        self.vocabulary = vocabulary
        self.batch = Batch()
        self._mentioned: dict[str, str] = {}

    # ------------------------------------------------------------- entities
    def entity(self, eid: str, kind: str, name: str, turn: int, obj: int = -1) -> EntityInfo:
        """The entity with this id, created (queued) when new, renamed when its name changed."""
        known = self.mirror.entities.get(eid)
        if known is None:
            words = tuple(self.vocabulary(obj)) if (self.vocabulary and obj >= 0) else ()
            known = EntityInfo(eid, kind, name, words, obj, turn)
            self.mirror.entities[eid] = known
            self.batch.entities.append(
                {"id": eid, "kind": kind, "name": name, "words": list(words), "obj": obj, "first": turn}
            )
        elif name and name != known.name:
            known.name = name
            self.batch.renames.append({"id": eid, "name": name})
        return known

    def _object(self, ref: ObjectRef, turn: int, kind: str = "object") -> str:
        eid = object_id(ref.id)
        name = ref.name or (self.mirror.entities[eid].name if eid in self.mirror.entities else "") or f"object {ref.id}"
        self.entity(eid, kind, name, turn, ref.id)
        return eid

    # ---------------------------------------------------------------- facts
    def open(self, src: str, relation: str, dst: str, turn: int, detail: str = "", source: str = ENGINE) -> OpenFact:
        """Open a fact now unless the same one already holds."""
        existing = self.mirror.find(src, relation, dst, detail, source)
        if existing is not None:
            return existing
        fact = OpenFact(self.mirror.next_key, src, relation, dst, detail, turn, source)
        self.mirror.next_key += 1
        self.mirror.facts[fact.key] = fact
        self.batch.opened[fact.key] = {
            "key": fact.key, "src": src, "relation": relation, "dst": dst, "detail": detail,
            "valid_from": turn, "valid_to": OPEN, "source": source,
        }
        self.mention(src, "changed")
        self.mention(dst, "changed")
        if relation in (EXIT, BLOCKED) and source == ENGINE:
            self.mirror.tried.setdefault(src, set()).add(detail)
            for hinted in (LEADS, ACCEPTS) if relation == EXIT else (LEADS,):
                hint = self.mirror.find(src, hinted, direction_id(detail), detail)
                if hint is not None:
                    self.close(hint, turn)
        return fact

    def close(self, fact: OpenFact, turn: int) -> None:
        """Close a fact at this turn (it held until the turn before)."""
        del self.mirror.facts[fact.key]
        pending = self.batch.opened.get(fact.key)
        if pending is not None:
            if turn <= fact.valid_from:
                del self.batch.opened[fact.key]  # never held for a whole turn
            else:
                pending["valid_to"] = turn
        else:
            self.batch.closed.append({"src": fact.src, "key": fact.key, "t": turn})
        self.mention(fact.src, "changed")
        self.mention(fact.dst, "changed")

    def mention(self, eid: str, role: str) -> None:
        """Link this turn's episode to an entity (the first role given wins)."""
        if eid != PLAYER and not eid.startswith("dir:"):
            self._mentioned.setdefault(eid, role)

    # ----------------------------------------------------------------- turn
    def ingest(self, turn: Turn, actor: str, jump: bool = False) -> None:
        """Queue a turn's episode, mentions and fact changes.

        Args:
            turn: The new turn (its command was played from the state the
                mirror holds).
            actor: Who sent the command.
            jump: The state came from a restore, not from playing a command
                where the mirror says the player was: learn no exits from it.
        """
        t = turn.turn
        self._mentioned = {}
        before = next((f.dst for f in self.mirror.by(PLAYER, AT)), None)
        self.entity(PLAYER, "player", "you", t)
        room = self._object(turn.location, t, "room") if turn.location else None
        if room:
            self.mention(room, "at")
        self._player_facts(turn, room, t)
        if room and not turn.dark:
            self._objects_here(turn, room, t)
        if room:
            dark = self.mirror.find(room, IS, state_id("dark"))
            if turn.dark and dark is None:
                self.entity(state_id("dark"), "state", "dark", t)
                self.open(room, IS, state_id("dark"), t)
            elif not turn.dark and dark is not None:
                self.close(dark, t)
        if not jump and before and room and turn.command:
            self._movement(turn, before, room, t)
        if room and not turn.dark and (before != room or _looks(turn.command)):
            self._ways_out(turn, room, t)
        if room and turn.valid_actions is not None:
            self.valid_ways(turn, room, t)
        self._text_mentions(turn)
        self.batch.episodes.append({
            "turn": t, "command": turn.command, "observation": turn.observation, "score": turn.score,
            "moves": turn.moves, "reward": turn.reward, "location": room, "actor": actor,
            "state_hash": turn.state_hash, "links": len(self._mentioned),
        })
        self.batch.mentions.extend({"turn": t, "id": eid, "role": role} for eid, role in self._mentioned.items())
        self.batch.turns += 1

    def _player_facts(self, turn: Turn, room: str | None, t: int) -> None:
        for fact in self.mirror.by(PLAYER, AT):
            if fact.dst != room:
                self.close(fact, t)
        if room:
            self.open(PLAYER, AT, room, t)
        carried = {self._object(ref, t) for ref in turn.inventory}
        for fact in self.mirror.by(PLAYER, HAS):
            if fact.dst not in carried:
                self.close(fact, t)
        for eid in carried:
            self.open(PLAYER, HAS, eid, t)
            for fact in self.mirror.by(eid, IN):
                self.close(fact, t)

    def _objects_here(self, turn: Turn, room: str, t: int) -> None:
        seen: dict[str, str] = {}
        for ref in turn.visible:
            eid = self._object(ref, t)
            parent = object_id(ref.parent) if ref.parent else room
            if parent not in self.mirror.entities:
                parent = room
            seen[eid] = parent
        for eid, parent in seen.items():
            for fact in self.mirror.by(eid, IN):
                if fact.dst != parent:
                    self.close(fact, t)
            self.open(eid, IN, parent, t)
        # Whatever was believed here (directly or inside something here) and is
        # no longer seen has gone.
        for fact in self.mirror.by(relation=IN):
            if fact.src not in seen and (fact.dst == room or fact.dst in seen):
                self.close(fact, t)

    def _movement(self, turn: Turn, before: str, room: str, t: int) -> None:
        if turn.question:
            return  # a direction typed at a question is an answer the story refused, not a way tried
        command = " ".join((turn.command or "").lower().split())
        direction = direction_of(command)
        if room != before and is_movement(command) and not turn.done:
            detail = direction or command
            for fact in self.mirror.by(before, EXIT):
                if fact.detail == detail and fact.dst != room:
                    self.close(fact, t)  # the same way now leads elsewhere
            self.open(before, EXIT, room, t, detail)
            if direction:
                blocked = self.mirror.find(before, BLOCKED, direction_id(direction), direction)
                if blocked is not None:
                    self.close(blocked, t)
        elif room == before and direction and not turn.dark:
            for fact in self.mirror.by(before, EXIT):
                if fact.detail == direction:
                    self.close(fact, t)  # the way walked before goes nowhere now (a maze turned, a door shut)
            self.entity(direction_id(direction), "direction", direction, t)
            self.open(before, BLOCKED, direction_id(direction), t, direction)

    def _ways_out(self, turn: Turn, room: str, t: int) -> None:
        # Directions the room's description points to that nobody has taken yet (read only
        # where the game describes the room: replies to other commands tell stories, and a
        # thing that "swings away to the north" is no way out).
        hinted = mentioned_directions(turn.observation) if turn.location and turn.location.id else []
        tried = self.mirror.tried.get(room, set())
        for direction in hinted:
            if direction not in tried:
                self.entity(direction_id(direction), "direction", direction, t)
                self.open(room, LEADS, direction_id(direction), t, direction)

    def room_of(self, turn: Turn) -> str | None:
        """The room entity the mirror has the player in, when it is the turn's location."""
        if turn.location is None:
            return None
        room = object_id(turn.location.id)
        return room if self.mirror.find(PLAYER, AT, room) is not None else None

    def valid_ways(self, turn: Turn, room: str, t: int, destinations: Mapping[str, int] | None = None) -> None:
        """The directions among a state's valid actions: ways the game accepts from this room now.

        A direction already walked from here stays an exit; one found blocked
        before is blocked no longer (a door was opened since); a direction an
        earlier state here accepted and this one does not is closed; the way
        back along a passage walked here that the game does not accept is
        blocked (where the player can see: in the dark a story may refuse
        every step). A direction the search saw lead to a room already
        visited is an exit to it, walked or not: nothing new lies that way.
        Nothing is learned at a question.

        Args:
            turn: The turn, its ``valid_actions`` filled.
            room: The room's entity id.
            t: The turn number.
            destinations: The room object number each direction led to in the search.
        """
        if turn.question:
            return  # the valid actions at a question are its answers: they say nothing of the ways out
        directions = list(dict.fromkeys(d for a in turn.valid_actions or () if (d := direction_of(a))))
        for command, number in (destinations or {}).items():
            direction, there = direction_of(command), object_id(number)
            known = self.mirror.entities.get(there)
            if direction in directions and there != room and known is not None and known.kind == "room":
                for fact in self.mirror.by(room, EXIT):
                    if fact.detail == direction and fact.dst != there:
                        self.close(fact, t)  # the same way now leads elsewhere
                self.open(room, EXIT, there, t, direction)
        walked = {f.detail for f in self.mirror.by(room, EXIT)}
        for fact in self.mirror.by(room, ACCEPTS):
            if fact.detail not in directions:
                self.close(fact, t)
        for direction in directions:
            if direction in walked:
                continue
            blocked = self.mirror.find(room, BLOCKED, direction_id(direction), direction)
            if blocked is not None:
                self.close(blocked, t)
            self.entity(direction_id(direction), "direction", direction, t)
            self.open(room, ACCEPTS, direction_id(direction), t, direction)
        # The search played every direction (moving works in the dark too): one the text pointed to that goes nowhere is no way
        # ("you would never climb back up"), at least while this state lasts.
        for fact in self.mirror.by(room, LEADS):
            if fact.detail not in directions:
                self.close(fact, t)
        # A way back the search found going nowhere is no way back
        # (a slide down a chute), as if the player had tried it. Not in the dark: there a story may
        # refuse every step ("another blind step and the shaft will have you"), whichever way.
        if turn.dark:
            return
        for fact in self.mirror.by(relation=EXIT, dst=room):
            back = OPPOSITE.get(fact.detail)
            if back and back not in directions and back not in walked:
                self.entity(direction_id(back), "direction", back, t)
                self.open(room, BLOCKED, direction_id(back), t, back)

    def _text_mentions(self, turn: Turn) -> None:
        # Entities in scope whose head word the command or the reply uses.
        command_words = words_in(turn.command or "")
        text_words = words_in(turn.observation)
        scope = [object_id(r.id) for r in (*turn.inventory, *turn.visible)]
        for eid in scope:
            info = self.mirror.entities.get(eid)
            if info is None:
                continue
            head = set(info.name.lower().split()[-1:])
            if (head | set(info.words)) & command_words:
                self.mention(eid, "command")
            elif head & text_words:
                self.mention(eid, "text")

    def take(self) -> Batch:
        """Hand over the queued rows and start a new batch."""
        batch, self.batch = self.batch, Batch()
        return batch
