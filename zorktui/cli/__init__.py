"""Command line: argument parsing only; every command builds on the engine's factories.

Each subcommand is a module of this package (``run.py``, ``play.py``, ...), its parser is in
``args.py`` and what they share in ``common.py``; :data:`COMMANDS` names the function that runs
each, loaded only when its command runs.

Bad input (a missing or non-Z-machine story, a bad flag) exits with status 2
and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from zorktui.cli.args import build_parser
from zorktui.cli.common import EXIT_INTERRUPTED, EXIT_PIPE

__all__ = ["COMMANDS", "build_parser", "main"]

#: Each subcommand's function as "module:function".
#: deferred: a subcommand's module loads only when it runs (zorktui --help and quick commands start fast)
COMMANDS: dict[str, str] = {
    "play": "zorktui.cli.play:cmd_play",  # the default; the play command's module loads when it runs
    "run": "zorktui.cli.run:cmd_run",
    "serve": "zorktui.cli.serve:cmd_serve",  # the web commands load when they run
    "watch": "zorktui.cli.watch:cmd_watch",
    "mcp": "zorktui.cli.mcp:cmd_mcp",
    "memory": "zorktui.cli.inspect:cmd_inspect",
    "map": "zorktui.cli.inspect:cmd_inspect",
    "replay": "zorktui.cli.replay:cmd_replay",
    "export": "zorktui.cli.export:cmd_export",
    "data": "zorktui.cli.data:cmd_data",
    "sweep": "zorktui.sweep.command:main",  # the sweep (and Ray behind it) only when asked for
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zorktui`` command.

    A reader that goes away early (``zorktui run ... | head -1``) ends the
    command quietly with status 141, as a program killed by SIGPIPE would in
    a shell: no traceback, and no "Exception ignored" at shutdown.

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    try:
        try:
            return _dispatch(list(sys.argv[1:] if argv is None else argv))
        finally:
            # Output still buffered would otherwise meet the closed pipe at interpreter shutdown.
            sys.stdout.flush()
            sys.stderr.flush()
    except BrokenPipeError:
        _silence_closed_streams()
        return EXIT_PIPE
    except KeyboardInterrupt:  # a command with no word of its own for ctrl+c: one line, no traceback
        print("zorktui: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _silence_closed_streams() -> None:
    """Point each standard stream whose reader has gone at devnull.

    Python's documentation, "Note on SIGPIPE": the interpreter flushes the
    standard streams once more at exit, and a closed pipe would raise there.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
            except (OSError, ValueError):  # a stream with no file descriptor (a test's StringIO)
                pass


def _dispatch(argv: list[str]) -> int:
    """Parse the arguments and run the subcommand."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "play"
    if args.command is None:
        args = parser.parse_args(["play"])
    module, name = COMMANDS[command].split(":")
    run: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), name)  # deferred, as above
    return run(args)
