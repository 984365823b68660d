"""How long ``zorktui mcp`` takes to answer, measured through the official MCP SDK's client over stdio.

Starts ``python -m zorktui mcp STORY --session DIR`` (DIR must not hold a
session yet), plays the commands given (default: Zork I's first ten), then
calls each reader once, and prints the time to connect and each tool's
median in milliseconds.

    python scripts/bench_mcp.py /work/stories/zork1.z3 /tmp/zork-mcp-bench
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

OPENING = ["open mailbox", "take leaflet", "south", "east", "open window", "enter house", "take lamp", "west",
           "move rug", "open trap door"]
READERS = [("room_state", {}), ("valid_actions", {}), ("memory_query", {"question": "where is the lamp", "as_of": 3}),
           ("map", {})]


async def bench(story: str, session: Path, commands: list[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    params = StdioServerParameters(command=sys.executable, args=["-m", "zorktui", "mcp", story, "--session", str(session)],
                                   env={"PYTHONPATH": str(root)}, cwd=str(root))
    start = time.perf_counter()
    times: dict[str, list[float]] = {}
    async with Client(params) as client:
        print(f"connect: {time.perf_counter() - start:.2f} s")
        for tool, arguments in [("play_action", {"command": c}) for c in commands] + READERS:
            began = time.perf_counter()
            result = await client.call_tool(tool, arguments)
            times.setdefault(tool, []).append(time.perf_counter() - began)
            if tool == "play_action":
                print(f"  {arguments['command']:<16} {result.content[0].text.splitlines()[-1]}")
    for tool, spent in times.items():
        print(f"{tool:<14} median {statistics.median(spent) * 1000:.0f} ms over {len(spent)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("story")
    parser.add_argument("session", type=Path)
    parser.add_argument("--commands", nargs="*", default=OPENING)
    args = parser.parse_args()
    asyncio.run(bench(args.story, args.session, args.commands))


if __name__ == "__main__":
    main()
