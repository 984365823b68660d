"""Engine benchmark: raw jericho step vs ``Game.step`` with full facts (here and in a worker process),
and valid actions per new state.

Prints medians (and means where a budget is stated as an average) measured in
one run, with ratios against the raw interpreter measured in the same run.

    python scripts/bench_engine.py [STORY WALKTHROUGH] [--commands N] [--serial]
                                   [--walk N] [--seed N] [--no-recall] [--against REV]

Valid actions are timed per *new* state (a cache miss of ``Game.valid_actions``)
along two paths: the walkthrough, and an explorer-like random walk (each step
one of the valid actions, chosen with ``--seed``; the walk is fixed before any
timing, so every finder sees the same states). Recall is measured against a
full search of the same state (every candidate played, nothing remembered),
by resulting state hash: the share of the full search's outcomes the finder
found.

``--against REV`` times the finder of an earlier git revision too, on a
copy of the game stepped in lockstep (same states, same machine load).

``--serial`` searches valid actions on the game's interpreter alone (no twin
interpreter in a second thread), for comparison.

Defaults to the bundled game and its walkthrough.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
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


def time_game(story: Path, script: list[str], in_worker: bool = False) -> tuple[list[float], float]:
    """Seconds per ``step`` with full facts, and the game's load time.

    Args:
        in_worker: Time a game whose interpreter runs in a worker process
            (``GameProcess``, as sessions play) rather than ``Game`` here.
    """
    from zorktui.engine.launch import open_game

    t = time.perf_counter()
    game = open_game(story, in_worker=in_worker)
    load = time.perf_counter() - t
    out = []
    for command in script:
        t = time.perf_counter()
        game.step(command)
        out.append(time.perf_counter() - t)
    game.close()
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
    from zorktui.engine.actions.valid_actions import ActionFinder
    from zorktui.engine.game import Game

    paths = {}
    for name in ("walkthrough", "random walk"):
        game = Game(story)
        finder = ActionFinder(game, dispatch=False)  # the truth is the typed search
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


def engine_from_revision(revision: str) -> tuple[type, type]:
    """(Game, ActionFinder) of the whole package at a git revision, for before/after runs.

    The revision's ``zorktui`` is unpacked into a temporary folder under
    another name (its imports rewritten), so its finder runs on its own
    interpreter wrapper, fingerprint and facts, not on today's.
    """
    import atexit
    import importlib
    import io
    import re
    import shutil
    import subprocess
    import sys
    import tarfile
    import tempfile

    name = "zorktui_" + re.sub(r"\W", "_", revision)
    archive = subprocess.run(["git", "archive", revision, "zorktui"], cwd=ROOT, check=True, capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    atexit.register(shutil.rmtree, folder, True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "zorktui").rename(folder / name)
    for source in (folder / name).rglob("*.py"):
        text = source.read_text()
        source.write_text(re.sub(r"\bzorktui\.(?=\w)", f"{name}.", text))
    sys.path.insert(0, str(folder))
    # Its search workers are processes of their own (``python -m NAME.engine...``): without the
    # folder on their path they never start, and the revision searches in-process, another
    # configuration (chalk, the same code: 15.2 ms in-process against 18.6 ms on the workers).
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    game = importlib.import_module(f"{name}.engine.game").Game
    try:
        finder = importlib.import_module(f"{name}.engine.actions.valid_actions").ActionFinder
    except ModuleNotFoundError:  # a revision whose engine/ is one flat folder
        finder = importlib.import_module(f"{name}.engine.valid_actions").ActionFinder
    return game, finder


def time_valid_actions(story: Path, commands: list[str], refs, finders: dict, parallel: bool | None):
    """Per finder: (ms per new state, candidates played per new state, (found, reference) outcomes, misses).

    ``finders`` maps a name to a (Game, ActionFinder) pair, today's last. Each finder
    searches its own copy of the game; the copies are stepped in lockstep and
    searched one after the other in every state (each first in turn), so a
    machine busy with something else slows all of them alike.
    """
    games = {}
    for name, (game_class, finder_class) in finders.items():
        game = game_class(story)
        game._finder = finder_class(game, parallel=parallel)
        games[name] = game
    # Outcomes are judged, and new states told, on a game of today's that no finder searches:
    # no measured finder's interpreter is used for anything but its own searches.
    judge = list(finders.values())[-1][0](story)
    out = {name: ([], [], [0, 0], [], [], [], []) for name in finders}
    seen: set[str] = set()
    for command in [None, *commands]:
        if command is not None and any([g.step(command).done for g in [*games.values(), judge]]):
            break
        # New states as today's engine tells them apart (as the reference path did): an older
        # revision may hash bookkeeping that today's leaves out, and count more states.
        h = judge.current.state_hash
        if h in seen:
            continue
        seen.add(h)
        index = len(seen) - 1
        # Each finder searches first in turn, so none always finds the machine as the last one left it.
        names = list(games)
        turn = index % len(names)
        for name in names[turn:] + names[:turn]:
            game = games[name]
            per_state, tried, counts, misses, split, _instructions, phases = out[name]
            t = time.perf_counter()
            valid = game.valid_actions()
            per_state.append((time.perf_counter() - t) * 1000)
            tried.append(game._finder.stats.tried)
            phases.append(dict(getattr(game._finder.stats, "phases", {})))  # an older finder's stats have none
            split.append((getattr(game._finder.stats, "dispatched", 0), getattr(game._finder.stats, "typed", 0)))
            if refs is not None:
                # Outcomes judged on today's game, so every finder's commands are hashed alike.
                got = outcomes(judge, valid)
                counts[0] += len(refs[index] & got)
                counts[1] += len(refs[index])
                if refs[index] - got:
                    misses.append(f"state {index}: {len(refs[index] - got)} outcome(s)")
                if got - refs[index]:  # listed, but typed it leads nowhere the typed search knows
                    misses.append(f"state {index}: {len(got - refs[index])} extra(s)")
    for name, game in games.items():
        out[name][5].append(instructions(game))
        game.close()
    judge.close()
    return out


def instructions(game, sample: int = 40) -> tuple[float, ...] | None:
    """Median instructions per candidate on a sample of the last state's: typed, dispatched to the action's
    return (where a candidate that changed nothing stops), and dispatched to the next read."""
    finder = game._finder
    dispatcher = getattr(finder, "dispatcher", None)
    if dispatcher is None or not dispatcher.active or finder.templates is None:
        return None
    start = game.vm.snapshot()
    counts = []
    _held, scope = finder._scope()
    for template in [t for t in finder.templates.single if dispatcher.trusted(t)]:
        for obj in scope[:2]:
            word = finder._object_word(obj, scope)
            if word:
                found = dispatcher.instructions(start, (template.format(word), template, (obj,)))
                if found:
                    counts.append(found)
        if len(counts) >= sample:
            break
    game.vm.restore(start)
    if not counts:
        return None
    return tuple(statistics.median(c[k] for c in counts) for k in range(3))


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
    parser.add_argument("--per-state", action="store_true", help="print each state's time and candidates")
    parser.add_argument("--against", metavar="REV", help="also time the finder of this git revision, state by state")
    parser.add_argument("--finders", default="typed,dispatch",
                        help="today's finders to time, comma-separated (dispatch alone: the search as the app runs it)")
    args = parser.parse_args()
    script = script_of(args.walkthrough, args.commands)
    walk = [c.strip() for c in args.walkthrough.read_text().splitlines() if c.strip() and not c.startswith("#")]

    raw = time_raw_jericho(args.story, script)
    ours, load = time_game(args.story, script)
    remote, remote_load = time_game(args.story, script, in_worker=True)
    raw_med, our_med, remote_med = statistics.median(raw), statistics.median(ours), statistics.median(remote)
    print(f"story: {args.story.name}   script: {len(script)} commands   (2 cores, one process)")
    print(f"{'':34s}{'median':>12s}{'mean':>12s}")
    print(f"{'raw jericho FrotzEnv.step':34s}{ms(raw_med):>12s}{ms(statistics.mean(raw)):>12s}")
    print(f"{'Game.step with full facts':34s}{ms(our_med):>12s}{ms(statistics.mean(ours)):>12s}")
    print(f"{'ratio Game.step / raw step':34s}{our_med / raw_med:>11.2f}x{statistics.mean(ours) / statistics.mean(raw):>11.2f}x")
    print(f"{'GameProcess.step (worker process)':34s}{ms(remote_med):>12s}{ms(statistics.mean(remote)):>12s}")
    print(f"{'ratio GameProcess / Game.step':34s}{remote_med / our_med:>11.2f}x"
          f"{statistics.mean(remote) / statistics.mean(ours):>11.2f}x")
    print(f"{'Game load (calibration probes)':34s}{ms(load):>12s}")
    print(f"{'GameProcess load (worker start)':34s}{ms(remote_load):>12s}")

    paths = reference_path(args.story, walk, args.walk, args.seed, recall=not args.no_recall)
    from zorktui.engine.actions.valid_actions import ActionFinder
    from zorktui.engine.game import Game

    finders = {"typed": (Game, functools.partial(ActionFinder, dispatch=False)), "dispatch": (Game, ActionFinder)}
    finders = {name: made for name, made in finders.items() if name in args.finders.split(",")}
    if args.against:
        finders = {args.against: engine_from_revision(args.against), **finders}
    mode = "serial" if args.serial else "default"
    for path, (commands, refs) in paths.items():
        results = time_valid_actions(args.story, commands, refs, finders, parallel=False if args.serial else None)
        for name, (va, tried, (found, total), misses, split, (counted,), phases) in results.items():
            print(f"valid actions, {path}, finder {name} ({len(commands)} commands, {len(va)} new states, {mode}):")
            print(f"{'  first state (learns templates)':34s}{va[0]:9.1f} ms")
            print(f"{'  per new state':34s}{statistics.median(va):9.1f} ms{statistics.mean(va):9.1f} ms")
            print(f"{'  per new state / raw step':34s}{statistics.median(va) / (raw_med * 1000):>9.0f}x")
            print(f"{'  candidates played per new state':34s}{statistics.median(tried):9.0f}   {statistics.mean(tried):9.1f}")
            print(f"{'  dispatched / typed per new state':34s}{statistics.median(d for d, _t in split):9.0f}   "
                  f"{statistics.median(t for _d, t in split):9.0f}")
            if counted:
                typed_n, returned, to_read = counted
                print(f"{'  instructions per candidate':34s}typed {typed_n:,.0f}; dispatched {returned:,.0f} to the"
                      f" action's return ({typed_n / max(1, returned):.1f}x fewer), {to_read:,.0f} to the next read")
            names = list(dict.fromkeys(p for state in phases for p in state))
            if names:  # the search's own wall time, phase by phase (ActionFinder.find), medians over the new states
                print("  phases, median ms:", "; ".join(
                    f"{p} {statistics.median(state.get(p, 0.0) for state in phases):.1f}" for p in names))
            if args.per_state:
                print("  per state (ms, candidates):", " ".join(f"{v:.0f}/{n}" for v, n in zip(va, tried, strict=False)))
            if refs is not None:
                print(f"{'  recall vs typed full search':34s}{found}/{total} = {found / max(1, total):.3f}  {'; '.join(misses)}")

if __name__ == "__main__":
    main()
