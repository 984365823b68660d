"""What the rest of zorktui may ask of a game, wherever it runs: this process or a worker.

:class:`~zorktui.engine.game.Game` plays in this process (the engine's own
searches, forks and tests use it); :class:`~zorktui.engine.worker.game_process.GameProcess`
plays in a worker process and answers the same. Sessions, agents, the
recorder and the app are written against this protocol, and
:func:`open_game` picks which.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from zorktui.engine.turn import Turn

if TYPE_CHECKING:  # hints only
    from zorktui.engine.asking import Outcome
    from zorktui.engine.game import GameState
    from zorktui.engine.vm.story import StoryInfo
    from zorktui.engine.zmachine.dictionary import Dictionary

#: ``ZORKTUI_GAME_WORKER=0`` plays games in the application's own process.
_ENV_SWITCH = "ZORKTUI_GAME_WORKER"
DEFAULT_UNDO_LEVELS = 200


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


def isolated() -> bool:
    """Whether games play in a worker process (POSIX; ``ZORKTUI_GAME_WORKER=0`` says not)."""
    return os.environ.get(_ENV_SWITCH, "1") != "0" and os.name == "posix"


def open_game(story: StoryInfo | str | Path, seed: int | None = None, undo_levels: int = DEFAULT_UNDO_LEVELS,
              in_worker: bool | None = None) -> GameApi:
    """Open a story for play: in a worker process where :func:`isolated` says so, else here.

    Args:
        story: A story path or an already identified story.
        seed: The game's random seed (None: 1).
        undo_levels: How many turns ``undo`` can go back.
        in_worker: Force one way (None: :func:`isolated` decides).

    Raises:
        StoryError: The story file cannot be played.
        GameError: The interpreter could not start.
    """
    if in_worker if in_worker is not None else isolated():
        from zorktui.engine.worker.game_process import GameProcess  # deferred: with the worker only

        return GameProcess(story, seed=seed, undo_levels=undo_levels)
    from zorktui.engine.game import Game  # deferred: numpy and jericho load with a game

    return Game(story, seed=seed, undo_levels=undo_levels)
