"""Write tests/data/any/expected.json: the ground truth for every command
file of the stories in this folder, found by playing them in jericho.

For each step: {"command", "dead", "done", "question", "score"}, and a
"note" where something happens. The flags come from reading the text each
story prints (the fragments below are our own stories' words; the engine
itself must not use them); the score is the story's own score global read
from memory, checked against the story's own "score" reply (asked on a
copy of the state at every main prompt) and against the final "scored N"
line where the story prints one.

    python tests/data/any/gen_expected.py           # (re)write expected.json
    python tests/data/any/gen_expected.py --check   # compare, write nothing
    python tests/data/any/gen_expected.py --show    # also print every reply
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import warnings
from pathlib import Path

from jericho import FrotzEnv

HERE = Path(__file__).resolve().parent
OUT = HERE / "expected.json"

# What each story's text means, in order of precedence. Each rule is
# (fragment, changes); the last rule that matches in a reply wins for each
# flag it sets. "question" is false unless a rule sets it; "dead" and
# "done" carry over from the step before while the story is still waiting
# on an answer or is over, and are otherwise false.
RULES = {
    "chalk": [
        ("a careless stride could find it", {"note": "in the dark: warned of a drop"}),
        ("the floor breaks off into a shaft", {"note": "lamp out: warned of a shaft"}),
        ("Another blind step here", {"note": "blind step refused with a warning"}),
        ("The shaft takes you", {"dead": True, "note": "fell down the shaft"}),
        ("Will you have it?", {"dead": True, "question": True,
                               "note": "the rock offers mending [Y/N]"}),
        ("Y or N, broken thing.", {"question": True, "note": "asked again"}),
        ("Bone knits to bone", {"dead": False, "done": False,
                                "note": "mended: a new life, 10 points off"}),
        ("Nothing stirs in the rock this time", {"note": "no second mending"}),
        ("*** Swallowed by the chalk ***", {"dead": True, "done": True, "question": True,
                                            "note": "the game ends after a fall"}),
        ("*** The warren gives up its last gleam ***", {"dead": False, "done": True,
                                                        "question": True,
                                                        "note": "won"}),
        ("The chalk waits on one of those three words.", {"question": True,
                                                          "note": "end prompt asks again"}),
        ("(aye or nay)", {"question": True, "note": "the mask asks aye or nay"}),
        ("The mask waits for aye or nay.", {"question": True, "note": "asked again"}),
        ("A seam opens in the floor", {"note": "aye: a stair opens"}),
        ("Leave the warren for good?", {"question": True, "note": "quit asks to confirm"}),
        ("Wind everything back to the first step?", {"question": True,
                                                     "note": "restart asks to confirm"}),
        ("a glass bead rolls", {"note": "nay: a bead instead"}),
    ],
    "bell": [
        ("The forge has taken its fee.", {"dead": True,
                                          "note": "scalded; a new life in the yard, 5 points off"}),
        ("your tale ends on them", {"dead": True, "done": True, "question": True,
                                    "note": "fell from the loft; asks AGAIN or stop"}),
        ("So be it.", {"done": True, "question": False, "note": "the story quits"}),
        ("A tiny test story for zorktui. Release 2.", {"dead": False, "done": False,
                                                       "question": False,
                                                       "note": "restarted"}),
        ("the tale rests here", {"dead": False, "done": True, "question": False,
                                 "note": "won; the story quits"}),
    ],
    "ferry": [
        ("Trust your weight to it?", {"question": True, "note": "the rope asks yes or no"}),
        ("The rope will hear only yes or no.", {"question": True, "note": "asked again"}),
        ("You let the rope go slack.", {"note": "no: the raft stays"}),
        ("Hand over hand you haul", {"note": "yes: across"}),
        ("Leave the river to itself?", {"question": True, "note": "quit asks to confirm"}),
        ("Back to the reeds and the first step?", {"question": True,
                                                   "note": "restart asks to confirm"}),
        ("*** The brown water keeps what it takes ***", {"dead": True, "done": True,
                                                         "question": True,
                                                         "note": "drowned; the story ends"}),
        ("*** Delivered, and not a drop on it ***", {"dead": False, "done": True,
                                                     "question": True, "note": "won"}),
    ],
}

STORIES = {
    "chalk": {
        "story": "chalk.z5",
        "title": "THE CHALK WARREN",
        "made_with": "Inform 6.41, library 6.12.6 (Debian)",
        "max_score": 70,
        "score_global": 18,   # the library's `score` (global variable 16 + 18)
        "files": ["chalk.walkthrough", "chalk_fall_end.cmds", "chalk_mend.cmds",
                  "chalk_second_fall.cmds", "chalk_mask.cmds", "chalk_meta.cmds"],
    },
    "bell": {
        "story": "bell.z3",
        "title": "CLAPPERLESS",
        "made_with": "zorkie 0.2.0 (ZIL)",
        "max_score": 30,
        "score_global": 1,    # SCORE, the v3 status-line score
        "files": ["bell.walkthrough", "bell_scald.cmds", "bell_leap.cmds",
                  "bell_leap_again.cmds"],
    },
    "ferry": {
        "story": "ferry.z8",
        "title": "Dry Parcel",
        "made_with": "Inform 7 6M62 (TextWorld's ni and inform6)",
        "max_score": 10,
        "score_global": 39,   # I6 `score` in the compiled I7 story
        "files": ["ferry.walkthrough", "ferry_dive.cmds", "ferry_rope.cmds",
                  "ferry_meta.cmds"],
    },
}

SCORE_REPLY = re.compile(r"(?:scored|Score) (-?\d+) (?:out of|of)")


def commands(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        cmd = line.split("#", 1)[0].strip()
        if cmd:
            out.append(cmd)
    return out


def read_global(env: FrotzEnv, index: int) -> int:
    ram = env._get_ram()
    base = int(ram[12]) * 256 + int(ram[13])
    addr = base + 2 * index
    value = int(ram[addr]) * 256 + int(ram[addr + 1])
    return value - 65536 if value >= 32768 else value


def asked_score(env: FrotzEnv) -> int | None:
    """The story's own reply to "score", on a copy of the state."""
    saved = env.get_state()
    reply, *_ = env.step("score")
    env.set_state(saved)
    found = SCORE_REPLY.findall(reply)
    return int(found[-1]) if found else None


