"""Checkpoint files: one file a checkpoint, whole or absent after a crash, damage named before a restore."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from paths import BUNDLED, ZIL

from zorktui.engine import GameError
from zorktui.engine.game import Game
from zorktui.session.commands.slash import saves_text

# A child that saves the same checkpoint name over and over, a turn apart, until it is killed.
_SAVER = """
import sys
from zorktui.engine.game import Game
game = Game(sys.argv[1])
folder = sys.argv[2]
print("ready", flush=True)
while True:
    game.step("wait")
    game.save_checkpoint(folder, "often")
"""


def test_a_checkpoint_is_one_file_that_restores(tmp_path: Path, game_of) -> None:
    game = game_of(ZIL)
    game.step("look")
    path = game.save_checkpoint(tmp_path, "here")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here.npz"] and path == tmp_path / "here.npz"
    other = game_of(ZIL)
    assert other.restore_checkpoint(tmp_path, "here").state_hash == game.current.state_hash
    assert [c["name"] for c in Game.checkpoints(tmp_path)] == ["here"]


def test_a_process_killed_while_saving_leaves_the_old_checkpoint_or_the_new_one(tmp_path: Path) -> None:
    rng = random.Random(7)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    kills = 0
    for _ in range(8):
        child = subprocess.Popen([sys.executable, "-c", _SAVER, str(ZIL), str(tmp_path)], stdout=subprocess.PIPE,
                                 env=env)
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.05, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        kills += 1
        if not (tmp_path / "often.npz").exists():
            continue  # killed before its first save finished
        listed = Game.checkpoints(tmp_path)
        assert [c["name"] for c in listed] == ["often"] and "damaged" not in listed[0]
        restored = Game(ZIL).restore_checkpoint(tmp_path, "often")
        assert restored.turn == listed[0]["turn"]
    assert kills == 8
    assert (tmp_path / "often.npz").exists()


def test_a_damaged_checkpoint_is_named_by_saves_and_refused_by_restore(tmp_path: Path, game_of) -> None:
    game = game_of(ZIL)
    game.save_checkpoint(tmp_path, "good")
    game.step("look")
    game.save_checkpoint(tmp_path, "bitten")
    path = tmp_path / "bitten.npz"
    # Damage the state but keep a readable archive: the digest catches it.
    with np.load(path) as data:
        parts = {k: data[k].copy() for k in data.files}
    parts["ram"][100] ^= 0xFF
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **parts)
    (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:200])
    listed = {c["name"]: c for c in Game.checkpoints(tmp_path)}
    assert set(listed) == {"good", "bitten", "cut"}
    assert "damaged" in listed["bitten"] and "damaged" in listed["cut"] and "damaged" not in listed["good"]
    text = saves_text(Game.checkpoints(tmp_path))
    assert "bitten (damaged" in text and "cut (damaged" in text and "good (turn 0" in text
    for name in ("bitten", "cut"):
        with pytest.raises(GameError, match="damaged"):
            Game(ZIL).restore_checkpoint(tmp_path, name)
    assert Game(ZIL).restore_checkpoint(tmp_path, "good").turn == 0


def test_a_checkpoint_of_the_older_two_file_kind_still_restores(tmp_path: Path, game_of) -> None:
    game = game_of(BUNDLED)
    game.step("take flask")
    game.save_checkpoint(tmp_path, "old")
    with np.load(tmp_path / "old.npz") as data:
        parts = {k: data[k].copy() for k in data.files}
    meta = json.loads(parts.pop("meta").tobytes())
    meta.pop("digest")
    with open(tmp_path / "old.npz", "wb") as fh:
        np.savez_compressed(fh, **parts)
    (tmp_path / "old.json").write_text(json.dumps(meta))
    assert [c["name"] for c in Game.checkpoints(tmp_path)] == ["old"]
    assert Game(BUNDLED).restore_checkpoint(tmp_path, "old").state_hash == game.current.state_hash
    # Saved again under the same name, it becomes one file.
    game.save_checkpoint(tmp_path, "old")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.npz"]


_FULL_DISK = """
import resource, signal, sys
from zorktui.engine import GameError
from zorktui.engine.game import Game
game = Game(sys.argv[1])
game.save_checkpoint(sys.argv[2], "keep")
game.step("look")
# From here every file may grow to 1 kB only: the write fails as on a full disk (EFBIG, not a signal).
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (1024, resource.RLIM_INFINITY))
try:
    game.save_checkpoint(sys.argv[2], "keep")
except GameError as exc:
    print(exc)
"""


def test_a_save_that_cannot_be_written_says_so_and_keeps_the_old_one(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    done = subprocess.run([sys.executable, "-c", _FULL_DISK, str(ZIL), str(tmp_path)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("checkpoint 'keep' not saved:") and "File too large" in done.stdout
    assert len(done.stdout.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.npz"]  # no temporary file left behind
    assert Game(ZIL).restore_checkpoint(tmp_path, "keep").turn == 0
