#!/usr/bin/env python3
"""Regenerate expected.json for mini.z3 by replaying mini.walkthrough in jericho.

State is read straight from the Z-machine's dynamic memory (jericho's
get_state()[0]): globals 0/1/2 (room object, score, moves -- the V3 status
line globals) and the object tree (v3 layout: 31 default words, then 9-byte
entries).  jericho's own get_world_objects()/get_object() return nothing for
games it does not know, so the object table is decoded here.

Every step is cross-checked against the game's text: the V3 status line that
jericho prints at the start of the next observation (room, Score, Moves) and
the answer to an "inventory" command run on a saved copy of the state (the
state is then restored, so the extra command is not counted).

Usage:  python tests/data/zil/gen_expected.py [--check]
        --check: compare against the existing expected.json instead of writing.
"""
import hashlib
import json
import re
import sys
import warnings
from pathlib import Path

import jericho

HERE = Path(__file__).resolve().parent
STORY = HERE / "mini.z3"
WALKTHROUGH = HERE / "mini.walkthrough"
EXPECTED = HERE / "expected.json"
PLAYER_NAME = "yourself"
MAX_SCORE = 30

A0 = "abcdefghijklmnopqrstuvwxyz"
A1 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
A2 = " \n0123456789.,!?_#'\"/\\-:()"  # v3 A2 row, index 0 (zchar 6) = escape


def word(mem, addr):
    return (int(mem[addr]) << 8) | int(mem[addr + 1])


def zdecode(mem, addr, abbrev_ok=True):
    """Decode a v3 Z-string at addr (abbreviations supported)."""
    out, alpha, i = [], 0, addr
    zchars = []
    while True:
        w = word(mem, i)
        i += 2
        zchars += [(w >> 10) & 31, (w >> 5) & 31, w & 31]
        if w & 0x8000:
            break
    k = 0
    while k < len(zchars):
        c = zchars[k]
        if c == 0:
            out.append(" ")
        elif c in (1, 2, 3):
            if not abbrev_ok or k + 1 >= len(zchars):
                break
            idx = 32 * (c - 1) + zchars[k + 1]
            table = word(mem, 0x18)
            out.append(zdecode(mem, 2 * word(mem, table + 2 * idx), False))
            k += 1
        elif c == 4:
            alpha = 1
            k += 1
            continue
        elif c == 5:
            alpha = 2
            k += 1
            continue
        elif alpha == 2 and c == 6:
            if k + 2 < len(zchars):
                out.append(chr((zchars[k + 1] << 5) | zchars[k + 2]))
            k += 2
        elif alpha == 2 and c == 7:
            out.append("\n")
        else:
            out.append((A0, A1, A2)[alpha][c - 6])
        alpha = 0
        k += 1
    return "".join(out)


def read_objects(mem):
    """Return {num: dict(name, parent, sibling, child)} from the v3 object table."""
    base = word(mem, 0x0A) + 31 * 2
    objs, num, first_prop = {}, 1, None
    while True:
        e = base + 9 * (num - 1)
        if first_prop is not None and e >= first_prop:
            break
        prop = word(mem, e + 7)
        first_prop = prop if first_prop is None else min(first_prop, prop)
        name = zdecode(mem, prop + 1) if mem[prop] else ""
        objs[num] = dict(name=name, parent=int(mem[e + 4]),
                         sibling=int(mem[e + 5]), child=int(mem[e + 6]))
        num += 1
    return objs


def children(objs, parent):
    out, c = [], objs[parent]["child"]
    while c:
        out.append(c)
        c = objs[c]["sibling"]
    return out


def snapshot(env):
    mem = env.get_state()[0]
    g = word(mem, 0x0C)
    room, score, moves = (word(mem, g + 2 * n) for n in range(3))
    score = score - 0x10000 if score & 0x8000 else score
    objs = read_objects(mem)
    player = next(n for n, o in objs.items() if o["name"] == PLAYER_NAME)
    assert objs[player]["parent"] == room, (objs[player], room)
    return dict(room=objs[room]["name"], score=score, moves=moves,
                inventory=[objs[c]["name"] for c in children(objs, player)])


STATUS_RE = re.compile(r"^>\s*(.*?)\s+Score:\s*(-?\d+)\s+Moves:\s*(\d+)\s*$", re.M)


def text_check(env, snap):
    """Cross-check a snapshot against the game's own text output."""
    saved = env.get_state()
    obs, _, _, _ = env.step("inventory")
    env.set_state(saved)
    m = STATUS_RE.search(obs)
    assert m, obs
    status = (m.group(1), int(m.group(2)), int(m.group(3)))
    assert status == (snap["room"], snap["score"], snap["moves"]), (status, snap)
    if "empty-handed" in obs:
        listed = []
    else:
        listed = re.findall(r"^  a (.+?)\s*$", obs, re.M)
    assert listed == snap["inventory"], (listed, snap)


def main():
    warnings.simplefilter("ignore")
    commands = [ln.strip() for ln in WALKTHROUGH.read_text().splitlines()
                if ln.strip() and not ln.strip().startswith("#")]
    env = jericho.FrotzEnv(str(STORY), seed=0)
    env.reset()
    initial = snapshot(env)
    text_check(env, initial)
    steps = []
    for cmd in commands:
        env.step(cmd)
        snap = snapshot(env)
        text_check(env, snap)
        steps.append(dict(command=cmd, **snap))
    assert steps[-1]["score"] == MAX_SCORE, steps[-1]
    data = dict(
        story="mini.z3",
        md5=hashlib.md5(STORY.read_bytes()).hexdigest(),
        max_score=MAX_SCORE,
        initial=initial,
        steps=steps,
    )
    text = json.dumps(data, indent=1) + "\n"
    if "--check" in sys.argv:
        ok = EXPECTED.read_text() == text
        print("expected.json up to date" if ok else "expected.json DIFFERS")
        sys.exit(0 if ok else 1)
    EXPECTED.write_text(text)
    print(f"wrote {EXPECTED} ({len(steps)} steps, final score {steps[-1]['score']})")


if __name__ == "__main__":
    main()
