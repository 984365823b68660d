"""What the app reads of a memory, as of a turn: the entities known, the map, one entity's
facts and the turns that mention it, answers to questions, and read-only Cypher.

The memory inspector, the replay's map and the served watch page draw these
rows; they never open the memory or its database themselves. Every read takes
the front's reading lock (when it has one), so closing the memory waits for the
read in flight. Call it off the UI thread: the memory answers from its database.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.core.scratch import scratch_folder
from zorktui.memory.maps.maprender import LEGEND, NOT_DRAWN
from zorktui.session.files.inspect import cypher_in_child

if TYPE_CHECKING:  # hints only
    from zorktui.memory.graph import Memory

#: The kinds of entity the inspector lists, in its order.
KINDS = ("room", "object", "player", "state")
#: The map's key, as its last line reads (a panel may show it apart).
MAP_LEGEND = LEGEND
#: The line over the ways a map's drawing has no room for.
MAP_NOT_DRAWN = NOT_DRAWN
#: Rows of a Cypher answer kept for showing.
CYPHER_ROWS = 500


def question_help() -> str:
    """The questions the memory answers, as ``help`` lists them."""
    # deferred: the memory's question module loads when first asked for, not with the app
    from zorktui.memory.questions import HELP

    return HELP


@dataclass(frozen=True)
class EntityView:
    """One entity as of a turn.

    Attributes:
        name: Its name ("?" when the memory does not know it).
        kind: "room", "object", "player" or "state" ("" when unknown).
        first: The turn it was first seen (None when unknown).
        facts: Each fact touching it up to the turn, as a line, and whether it held then.
        mentions: The turns that mention it, best first: (turn, command or None, the game's reply).
    """

    name: str
    kind: str = ""
    first: int | None = None
    facts: list[tuple[str, bool]] = field(default_factory=list)
    mentions: list[tuple[int, str | None, str]] = field(default_factory=list)


@dataclass(frozen=True)
class CypherAnswer:
    """What a read-only Cypher query found, or why it found nothing.

    Attributes:
        columns: The columns' names.
        rows: The rows, at most :data:`CYPHER_ROWS` of them.
        total: How many rows the query returned.
        error: One line saying why the query gave no rows (None: it ran).
    """

    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    total: int = 0
    error: str | None = None


class MemoryView:
    """A memory as the app reads it.

    Args:
        memory: The memory read.
        reading: The front's reading lock (held by every read, and by whoever closes the memory).
    """

    def __init__(self, memory: Memory, reading: threading.Lock | None = None) -> None:
        self._memory = memory
        self._reading = reading

    def _read(self) -> Any:
        return self._reading if self._reading is not None else nullcontext()

    def entities(self, as_of: int) -> list[tuple[str, str, str]]:
        """(id, kind, name) of the entities known at turn ``as_of``, rooms first, by name."""
        with self._read():
            known = [e for e in self._memory.mirror.entities.values() if e.first <= as_of and e.kind in KINDS]
        known.sort(key=lambda e: (KINDS.index(e.kind), e.name.lower()))
        return [(e.id, e.kind, e.name) for e in known]

    def map_text(self, as_of: int | None = None) -> str:
        """The map drawn as of turn ``as_of`` (None: now), legend last."""
        # deferred: the map modules load on the reader's thread, not the UI's
        from zorktui.memory.maps.mapmodel import build_map
        from zorktui.memory.maps.maprender import render_map

        with self._read():
            return render_map(build_map(self._memory, as_of))

    def ways(self, as_of: int | None = None) -> list[str]:
        """The map as a list of ways, one line a room, here first: for a screen reader, not a drawing.

        A line reads "Shingle Path (you are here): south to Landing Stage; north to Lamp Room
        (likely, not walked); not yet taken: east." Rooms follow in the order they were found.
        """
        # deferred: the map model loads on the reader's thread
        from zorktui.memory.maps.mapmodel import build_map

        with self._read():
            model = build_map(self._memory, as_of)
        order = sorted(model.rooms, key=lambda rid: rid != model.current)
        lines = []
        for rid in order:
            room = model.rooms[rid]
            ways = []
            for link in model.links:
                if link.a == rid:
                    ways.append(f"{link.direction} to {model.rooms[link.b].name}" + (" (one way)" if link.one_way else ""))
                elif link.b == rid and (link.back or link.likely_back):
                    walked = link.back is not None
                    ways.append(f"{link.back or link.likely_back} to {model.rooms[link.a].name}"
                                + ("" if walked else " (likely, not walked)"))
            if room.unexplored:
                ways.append("not yet taken: " + ", ".join(room.unexplored))
            head = room.name + (" (you are here)" if room.current else "") + (" (dark)" if room.dark else "")
            lines.append(f"{head}: {'; '.join(ways) if ways else 'no known ways'}.")
        return lines

    def entity(self, eid: str, as_of: int) -> EntityView:
        """One entity's facts up to turn ``as_of`` and the turns that mention it."""
        # deferred: the memory queries load on the reader's thread, not the UI's
        from zorktui.memory import queries

        with self._read():
            info = self._memory.mirror.entities.get(eid)
            facts = queries.facts_about(self._memory, eid, as_of)
            _, hits = queries.history(self._memory, info.name if info else eid, as_of, limit=8)
        return EntityView(
            name=info.name if info else "?", kind=info.kind if info else "", first=info.first if info else None,
            facts=[(f.text(), f.valid_to is None or f.valid_to > as_of) for f in facts],
            mentions=[(h.turn, h.command, h.observation) for h in hits])

    def ask(self, question: str, as_of: int | None = None) -> str:
        """The answer to a question ``zorktui memory`` answers ("where is the lamp"), as of a turn."""
        # deferred: the memory's question module loads on the reader's thread, not the UI's
        from zorktui.memory.questions import ask

        with self._read():
            return ask(self._memory, question, as_of).text

    def cypher(self, query: str, timeout: float = 60.0) -> CypherAnswer:
        """Run a person's read-only Cypher in a child process, on a snapshot of the database.

        The memory is flushed and its files copied with no write between them; the
        child opens the copy, never the live database.
        """
        # deferred: the store's checks load on the Cypher worker's thread, not the UI's
        from zorktui.memory.store import check_read_only

        try:
            text = check_read_only(query)
        except ZorkTuiError as exc:
            return CypherAnswer(error=str(exc))
        snapshot = scratch_folder("cypher")
        try:
            with self._read():
                self._memory.copy_database(snapshot)
            result = cypher_in_child(snapshot, text, timeout)
        except subprocess.TimeoutExpired:
            return CypherAnswer(error=f"the query ran longer than {timeout:g} s and was stopped")
        except ZorkTuiError as exc:
            return CypherAnswer(error=one_line(exc))
        except OSError as exc:
            return CypherAnswer(error=f"cannot run the query: {exc}")
        finally:
            shutil.rmtree(snapshot, ignore_errors=True)
        rows = result["rows"]
        return CypherAnswer([str(c) for c in result["columns"]], rows[:CYPHER_ROWS], len(rows))

    def catch_up(self, records: Iterable[dict[str, Any]]) -> None:
        """Bring the memory up to trajectory records (a replica built from a trajectory as it grows)."""
        self._memory.catch_up(records)

    def close(self) -> None:
        """Close the memory (after the read in flight)."""
        with self._read():
            self._memory.close()


def open_for_replay(folder: Path, story_path: str | None) -> MemoryView | None:
    """A session folder's memory, opened read-only as it is, for the replay's map (None: none, or unusable)."""
    from zorktui.session.files.folder import SessionFolder, open_memory, story_vocabulary

    if not SessionFolder(folder).memory.exists():
        return None
    try:
        return MemoryView(open_memory(folder, vocabulary=story_vocabulary(story_path), catch_up=False))
    except Exception:  # noqa: BLE001 - the map is optional: a locked or damaged memory means no map
        return None


def replica(folder: Path, story_path: str | None) -> MemoryView:
    """A fresh memory in ``folder/memory``, with the story's words for its objects, to build from a trajectory.

    Raises:
        ZorkTuiError: It cannot be made.
    """
    # deferred: the memory (kuzu behind it) loads on the reader's thread
    from zorktui.memory.graph import Memory
    from zorktui.session.files.folder import story_vocabulary

    return MemoryView(Memory(folder / "memory", vocabulary=story_vocabulary(story_path)))
