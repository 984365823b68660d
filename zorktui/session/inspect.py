"""``zorktui memory`` and ``zorktui map``: questions, Cypher and the map of a session folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Any

from zorktui.session.folder import open_memory


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def ask_session(root: Path, question: str, as_of: int | None, as_json: bool, out: IO[str] = sys.stdout) -> int:
    """Answer a question about a session folder; exit status 0 (1 when not understood).

    Raises:
        ZorkTuiError: The folder is not a readable session, or its memory is busy.
    """
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

    Raises:
        ZorkTuiError: Not a session, the memory is busy, the query writes or is invalid.
    """
    with open_memory(root) as memory:
        memory.flush()
        columns, rows = memory.store.read_only(query)
    if as_json:
        print(json.dumps({"columns": columns, "rows": _jsonable(rows)}, ensure_ascii=False), file=out)
        return 0
    print(" | ".join(columns), file=out)
    for row in rows:
        print(" | ".join(json.dumps(_jsonable(v), ensure_ascii=False) if not isinstance(v, str) else v for v in row), file=out)
    return 0


def map_session(root: Path, as_of: int | None, as_json: bool = False, out: IO[str] = sys.stdout) -> int:
    """Print a session's map as box-drawing text (or JSON).

    Raises:
        ZorkTuiError: The folder is not a readable session, or its memory is busy.
    """
    from zorktui.memory.mapmodel import build_map
    from zorktui.memory.maprender import render_map

    with open_memory(root) as memory:
        model = build_map(memory, as_of)
    if as_json:
        print(json.dumps(model.to_json(), ensure_ascii=False), file=out)
    else:
        print(f"Map as of turn {model.as_of}:", file=out)
        print(render_map(model), file=out)
    return 0
