#!/usr/bin/env python
"""How well the offline agents play: best score within N steps, and seconds per move.

Plays each game with the MCTS planner and, as the baseline measured in the
same run, with the offline explorer, for several seeds; prints every run and
then a table per game (median and range of the best score). No API key is
used. A game is a story file's path, ``bundled``, or ``KIND:SEED`` for a
generated TextWorld game (treasure_hunter, coin_collector, cooking: 2 ingredients
in 6 rooms, cooking9: 3 ingredients in 9 rooms). Usage::

    python scripts/bench_mcts.py                                  # the bundled game and twelve TextWorld games
    python scripts/bench_mcts.py zork1.z3 zork2.z3 --seeds 1,2,3 --jobs 2
    python scripts/bench_mcts.py bundled --agents mcts --sims 150  # a reproducible budget
    python scripts/bench_mcts.py zork1.z3 --agents mcts --trace traces/   # one JSON line per move
    python scripts/bench_mcts.py tests/data/any/chalk.z5 --json runs.jsonl  # every run as JSON too

Each run prints the best score, the step it was reached, seconds a move, the
distinct rooms stood in and the deaths (turns the engine read as ``dead``).

With ``--trace DIR`` each planner run writes ``DIR/GAME-seedN.jsonl``: per
move the command played, who chose it (a line to points or the explorer),
and the root's actions with their visits, values and priors. TextWorld games
are generated with ``tw-make`` into ``.pytest_cache/d/twgames`` (the tests'
cache), which takes a few seconds per game the first time.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from zorktui.locations import bundled_story  # noqa: E402
from zorktui.session.events import ErrorEvent, Event, TurnDone  # noqa: E402
from zorktui.session.factory import SessionOptions, build_session  # noqa: E402
from zorktui.session.session import StopRules  # noqa: E402

TEXTWORLD = [f"{kind}:{seed}" for kind in ("treasure_hunter", "coin_collector", "cooking", "cooking9")
             for seed in (1, 2, 3)]


@dataclass
class Result:
    """One game played by one agent from one seed."""

    game: str
    agent: str
    seed: int
    best: int
    max_score: int
    steps_to_best: int
    steps: int
    seconds_per_move: float
    ended: str
    deaths: int = 0
    rooms: int = 0
    start: int = 0
    #: What went wrong in play, as the session reported it (the agent's failures), one line each.
    errors: list[str] = dataclasses.field(default_factory=list)

    @property
    def normalised(self) -> float:
        return self.best / self.max_score if self.max_score else 0.0


def label(game: str) -> str:
    """A short name for a game (a story file's stem)."""
    return Path(game).stem if Path(game).suffix else game


def story_for(name: str) -> Path:
    """The story file for a game name (a path, 'bundled', or 'kind:seed' generated on demand)."""
    if name == "bundled":
        return Path(bundled_story())
    if Path(name).suffix and ":" not in name:
        return Path(name)
    import twgames

    kind, _, seed = name.partition(":")
    cache = ROOT / ".pytest_cache" / "d" / "twgames"
    cache.mkdir(parents=True, exist_ok=True)
    return Path(twgames.make_game(kind, int(seed or 1), cache))


def play(name: str, agent: str, seed: int, args: argparse.Namespace) -> Result:
    """Play one game for ``args.steps`` steps and report its best score."""
    options = SessionOptions(story=story_for(name), agent=agent, mode="autopilot", seed=seed,
                             sims=args.sims if agent == "mcts" else None,
                             time_per_move=args.time_per_move if agent == "mcts" and args.sims is None else None,
                             knowledge=False, stop=StopRules(steps=args.steps, on_loop=False),
                             model=args.model, base_url=args.base_url, model_from_env=False)
    session = build_session(options).session
    errors: list[str] = []
    session.subscribe(lambda event: errors.append(event.message) if isinstance(event, ErrorEvent) else None)
    trace = None
    if args.trace and agent == "mcts":
        Path(args.trace).mkdir(parents=True, exist_ok=True)
        trace = (Path(args.trace) / f"{label(name)}-seed{seed}.jsonl").open("w")
        planner = session.agent

        def traced(event: Event) -> None:
            if isinstance(event, TurnDone) and event.actor == "agent":
                turn = event.turn
                record = {"move": turn.turn, "command": turn.command, "score": turn.score,
                          "at": round(time.perf_counter() - start, 3),
                          "room": turn.location.name if turn.location else None, **planner.report.trace()}
                trace.write(json.dumps(record) + "\n")
        session.subscribe(traced)
    start = time.perf_counter()
    try:
        reason = session.autopilot.run(args.steps)
    finally:
        session.close()
        session.game.close()
        if trace is not None:
            trace.close()
    elapsed = time.perf_counter() - start
    turns = session.log.turns
    scores = [t.score or 0 for t in turns]
    best = max(scores)
    rooms = len({t.location.id for t in turns if t.location is not None})
    return Result(label(name), agent, seed, best, session.game.max_score or 0, scores.index(best), len(turns) - 1,
                  elapsed / max(1, len(turns) - 1), reason, deaths=sum(t.dead for t in turns[1:]), rooms=rooms,
                  start=scores[0], errors=errors)


def _run(job: tuple[str, str, int, argparse.Namespace]) -> Result:
    return play(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="story files, 'bundled' or KIND:SEED (default: bundled + TextWorld)")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--time-per-move", type=float, default=2.0)
    parser.add_argument("--sims", type=int, default=None)
    parser.add_argument("--seeds", default="1", help="comma-separated game seeds (default 1)")
    parser.add_argument("--agents", default="mcts,explore", help="comma-separated agents (default mcts,explore)")
    parser.add_argument("--jobs", type=int, default=1, help="runs played at once (each its own process)")
    parser.add_argument("--trace", metavar="DIR", help="write each planner run's per-move search to DIR")
    parser.add_argument("--json", metavar="FILE", help="append every run as one JSON line to FILE")
    parser.add_argument("--model", help="the planner's LLM prior from this model (default: none, whatever the "
                                        "environment or config.toml say)")
    parser.add_argument("--base-url", help="with --model: the OpenAI-compatible endpoint")
    args = parser.parse_args()
    games = args.games or ["bundled", *TEXTWORLD]
    seeds = [int(s) for s in args.seeds.split(",")]
    agents = args.agents.split(",")
    budget = f"{args.sims} simulations" if args.sims else f"{args.time_per_move:g} s"
    print(f"{args.steps} steps per game, planner budget {budget} per move, seeds {args.seeds}, "
          f"model: {args.model or 'none'}")
    print(f"{'game':<22} {'agent':<8} {'seed':>4} {'best':>9} {'norm':>5} {'at step':>7} {'s/move':>7} "
          f"{'rooms':>5} {'deaths':>6}  stopped")
    jobs = [(g, a, s, args) for g in games for s in seeds for a in agents]
    results: list[Result] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(_run, jobs):
            results.append(r)
            print(f"{r.game:<22} {r.agent:<8} {r.seed:>4} {r.best:>4}/{r.max_score:<4} {r.normalised:>5.2f} "
                  f"{r.steps_to_best:>7} {r.seconds_per_move:>7.2f} {r.rooms:>5} {r.deaths:>6}  {r.ended}", flush=True)
            for error in r.errors:
                print(f"    error: {error}", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps({**dataclasses.asdict(r), "steps_asked": args.steps, "budget": budget,
                                          "model": args.model,
                                          "when": time.strftime("%Y-%m-%dT%H:%M:%S")}) + "\n")
    print(f"\n| game | {' | '.join(agents)} |\n|---|{'---|' * len(agents)}")
    for game in dict.fromkeys(r.game for r in results):
        cells = []
        for agent in agents:
            bests = sorted(r.best for r in results if r.game == game and r.agent == agent)
            top = next(r.max_score for r in results if r.game == game)
            cells.append(f"{statistics.median(bests):g} ({bests[0]}-{bests[-1]}) of {top}")
        print(f"| {game} | {' | '.join(cells)} |")
    print()
    for agent in agents:
        mine = [r for r in results if r.agent == agent]
        tw = [r for r in mine if ":" in r.game]
        line = f"{agent}: "
        if tw:
            line += f"TextWorld mean normalised {statistics.mean(r.normalised for r in tw):.2f} over {len(tw)} runs; "
        line += f"median s/move {statistics.median(r.seconds_per_move for r in mine):.2f}"
        print(line)


if __name__ == "__main__":
    main()
