#!/usr/bin/env python
"""How well the offline agents play: best score within N steps, normalised, and seconds per move.

Plays the bundled game and generated TextWorld games (treasure hunter,
cooking, coin collector; several seeds) with the MCTS planner, and with the
offline explorer as the baseline measured in the same run. No API key is
used. Usage::

    python scripts/bench_mcts.py                      # 100 steps, 2 s per move, every game
    python scripts/bench_mcts.py --steps 40 --time-per-move 1 --games bundled cooking:1
    python scripts/bench_mcts.py --sims 150 --seed 3  # reproducible budget

TextWorld games are generated with ``tw-make`` into ``.pytest_cache/d/twgames``
(the tests' cache), which takes a few seconds per game the first time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from zorktui.locations import bundled_story  # noqa: E402
from zorktui.session.factory import SessionOptions, build_session  # noqa: E402
from zorktui.session.session import StopRules  # noqa: E402

DEFAULT_GAMES = ["bundled"] + [f"{kind}:{seed}" for kind in ("treasure_hunter", "cooking", "coin_collector") for seed in (1, 2, 3)]


@dataclass
class Result:
    """One game played by one agent."""

    game: str
    agent: str
    best: int
    max_score: int
    steps_to_best: int
    steps: int
    seconds_per_move: float
    ended: str

    @property
    def normalised(self) -> float:
        return self.best / self.max_score if self.max_score else 0.0


def story_for(name: str) -> Path:
    """The story file for a game name ('bundled' or 'kind:seed', generated on demand)."""
    if name == "bundled":
        return Path(bundled_story())
    import twgames

    kind, _, seed = name.partition(":")
    cache = ROOT / ".pytest_cache" / "d" / "twgames"
    cache.mkdir(parents=True, exist_ok=True)
    return Path(twgames.make_game(kind, int(seed or 1), cache))


def play(name: str, agent: str, args: argparse.Namespace) -> Result:
    """Play one game for ``args.steps`` steps and report its best score."""
    options = SessionOptions(story=story_for(name), agent=agent, mode="autopilot", seed=args.seed,
                             sims=args.sims if agent == "mcts" else None,
                             time_per_move=args.time_per_move if agent == "mcts" and args.sims is None else None,
                             knowledge=False, stop=StopRules(steps=args.steps, on_loop=False))
    session = build_session(options).session
    start = time.perf_counter()
    try:
        reason = session.run_autopilot(args.steps)
    finally:
        session.close()
        session.game.close()
    elapsed = time.perf_counter() - start
    turns = session.log.turns
    scores = [t.score or 0 for t in turns]
    best = max(scores)
    return Result(name, agent, best, session.game.max_score or 0, scores.index(best), len(turns) - 1,
                  elapsed / max(1, len(turns) - 1), reason)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=DEFAULT_GAMES)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--time-per-move", type=float, default=2.0)
    parser.add_argument("--sims", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", nargs="+", default=["mcts", "explore"])
    args = parser.parse_args()
    budget = f"{args.sims} simulations" if args.sims else f"{args.time_per_move:g} s CPU"
    print(f"{args.steps} steps per game, planner budget {budget} per move, seed {args.seed}")
    print(f"{'game':<20} {'agent':<8} {'best':>9} {'norm':>5} {'at step':>7} {'s/move':>7}  stopped")
    results: list[Result] = []
    for name in args.games:
        for agent in args.agents:
            r = play(name, agent, args)
            results.append(r)
            print(f"{r.game:<20} {r.agent:<8} {r.best:>4}/{r.max_score:<4} {r.normalised:>5.2f} {r.steps_to_best:>7} "
                  f"{r.seconds_per_move:>7.2f}  {r.ended}", flush=True)
    print()
    for agent in args.agents:
        mine = [r for r in results if r.agent == agent]
        tw = [r for r in mine if r.game != "bundled"]
        line = f"{agent}: "
        if tw:
            line += f"TextWorld mean normalised {statistics.mean(r.normalised for r in tw):.2f} over {len(tw)} games; "
        bundled = [r for r in mine if r.game == "bundled"]
        if bundled:
            line += f"bundled {bundled[0].best}/{bundled[0].max_score}; "
        line += f"median s/move {statistics.median(r.seconds_per_move for r in mine):.2f}"
        print(line)


if __name__ == "__main__":
    main()