def play(key: str, cmd_file: str, show: bool) -> dict:
    spec = STORIES[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = FrotzEnv(str(HERE / spec["story"]))
    opening, _ = env.reset()
    if show:
        print(f"\n##### {key} {cmd_file}\n{opening}")
    state = {"dead": False, "done": False, "question": False,
             "score": read_global(env, spec["score_global"])}
    initial = dict(state)
    steps = []
    for cmd in commands(HERE / cmd_file):
        reply, *_ = env.step(cmd)
        if show:
            print(f"=== > {cmd}\n{reply}")
        waiting = state["question"] or state["done"]
        new = {"command": cmd, "dead": state["dead"] and waiting,
               "done": state["done"], "question": False}
        notes = []
        for fragment, changes in RULES[key]:
            if fragment in reply:
                for flag, value in changes.items():
                    if flag == "note":
                        notes.append(value)
                    else:
                        new[flag] = value
        # When the story has ended and waits on its end prompt, every reply
        # there is that prompt again.
        if new["done"] and state["done"] and state["question"] and not notes:
            new["question"] = True
        score = read_global(env, spec["score_global"])
        if not new["question"] and not new["done"]:
            told = asked_score(env)
            if told != score:
                raise SystemExit(f"{key} {cmd_file} {cmd!r}: score global {score}, "
                                 f"but the story says {told}")
        for told in SCORE_REPLY.findall(reply):
            if int(told) != score:
                raise SystemExit(f"{key} {cmd_file} {cmd!r}: score global {score}, "
                                 f"but the reply says {told}")
        new["score"] = score
        if notes:
            new["note"] = "; ".join(notes)
        steps.append(new)
        state = new
    env.close()
    return {"initial": initial, "steps": steps}


def build(show: bool) -> dict:
    out = {
        "about": "Ground truth for the stories in tests/data/any, from "
                 "gen_expected.py (jericho). dead: the player died in this step "
                 "or is still dead (waiting on an offer of a new life, or the "
                 "story ended after the death); done: the story has ended; "
                 "question: the story is waiting on an answer read outside its "
                 "main parser (its own yes/no, a re-asked question, or the "
                 "prompt after the end); score: the story's score after the step.",
        "stories": {},
    }
    for key, spec in STORIES.items():
        data = (HERE / spec["story"]).read_bytes()
        out["stories"][key] = {
            "story": spec["story"],
            "title": spec["title"],
            "made_with": spec["made_with"],
            "version": data[0],
            "release": int.from_bytes(data[2:4], "big"),
            "serial": data[18:24].decode("ascii"),
            "md5": hashlib.md5(data).hexdigest(),
            "max_score": spec["max_score"],
            "runs": {name: play(key, name, show) for name in spec["files"]},
        }
    return out


def main(argv: list[str]) -> int:
    result = build("--show" in argv)
    text = json.dumps(result, indent=1) + "\n"
    if "--check" in argv:
        if OUT.read_text() != text:
            print("expected.json differs from a fresh run", file=sys.stderr)
            return 1
        print("ok: expected.json matches")
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
