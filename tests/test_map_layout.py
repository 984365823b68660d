"""The map as ``zorktui map`` draws it on real walks: whole names, walked ways solid, no way dropped.

Each story's walk is played with ``zorktui run --commands --session`` and its map
printed with ``zorktui map``, as a person would; the drawing is compared with the
one kept in ``tests/data/maps/`` (``ZORKTUI_UPDATE_MAPS=1`` writes them anew).
Zork II (the zorkie build, not in the repository) is drawn when ``ZORKTUI_ZORK2``
names its story file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from paths import BUNDLED, BUNDLED_WALKTHROUGH, ROOT

MAPS = ROOT / "tests" / "data" / "maps"
STORIES = {
    "lighthouse": (BUNDLED, BUNDLED_WALKTHROUGH),
    "chalk": (ROOT / "tests" / "data" / "any" / "chalk.z5", ROOT / "tests" / "data" / "any" / "chalk.walkthrough"),
    "zork2": (Path(os.environ.get("ZORKTUI_ZORK2", "/nonexistent/zork2.z3")), MAPS / "zork2.cmds"),
}


def _zorktui(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "zorktui", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", list(STORIES))
def test_the_map_of_a_walk(name: str, tmp_path: Path) -> None:
    story, walk = STORIES[name]
    if not story.exists():
        pytest.skip(f"{story} is not here (ZORKTUI_ZORK2 names the zorkie build of Zork II)")
    _zorktui("run", str(story), "--commands", str(walk), "--seed", "1", "--session", str(tmp_path / "s"), cwd=tmp_path)
    drawn = _zorktui("map", str(tmp_path / "s"), cwd=tmp_path)
    rooms = _zorktui("map", str(tmp_path / "s"), "--json", cwd=tmp_path)
    model = json.loads(rooms)
    body = drawn.rstrip("\n").rsplit("\n", 1)[0]  # the legend, last, names every mark: left out
    drawing, _, listed = body.partition("Ways not drawn on the grid:")
    # Whole names: every word of every room's name is in the drawing, and nothing is cut short.
    assert "…" not in drawn
    for room in model["rooms"]:
        assert all(word in drawing for word in room["name"].split()), room["name"]
    # No way dropped: each link is drawn or listed under the drawing.
    for link in model["links"]:
        if not link["grid"]:
            assert f"--{link['direction']}-->" in listed, link
    # A way only the look-ahead saw is drawn dotted, never as a walked one.
    seen_only = [link for link in model["links"] if link["grid"] and not link["walked"]]
    assert bool(seen_only) == any(ch in drawing for ch in "┈┊·"), seen_only
    kept = MAPS / f"{name}.txt"
    if os.environ.get("ZORKTUI_UPDATE_MAPS") == "1" or not kept.exists():
        kept.write_text(drawn)
    assert drawn == kept.read_text(), f"the map of {name} changed; ZORKTUI_UPDATE_MAPS=1 keeps the new one"
