"""The command line, run as a user would: exit codes, one-line errors, JSONL records."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paths import BUNDLED_WALKTHROUGH, ZIL, ZIL_WALKTHROUGH
from zorktui import __version__

FIELDS = {"type", "turn", "time", "actor", "command", "observation", "score", "moves", "reward",
          "location", "inventory", "done", "victory", "state_hash"}


def zorktui(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zorktui", *args], input=stdin, capture_output=True, text=True, timeout=300)


def test_version() -> None:
    r = zorktui("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"zorktui {__version__}"


def test_run_writes_trajectory(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    r = zorktui("run", "--commands", str(BUNDLED_WALKTHROUGH), "--jsonl", str(out))
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    header, opening, turns = records[0], records[1], records[2:]
    assert header["type"] == "session" and header["schema"] == 1
    assert set(header["story"]) >= {"path", "md5", "version", "release", "serial", "title"}
    assert opening["turn"] == 0 and opening["command"] is None and opening["actor"] == "game"
    assert all(FIELDS <= set(t) for t in turns)
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    assert turns[-1]["score"] == 70 and turns[-1]["victory"] and turns[-1]["done"]
    assert turns[-1]["location"] == {"id": turns[-1]["location"]["id"], "name": "Lamp Room"}


def test_run_transcript_and_valid_actions(tmp_path: Path) -> None:
    script = tmp_path / "cmds.txt"
    script.write_text("# a comment\n\ntake wick\n\nnorth\n")
    r = zorktui("run", str(ZIL), "--commands", str(script))
    assert r.returncode == 0 and "> take wick" in r.stdout and "Lighthouse Base" in r.stdout
    out = tmp_path / "v.jsonl"
    r = zorktui("run", str(ZIL), "--commands", str(script), "--jsonl", str(out), "--valid-actions")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["command"] for r in records[2:]] == ["take wick", "north"]
    assert all(isinstance(r["valid_actions"], list) and r["valid_actions_ms"] >= 0 for r in records[1:])
    assert "up" in records[-1]["valid_actions"]
    # The same file named again holds the new run only, not two sessions one after the other.
    zorktui("run", str(ZIL), "--commands", str(script), "--jsonl", str(out))
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["type"] for r in again].count("session") == 1 and len(again) == len(records)


def test_commands_from_stdin() -> None:
    r = zorktui("run", str(ZIL), stdin="take wick\n")
    assert r.returncode == 0 and "You take the cotton wick." in r.stdout


@pytest.mark.parametrize("args", [
    ["run", "/no/such/story.z5"],
    ["run", "."],
    ["run", str(ZIL_WALKTHROUGH)],
    ["run", "--no-such-flag"],
    ["run", str(ZIL), "--commands", "/no/such/file"],
    ["run", str(ZIL), "--seed", "0"],
])
def test_bad_input_exits_2_with_one_line(args: list[str]) -> None:
    r = zorktui(*args)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_play_in_the_terminal_reads_commands(tmp_path: Path) -> None:
    done = zorktui("play", "--session", str(tmp_path / "s"), stdin="north\n")
    assert done.returncode == 0, done.stderr
    assert "Shingle Path" in done.stdout and (tmp_path / "s" / "trajectory.jsonl").exists()
