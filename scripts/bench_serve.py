"""Time from opening a tab on ``zorktui serve`` to the story's opening text, and a command's reply.

Starts the server on a free port, opens tabs one after another with the
websocket client of the tests (tests/webclient.py), as a browser's page
would, and prints the median of each time.

Usage: python scripts/bench_serve.py [STORY] [--tabs N] [--look WORDS] [--command CMD --reply WORDS]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import aiohttp  # noqa: E402  (installed with textual-serve)
from webclient import Screen, free_port, start_server, stop_server  # noqa: E402


async def tab(port: int, look: str, command: str, reply: str) -> tuple[float, float]:
    async with aiohttp.ClientSession() as http:
        start = time.monotonic()
        async with http.ws_connect(f"http://127.0.0.1:{port}/ws?width=140&height=40") as ws:
            screen = Screen(ws)
            await screen.until(look, timeout=60)
            opened = time.monotonic() - start
            screen.mark()
            await screen.type(command + "\r")
            return opened, await screen.until(reply, timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description="Time to the opening text in a served tab.")
    parser.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    parser.add_argument("--tabs", type=int, default=5)
    parser.add_argument("--look", default="Landing Stage", help="words of the opening to wait for")
    parser.add_argument("--command", default="north")
    parser.add_argument("--reply", default="Shingle Path", help="words of the command's reply to wait for")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(*([args.story] if args.story else []), "--session-root", tmp, port=port)
        try:
            times = [asyncio.run(tab(port, args.look, args.command, args.reply)) for _ in range(args.tabs)]
        finally:
            stop_server(server)
    print(f"{args.tabs} tabs: opening text after {statistics.median(t[0] for t in times):.2f} s (median; "
          f"min {min(t[0] for t in times):.2f}, max {max(t[0] for t in times):.2f}), "
          f"reply to '{args.command}' after {statistics.median(t[1] for t in times):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
