"""Where a session's turns and jumps go: one interface, whether a folder is kept or not.

:class:`~zorktui.session.files.recorder.SessionRecorder` writes the session folder
(trajectory and memory); :class:`MemoryOnly` is the recorder of a session
without a folder: the memory alone hears the turns and jumps (nothing at all
when there is no memory either). The session calls one of them and never asks
which.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameApi
from zorktui.record.trajectory import turn_record

if TYPE_CHECKING:  # only for the hint: the memory's module is imported by whoever opens one
    from zorktui.memory.graph import Memory


class Recorder(Protocol):
    """What a session hands each played turn and each jump to."""

    def turn(self, turn: Turn, actor: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Take a played turn; returns its trajectory record."""
        ...

    def undo(self, turn: Turn, levels: int = 1) -> None:
        """Play went back ``levels`` steps to ``turn``."""
        ...

    def restart(self, turn: Turn) -> None:
        """The story started again."""
        ...

    def save(self, name: str, turn: Turn) -> None:
        """A named checkpoint was saved at ``turn``."""
        ...

    def restore(self, name: str, turn: Turn) -> None:
        """A named checkpoint was restored, landing on ``turn``."""
        ...

    def close(self) -> None:
        """Write what is pending and let go of files."""
        ...


class Closable(Protocol):
    """Something the session owns and closes when it closes (a scratch memory)."""

    def close(self) -> None:
        """Let go of what it holds."""
        ...


class MemoryOnly:
    """The recorder of a session without a folder: the memory (if any) follows the game.

    Args:
        memory: The memory to keep up to date, or None for no record at all.
    """

    def __init__(self, memory: Memory | None) -> None:
        self.memory = memory

    def turn(self, turn: Turn, actor: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Ingest the turn; returns its record (written nowhere)."""
        if self.memory is not None:
            self.memory.ingest(turn, actor=actor)
        return turn_record(turn, actor=actor, extra=extra)

    def undo(self, turn: Turn, levels: int = 1) -> None:
        """Take the memory back with the game."""
        if self.memory is not None:
            self.memory.apply({"type": "undo", "turn": turn.turn, "levels": levels})

    def restart(self, turn: Turn) -> None:
        """Take the memory back to the opening."""
        if self.memory is not None:
            self.memory.apply({"type": "restart", "turn": turn.turn})

    def save(self, name: str, turn: Turn) -> None:
        """Nothing to note: the checkpoint file is the record."""

    def restore(self, name: str, turn: Turn) -> None:
        """Move the memory to the restored turn."""
        if self.memory is not None:
            self.memory.apply({"type": "restore", "record": turn_record(turn, actor="game")})

    def close(self) -> None:
        """Nothing to close: whoever opened the memory closes it."""


def valid_actions_fields(game: GameApi) -> dict[str, Any]:
    """The trajectory's ``valid_actions`` and ``valid_actions_ms`` for a game's current state."""
    start = time.perf_counter()
    actions = list(game.valid_actions())
    return {"valid_actions": actions, "valid_actions_ms": round((time.perf_counter() - start) * 1000, 2)}
