"""What the valid-action finder needs of the game it searches (:class:`zorktui.engine.game.Game` gives it)."""

from __future__ import annotations

from typing import Any, Protocol

from zorktui.core.turn import Turn
from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.world.facts import FactReader
from zorktui.engine.world.fingerprint import Fingerprinter
from zorktui.engine.world.sight import Sight
from zorktui.engine.zmachine.zmachine import ZMachine


class SearchedGame(Protocol):
    """A game's interpreter, memory and readers, its current turn and the commands known to kill it."""

    vm: Interpreter
    zm: ZMachine
    facts: FactReader
    fingerprint: Fingerprinter
    sight: Sight
    current: Turn
    story: Any
    _deadly: set[str]

    @property
    def prompt_at(self) -> tuple[int, int]:
        """Where the story waits for commands (elsewhere, it asks a question)."""
