"""Memory benchmark: ingest per turn and question latency at 5,000 turns; headless turn cost with memory.

Prints medians, means and 95th percentiles measured in one run, with the
same work done without memory as the baseline.

    python scripts/bench_memory.py [--turns 5000] [--script 1500] [--seed 7]

Turns come from playing the bundled game: its walkthrough, then a seeded
random walk of movement, taking, dropping, examining and looking (a turn
that ends the game is undone and replaced).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zorktui.core.turn import Turn  # noqa: E402
from zorktui.engine.directions import COMMON  # noqa: E402
from zorktui.engine.game import Game  # noqa: E402
from zorktui.locations import bundled_story  # noqa: E402
from zorktui.memory.graph import Memory  # noqa: E402
from zorktui.memory.questions import ask  # noqa: E402

WALKTHROUGH = ROOT / "zorktui" / "stories" / "lighthouse.walkthrough"


def walkthrough() -> list[str]:
    """The bundled game's winning commands, without the final one (the game must go on)."""
    lines = [c.strip() for c in WALKTHROUGH.read_text().splitlines() if c.strip() and not c.startswith("#")]
    return lines[:-1]


def play(n: int, seed: int) -> tuple[Game, list[Turn]]:
    """Play ``n`` turns; returns the game (at the last turn) and the turns, opening first."""
    rng = random.Random(seed)
    game = Game(bundled_story())
    turns = [game.current]
    script = walkthrough()
    while len(turns) <= n:
        here = turns[-1]
        if len(turns) <= len(script):
            command = script[len(turns) - 1]
        else:
            roll = rng.random()
            names = [o.name.split()[-1] for o in here.visible if o.name] or ["me"]
            carried = [o.name.split()[-1] for o in here.inventory if o.name]
            if roll < 0.55:
                command = rng.choice(COMMON)
            elif roll < 0.65:
                command = f"take {rng.choice(names)}"
            elif roll < 0.72 and carried:
                command = f"drop {rng.choice(carried)}"
            elif roll < 0.85:
                command = f"examine {rng.choice(names)}"
            else:
                command = rng.choice(["look", "inventory", "wait", "open door", "light lantern"])
        turn = game.step(command)
        if turn.done:
            game.undo(1)
            continue
        turns.append(turn)
    return game, turns


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def line(label: str, values: list[float]) -> str:
    """A row of figures in milliseconds."""
    return (f"{label:<34} median {statistics.median(values):7.3f}  mean {statistics.mean(values):7.3f}"
            f"  p95 {pct(values, 95):7.3f}  max {max(values):8.3f} ms")


def bench_ingest(turns: list[Turn], vocabulary: Callable[[int], list[str]], batch_turns: int,
                 folder: Path) -> tuple[list[float], Memory]:
    """Milliseconds per ``Memory.ingest`` (the batch writes included where they fall)."""
    memory = Memory(folder, vocabulary=vocabulary, batch_turns=batch_turns)
    out = []
    for turn in turns:
        t = time.perf_counter()
        memory.ingest(turn, actor="game" if turn.turn == 0 else "script")
        out.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    memory.flush()
    out[-1] += (time.perf_counter() - t) * 1000
    return out, memory


QUESTIONS = [
    "where am i", "what do i have", "where is the lantern", "where is lamp", "where is the key",
    "exits", "exits from cottage kitchen", "unexplored exits", "path to landing stage",
    "what happened with nessa", "search key", "rooms",
]


def bench_questions(memory: Memory, last: int, seed: int, rounds: int) -> dict[str, list[float]]:
    """Milliseconds per question, now and as of random earlier turns."""
    rng = random.Random(seed)
    out: dict[str, list[float]] = {}
    for question in QUESTIONS:
        ask(memory, question)  # first call prepares the statements
    for _ in range(rounds):
        for question in QUESTIONS:
            as_of = None if rng.random() < 0.5 else rng.randrange(0, last + 1)
            t = time.perf_counter()
            answer = ask(memory, question, as_of)
            out.setdefault(question, []).append((time.perf_counter() - t) * 1000)
            assert answer.understood
    return out


def bench_headless(commands: list[str], folder: Path) -> dict[str, float]:
    """Mean ms per turn of the headless runner: no recording, JSONL only, and a session with memory."""
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.session.headless import output_for, play_script

    class Null:
        def write(self, _: str) -> int:
            return 0

        def flush(self) -> None:
            pass

    out = {}
    for label, session_dir, jsonl in (
        ("step only (transcript to null)", None, None),
        ("jsonl trajectory", None, folder / "t.jsonl"),
        ("session: trajectory + memory", folder / "session", None),
    ):
        session = build_session(SessionOptions(session=session_dir, mode="script")).session
        output = output_for(session, jsonl, out=Null())  # type: ignore[arg-type]
        t = time.perf_counter()
        play_script(session, commands)
        out[label] = (time.perf_counter() - t) * 1000 / len(commands)
        output.close()
        session.close()
        session.game.close()
    return out


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=5000)
    parser.add_argument("--script", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()

    t = time.perf_counter()
    game, turns = play(args.turns, args.seed)
    print(f"played {len(turns) - 1} turns of the bundled game in {time.perf_counter() - t:.1f} s"
          f" ({len({x.location.id for x in turns if x.location})} rooms)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        batched, memory = bench_ingest(turns, game.zm.object_vocabulary, 32, root / "batched")
        single, single_memory = bench_ingest(turns, game.zm.object_vocabulary, 1, root / "single")
        single_memory.close()
        print(f"\nIngest, {len(turns)} turns")
        print(line("batched (32 turns per write)", batched))
        print(line("one transaction per turn", single))
        print(f"{'ratio batched/per-turn (mean)':<34} {statistics.mean(batched) / statistics.mean(single):.2f}")
        counts = memory.store.rows("MATCH ()-[f:Fact]->() RETURN count(*)")[0][0], memory.store.rows(
            "MATCH ()-[m:Mentions]->() RETURN count(*)")[0][0]
        print(f"graph: {counts[0]} facts, {counts[1]} mentions, {len(memory.mirror.entities)} entities")

        timings = bench_questions(memory, memory.last_turn, args.seed, args.rounds)
        every = [v for values in timings.values() for v in values]
        print(f"\nQuestions at {memory.last_turn} turns ({args.rounds} rounds, half now, half as of a random turn)")
        for question, values in timings.items():
            print(line(question, values))
        print(line("all questions", every))
        memory.close()

        script = [t.command for t in turns[1:args.script + 1] if t.command]
        timings_h = bench_headless(script, root)
        print(f"\nHeadless runner, {len(script)} commands (mean ms per turn, whole run)")
        base = timings_h["step only (transcript to null)"]
        for label, value in timings_h.items():
            print(f"{label:<34} {value:7.3f} ms  ({value / base:.2f}x step only)")


if __name__ == "__main__":
    main()
