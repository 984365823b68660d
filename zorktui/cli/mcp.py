"""``zorktui mcp``: the session's tools to an outside agent over MCP (stdio, or HTTP with ``--http``)."""

from __future__ import annotations

import argparse
import signal
import sys

from zorktui.cli.args import check_resume_seed, fail
from zorktui.cli.common import build


def cmd_mcp(args: argparse.Namespace) -> int:
    """``zorktui mcp``: the session's tools to an outside agent over MCP (stdio, or HTTP with --http)."""
    import time

    from zorktui.locations import sessions_dir

    if args.http is not None and args.http > 65535:
        fail(f"--http {args.http}: a port number is 1 to 65535")
    if args.host is not None and args.http is None:
        fail("--host is for --http (stdio has no address)")
    try:
        from zorktui.mcp_server.server import serve
    except ImportError as exc:
        fail(f"zorktui mcp needs the MCP SDK ({exc.name} is missing): pip install 'mcp>=2.3'")
    from zorktui.mcp_server.tools import GameTools
    from zorktui.session.factory import SessionOptions

    check_resume_seed(args)
    if args.session is None:
        args.session = sessions_dir() / time.strftime("%Y%m%d-%H%M%S-mcp")
    built = build(SessionOptions(story=args.story, mode="mcp", session=args.session, seed=args.seed))
    where = "stdio" if args.http is None else f"http://{args.host or '127.0.0.1'}:{args.http}/mcp"
    print(f"zorktui: MCP server on {where}; session {args.session}", file=sys.stderr)
    # Stopped by a client or a service manager: close the session as ctrl+c would (the memory, the recorder).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        serve(GameTools(built.session), args.http, args.host or "127.0.0.1")
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # the port is taken, the address is not this machine's
        fail(f"{where}: cannot serve ({exc.strerror or exc})")
    finally:
        built.session.close()
    print(f"zorktui: session saved in {args.session}", file=sys.stderr)
    return 0
