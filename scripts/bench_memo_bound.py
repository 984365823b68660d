#!/usr/bin/env python
"""The most a memo of dispatched actions could save: candidates that ran quiet before and run quiet again.

Memoising an action-only run on the bytes it reads would skip a dispatched
candidate whose reads are unchanged since it last ran. Whatever those reads
are, such a candidate gives the same outcome it gave before, so the
candidates a perfect memo could skip are at most those whose template entry
and things ran *quiet* (the action changed nothing the world counts) at an
earlier state and run quiet again here. This script counts them, and their
share of the dispatched run time, along a random walk; the real memo can
only skip fewer (some of their reads do change) and pays for its checks.

Candidates are run on the search's own interpreter, one after the other (no
workers), so each one's time is its own; a raw jericho step is timed in the
same run as the machine's yardstick. Usage::

    python scripts/bench_memo_bound.py STORY [--walk 30] [--seed 1]

Prints per new state the search's time, the dispatched candidates and their
run time, and what a perfect memo could skip, then their medians and totals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_engine import time_raw_jericho  # noqa: E402

import zorktui.engine.actions.dispatch as dispatch  # noqa: E402
import zorktui.engine.actions.dispatch_run as dispatch_run  # noqa: E402
import zorktui.engine.actions.dispatched_play as dispatched_play  # noqa: E402
from zorktui.engine.actions.valid_actions import ActionFinder  # noqa: E402
from zorktui.engine.game import Game  # noqa: E402

#: What each dispatched candidate of the current search gave: ((template entry, things), quiet, seconds).
RUNS: list[tuple[tuple[bytes, tuple[int, ...]], bool, float]] = []


def _observed(run_job):
    """``run_job`` as it is, its candidates' keys, quietness and times kept in :data:`RUNS`."""

    def observed(calls, job, reading, done=None):
        out = run_job(calls, job, reading, done)
        keys = {index: (template.key, objs) for template in job.templates for index, objs in template.candidates}
        RUNS.extend((keys[index], quiet, seconds) for index, _outcome, _went_on, quiet, seconds in out)
        return out

    return observed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("story", type=Path)
    parser.add_argument("--walk", type=int, default=30, help="steps of the random walk")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random walk")
    args = parser.parse_args()

    # Observed where the finder calls it: the dispatcher's own runs and the fallback of a farm.
    dispatch.run_job = _observed(dispatch_run.run_job)
    dispatched_play.run_job = dispatch.run_job
    # The machine's yardstick, as bench_engine measures it: "look" and "inventory" in turn.
    raw = statistics.median(time_raw_jericho(args.story, ["look", "inventory"] * 150)) * 1000
    game = Game(args.story)
    game._finder = ActionFinder(game, parallel=False, workers=False)
    rng = random.Random(args.seed)
    seen: set[str] = set()
    ran_quiet: set[tuple[bytes, tuple[int, ...]]] = set()
    rows = []
    print(f"story: {args.story.name}   raw jericho step {raw:.3f} ms (median)")
    print(f"{'state':>5s} {'search ms':>10s} {'dispatched':>10s} {'run ms':>8s} {'skippable':>10s} {'its ms':>8s}")
    for _ in range(args.walk + 1):
        RUNS.clear()
        began = time.perf_counter()
        valid = game.valid_actions()
        search = (time.perf_counter() - began) * 1000
        state = game.current.state_hash
        if state not in seen:
            seen.add(state)
            again = [run for run in RUNS if run[1] and run[0] in ran_quiet]
            row = (search, len(RUNS), sum(r[2] for r in RUNS) * 1000, len(again), sum(r[2] for r in again) * 1000)
            rows.append(row)
            print(f"{len(rows) - 1:5d} {row[0]:10.1f} {row[1]:10d} {row[2]:8.1f} {row[3]:10d} {row[4]:8.1f}")
        ran_quiet |= {run[0] for run in RUNS if run[1]}
        options = [command for command in valid if not game.peek(command).done]
        if not options or game.step(rng.choice(options)).done:
            break
    game.close()
    if not rows:
        return
    medians = [statistics.median(row[i] for row in rows) for i in range(5)]
    dispatched, run_ms = sum(r[1] for r in rows), sum(r[2] for r in rows)
    skippable, skippable_ms = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(f"medians over {len(rows)} new states: search {medians[0]:.1f} ms ({medians[0] / raw:.0f}x a raw step), "
          f"{medians[1]:.0f} dispatched in {medians[2]:.1f} ms, skippable {medians[3]:.0f} in {medians[4]:.1f} ms")
    print(f"totals: {dispatched} dispatched in {run_ms:.0f} ms; a perfect memo skips at most {skippable} "
          f"({skippable / max(dispatched, 1):.0%}) and {skippable_ms:.0f} ms ({skippable_ms / max(run_ms, 1e-9):.0%})")


if __name__ == "__main__":
    main()
