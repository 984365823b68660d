"""``zorktui memory`` and ``zorktui map``: questions, Cypher and the map of a session folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from zorktui.session.files.folder import open_memory

if TYPE_CHECKING:  # hints only
    from zorktui.memory.graph import Memory


def ask_session(root: Path, question: str, as_of: int | None, as_json: bool, out: IO[str] = sys.stdout) -> int:
    """Answer a question about a session folder; exit status 0 (1 when not understood).

    Raises:
        ZorkTuiError: The folder is not a readable session, or its memory is busy.
    """
    # deferred: each inspect command loads only the memory readers it uses (about 35 ms for the questions)
    from zorktui.memory.questions import ask

    with open_memory(root) as memory:
        answer = ask(memory, question, as_of)
    if as_json:
        print(json.dumps(answer.to_json(), ensure_ascii=False, indent=1), file=out)
    else:
        print(answer.text, file=out)
    return 0 if answer.understood else 1


def cypher_session(root: Path, query: str, as_json: bool, out: IO[str] = sys.stdout) -> int:
    """Run read-only Cypher on a session's memory and print the rows.

    The query runs in a child process: a Kuzu crash on an odd query then
    costs one line of error, not the caller.

    Raises:
        ZorkTuiError: Not a session, the memory is busy, the query writes, is
            invalid, or crashed the database engine.
    """
    # deferred: each inspect command loads only the memory readers it uses
    from zorktui.memory.store import check_read_only

    check_read_only(query)
    with open_memory(root) as memory:  # bring the memory up to date, then let go of it
        folder = memory.store.folder
    result = cypher_in_child(folder, query)
    if as_json:
        print(json.dumps(result, ensure_ascii=False), file=out)
        return 0
    print(" | ".join(result["columns"]), file=out)
    for row in result["rows"]:
        print(" | ".join(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in row), file=out)
    return 0


def cypher_in_child(folder: Path, query: str, timeout: float = 600.0) -> dict[str, Any]:
    """Run read-only Cypher on the database in ``folder`` in a child process: ``{"columns", "rows"}``.

    A Kuzu crash on an odd query then costs one line of error, not the caller.

    Raises:
        MemoryStoreError: The query is invalid, crashed the database engine, or its answer is unreadable.
        subprocess.TimeoutExpired: It ran longer than ``timeout`` seconds (the child is stopped).
    """
    from zorktui.memory.store import MemoryStoreError

    child = subprocess.run([sys.executable, "-m", "zorktui.session.files.cypher_child", str(folder), query],
                           capture_output=True, text=True, timeout=timeout)
    lines = child.stdout.strip().splitlines()
    if child.returncode != 0 or not lines:
        raise MemoryStoreError(f"the query crashed the database engine (exit {child.returncode}); the memory is unchanged")
    try:
        result: dict[str, Any] = json.loads(lines[-1])
    except ValueError:
        raise MemoryStoreError("the query's answer could not be read") from None
    if "error" in result:
        raise MemoryStoreError(str(result["error"]))
    return result


def map_text(memory: Memory, as_of: int | None = None) -> str:
    """The map a memory has drawn, as box-drawing text headed by the turn it is as of."""
    from zorktui.memory.maps.mapmodel import build_map
    from zorktui.memory.maps.maprender import render_map

    model = build_map(memory, as_of)
    return f"Map as of turn {model.as_of}:\n{render_map(model)}"


def map_session(root: Path, as_of: int | None, as_json: bool = False, out: IO[str] = sys.stdout) -> int:
    """Print a session's map as box-drawing text (or JSON).

    Raises:
        ZorkTuiError: The folder is not a readable session, or its memory is busy.
    """
    # deferred: each inspect command loads only the memory readers it uses (about 35 ms for the map)
    from zorktui.memory.maps.mapmodel import build_map

    with open_memory(root) as memory:
        if not as_json:
            print(map_text(memory, as_of), file=out)
            return 0
        model = build_map(memory, as_of)
    print(json.dumps(model.to_json(), ensure_ascii=False), file=out)
    return 0
