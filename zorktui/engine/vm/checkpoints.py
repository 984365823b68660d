"""Named checkpoints on disk: the interpreter state plus what the turn looked like."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from zorktui.core.errors import GameError
from zorktui.engine.vm.interpreter import Snapshot

#: The registers a checkpoint's metadata must hold for its state to be restored.
_REGISTERS = frozenset({"pc", "sp", "fp", "frame_count", "opcode"})
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
    """Save a snapshot and its metadata as one file, ``NAME.npz``.

    The state and the metadata go into one archive, written to a temporary
    file, flushed to the disk and then renamed over the old one: a crash at
    any point leaves the old checkpoint or the new one, never one's state
    with the other's registers. The metadata carries a digest of the state,
    so a file damaged later is named as such rather than restored.

    Args:
        folder: The saves folder (created if needed).
        name: Checkpoint name.
        snap: Interpreter state.
        meta: JSON-serialisable description (story md5, turn, score, ...).

    Returns:
        The checkpoint's path.
    """
    name = check_name(name)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ram, stack, pc, sp, fp, frame_count, opcode, rng, narrative = snap.state
    told = np.frombuffer(narrative or b"", dtype=np.uint8)
    record = dict(meta)
    record.update(
        name=name,
        saved=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        registers={"pc": pc, "sp": sp, "fp": fp, "frame_count": frame_count, "opcode": opcode},
        rng=[int(rng[0]), int(rng[1]), int(rng[2])],
        digest=_digest(ram, stack, told),
    )
    path = folder / f"{name}.npz"
    tmp = folder / f".{name}.npz.tmp"
    try:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, ram=ram, stack=stack, narrative=told,
                                meta=np.frombuffer(json.dumps(record).encode("utf-8"), dtype=np.uint8))
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise GameError(f"checkpoint {name!r} not saved: {path}: {exc.strerror or exc}") from None
    # The metadata of a checkpoint of the older two-file kind, stale now that the state file holds its own.
    (folder / f"{name}.json").unlink(missing_ok=True)
    return path


def _digest(ram: np.ndarray, stack: np.ndarray, narrative: np.ndarray) -> str:
    """A digest of a checkpoint's state, so that damage shows at load time."""
    h = hashlib.blake2b(digest_size=16)
    for part in (ram, stack, narrative):
        h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest()


def _load(folder: Path, name: str) -> tuple[np.ndarray, np.ndarray, bytes, dict[str, Any]]:
    """A checkpoint's memory, stack, narrative and metadata, checked against its digest.

    Raises:
        GameError: It does not exist, or it is damaged.
    """
    state_path = folder / f"{name}.npz"
    if not state_path.exists():
        raise GameError(f"no checkpoint named {name!r}")
    try:
        with np.load(state_path) as data:
            ram = data["ram"].copy()
            stack = data["stack"].copy()
            told = data["narrative"].copy()
            if "meta" in data.files:
                meta = json.loads(data["meta"].tobytes().decode("utf-8"))
            else:  # the older kind: the metadata beside the state, in NAME.json
                meta = json.loads((folder / f"{name}.json").read_text())
        registers = meta.get("registers")
        if not isinstance(registers, dict) or not _REGISTERS <= registers.keys() or len(meta.get("rng") or ()) != 3:
            raise ValueError("its registers are missing")
        if "digest" in meta and meta["digest"] != _digest(ram, stack, told):
            raise ValueError("its state does not match its digest")
    except (OSError, ValueError, KeyError, TypeError, IndexError, EOFError, zipfile.BadZipFile) as exc:
        raise GameError(f"checkpoint {name!r} is damaged ({exc})") from None
    return ram, stack, told.tobytes(), meta


def read_checkpoint(folder: str | Path, name: str) -> tuple[Snapshot, dict[str, Any]]:
    """Load a checkpoint written by :func:`write_checkpoint` (or of the older two-file kind).

    Raises:
        GameError: If it does not exist or is damaged.
    """
    name = check_name(name)
    ram, stack, narrative, meta = _load(Path(folder), name)
    regs = meta["registers"]
    rng = tuple(meta["rng"])
    state = (ram, stack, regs["pc"], regs["sp"], regs["fp"], regs["frame_count"], regs["opcode"], rng, narrative)
    return Snapshot(state), meta


def list_checkpoints(folder: str | Path) -> list[dict[str, Any]]:
    """Metadata of every checkpoint in ``folder``, oldest first.

    A damaged checkpoint is listed too, as ``{"name": ..., "damaged": why}``,
    so that the person learns of it before trying to restore it.
    """
    out = []
    folder = Path(folder)
    if folder.is_dir():
        for path in sorted(folder.glob("*.npz")):
            if path.name.startswith("."):
                continue
            try:
                meta = _load(folder, check_name(path.stem))[3]
            except GameError as exc:
                saved = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(path.stat().st_mtime))
                meta = {"name": path.stem, "damaged": str(exc), "saved": saved}
            out.append(meta)
    out.sort(key=lambda m: m.get("saved", ""))
    return out
