"""Named checkpoints on disk: the interpreter state plus what the turn looked like."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from zorktui.engine.errors import GameError
from zorktui.engine.vm.interpreter import Snapshot

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


def check_name(name: str) -> str:
    """Validate a checkpoint name (it becomes a file name).

    Raises:
        GameError: For names with path separators or odd characters.
    """
    name = name.strip()
    if not _NAME.match(name) or name.endswith("."):
        raise GameError(f"bad checkpoint name {name!r}: use letters, digits, space, '-', '_' or '.'")
    return name


def write_checkpoint(folder: str | Path, name: str, snap: Snapshot, meta: dict[str, Any]) -> Path:
    """Save a snapshot and its metadata as ``NAME.npz`` and ``NAME.json``.

    The state file is written first and the metadata last, each through a
    temporary file, so a checkpoint is either complete or absent.

    Args:
        folder: The saves folder (created if needed).
        name: Checkpoint name.
        snap: Interpreter state.
        meta: JSON-serialisable description (story md5, turn, score, ...).

    Returns:
        The metadata file's path.
    """
    name = check_name(name)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ram, stack, pc, sp, fp, frame_count, opcode, rng, narrative = snap.state
    state_tmp = folder / f".{name}.npz.tmp"
    with open(state_tmp, "wb") as fh:
        np.savez_compressed(
            fh, ram=ram, stack=stack, narrative=np.frombuffer(narrative or b"", dtype=np.uint8)
        )
    state_tmp.replace(folder / f"{name}.npz")
    record = dict(meta)
    record.update(
        name=name,
        saved=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        registers={"pc": pc, "sp": sp, "fp": fp, "frame_count": frame_count, "opcode": opcode},
        rng=[int(rng[0]), int(rng[1]), int(rng[2])],
    )
    meta_tmp = folder / f".{name}.json.tmp"
    meta_tmp.write_text(json.dumps(record, indent=1))
    meta_tmp.replace(folder / f"{name}.json")
    return folder / f"{name}.json"


def read_checkpoint(folder: str | Path, name: str) -> tuple[Snapshot, dict[str, Any]]:
    """Load a checkpoint written by :func:`write_checkpoint`.

    Raises:
        GameError: If it does not exist or is damaged.
    """
    name = check_name(name)
    folder = Path(folder)
    meta_path = folder / f"{name}.json"
    state_path = folder / f"{name}.npz"
    if not meta_path.exists() or not state_path.exists():
        raise GameError(f"no checkpoint named {name!r}")
    try:
        meta = json.loads(meta_path.read_text())
        with np.load(state_path) as data:
            ram = data["ram"].copy()
            stack = data["stack"].copy()
            narrative = data["narrative"].tobytes()
        regs = meta["registers"]
        rng = tuple(meta["rng"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise GameError(f"checkpoint {name!r} is damaged ({exc})") from None
    state = (ram, stack, regs["pc"], regs["sp"], regs["fp"], regs["frame_count"], regs["opcode"], rng, narrative)
    return Snapshot(state), meta


def list_checkpoints(folder: str | Path) -> list[dict[str, Any]]:
    """Metadata of every checkpoint in ``folder``, oldest first."""
    out = []
    folder = Path(folder)
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                meta = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            if (folder / f"{path.stem}.npz").exists():
                out.append(meta)
    out.sort(key=lambda m: m.get("saved", ""))
    return out
