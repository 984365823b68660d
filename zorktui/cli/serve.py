"""``zorktui serve``: the app in browser tabs (each tab its own session), or ``--watch``, a live view of sessions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zorktui.cli.args import check_agent_flags, fail
from zorktui.cli.common import session_folders


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
        folders = session_folders(args.watch)
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
    from zorktui.core.errors import ZorkTuiError
    from zorktui.session.factory import check_story

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
        check_agent_flags(args)
    flags: list[str] = []
    if args.story:
        try:
            check_story(args.story)
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
