"""Engine benchmark: raw jericho step vs ``Game.step`` with full facts, and valid actions per state.

Prints medians (and means where a budget is stated as an average) measured in
one run, with ratios against the raw interpreter measured in the same run.

    python scripts/bench_engine.py [STORY WALKTHROUGH] [--commands N] [--serial]

``--serial`` searches valid actions on the game's interpreter alone (no twin
interpreter in a second thread), for comparison.

Defaults to the bundled game and its walkthrough.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def script_of(walkthrough: Path, n: int) -> list[str]:
    """A long script: the walkthrough (without its final, game-ending move) then idle play."""
    steps = [c.strip() for c in walkthrough.read_text().splitlines() if c.strip() and not c.startswith("#")]
    filler = itertools.cycle(["look", "inventory", "wait", "examine me", "xyzzy", "score"])
    script = steps[:-1]
    while len(script) < n:
        script.append(next(filler))
    return script[:n]


def time_raw_jericho(story: Path, script: list[str]) -> list[float]:
    """Seconds per step of jericho's own FrotzEnv.step."""
    import jericho

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = jericho.FrotzEnv(str(story), seed=1)
        env.reset()
        out = []
        for command in script:
            t = time.perf_counter()
            env.step(command)
            out.append(time.perf_counter() - t)
    return out


def time_game(story: Path, script: list[str]) -> tuple[list[float], float]:
    """Seconds per ``Game.step`` (full facts), and the game's load time."""
    from zorktui.engine.game import Game

    t = time.perf_counter()
    game = Game(story)
    load = time.perf_counter() - t
    out = []
    for command in script:
        t = time.perf_counter()
        game.step(command)
        out.append(time.perf_counter() - t)
    return out, load


def time_valid_actions(story: Path, walkthrough: list[str], parallel: bool | None = None) -> tuple[float, list[float], int]:
    """(first call incl. learning the parser's templates, per-state seconds after, states)."""
    from zorktui.engine.game import Game
    from zorktui.engine.valid_actions import ActionFinder

    game = Game(story)
    game._finder = ActionFinder(game, parallel=parallel)
    t = time.perf_counter()
    game.valid_actions()
    first = time.perf_counter() - t
    per_state = []
    for command in walkthrough:
        turn = game.step(command)
        if turn.done:
            break
        t = time.perf_counter()
        game.valid_actions()
        per_state.append(time.perf_counter() - t)
    return first, per_state, len(per_state)


def ms(x: float) -> str:
    return f"{x * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("story", nargs="?", type=Path, default=ROOT / "zorktui/stories/lighthouse.z5")
    parser.add_argument("walkthrough", nargs="?", type=Path, default=ROOT / "zorktui/stories/lighthouse.walkthrough")
    parser.add_argument("--commands", type=int, default=1500)
    parser.add_argument("--serial", action="store_true", help="no twin interpreter for valid actions")
    args = parser.parse_args()
    script = script_of(args.walkthrough, args.commands)
    walk = [c.strip() for c in args.walkthrough.read_text().splitlines() if c.strip() and not c.startswith("#")]

    raw = time_raw_jericho(args.story, script)
    ours, load = time_game(args.story, script)
    first, va, states = time_valid_actions(args.story, walk, parallel=False if args.serial else None)

    raw_med, our_med = statistics.median(raw), statistics.median(ours)
    print(f"story: {args.story.name}   script: {len(script)} commands   (2 cores, one process)")
    print(f"{'':34s}{'median':>12s}{'mean':>12s}")
    print(f"{'raw jericho FrotzEnv.step':34s}{ms(raw_med):>12s}{ms(statistics.mean(raw)):>12s}")
    print(f"{'Game.step with full facts':34s}{ms(our_med):>12s}{ms(statistics.mean(ours)):>12s}")
    print(f"{'ratio Game.step / raw step':34s}{our_med / raw_med:>11.2f}x{statistics.mean(ours) / statistics.mean(raw):>11.2f}x")
    print(f"{'Game load (calibration probes)':34s}{ms(load):>12s}")
    print(f"valid actions over {states} walkthrough states ({'serial' if args.serial else 'default'}):")
    print(f"{'  first call (learns templates)':34s}{ms(first):>12s}")
    print(f"{'  per state':34s}{ms(statistics.median(va)):>12s}{ms(statistics.mean(va)):>12s}")
    print(f"{'  per state / raw step':34s}{statistics.median(va) / raw_med:>10.0f}x")


if __name__ == "__main__":
    main()
