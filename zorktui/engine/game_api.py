"""What the rest of zorktui may ask of a game, wherever it runs: this process or a worker.

:class:`~zorktui.engine.game.Game` plays in this process (the engine's own
searches, forks and tests use it); :class:`~zorktui.engine.worker.game_process.GameProcess`
plays in a worker process and answers the same. Sessions, agents, the
recorder and the app are written against this protocol, and
:func:`zorktui.engine.launch.open_game` picks which.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from zorktui.core.turn import Turn

if TYPE_CHECKING:  # hints only
    from zorktui.engine.asking import Outcome
    from zorktui.engine.vm.interpreter import Snapshot
    from zorktui.engine.vm.story import StoryInfo
    from zorktui.engine.zmachine.dictionary import Dictionary

DEFAULT_UNDO_LEVELS = 200


@dataclass(frozen=True)
class GameState:
    """Where a game stands, complete enough to come back to it (see ``Game.state``).

    Attributes:
        snapshot: The interpreter's full state.
        turn: The current turn at that point.
        status: The last status line seen (to clean the next reply).
    """

    snapshot: Snapshot
    turn: Turn
    status: str



class StoryWords(Protocol):
    """The story's words: its dictionary, and the words it lists for an object."""

    @property
    def dictionary(self) -> Dictionary: ...

    def object_vocabulary(self, obj: int) -> list[str]: ...


class GameApi(Protocol):
    """A story in play (see :class:`~zorktui.engine.game.Game` for what each call does)."""

    story: StoryInfo
    seed: int
    current: Turn
    opening: Turn

    @property
    def zm(self) -> StoryWords: ...

    @property
    def max_score(self) -> int | None: ...

    @property
    def prompt_at(self) -> tuple[int, int]: ...

    @property
    def undo_depth(self) -> int: ...

    def step(self, command: str, undoable: bool = True) -> Turn: ...

    def peek(self, command: str) -> Turn: ...

    def undo(self, n: int = 1) -> Turn: ...

    def restart(self) -> Turn: ...

    def state(self) -> GameState: ...

    def set_state(self, state: GameState) -> None: ...

    def fork(self) -> GameApi: ...

    def save_checkpoint(self, folder: str | Path, name: str, note: str = "") -> Path: ...

    def restore_checkpoint(self, folder: str | Path, name: str) -> Turn: ...

    def checkpoints(self, folder: str | Path) -> list[dict[str, Any]]: ...

    def answers(self) -> tuple[Outcome, ...]: ...

    def valid_actions(self) -> tuple[str, ...]: ...

    def valid_actions_cached(self) -> tuple[str, ...] | None: ...

    def valid_destinations(self) -> dict[str, int]: ...

    def blocked_takes(self) -> tuple[str, ...]: ...

    def close(self) -> None: ...
