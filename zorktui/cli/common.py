"""What the subcommands share: exit statuses, session options from the arguments, building a session,
the lessons rule, typed commands at a prompt, the web driver's mark and new session folders' names."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.cli.args import fail

if TYPE_CHECKING:  # hints only: the factory is imported when a command needs it (a fast --help)
    from zorktui.session.factory import Built, SessionOptions

#: The status a shell reports for a program killed by SIGPIPE (128 + 13).
EXIT_PIPE = 128 + getattr(signal, "SIGPIPE", 13)
#: Exit status after ctrl+c, as a shell reports a program ended by SIGINT.
EXIT_INTERRUPTED = 128 + signal.SIGINT


def session_options(args: argparse.Namespace, mode: str, agent: str | None) -> SessionOptions:
    """Session options from parsed arguments (shared by run, play and the tests' factory)."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.session.factory import SessionOptions
    from zorktui.session.session import StopRules

    return SessionOptions(
        story=args.story, mode=mode, agent=agent, model=getattr(args, "model", None),
        base_url=getattr(args, "base_url", None), session=args.session, seed=args.seed,
        memory=not getattr(args, "no_memory", False), llm_extract=getattr(args, "llm_extract", False),
        critic_llm=getattr(args, "critic_llm", False), stop=StopRules(steps=getattr(args, "steps", None), on_loop=False),
        valid_actions=getattr(args, "valid_actions", False),
        sims=getattr(args, "sims", None), time_per_move=getattr(args, "time_per_move", None),
        **lessons(args),
    )


def lessons(args: argparse.Namespace) -> dict[str, Any]:
    """Lessons from earlier games stay out of a reproducible run (``--seed``) and out when asked (``--no-lessons``)."""
    why = "--no-lessons" if getattr(args, "no_lessons", False) else ("--seed" if args.seed is not None else "")
    if not why:
        return {}
    return {"knowledge": False,
            "knowledge_note": f"lessons from earlier games are left out ({why}): the agent plays from the story alone"}


def build(options: SessionOptions, quiet: bool = False) -> Built:
    """Build a session or exit 2 with one line (bad story, unusable session folder).

    Args:
        options: The session options.
        quiet: Leave the warnings to the caller (the app shows them on screen).
    """
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.core.errors import ZorkTuiError
    from zorktui.session.factory import build_session

    try:
        built = build_session(options)
    except (ZorkTuiError, ValueError) as exc:
        fail(str(exc))
    if not quiet:
        for warning in built.warnings:
            print(f"zorktui: {warning}", file=sys.stderr)
    return built


def prompted_stdin() -> Iterator[str]:
    """Lines typed at a ``> `` prompt, until the end of input."""
    while True:
        try:
            yield input("> ")
        except EOFError:
            return


def under_web_driver() -> bool:
    """Whether textual-serve started this process (it names Textual's web driver in the environment)."""
    return "WebDriver" in os.environ.get("TEXTUAL_DRIVER", "")


def new_session_folder(root: Path) -> Path:
    """A new session folder's path under ``root``: the time, and a few random letters so tabs opened together differ."""
    import uuid  # deferred: uuid (and platform behind it) only when a folder is named, not with the package

    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"


def session_folders(dirs: list[Path]) -> list[Path]:
    """The folders as absolute paths, each a readable session folder, else one line and exit 2."""
    from zorktui.session.files.folder import SessionError, SessionFolder

    for folder in dirs:
        try:
            SessionFolder(folder).records()
        except SessionError as exc:
            fail(str(exc))
    return [d.resolve() for d in dirs]
