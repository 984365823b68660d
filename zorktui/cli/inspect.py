"""``zorktui memory`` (ask a session's memory, or run read-only Cypher on it) and ``zorktui map`` (draw its map)."""

from __future__ import annotations

import argparse

from zorktui.cli.args import check_as_of, fail


def cmd_inspect(args: argparse.Namespace) -> int:
    """``zorktui memory DIR QUESTION`` (or ``--cypher QUERY``) and ``zorktui map DIR``, as of ``--as-of`` TURN."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.core.errors import ZorkTuiError
    from zorktui.session.files import inspect

    if args.command == "memory":
        if args.cypher is not None and args.question:
            fail("give a question or --cypher, not both")
        if args.cypher is not None and args.as_of is not None:
            fail("--as-of is for questions and the map; a --cypher query reads the graph as it is")
        if args.cypher is None and not args.question:
            fail('ask a question, e.g. zorktui memory DIR "where am i" (or "help")')
    if args.as_of is not None:
        check_as_of(args.session_dir, args.as_of)
    try:
        if args.command == "map":
            return inspect.map_session(args.session_dir, args.as_of, args.json)
        if args.cypher is not None:
            return inspect.cypher_session(args.session_dir, args.cypher, args.json)
        return inspect.ask_session(args.session_dir, args.question, args.as_of, args.json)
    except ZorkTuiError as exc:
        fail(str(exc))
