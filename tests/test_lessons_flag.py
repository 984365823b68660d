"""Reproducible runs: ``--seed`` or ``--no-lessons`` keeps lessons from earlier games out of play, and says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTE = "lessons from earlier games are left out"


def run(home: Path, *flags: str) -> str:
    done = subprocess.run([sys.executable, "-m", "zorktui", "run", "--agent", "explore", "--steps", "3", *flags],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), ZORKTUI_HOME=str(home), OPENAI_API_KEY=""))
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_seed_and_no_lessons_leave_the_lessons_out_and_say_so(tmp_path: Path) -> None:
    knowledge = tmp_path / "data" / "knowledge"
    said = run(tmp_path, "--seed", "1")
    assert f"{NOTE} (--seed)" in said
    assert not knowledge.exists() or not any(knowledge.iterdir())  # nothing read, nothing learned
    said = run(tmp_path, "--no-lessons")
    assert f"{NOTE} (--no-lessons)" in said
    assert not knowledge.exists() or not any(knowledge.iterdir())
    said = run(tmp_path)  # an ordinary run keeps what it learned for the next
    assert NOTE not in said
    assert any(knowledge.iterdir())
