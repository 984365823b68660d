"""Takes the game refuses for what the player already carries ("Your load is too heavy")."""

from __future__ import annotations

from collections.abc import Iterable

from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.text import refused_for_load


def refused_for_load_takes(vm: Interpreter, takes: Iterable[str], deadly: set[str]) -> tuple[str, ...]:
    """Of ``takes`` (each played from the interpreter's state and undone), those refused for the load carried.

    The interpreter is left in the state it was found in.
    """
    before = vm.snapshot()
    found: list[str] = []
    try:
        for command in takes:
            if command not in deadly and refused_for_load(vm.step(command)):
                found.append(command)
            vm.restore(before)
    finally:
        vm.restore(before)
    return tuple(found)
