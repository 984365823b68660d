"""The game engine: story files, Z-machine memory, ``Game.step`` -> ``Turn``.

Nothing here imports textual; heavy modules (jericho) load when a game opens.
"""

from zorktui.engine.errors import GameError, StoryError, ZorkTuiError
from zorktui.engine.turn import ObjectRef, Turn
from zorktui.engine.vm.story import StoryInfo, open_story

__all__ = ["Game", "GameError", "ObjectRef", "StoryError", "StoryInfo", "Turn", "ZorkTuiError", "open_story"]


def __getattr__(name: str) -> object:
    # Lazy: importing the engine package should not start numpy/jericho.
    if name == "Game":
        from zorktui.engine.game import Game

        return Game
    raise AttributeError(name)
