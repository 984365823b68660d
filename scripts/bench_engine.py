"""Engine benchmark: raw jericho step vs ``Game.step`` with full facts, and valid actions per new state.

Prints medians (and means where a budget is stated as an average) measured in
one run, with ratios against the raw interpreter measured in the same run.

    python scripts/bench_engine.py [STORY WALKTHROUGH] [--commands N] [--serial]
                                   [--walk N] [--seed N] [--no-recall]

Valid actions are timed per *new* state (a cache miss of ``Game.valid_actions``)
along two paths: the walkthrough, and an explorer-like random walk (each step
one of the valid actions, chosen with ``--seed``; the walk is fixed before any
timing, so every finder sees the same states). Recall is measured against a
full search of the same state (every candidate played, nothing remembered),
by resulting state hash: the share of the full search's outcomes the finder
found.

``--serial`` searches valid actions on the game's interpreter alone (no twin
interpreter in a second thread), for comparison.

Defaults to the bundled game and its walkthrough.
"""

from __future__ import annotations

import argparse
import itertools
import random
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


def full_search(finder) -> tuple[str, ...]:
    """Every candidate played, nothing remembered from earlier searches (the reference)."""
    if hasattr(finder, "forget"):
        finder.forget()
    else:  # an older finder, for before/after runs from an older checkout
        finder._failed.clear()
    return finder.find()


def outcomes(game, commands) -> set[str]:
    """State hashes the commands lead to from the current state."""
    return {game.peek(c).state_hash for c in commands}


def reference_path(story: Path, walkthrough: list[str], walk: int, seed: int, recall: bool):
    """(commands, reference outcomes per state or None) for the walkthrough and the random walk.

    The random walk picks among the full search's valid actions (never a
    game-ending one), so it does not depend on the finder being measured.
    """
    from zorktui.engine.game import Game
    from zorktui.engine.valid_actions import ActionFinder

    paths = {}
    for name in ("walkthrough", "random walk"):
        game = Game(story)
        finder = ActionFinder(game)
        rng = random.Random(seed)
        commands: list[str] = []
        refs: list[set[str]] = []
        seen: set[str] = set()
        steps = iter(walkthrough[:-1]) if name == "walkthrough" else None
        while True:
            h = game.current.state_hash
            valid = full_search(finder) if (recall or steps is None) else ()
            if h not in seen:
                seen.add(h)
                refs.append(outcomes(game, valid) if recall else set())
            if steps is not None:
                command = next(steps, None)
            else:
                options = list(valid)
                rng.shuffle(options)
                command = None
                while options and len(commands) < walk:
                    candidate = options.pop()
                    if not game.peek(candidate).done:
                        command = candidate
                        break
            if command is None:
                break
            commands.append(command)
            if game.step(command).done:
                break
        finder.close()
        game.close()
        paths[name] = (commands, refs if recall else None)
    return paths


def time_valid_actions(story: Path, commands: list[str], refs, parallel: bool | None):
    """(ms per new state, candidates played per new state, found/reference outcome counts, misses)."""
    from zorktui.engine.game import Game
    from zorktui.engine.valid_actions import ActionFinder

    game = Game(story)
    game._finder = ActionFinder(game, parallel=parallel)
    per_state: list[float] = []
    tried: list[int] = []
    misses: list[str] = []
    found = total = 0
    seen: set[str] = set()
    for command in [None, *commands]:
        if command is not None and game.step(command).done:
            break
        h = game.current.state_hash
        if h in seen or h in game._valid_cache:
            continue
        seen.add(h)
        t = time.perf_counter()
        valid = game.valid_actions()
        per_state.append((time.perf_counter() - t) * 1000)
        tried.append(game._finder.stats.tried)
        if refs is not None:
            ref = refs[len(per_state) - 1]
            got = outcomes(game, valid)
            found += len(ref & got)
            total += len(ref)
            if ref - got:
                misses.append(f"state {len(per_state) - 1}: {len(ref - got)} outcome(s)")
    game.close()
    return per_state, tried, (found, total), misses


def ms(x: float) -> str:
    return f"{x * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("story", nargs="?", type=Path, default=ROOT / "zorktui/stories/lighthouse.z5")
    parser.add_argument("walkthrough", nargs="?", type=Path, default=ROOT / "zorktui/stories/lighthouse.walkthrough")
    parser.add_argument("--commands", type=int, default=1500)
    parser.add_argument("--serial", action="store_true", help="no twin interpreter for valid actions")
    parser.add_argument("--walk", type=int, default=60, help="steps of the random walk")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random walk")
    parser.add_argument("--no-recall", action="store_true", help="skip the full searches recall is measured against")
    args = parser.parse_args()
    script = script_of(args.walkthrough, args.commands)
    walk = [c.strip() for c in args.walkthrough.read_text().splitlines() if c.strip() and not c.startswith("#")]

    raw = time_raw_jericho(args.story, script)
    ours, load = time_game(args.story, script)
    raw_med, our_med = statistics.median(raw), statistics.median(ours)
    print(f"story: {args.story.name}   script: {len(script)} commands   (2 cores, one process)")
    print(f"{'':34s}{'median':>12s}{'mean':>12s}")
    print(f"{'raw jericho FrotzEnv.step':34s}{ms(raw_med):>12s}{ms(statistics.mean(raw)):>12s}")
    print(f"{'Game.step with full facts':34s}{ms(our_med):>12s}{ms(statistics.mean(ours)):>12s}")
    print(f"{'ratio Game.step / raw step':34s}{our_med / raw_med:>11.2f}x{statistics.mean(ours) / statistics.mean(raw):>11.2f}x")
    print(f"{'Game load (calibration probes)':34s}{ms(load):>12s}")

    paths = reference_path(args.story, walk, args.walk, args.seed, recall=not args.no_recall)
    mode = "serial" if args.serial else "default"
    for name, (commands, refs) in paths.items():
        va, tried, (found, total), misses = time_valid_actions(args.story, commands, refs, parallel=False if args.serial else None)
        print(f"valid actions, {name} ({len(commands)} commands, {len(va)} new states, {mode}):")
        print(f"{'  first state (learns templates)':34s}{va[0]:9.3f} ms")
        print(f"{'  per new state':34s}{statistics.median(va):9.3f} ms{statistics.mean(va):9.3f} ms")
        print(f"{'  per new state / raw step':34s}{statistics.median(va) / (raw_med * 1000):>10.0f}x")
        print(f"{'  candidates played per new state':34s}{statistics.median(tried):9.0f}   {statistics.mean(tried):9.1f}")
        if refs is not None:
            print(f"{'  recall vs full search':34s}{found}/{total} = {found / max(1, total):.3f}  {'; '.join(misses)}")


if __name__ == "__main__":
    main()
