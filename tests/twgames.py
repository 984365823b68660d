"""Helpers to generate small TextWorld games (Z-machine .z8) and their ground truth.

Used by tests that check zorktui's engine against TextWorld's own model of a game
(max score, walkthrough, score after each step, admissible commands).

    from tests.twgames import TW_AVAILABLE, make_game, ground_truth
    path = make_game("cooking", seed=1, out_dir=tmp_dir)   # ~3 s first time, cached after
    gt = ground_truth(path)                                # ~0.2-0.4 s

Notes (details in tests/conftest_tw_notes.md):
* Generation shells out to ``tw-make`` with PYTHONHASHSEED=0.  Without a fixed hash seed
  ``tw-cooking`` is NOT deterministic for a given --seed (set iteration order leaks into
  the generated Inform 7 source).  That is also why the in-process Python API is not used:
  the test process's hash seed cannot be changed after start-up.
* tw-make writes three files: X.z8, X.json (TextWorld game metadata, needed by
  ``textworld.start`` for max_score/admissible/walkthrough) and X.ni (Inform 7 source).
  Keep them together.
* The .z8 header serial is the compile date (YYMMDD), so the bytes differ between days
  even though the game is otherwise identical.  Do not pin file hashes.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

# Inform 7 (6M62, the compiler bundled with textworld) global-variable indices, verified on
# every TextWorld game type (treasure_hunter, coin_collector, cooking, custom, simple).
# Global N is the big-endian word at globals_table_addr + 2*N (table addr = header word 0x0C).
I7_GLOBAL_LOCATION = 13  # I6 `location` (object number of the current room)
I7_GLOBAL_SLINE1 = 14    # copy of score, refreshed at each prompt (Keyboard())
I7_GLOBAL_SLINE2 = 15    # copy of turns, refreshed at each prompt (Keyboard())
I7_GLOBAL_TURNS = 36     # I6 `turns` == I7 "turn count"; starts at 1; status-line right number
I7_GLOBAL_SCORE = 39     # I6 `score` == I7 "score"
I7_GLOBAL_LAST_SCORE = 40  # I6 `last_score`

# kind -> tw-make arguments (besides --seed/--output).  Kept small: each game generates in
# ~2-3.5 s and plays its walkthrough in well under a second.
KINDS: dict[str, list[str]] = {
    # 3-4 rooms, walkthrough ~3 steps, max_score 1.
    "treasure_hunter": ["tw-treasure_hunter", "--level", "5"],
    # walkthrough ~5 "go" steps + "take coin", max_score 1.
    "coin_collector": ["tw-coin_collector", "--level", "5"],
    # 6 rooms, 2 ingredients to find, open/cook/cut; walkthrough ~17 steps, max_score ~8.
    "cooking": ["tw-cooking", "--recipe", "2", "--take", "2", "--go", "6",
                "--open", "--cook", "--cut"],
    # 9 rooms, 3 ingredients to find, open/cook/cut: the planner's benchmark of a longer recipe.
    "cooking9": ["tw-cooking", "--recipe", "3", "--take", "3", "--go", "9",
                 "--open", "--cook", "--cut"],
    # 4 rooms, >=6 objects, 4-action quest, max_score 1.
    "custom": ["custom", "--world-size", "4", "--nb-objects", "6", "--quest-length", "4"],
    # 6 rooms, 14 objects, 6-action quest: the shape of docs/benchmarks.md's custom games.
    "custom6": ["custom", "--world-size", "6", "--nb-objects", "14", "--quest-length", "6"],
    # TextWorld's house with furniture: a living room with a tv (a two-letter name).
    "simple": ["tw-simple", "--rewards", "balanced", "--goal", "brief"],
    # One room and no exit open at the start: no walk shows which global holds the room.
    "one_room": ["custom", "--world-size", "1", "--nb-objects", "6", "--quest-length", "3"],
}

GEN_TIMEOUT = 300  # seconds; a generation normally takes 2-4 s


def _tw_make_cmd() -> list[str] | None:
    """Command prefix that runs tw-make with the same interpreter as the tests, if possible."""
    cand = pathlib.Path(sys.executable).parent / "tw-make"
    if cand.is_file():
        return [sys.executable, str(cand)]
    found = shutil.which("tw-make")
    return [found] if found else None


def _check_available() -> bool:
    if importlib.util.find_spec("textworld") is None or importlib.util.find_spec("jericho") is None:
        return False
    cmd = _tw_make_cmd()
    if cmd is None:
        return False
    try:
        res = subprocess.run(cmd + ["--help"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return False
    return res.returncode == 0 and "tw-cooking" in res.stdout


TW_AVAILABLE: bool = _check_available()


def _subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"  # required for deterministic tw-cooking output
    return env


def make_game(kind: str, seed: int, out_dir: pathlib.Path) -> pathlib.Path:
    """Generate (or reuse) a small TextWorld game; return the path of its .z8 file.

    The game is written as out_dir/tw_<kind>_s<seed>.{z8,json,ni}; if the .z8 and .json
    already exist they are reused, so a session- or cache-scoped out_dir avoids regenerating.
    Safe against concurrent callers (generation happens in a temp dir, then files are
    renamed into place, .z8 last).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {sorted(KINDS)}")
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"tw_{kind}_s{int(seed)}"
    z8 = out_dir / f"{stem}.z8"
    js = out_dir / f"{stem}.json"
    if z8.is_file() and js.is_file():
        return z8

    cmd = _tw_make_cmd()
    if cmd is None:
        raise RuntimeError("tw-make not found (pip install textworld)")
    with tempfile.TemporaryDirectory(prefix=f".{stem}-", dir=out_dir) as tmp:
        tmp_z8 = pathlib.Path(tmp) / f"{stem}.z8"
        args = cmd + KINDS[kind] + ["--seed", str(int(seed)), "--output", str(tmp_z8),
                                    "--format", "z8", "-f", "--silent"]
        res = subprocess.run(args, capture_output=True, text=True, timeout=GEN_TIMEOUT,
                             env=_subprocess_env())
        if res.returncode != 0 or not tmp_z8.is_file():
            raise RuntimeError(f"tw-make failed ({res.returncode}): {' '.join(args)}\n"
                               f"stdout:\n{res.stdout[-2000:]}\nstderr:\n{res.stderr[-4000:]}")
        for ext in (".ni", ".json", ".z8"):  # .z8 last: its presence marks a complete set
            src = tmp_z8.with_suffix(ext)
            if src.is_file():
                os.replace(src, out_dir / f"{stem}{ext}")
    return z8


