"""The game engine: story files, Z-machine memory, ``Game.step`` -> ``Turn``.

The public face for the other layers. Inside, the parts are subpackages:
``zmachine`` reads a story's memory, ``vm`` runs it, ``world`` reads what it
holds, ``calibrate`` learns a story's globals by probing, ``actions`` finds
valid actions; ``game`` ties them together.

Nothing here imports textual; heavy modules (numpy, jericho) load when a game opens.
"""

from zorktui.core.errors import GameError, StoryError, ZorkTuiError
from zorktui.core.turn import ObjectRef, Turn
from zorktui.engine.vm.story import StoryInfo, open_story
from zorktui.engine.zmachine.verbs import SETTING_WORDS
from zorktui.engine.zmachine.zmachine import ZMachine

__all__ = [
    "SETTING_WORDS",
    "Game",
    "GameError",
    "ObjectRef",
    "StoryError",
    "StoryInfo",
    "Turn",
    "ZMachine",
    "ZorkTuiError",
    "open_story",
]


def __getattr__(name: str) -> object:
    # Lazy: importing the engine package should not start numpy/jericho (game.py imports both).
    if name == "Game":
        from zorktui.engine.game import Game

        return Game
    raise AttributeError(name)
