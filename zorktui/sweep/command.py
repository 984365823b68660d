"""``zorktui sweep``: plan the runs, skip those finished, play the rest on Ray, show the tables and curves."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from types import ModuleType

from rich.console import Console

from zorktui.core.errors import ZorkTuiError
from zorktui.sweep.plan import RESULTS, Results, RunSpec, Story, plan_runs

EXIT_USAGE, EXIT_FAILED, EXIT_INTERRUPTED = 2, 1, 130
INSTALL = "zorktui sweep needs Ray: pip install 'zorktui[sweep]'"


def _count(n: int, noun: str) -> str:
    """``1 run``, ``3 runs``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _say(line: str) -> None:
    print(f"zorktui: {line}", file=sys.stderr, flush=True)


def read_stories(paths: list[str]) -> list[Story]:
    """Each story file checked and identified on the driver (a bad file stops the sweep before Ray starts).

    Raises:
        StoryError: A missing, unreadable or non-Z-machine file.
    """
    # deferred: the engine's story reader loads only when a sweep starts
    from zorktui.engine import open_story

    stories = []
    for given in paths:
        info = open_story(given)
        path = Path(given).resolve()
        stories.append(Story(str(path), info.md5, path.stem, path.suffix))
    return stories


def _check_model(agents: list[str]) -> None:
    """The llm agent needs a model: without one the factory would quietly let the explorer play in its name."""
    if "llm" not in agents:
        return
    # deferred: the model's settings load only for the llm agent
    from zorktui.agent.llm import LlmConfig, require_endpoint

    require_endpoint(LlmConfig.from_env())


def main(args: argparse.Namespace) -> int:
    """Run ``zorktui sweep`` with its parsed arguments; returns the exit status.

    0: every run finished; 1: some failed twice (recorded in results.jsonl); 2: bad input; 130: Ctrl+C.
    """
    if (args.sims is not None or args.time_per_move is not None) and "mcts" not in args.agents:
        _say("--sims and --time-per-move are for the mcts agent (add mcts to --agents)")
        return EXIT_USAGE
    if args.address is not None and args.local_cpus is not None:
        _say("--local-cpus is for a Ray started here; a cluster given by --address has its own CPUs")
        return EXIT_USAGE
    try:
        _check_model(args.agents)
        specs = plan_runs(read_stories(args.stories), args.agents, args.seeds, args.steps, args.sims, args.time_per_move)
        results = Results.open(args.out)
        todo = [s for s in specs if not results.finished(s)]
    except ZorkTuiError as exc:
        _say(str(exc))
        return EXIT_USAGE
    console = Console(stderr=True)
    if len(todo) < len(specs):
        _say(f"{len(specs) - len(todo)} of {_count(len(specs), 'run')} finished already in {args.out / RESULTS}: skipped")
    status = EXIT_USAGE
    if todo:
        try:
            # deferred: Ray (about 0.5 s to import, an optional extra) loads only to sweep
            from zorktui.sweep import driver
        except ImportError:
            _say(INSTALL)
            return EXIT_USAGE
        status = _play(driver, todo, results, args, console)
        if status in (EXIT_INTERRUPTED, EXIT_USAGE):
            return status
    else:
        status = 0
    _report(args.out, results, specs, console)
    return status


def _play(driver: ModuleType, todo: list[RunSpec], results: Results, args: argparse.Namespace, console: Console) -> int:
    """Play the runs on Ray; the exit status. Ctrl+C at any point (Ray starting too) keeps what finished."""
    options = driver.ClusterOptions(address=args.address, local_cpus=args.local_cpus, cpus_per_run=args.cpus_per_run,
                                    run_timeout=args.run_timeout, pass_model_env="llm" in args.agents)
    ours = not driver.ray.is_initialized()  # a Ray this process has already (a test's) is left running
    try:
        try:
            _, seconds = driver.connect(options)
        except (ConnectionError, RuntimeError, ValueError) as exc:  # no cluster at the address, a bad address
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            # Ray 2.5x clusters check a token by default; a driver joining one must ask for it by name.
            hint = ("; a cluster with token authentication needs RAY_AUTH_MODE=token and its token (~/.ray/auth_token)"
                    if args.address and os.environ.get("RAY_AUTH_MODE") is None else "")
            _say(f"cannot reach Ray at {args.address or 'this machine'}: {why}{hint}")
            return EXIT_USAGE
        cpus = int(driver.ray.cluster_resources().get("CPU", 0))
        where = f"Ray at {args.address}" if args.address else "Ray on this machine"
        took = f" ({'joined' if args.address else 'started'} in {seconds:.1f} s)" if ours else ""
        _say(f"{where}: {cpus} CPUs, {_count(driver.capacity(args.cpus_per_run), 'run')} at once{took}; "
             f"{_count(len(todo), 'run')} to play")
        stories = driver.story_bytes({s.story.md5: Path(s.story.path) for s in todo})
        begun = time.monotonic()
        from zorktui.sweep.report import SweepProgress  # deferred: rich's progress display loads only to sweep

        with SweepProgress(len(todo), console) as progress:
            tally = driver.sweep(todo, stories, results, options, progress.update)
    except KeyboardInterrupt:
        finished = sum(1 for r in results.rows.values() if not r.get("error"))
        _say(f"stopped: {_count(finished, 'finished run')} kept in {args.out}; the same command plays the rest")
        return EXIT_INTERRUPTED
    finally:
        if ours and driver.ray.is_initialized():
            driver.ray.shutdown()
        # A worker killed mid-run could not remove its scratch folders (the story's copy among them).
        from zorktui.core.scratch import sweep_orphans  # deferred: beside its one use

        for kind in ("sweep", "search-workers", "search-progress", "memory"):
            sweep_orphans(kind)
    _say(f"{_count(tally.done, 'run')} finished, {tally.failed} failed, in {time.monotonic() - begun:.1f} s")
    return EXIT_FAILED if tally.failed else 0


def _report(out: Path, results: Results, specs: list[RunSpec], console: Console) -> None:
    """The table per story and the score curves, on stdout."""
    from zorktui.sweep.report import curves, story_tables  # deferred: beside its one use

    stdout = Console()
    rows = list(results.rows.values())
    for table in story_tables(rows, specs):
        stdout.print(table)
    curves(out, rows, specs, stdout, _say)
    failed = [r for r in rows if r.get("error") and r["run"] in {s.name for s in specs}]
    for row in failed:
        _say(f"failed: {row['run']}: {row['error']}")

