"""A write that fails (a full disk, a file that may grow no more) stops `run` with one line and a non-zero exit.

The faults are real: Linux's ``/dev/full`` answers every write with ENOSPC,
and a file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored) makes a write fail
with EFBIG once the file reaches it, as a disk that fills in the middle of a
run does. The session folder stays resumable and replays.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from zorktui.record.trajectory import read_trajectory

ROOT = Path(__file__).resolve().parent.parent
#: Large enough for jericho's copy of its library (about 480 kB), small enough to fill in a run.
LIMIT = 520_000
COMMANDS = "look\nwait\n" * 400


def zorktui(*argv: str, limit: int | None = None, stdin: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    return subprocess.run([sys.executable, "-m", "zorktui", *argv], input=stdin, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})), preexec_fn=limited, timeout=600)


def one_error_line(done: subprocess.CompletedProcess[str], after: int = 0) -> str:
    """The one line the failure printed (after ``after`` lines of its own), with no traceback."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == after + 1, done.stderr
    return lines[-1]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_jsonl_to_a_full_device_is_one_line_and_exit_2() -> None:
    done = zorktui("run", "--jsonl", "/dev/full", "--agent", "explore", "--steps", "3")
    assert done.returncode == 2
    assert one_error_line(done) == ("zorktui: /dev/full: cannot write (No space left on device); "
                                    "play stops here, every turn before it is kept")


def test_a_jsonl_file_that_fills_during_the_run_stops_it(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    done = zorktui("run", "--jsonl", str(out), "--valid-actions", limit=LIMIT, stdin=COMMANDS)
    assert done.returncode == 2
    assert "cannot write (File too large)" in one_error_line(done)
    assert out.stat().st_size == LIMIT
    records = list(read_trajectory(out))  # the torn last line is left out
    assert len(records) > 10 and records[-1]["type"] == "turn"


def test_a_session_folder_on_a_disk_nearly_full_stops_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    # Kuzu, under the memory, aborts the process on a failed write: a session stops while room is left.
    # Asking for more room than any disk has makes this disk "nearly full" from the third record on.
    first = zorktui("run", "--session", str(folder), stdin="look\nwait\n")
    assert first.returncode == 0, first.stderr
    done = zorktui("run", "--session", str(folder), stdin=COMMANDS, env={"ZORKTUI_MIN_FREE_MB": str(2**40)})
    assert done.returncode == 2
    assert done.stderr.startswith(f"zorktui: resumed {folder} at turn 2\n")
    line = one_error_line(done, after=1)
    assert line.startswith(f"zorktui: {folder}: ") and "MB free on its disk, under the 1099511627776 MB" in line
    kept = [r for r in read_trajectory(folder / "trajectory.jsonl") if r.get("type") == "turn"]
    assert [r["command"] for r in kept] == [None, "look", "wait"]
    # Room again: the folder resumes where it stopped, and replays.
    again = zorktui("run", "--session", str(folder), stdin="look\ninventory\n")
    assert again.returncode == 0, again.stderr
    turns = [r for r in read_trajectory(folder / "trajectory.jsonl") if r.get("type") == "turn"]
    assert [r["command"] for r in turns] == [None, "look", "wait", "look", "inventory"]
    verified = zorktui("replay", str(folder), "--verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "identical world states" in verified.stdout
