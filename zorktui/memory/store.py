"""The embedded Kuzu database behind a session's memory: open, write in batches, read.

Kuzu is imported lazily so that importing the memory package costs nothing
until a session actually opens its graph.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.memory.schema import DDL, SCHEMA_VERSION

#: File name of the database inside a session's ``memory/`` folder.
DB_FILE = "graph.kuzu"

# Clauses that change data or escape the read-only transaction the query runs in.
_WRITE_WORDS = re.compile(
    r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|ALTER|COPY|EXPORT|IMPORT|INSTALL|LOAD|ATTACH|"
    r"USE|BEGIN|COMMIT|ROLLBACK|CHECKPOINT)\b",
    re.I,
)
_PARAM = re.compile(r"\$(\w+)")
_STRINGS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`")


class MemoryStoreError(ZorkTuiError):
    """The memory database cannot be opened or a query cannot run (one line, for people)."""


class ReadOnlyQueryError(MemoryStoreError):
    """A Cypher query given to the read-only door tried to change the graph."""


def _short(exc: BaseException) -> str:
    return one_line(exc).removeprefix("Runtime exception: ").removeprefix("Binder exception: ")


def check_read_only(query: str) -> str:
    """Refuse a Cypher query that writes, or that holds more than one statement.

    Args:
        query: The user's Cypher.

    Returns:
        The query without a trailing semicolon.

    Raises:
        ReadOnlyQueryError: The query would write or run several statements.
    """
    text = query.strip().rstrip(";").strip()
    if not text:
        raise ReadOnlyQueryError("empty Cypher query")
    bare = _STRINGS.sub("''", text)
    if ";" in bare:
        raise ReadOnlyQueryError("one Cypher statement at a time, please")
    found = _WRITE_WORDS.search(bare)
    if found:
        raise ReadOnlyQueryError(f"the memory is read-only here: {found.group(1).upper()} is not allowed")
    return text


class GraphStore:
    """One Kuzu database: schema on creation, batched writes, plain reads.

    Args:
        folder: The session's ``memory/`` folder (created if missing).

    Raises:
        MemoryStoreError: Another process holds the database, or it cannot be created.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        # One connection serves the game loop and a UI asking questions; a
        # transaction must not interleave with another thread's statements.
        self._lock = threading.RLock()
        # Set by close: a reader on another thread (an agent thinking) gets an error, not a freed database.
        self.closed = False
        self.path = self.folder / DB_FILE
        #: Set when a damaged database was moved aside and a new one started.
        self.rebuilt_from: Path | None = None
        try:
            self._connect()
        except RuntimeError as exc:
            if "lock" in str(exc).lower():
                raise MemoryStoreError(f"{self.folder}: the memory is open in another zorktui process") from None
            self._rebuild()
        version = self.meta("schema")
        if version is not None and version != SCHEMA_VERSION:
            self.close()
            self._rebuild()
        elif version is None:
            self.set_meta({"schema": SCHEMA_VERSION})

    def _connect(self) -> None:
        import kuzu  # deferred: about 30 ms; the engine and CLI start faster without it

        self.db = kuzu.Database(str(self.path))
        self.conn = kuzu.Connection(self.db)
        self.closed = False
        self._prepared: dict[str, Any] = {}
        for statement in DDL:
            self.conn.execute(statement)

    def _rebuild(self) -> None:
        """Start an empty database beside the damaged or outdated one (the trajectory refills it)."""
        self.rebuilt_from = self._move_aside()
        try:
            self._connect()
        except RuntimeError as exc:
            raise MemoryStoreError(f"{self.folder}: cannot create the memory database: {_short(exc)}") from None
        self.set_meta({"schema": SCHEMA_VERSION})

    def _move_aside(self) -> Path:
        # A damaged database is kept for inspection, never deleted: the
        # trajectory rebuilds the memory, and nothing is lost.
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.folder / f"damaged-{stamp}"
        aside.mkdir(exist_ok=True)
        for path in self.folder.glob(DB_FILE + "*"):
            shutil.move(str(path), aside / path.name)
        return aside

    # ----------------------------------------------------------------- reads
    def _run_locked(self, query: str, params: dict[str, Any] | None) -> Any:
        if self.closed:
            raise MemoryStoreError("the memory is closed")
        if not params:
            return self.conn.execute(query)
        # Planning a query costs as much as running it on a small graph, so the
        # fixed queries of ingestion and questions are prepared once.
        cached = self._prepared.get(query)
        if cached is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                cached = (self.conn.prepare(query), frozenset(_PARAM.findall(query)))
            self._prepared[query] = cached
        prepared, names = cached
        # Kuzu refuses parameters a statement does not use; callers may share one dict.
        return self.conn.execute(prepared, {k: v for k, v in params.items() if k in names})

    def rows(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        """Run a read query and return all rows."""
        with self._lock:
            return self._run_locked(query, params).get_all()

    def read_only(self, query: str, params: dict[str, Any] | None = None) -> tuple[list[str], list[list[Any]]]:
        """Run a user's Cypher inside a read-only transaction.

        Returns:
            Column names and rows.

        Raises:
            ReadOnlyQueryError: The query writes.
            MemoryStoreError: The query is not valid Cypher for this schema.
        """
        text = check_read_only(query)
        with self._lock:
            return self._read_only_locked(text, params)

    def _read_only_locked(self, text: str, params: dict[str, Any] | None) -> tuple[list[str], list[list[Any]]]:
        if self.closed:
            raise MemoryStoreError("the memory is closed")
        self.conn.execute("BEGIN TRANSACTION READ ONLY")
        try:
            result = self.conn.execute(text, params or {})
            if isinstance(result, list):  # several statements: the last one's answer
                result = result[-1]
            return result.get_column_names(), [list(row) for row in result.get_all()]
        except RuntimeError as exc:
            message = _short(exc)
            if "read-only" in message:
                raise ReadOnlyQueryError("the memory is read-only here: that query writes") from None
            raise MemoryStoreError(f"Cypher error: {message}") from None
        finally:
            self.conn.execute("ROLLBACK")

    def copy_files(self, folder: Path) -> None:
        """Copy the database's files into ``folder`` with no write between them (a consistent copy)."""
        with self._lock:
            for path in self.folder.glob(DB_FILE + "*"):
                if path.is_file():
                    shutil.copy2(path, folder / path.name)

    def meta(self, key: str) -> int | None:
        """A bookkeeping number, or None if never set."""
        found = self.rows("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
        return int(found[0][0]) if found else None

    # ---------------------------------------------------------------- writes
    def write(self, statements: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Run write statements in one transaction (all or nothing)."""
        if not statements:
            return
        with self._lock:
            if self.closed:
                raise MemoryStoreError("the memory is closed")
            self.conn.execute("BEGIN TRANSACTION")
            try:
                for query, params in statements:
                    self._run_locked(query, params)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def set_meta(self, values: dict[str, int]) -> None:
        """Set bookkeeping numbers (in their own transaction)."""
        self.write([meta_statement(values)])

    def close(self) -> None:
        """Close the connection and the database (the file lock goes with it), after any query in flight."""
        with self._lock:
            self.closed = True
            self.conn.close()
            self.db.close()


def meta_statement(values: dict[str, int]) -> tuple[str, dict[str, Any]]:
    """A statement that sets bookkeeping numbers, to batch with other writes."""
    rows = [{"k": k, "v": int(v)} for k, v in values.items()]
    return "UNWIND $rows AS r MERGE (m:Meta {key: r.k}) SET m.value = r.v", {"rows": rows}