@functools.lru_cache(maxsize=64)
def _ground_truth_cached(path: str, mtime_ns: int) -> dict:
    import warnings

    import textworld

    infos = textworld.EnvInfos(max_score=True, admissible_commands=True, policy_commands=True,
                               won=True, lost=True, score=True, moves=True, facts=True,
                               extras=["walkthrough"])
    env = textworld.start(path, request_infos=infos)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state = env.reset()
            if state.get("max_score") is None:
                raise RuntimeError(f"{path}: no TextWorld metadata (is the .json next to the .z8?)")
            walkthrough = state.get("extra.walkthrough") or list(state["policy_commands"])
            policy0 = list(state["policy_commands"])
            admissible = [sorted(state["admissible_commands"])]
            held, here = [_held(state["facts"])], [_on_the_floor(state["facts"])]
            scores: list[int] = []
            moves: list[int] = []
            won = lost = False
            for cmd in walkthrough:
                state, score, done = env.step(cmd)
                scores.append(int(score))
                moves.append(int(state["moves"]))
                admissible.append(sorted(state["admissible_commands"]))
                held.append(_held(state["facts"]))
                here.append(_on_the_floor(state["facts"]))
                won, lost = bool(state["won"]), bool(state["lost"])
    finally:
        env.close()
    return {
        "max_score": int(state["max_score"]),
        "walkthrough": list(walkthrough),
        "scores": scores,  # score after each walkthrough step
        "won_after_walkthrough": won,
        "lost_after_walkthrough": lost,
        "admissible": admissible,  # [initial state, after step 1, ...]
        "held": held,  # names of the things carried, per state like "admissible"
        "here": here,  # names of the things directly in the player's room, per state
        # Extras. `moves` is TextWorld's count of recognised game actions (its state tracker),
        # NOT the Inform 7 turn counter: I7 turn count / status-line number == moves + 1 while
        # playing the walkthrough (it starts at 1).
        "moves": moves,
        "policy_commands": policy0,  # TW's shortest winning policy from the initial state
    }


def _held(facts) -> list[str]:
    """Names of the objects the player carries, from TextWorld's propositions."""
    return sorted(f.arguments[0].name for f in facts if f.name == "in" and f.arguments[1].name == "I")


def _on_the_floor(facts) -> list[str]:
    """Names of the objects and furniture directly in the player's room (not the player, not doors)."""
    rooms = [f.arguments[1].name for f in facts if f.name == "at" and f.arguments[0].name == "P"]
    return sorted(f.arguments[0].name for f in facts
                  if f.name == "at" and rooms and f.arguments[1].name == rooms[0] and f.arguments[0].name != "P")


def ground_truth(path) -> dict:
    """Ground truth for a TextWorld game, from TextWorld's own API (needs the .json sidecar).

    Returns {"max_score", "walkthrough", "scores", "won_after_walkthrough", "admissible",
    plus "held", "here", "lost_after_walkthrough", "moves", "policy_commands"}.  len(scores) == len(walkthrough),
    len(admissible) == len(walkthrough) + 1.  Do not mutate the returned dict (it is cached).
    """
    p = pathlib.Path(path).resolve()
    return _ground_truth_cached(str(p), p.stat().st_mtime_ns)


if __name__ == "__main__":  # python tests/twgames.py [out_dir] -- smoke test / timing
    import json
    import time

    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="twgames-"))
    print("TW_AVAILABLE", TW_AVAILABLE, "->", out)
    for k in KINDS:
        t0 = time.time()
        g = make_game(k, 1, out)
        t1 = time.time()
        gt = ground_truth(g)
        t2 = time.time()
        print(f"{k}: gen {t1 - t0:.2f}s, ground truth {t2 - t1:.2f}s")
        print(json.dumps({key: v for key, v in gt.items() if key != "admissible"}))
        print("  admissible[0]:", gt["admissible"][0])
