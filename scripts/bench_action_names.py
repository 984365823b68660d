"""How valid actions are named, against TextWorld's own admissible commands.

For each TextWorld game given (a .z8 with its .json beside it, as ``tw-make``
writes them), the walkthrough is played and in every state before a step:

* string share: of TextWorld's world-changing admissible commands (looking
  and examining left out; "world-changing" by our state hash), the share
  whose text, lower-cased, is among our valid actions as we write them;
* recall by state: of the states those commands lead to, the share one of
  our valid actions leads to too (as tests/test_textworld.py measures it).

With ``--zork STORY`` (Zork I) the valid actions in the living room after
"move rug" are printed; ``--bundled`` prints the bundled game's valid actions
along its walkthrough (a few states), to read them as a person would.

    tw-make tw-cooking --recipe 3 --take 3 --go 9 --open --cook --cut --seed 123 --output /tmp/tw/cook123.z8 -f
    python scripts/bench_action_names.py /tmp/tw/cook123.z8 [...] [--zork /work/stories/zork1.z3] [--bundled]
    python scripts/bench_action_names.py --make 123,456,789 --out /tmp/tw   # generate, then measure
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Admissible commands that only look (as tests/test_textworld.py leaves them out).
LOOKING = re.compile(r"^(look|l|inventory|i|examine|x)\b")
#: The shape of the unseen games the figures in README.md come from.
COOKING = ["tw-cooking", "--recipe", "3", "--take", "3", "--go", "9", "--open", "--cook", "--cut"]


def make_games(seeds: list[int], out: Path) -> list[Path]:
    """Generate cooking games with ``tw-make`` (PYTHONHASHSEED=0 makes a seed reproducible)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        path = out / f"cook{seed}.z8"
        if not path.is_file() or not path.with_suffix(".json").is_file():
            env = dict(os.environ, PYTHONHASHSEED="0")
            subprocess.run(["tw-make", *COOKING, "--seed", str(seed), "--output", str(path), "-f", "--silent"],
                           check=True, env=env)
        paths.append(path)
    return paths


def textworld_states(path: Path) -> tuple[list[str], list[list[str]]]:
    """(walkthrough, admissible commands in each state before a step), from TextWorld's API."""
    import textworld

    infos = textworld.EnvInfos(admissible_commands=True, policy_commands=True, extras=["walkthrough"])
    env = textworld.start(str(path), request_infos=infos)
    try:
        state = env.reset()
        walkthrough = list(state.get("extra.walkthrough") or state["policy_commands"])
        admissible = [list(state["admissible_commands"])]
        for command in walkthrough:
            state, _score, _done = env.step(command)
            admissible.append(list(state["admissible_commands"]))
    finally:
        env.close()
    return walkthrough, admissible


def measure(path: Path, verbose: bool = False) -> tuple[float, float, int]:
    """(string share, mean recall by state, commands counted) along the game's walkthrough."""
    from zorktui.engine.game import Game

    walkthrough, admissible = textworld_states(path)
    game = Game(path)
    written = counted = 0
    recalls: list[float] = []
    try:
        for step, commands in zip(walkthrough, admissible, strict=False):
            before = game.current.state_hash
            ours = {a.lower() for a in game.valid_actions()}
            our_states = {game.peek(a).state_hash for a in ours}
            theirs: dict[str, str] = {}
            for command in commands:
                command = " ".join(command.lower().split())
                if LOOKING.match(command):
                    continue
                after = game.peek(command).state_hash
                if after != before:
                    theirs[command] = after
            counted += len(theirs)
            written += sum(c in ours for c in theirs)
            if theirs:
                states = set(theirs.values())
                recalls.append(len(states & our_states) / len(states))
            if verbose:
                missing = sorted(c for c in theirs if c not in ours)
                extra = sorted(a for a in ours if a not in theirs)
                unreached = sorted(c for c, after in theirs.items() if after not in our_states)
                print(f"  before {step!r}: not as written {missing}; ours only {extra}; states missed by {unreached}")
            game.step(step)
    finally:
        game.close()
    return written / max(1, counted), sum(recalls) / max(1, len(recalls)), counted


def extras(path: Path) -> tuple[int, list[str]]:
    """Along a TextWorld game's walkthrough, the listed actions that leave the world as it was when typed.

    Returns:
        (actions listed, those that changed nothing typed).
    """
    from zorktui.engine.game import Game

    walk, _admissible = textworld_states(path)
    game = Game(path)
    listed, idle = 0, []
    try:
        for step in walk:
            before = game.current.state_hash
            for action in game.valid_actions():
                listed += 1
                if game.peek(action).state_hash == before:
                    idle.append(action)
            game.step(step)
    finally:
        game.close()
    return listed, idle


def zork_trap_door(story: Path) -> tuple[str, ...]:
    """Zork I's valid actions in the living room after "move rug" (the way there is Zork's opening)."""
    from zorktui.engine.game import Game

    game = Game(story)
    try:
        for command in ["north", "east", "open window", "west", "west", "move rug"]:
            game.step(command)
        return game.valid_actions()
    finally:
        game.close()


def bundled(states: int) -> None:
    """Print the bundled game's valid actions in the first ``states`` states of its walkthrough."""
    from zorktui.engine.game import Game
    from zorktui.locations import bundled_story

    story = bundled_story()
    steps = [c.strip() for c in story.with_suffix(".walkthrough").read_text().splitlines()
             if c.strip() and not c.startswith("#")]
    game = Game(story)
    try:
        for command in [None, *steps[: states - 1]]:
            if command is not None:
                game.step(command)
            print(f"  after {command!r}: {', '.join(game.valid_actions())}")
    finally:
        game.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", type=Path, help="TextWorld .z8 files (with their .json)")
    parser.add_argument("--make", help="comma-separated seeds of cooking games to generate first")
    parser.add_argument("--out", type=Path, default=Path("/tmp/tw-names"), help="where --make writes games")
    parser.add_argument("--zork", type=Path, help="Zork I story file: print the living room's actions after 'move rug'")
    parser.add_argument("--bundled", action="store_true", help="print the bundled game's actions along its walkthrough")
    parser.add_argument("--states", type=int, default=12, help="states of the bundled game to print")
    parser.add_argument("-v", "--verbose", action="store_true", help="per state: commands not written as TextWorld writes them")
    parser.add_argument("--extras", action="store_true", help="also type every listed action: those that change nothing")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    games = list(args.games)
    if args.make:
        games += make_games([int(s) for s in args.make.split(",")], args.out)
    shares, recalls = [], []
    for path in games:
        share, recall, counted = measure(path, args.verbose)
        shares.append(share)
        recalls.append(recall)
        print(f"{path.name}: as TextWorld writes them {share:.0%} of {counted}, recall by state {recall:.3f}")
        if args.extras:
            listed, idle = extras(path)
            print(f"  listed {listed} along the walkthrough; unchanged when typed {len(idle)} {idle[:5]}")
    if len(games) > 1:
        print(f"mean: as written {sum(shares) / len(shares):.0%}, recall by state {sum(recalls) / len(recalls):.3f}")
    if args.zork:
        print(f"{args.zork.name}, living room after 'move rug': {', '.join(zork_trap_door(args.zork))}")
    if args.bundled:
        print("bundled game:")
        bundled(args.states)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
