"""``zorktui export``: a session as a transcript, a .rec command file or CSV."""

from __future__ import annotations

import argparse
import sys

from zorktui.cli.args import fail


def cmd_export(args: argparse.Namespace) -> int:
    """``zorktui export DIR --format transcript|rec|csv [-o FILE]``."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.core.errors import ZorkTuiError
    from zorktui.record.export import export
    from zorktui.session.files.folder import SessionFolder

    try:
        text = export(SessionFolder(args.session_dir).records(), args.format)
    except ZorkTuiError as exc:
        fail(str(exc))
    if args.o is None:
        sys.stdout.write(text)
        return 0
    try:
        args.o.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{args.o}: cannot write ({exc.strerror or exc})")
    return 0
