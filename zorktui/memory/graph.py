"""A session's memory: the Kuzu graph, kept in step with the game and the trajectory.

Writes are batched: a turn's rows wait in Python and go to the database in one
transaction every ``batch_turns`` turns, before any question, and on close.
The trajectory (flushed every turn) is the write-ahead log: on opening, the
memory applies whatever trajectory events it has not yet stored, so a killed
process loses nothing that reached the trajectory.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from zorktui.core.turn import Turn
from zorktui.memory.ingest import Ingestor, Vocabulary
from zorktui.memory.mirror import Mirror
from zorktui.memory.schema import BLOCKED, EXIT, OPEN
from zorktui.memory.store import GraphStore, meta_statement

#: Trajectory record types that change the memory, in the order they happened.
EVENT_TYPES = frozenset({"turn", "undo", "restart", "restore"})

#: Turns queued before a write; a question or a rewind writes sooner.
DEFAULT_BATCH_TURNS = 32


class Memory:
    """The AriGraph memory of one session.

    Args:
        folder: The session's ``memory/`` folder.
        vocabulary: The game's words for an object number (for "where is
            the lamp" when the game also calls its lantern "lamp").
        batch_turns: Turns to queue before writing.

    Raises:
        MemoryStoreError: The database is held by another process or cannot be created.
    """

    def __init__(self, folder: Path | str, vocabulary: Vocabulary | None = None, batch_turns: int = DEFAULT_BATCH_TURNS) -> None:
        self.store = GraphStore(folder)
        self.batch_turns = max(1, batch_turns)
        # Questions may come from a UI thread while a worker ingests.
        self.lock = threading.RLock()
        self._vocabulary = vocabulary
        #: Bumped by every rewind, so late LLM results about undone turns are dropped.
        self.generation = 0
        #: Called (under the lock) before each write, e.g. to apply finished LLM extractions.
        self.before_write: list[Callable[[], object]] = []
        self._load()

    def _load(self) -> None:
        rows = self.store.rows
        mirror = Mirror.load(
            rows("MATCH (x:Entity) RETURN x.id, x.kind, x.name, x.words, x.obj, x.first_turn"),
            rows(
                "MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.valid_to = $open"
                " RETURN f.key, a.id, f.relation, b.id, f.detail, f.valid_from, f.source, f.valid_to",
                {"open": OPEN},
            ),
            rows(
                "MATCH (a:Entity)-[f:Fact]->() WHERE f.relation IN [$exit, $blocked] RETURN DISTINCT a.id, f.detail",
                {"exit": EXIT, "blocked": BLOCKED},
            ),
            next_key=(self.store.meta("next_key") or 1),
        )
        self.ingestor = Ingestor(mirror, self._vocabulary)
        #: Trajectory events applied so far (turns, undos, restarts, restores).
        self.position = self.store.meta("position") or 0
        self._stored_position = self.position
        last = self.store.rows("MATCH (e:Episode) RETURN max(e.turn)")
        #: The newest turn in memory (-1 when empty).
        self.last_turn = -1 if not last or last[0][0] is None else int(last[0][0])

    @property
    def mirror(self) -> Mirror:
        """Open facts and known entities (what the memory believes now)."""
        return self.ingestor.mirror

    def set_vocabulary(self, vocabulary: Vocabulary | None) -> None:
        """Give the game's vocabulary once a game is open (after a reopen)."""
        self._vocabulary = vocabulary
        self.ingestor.vocabulary = vocabulary

    # ------------------------------------------------------------- writing
    def ingest(self, turn: Turn, actor: str = "script", jump: bool = False) -> None:
        """Add a turn: its episode, what it mentions, and what changed.

        Args:
            turn: The turn the engine produced.
            actor: Who sent the command ("game" for the opening).
            jump: The turn is a restored state rather than the result of a
                command where the player was.
        """
        with self.lock:
            self.ingestor.ingest(turn, actor, jump)
            self.position += 1
            self.last_turn = turn.turn
            if self.ingestor.batch.turns >= self.batch_turns:
                self.flush()

    def learn_valid_actions(self, turn: Turn, destinations: Mapping[str, int] | None = None) -> bool:
        """Learn the ways out a turn's valid actions hold, found after the turn was ingested.

        The valid-action search runs after a turn is shown (it takes tens of
        milliseconds), so the session hands the same turn over again with
        ``valid_actions`` filled; only the ways out are learned from it.

        Args:
            turn: The newest turn in memory, its ``valid_actions`` filled.
            destinations: The room object number each valid direction led to in the search.

        Returns:
            Whether they were learned (not when the turn is no longer the
            newest, or the player is not where the turn says).
        """
        if turn.valid_actions is None or turn.location is None:
            return False
        with self.lock:
            if turn.turn != self.last_turn:
                return False
            room = self.ingestor.room_of(turn)
            if room is None:
                return False
            self.ingestor.valid_ways(turn, room, turn.turn, destinations)
            return True

    def copy_database(self, folder: Path) -> None:
        """Write what is queued, then copy the database's files into ``folder`` (a consistent snapshot)."""
        with self.lock:
            self.flush()
            self.store.copy_files(folder)

    def flush(self) -> None:
        """Write queued rows now (one transaction)."""
        with self.lock:
            for hook in self.before_write:
                hook()
            if not self.ingestor.batch and self._stored_position == self.position:
                return
            batch = self.ingestor.take()
            statements = batch.statements()
            statements.append(meta_statement({"position": self.position, "next_key": self.mirror.next_key}))
            self.store.write(statements)
            self._stored_position = self.position

    def rewind(self, to_turn: int) -> None:
        """Forget everything after ``to_turn`` (undo, restart, restore).

        Facts that began later are removed, facts closed later hold again,
        episodes and entities first seen later are deleted.
        """
        with self.lock:
            self.flush()
            self.generation += 1
            params = {"t": to_turn, "open": OPEN}
            self.store.write([
                ("MATCH (e:Episode) WHERE e.turn > $t DETACH DELETE e", params),
                ("MATCH ()-[f:Fact]->() WHERE f.valid_from > $t DELETE f", params),
                ("MATCH ()-[f:Fact]->() WHERE f.valid_to > $t AND f.valid_to <> $open SET f.valid_to = $open", params),
                ("MATCH (x:Entity) WHERE x.first_turn > $t DETACH DELETE x", params),
            ])
            position = self.position
            self._load()
            self.position = position
            self.last_turn = min(self.last_turn, to_turn)

    def apply(self, record: dict[str, Any]) -> None:
        """Apply one trajectory event (a turn, undo, restart or restore record)."""
        kind = record.get("type")
        if kind == "turn":
            self.ingest(Turn.from_record(record), actor=str(record.get("actor", "script")))
        elif kind in ("undo", "restart"):
            self.rewind(int(record.get("turn", 0)))
            self.position += 1
        elif kind == "restore":
            turn = Turn.from_record(record["record"])
            self.rewind(turn.turn - 1)
            self.ingest(turn, actor="game", jump=True)
        else:
            raise ValueError(f"not a memory event: {kind!r}")

    def catch_up(self, records: Iterable[dict[str, Any]]) -> int:
        """Apply the trajectory events the memory has not stored yet.

        Args:
            records: The session's trajectory records, in order.

        Returns:
            How many events were applied.
        """
        events = [r for r in records if r.get("type") in EVENT_TYPES]
        with self.lock:
            if self.position > len(events):
                # The memory is ahead of its log: it cannot be trusted; rebuild.
                self.rewind(-1)
                self.position = 0
            todo = events[self.position:]
            for record in todo:
                self.apply(record)
            self.flush()
        return len(todo)

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Everything stored, as sorted plain rows (to compare two memories)."""
        self.flush()
        rows = self.store.rows
        return {
            "entities": sorted(tuple(r) for r in rows("MATCH (x:Entity) RETURN x.id, x.kind, x.name, x.first_turn")),
            "facts": sorted(tuple(r) for r in rows(
                "MATCH (a:Entity)-[f:Fact]->(b:Entity) "
                "RETURN a.id, f.relation, b.id, f.detail, f.valid_from, f.valid_to, f.source"
            )),
            "episodes": sorted(tuple(r) for r in rows(
                "MATCH (e:Episode) RETURN e.turn, e.command, e.score, e.location, e.links"
            )),
            "mentions": sorted(tuple(r) for r in rows(
                "MATCH (e:Episode)-[m:Mentions]->(x:Entity) RETURN e.turn, x.id, m.role"
            )),
        }

    def close(self) -> None:
        """Write what is queued and close the database."""
        with self.lock:
            self.flush()
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
