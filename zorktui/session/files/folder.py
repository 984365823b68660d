"""A session folder on disk: its files, and opening it again safely.

Layout (DESIGN.md): ``session.json`` (story identity and settings, never
secrets), ``trajectory.jsonl`` (the write-ahead log of play), ``memory/``
(the Kuzu graph) and ``saves/`` (named checkpoints).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.core.errors import ZorkTuiError
from zorktui.record.trajectory import read_trajectory

if TYPE_CHECKING:  # hints only
    from zorktui.memory.graph import Memory


class SessionError(ZorkTuiError):
    """A session folder is missing, unreadable or inconsistent (one line, for people)."""


@dataclass(frozen=True)
class SessionFolder:
    """Paths inside one session folder."""

    root: Path

    @property
    def trajectory(self) -> Path:
        """The trajectory JSONL."""
        return self.root / "trajectory.jsonl"

    @property
    def settings(self) -> Path:
        """session.json."""
        return self.root / "session.json"

    @property
    def memory(self) -> Path:
        """The memory database folder."""
        return self.root / "memory"

    @property
    def saves(self) -> Path:
        """Named checkpoints."""
        return self.root / "saves"

    def records(self) -> list[dict[str, Any]]:
        """The trajectory's records (a torn last line is skipped).

        Raises:
            SessionError: No trajectory, or a damaged line before the last.
        """
        if not self.root.is_dir():
            raise SessionError(f"{self.root}: no such session folder")
        if not self.trajectory.is_file():
            raise SessionError(f"{self.root}: not a session folder (no trajectory.jsonl)")
        try:
            records = list(read_trajectory(self.trajectory))
        except (ValueError, UnicodeDecodeError, OSError) as exc:
            raise SessionError(f"{self.root}: damaged trajectory: {exc}") from None
        if not records or records[0].get("type") != "session":
            raise SessionError(f"{self.root}: the trajectory has no session header")
        return records

    def header(self) -> dict[str, Any]:
        """The session header (first trajectory line)."""
        return self.records()[0]



def story_vocabulary(path: str | Path | None) -> Callable[[int], list[str]] | None:
    """The game's words for each object, read from the story file's initial memory.

    Used when a session is reopened without a running game (``zorktui
    memory``); None when the story file is gone or unreadable.
    """
    if not path:
        return None
    # deferred: the story's readers load only when a session is reopened without a game
    from zorktui.engine import ZMachine, open_story

    try:
        info = open_story(path)
        zm = ZMachine(Path(info.zcode_path).read_bytes())
    except (ZorkTuiError, OSError):
        return None

    def vocabulary(obj: int) -> list[str]:
        try:
            return zm.object_vocabulary(obj)
        except (IndexError, ValueError):
            return []

    return vocabulary


def open_memory(root: Path | str, vocabulary: Callable[[int], list[str]] | None = None, catch_up: bool = True) -> Memory:
    """Open a session's memory and bring it up to date with the trajectory.

    Args:
        root: The session folder.
        vocabulary: The game's words per object (default: read from the story file).
        catch_up: Apply trajectory events the memory has not stored (after a crash).

    Returns:
        The :class:`~zorktui.memory.graph.Memory`.

    Raises:
        SessionError: The folder is not a readable session.
        MemoryStoreError: The memory is held by another process.
    """
    # deferred: the memory (16 ms, kuzu behind it) loads only when a session's memory is opened
    from zorktui.memory.graph import Memory

    folder = SessionFolder(Path(root))
    records = folder.records()
    if vocabulary is None:
        story = records[0].get("story") or {}
        vocabulary = story_vocabulary(story.get("path"))
    memory = Memory(folder.memory, vocabulary=vocabulary)
    if catch_up:
        try:
            memory.catch_up(records)
        except (KeyError, TypeError, ValueError) as exc:
            memory.close()
            raise SessionError(f"{folder.root}: a trajectory record is malformed ({exc})") from None
    return memory
