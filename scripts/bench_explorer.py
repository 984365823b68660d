"""How far the offline explorer gets: rooms reached, moves straight back, score, per story over seeds.

Usage::

    python scripts/bench_explorer.py STORY... [--steps 100] [--seeds 1,2,3] [--json]

Each story is played by ``--agent explore`` for ``--steps`` commands from each
seed (a fresh session with a scratch memory, no lessons from earlier games),
as ``zorktui run STORY --agent explore --steps N --seed S`` plays it. Per
story it prints the median and the range over the seeds of:

* rooms: distinct rooms the player stood in (the opening room counts);
* back: of the moves (commands after which the player stood in another
  room), the share that went straight back to the room the player had just
  come from;
* score: the score after the last step;
* undone: commands after which the world was as it had been two commands
  before without the player having moved (switching a lamp off and on again).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zorktui.core.turn import Turn
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules


def measure(turns: list[Turn]) -> dict[str, Any]:
    """Rooms, moves, straight-back moves and undone commands of a line of play."""
    rooms = {t.location.id for t in turns if t.location}
    moves = back = undone = 0
    previous: int | None = None
    for i in range(1, len(turns)):
        before, after = turns[i - 1], turns[i]
        a = before.location.id if before.location else 0
        b = after.location.id if after.location else 0
        if a != b:
            moves += 1
            back += int(b == previous)
            previous = a
        elif i >= 2 and after.state_hash == turns[i - 2].state_hash and after.state_hash != before.state_hash:
            undone += 1
    last = turns[-1]
    return {"rooms": len(rooms), "moves": moves, "back": back, "back_share": back / moves if moves else 0.0,
            "score": last.score or 0, "undone": undone, "steps": len(turns) - 1}


def play(story: str, steps: int, seed: int) -> dict[str, Any]:
    """One explorer run; its measures and the commands it played."""
    built = build_session(SessionOptions(story=story, mode="autopilot", agent="explore", seed=seed, knowledge=False,
                                         stop=StopRules(steps=steps, on_loop=False)))
    session = built.session
    start = time.perf_counter()
    try:
        session.autopilot.run(steps)
        turns = list(session.log.turns)
    finally:
        session.close()
        session.game.close()
    result = measure(turns)
    result.update(seed=seed, seconds=round(time.perf_counter() - start, 1),
                  commands=[t.command for t in turns[1:]])
    return result


def spread(values: list[float], fmt: str) -> str:
    """The median with the range: "17 (15-20)"."""
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}-{format(max(values), fmt)})"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per story."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stories", nargs="+")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated seeds (default 1,2,3)")
    parser.add_argument("--json", action="store_true", help="every run's measures and commands as JSON")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    runs: dict[str, list[dict[str, Any]]] = {}
    for story in args.stories:
        runs[story] = [play(story, args.steps, seed) for seed in seeds]
        if not args.json:
            rows = runs[story]
            print(f"{Path(story).name:<22} rooms {spread([r['rooms'] for r in rows], '.0f'):<13}"
                  f" back {spread([100 * r['back_share'] for r in rows], '.0f'):<13}"
                  f" score {spread([r['score'] for r in rows], '.0f'):<12}"
                  f" undone {spread([r['undone'] for r in rows], '.0f'):<10}"
                  f" ({len(rows)} seeds, {statistics.mean(r['seconds'] for r in rows):.0f} s a run)", flush=True)
    if args.json:
        print(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
