"""Runs one read-only Cypher query in a child process and prints the result as JSON.

Kuzu 0.11 can crash the whole process on some valid queries (for example a
UNION ALL that returns one property twice). A person's ad-hoc query must not
take the caller down with it, so ``zorktui memory --cypher`` runs it here.

    python -m zorktui.session.files.cypher_child MEMORY_DIR QUERY
"""

from __future__ import annotations

import json
import sys

from zorktui.core.errors import ZorkTuiError


def _jsonable(value: object) -> object:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def main(argv: list[str]) -> int:
    """Print ``{"columns", "rows"}`` or ``{"error"}`` as one JSON line."""
    # deferred: the child process imports the store (and kuzu) only when it runs a query
    from zorktui.memory.store import GraphStore

    folder, query = argv
    try:
        store = GraphStore(folder)
        try:
            columns, rows = store.read_only(query)
        finally:
            store.close()
    except ZorkTuiError as exc:
        print(json.dumps({"error": str(exc)}))
        return 0
    print(json.dumps({"columns": columns, "rows": _jsonable(rows)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
