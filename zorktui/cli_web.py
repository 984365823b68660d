"""``zorktui serve`` (the app in browser tabs) and ``zorktui watch`` (a live view of growing sessions)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zorktui.cli_args import _check_agent_flags, fail
from zorktui.cli_play import under_web_driver


def cmd_serve(args: argparse.Namespace) -> int:
    """``zorktui serve [STORY] [--host H] [--port P] [play flags] [--watch DIR...]``."""
    try:
        from zorktui.ui.web.serve import is_loopback, serve, tab_command
    except ImportError as exc:
        fail(f"zorktui serve needs textual-serve ({exc.name} is missing): pip install 'textual-serve>=1.1'")
    if args.watch:
        given = [flag for flag, on in (("STORY", args.story), ("--mode", args.mode), ("--agent", args.agent),
                                       ("--model", args.model), ("--base-url", args.base_url),
                                       ("--baseline", args.baseline), ("--session-root", args.session_root)) if on]
        if given:
            fail(f"{given[0]} is for playing; --watch only shows sessions played elsewhere")
        folders = _session_folders(args.watch)
        argv = ["watch", "--web", *map(str, folders)]
        what = f"a live view of {folders[0]}" if len(folders) == 1 else f"a live view of {len(folders)} sessions"
    else:
        argv = ["play", "--web", *_play_flags(args)]
        what = (f"{Path(args.story).name if args.story else 'the bundled game'}"
                + (" (a human-baseline study)" if args.baseline else ""))
    if args.theme:
        argv += ["--theme", args.theme]
    if not is_loopback(args.host):
        print(f"zorktui: warning: listening on {args.host}: anyone who can reach port {args.port} can play here "
              "and fill session folders on this machine", file=sys.stderr)
    try:
        serve(tab_command(argv), args.host, args.port, "zorktui", what)
    except OSError as exc:  # the port is taken, the address is not this machine's
        fail(f"{args.host}:{args.port}: cannot serve ({exc.strerror or exc})")
    return 0


def _play_flags(args: argparse.Namespace) -> list[str]:
    """Check the play flags once here (not in every tab) and pass them on to each tab's ``play``."""
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.engine.vm.story import open_story

    if args.baseline and (args.agent or args.mode not in (None, "human") or args.model or args.base_url):
        fail("--baseline is played by the person alone: no --agent, --mode, --model or --base-url")
    if args.baseline:
        from zorktui.session.baseline import BaselineError, load_rules

        try:
            load_rules("P-0")  # the study's settings: broken ones fail here, not in the participant's tab
        except BaselineError as exc:
            fail(str(exc))
    if not args.baseline and args.agent is not None:
        args.sims = args.time_per_move = None
        _check_agent_flags(args)
    flags: list[str] = []
    if args.story:
        try:
            open_story(args.story)
        except ZorkTuiError as exc:
            fail(str(exc))
        flags.append(str(Path(args.story).resolve()))
    for name in ("mode", "agent", "model", "base_url"):
        if getattr(args, name):
            flags += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    if args.baseline:
        flags.append("--baseline")
    if args.session_root:
        flags += ["--session-root", str(args.session_root.resolve())]
    return flags


def _session_folders(dirs: list[Path]) -> list[Path]:
    """The folders as absolute paths, each a readable session folder, else one line and exit 2."""
    from zorktui.session.files.folder import SessionError, SessionFolder

    for folder in dirs:
        try:
            SessionFolder(folder).records()
        except SessionError as exc:
            fail(str(exc))
    return [d.resolve() for d in dirs]


def cmd_watch(args: argparse.Namespace) -> int:
    """``zorktui watch DIR...``: follow sessions live in the app (a chooser first when there are several)."""
    from zorktui.engine.errors import ZorkTuiError

    web = args.web or under_web_driver()
    if not web and not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("zorktui watch needs a terminal (zorktui serve --watch shows it in a browser)")
    folders = _session_folders(args.session_dirs)
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
