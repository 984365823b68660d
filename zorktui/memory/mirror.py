"""What the memory believes now, held in Python so each turn's changes cost no queries.

The mirror is the set of open facts (those whose ``valid_to`` is still open)
and the entities known so far. Ingestion compares a new :class:`Turn` with it
and produces the rows a batch writes; the database stays the one record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zorktui.memory.schema import ENGINE, OPEN


@dataclass
class OpenFact:
    """A fact that holds now.

    Attributes:
        key: Unique number of the fact (its handle for closing).
        src: Subject entity id.
        relation: Relation name.
        dst: Object entity id.
        detail: Direction or command for exits; text for LLM facts.
        valid_from: First turn it held.
        source: "engine" or "llm".
    """

    key: int
    src: str
    relation: str
    dst: str
    detail: str
    valid_from: int
    source: str


@dataclass
class EntityInfo:
    """What the memory knows of an entity without asking the database."""

    id: str
    kind: str
    name: str
    words: tuple[str, ...] = ()
    obj: int = -1
    first: int = 0


@dataclass
class Mirror:
    """Open facts and known entities, indexed for the ingest diff."""

    facts: dict[int, OpenFact] = field(default_factory=dict)
    entities: dict[str, EntityInfo] = field(default_factory=dict)
    next_key: int = 1
    #: Exits and blocked directions ever learned per room, open or not (for "tried").
    tried: dict[str, set[str]] = field(default_factory=dict)

    def by(
        self, src: str | None = None, relation: str | None = None, dst: str | None = None, source: str | None = ENGINE
    ) -> list[OpenFact]:
        """Open facts matching the given parts (None matches anything).

        Engine facts only by default: a model's "lamp | in | kitchen" must not
        be taken for (or closed as) the engine's own fact.
        """
        return [
            f
            for f in self.facts.values()
            if (src is None or f.src == src) and (relation is None or f.relation == relation)
            and (dst is None or f.dst == dst) and (source is None or f.source == source)
        ]

    def find(self, src: str, relation: str, dst: str, detail: str = "", source: str = ENGINE) -> OpenFact | None:
        """The open fact with exactly these parts, if any."""
        for f in self.facts.values():
            if f.src == src and f.relation == relation and f.dst == dst and f.detail == detail and f.source == source:
                return f
        return None

    @classmethod
    def load(cls, entity_rows: list[list[Any]], fact_rows: list[list[Any]], tried_rows: list[list[Any]], next_key: int) -> Mirror:
        """Rebuild from database rows (after opening or rewinding)."""
        mirror = cls(next_key=next_key)
        for eid, kind, name, words, obj, first in entity_rows:
            mirror.entities[eid] = EntityInfo(
                eid, kind, name or "", tuple(words or ()), -1 if obj is None else int(obj), int(first or 0)
            )
        for key, src, relation, dst, detail, valid_from, source, valid_to in fact_rows:
            if valid_to == OPEN:
                mirror.facts[int(key)] = OpenFact(int(key), src, relation, dst, detail or "", int(valid_from), source)
        for room, direction in tried_rows:
            mirror.tried.setdefault(room, set()).add(direction)
        return mirror
