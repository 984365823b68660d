"""Where a game plays: ``open_game`` opens it in a worker process, or in this one.

See :mod:`zorktui.engine.worker` for why a worker, and
:class:`~zorktui.engine.game_api.GameApi` for what either answers.
"""

from __future__ import annotations

import os
from pathlib import Path

from zorktui.engine.game_api import DEFAULT_UNDO_LEVELS, GameApi
from zorktui.engine.vm.story import StoryInfo

#: ``ZORKTUI_GAME_WORKER=0`` plays games in the application's own process.
_ENV_SWITCH = "ZORKTUI_GAME_WORKER"


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
