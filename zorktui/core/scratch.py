"""Temporary folders that name their owner's process, so none outlives it for long.

A process removes its own scratch folders when it closes them or exits; one
killed outright (SIGKILL, a crash inside Frotz or Kuzu) cannot. Its folders
carry its process id, and the next zorktui process to make one of the same
kind removes those whose owner is gone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive, and not ours to remove
        return True
    return True


def sweep_orphans(kind: str) -> int:
    """Remove the scratch folders of ``kind`` whose owning process has ended; how many were removed."""
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"zorktui-{kind}-*-*"):
        owner = path.name[len(f"zorktui-{kind}-"):].split("-", 1)[0]
        if not owner.isdigit() or _alive(int(owner)):
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
            removed += 1
        except OSError:
            pass  # another process's sweep got there first, or it is not ours
    return removed


def scratch_folder(kind: str) -> Path:
    """A new temporary folder ``zorktui-KIND-PID-XXXX``, after removing orphans of the same kind.

    Args:
        kind: What it holds ("memory", "search-workers", "cypher", "watch").

    Returns:
        The folder (the caller removes it when done).
    """
    sweep_orphans(kind)
    return Path(tempfile.mkdtemp(prefix=f"zorktui-{kind}-{os.getpid()}-"))


def scratch_file(kind: str) -> str:
    """A new empty temporary file ``zorktui-KIND-PID-XXXX``, after removing orphans of the same kind."""
    sweep_orphans(kind)
    handle, path = tempfile.mkstemp(prefix=f"zorktui-{kind}-{os.getpid()}-")
    os.close(handle)
    return path
