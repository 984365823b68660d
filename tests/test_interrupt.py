"""ctrl+c (SIGINT) ends a command with one line that says where its turns are, status 130, no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from zorktui.record.trajectory import read_trajectory

ROOT = Path(__file__).resolve().parent.parent


def interrupted(argv: list[str], after_lines: int) -> tuple[int, str]:
    """Run zorktui, send SIGINT once it has printed ``after_lines`` status lines; (status, stderr)."""
    child = subprocess.Popen([sys.executable, "-m", "zorktui", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert child.stdout is not None and child.stderr is not None
    seen = 0
    for line in child.stdout:
        if line.startswith("[") and "| moves" in line:
            seen += 1
            if seen >= after_lines:
                break
    child.send_signal(signal.SIGINT)
    child.stdout.read()
    err = child.stderr.read()
    return child.wait(timeout=60), err


def test_ctrl_c_during_run_says_where_the_session_is(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    status, err = interrupted(["run", "--session", str(folder), "--agent", "mcts", "--steps", "500"], after_lines=3)
    assert status == 130
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("zorktui: interrupted at turn ")
    assert lines[0].endswith(f"every turn so far is in {folder} (zorktui run --session {folder} resumes it)")
    turn = int(lines[0].split("turn ")[1].split(";")[0])
    recorded = [r["turn"] for r in read_trajectory(folder / "trajectory.jsonl") if r.get("type") == "turn"]
    assert recorded[-1] == turn and turn >= 2


def test_ctrl_c_in_line_mode_says_nothing_was_kept() -> None:
    status, err = interrupted(["play"], after_lines=1)
    assert status == 130
    assert err.strip() == "zorktui: interrupted at turn 0; nothing was recorded (--session DIR keeps a session to resume)"


def test_a_killed_process_leaves_no_scratch_folder_for_long(tmp_path: Path) -> None:
    """SIGKILL cannot clean up: the next process to make a scratch folder of the kind removes the orphan."""
    from zorktui.core.scratch import scratch_folder

    child = subprocess.Popen([sys.executable, "-c", "import sys, time\n"
                              "from zorktui.core.scratch import scratch_folder\n"
                              "print(scratch_folder('memory'), flush=True)\n"
                              "time.sleep(60)"], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert child.stdout is not None
    orphan = Path(child.stdout.readline().strip())
    (orphan / "graph.kuzu").write_bytes(b"x" * 100)
    mine = scratch_folder("memory")  # the owner lives: its folder stays
    assert orphan.is_dir()
    child.send_signal(signal.SIGKILL)
    child.wait()
    again = scratch_folder("memory")
    assert not orphan.exists()
    assert mine.is_dir() and again.is_dir()  # this process's own stay until it removes them
    for folder in (mine, again):
        folder.rmdir()
