"""``zorktui watch``: a live, read-only view of sessions being played elsewhere."""

from __future__ import annotations

import argparse
import sys

from zorktui.cli.args import fail
from zorktui.cli.common import session_folders, under_web_driver


def cmd_watch(args: argparse.Namespace) -> int:
    """``zorktui watch DIR...``: follow sessions live in the app (a chooser first when there are several)."""
    from zorktui.core.errors import ZorkTuiError

    web = args.web or under_web_driver()
    if not web and not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("zorktui watch needs a terminal (zorktui serve --watch shows it in a browser)")
    folders = session_folders(args.session_dirs)
    from zorktui.ui.web.drivers import close_tab, follows, run_first  # the composition root reaches the UI only here
    from zorktui.ui.web.live import LiveApp

    chosen = 0
    if len(folders) > 1:
        from zorktui.ui.web.questions import ChooserApp

        chooser = ChooserApp(folders, theme=args.theme)
        run_first(chooser)
        if chooser.answer is None:
            close_tab()
            return 0
        chosen = chooser.answer
    try:
        app = LiveApp(folders[chosen], theme=args.theme)
    except ZorkTuiError as exc:
        fail(str(exc))
    follows(app).run()
    return 0
