"""Playing a batch of candidate commands from one snapshot, reading only what a search needs.

Shared by the valid-action search in this process (:mod:`zorktui.engine.actions.valid_actions`)
and its worker processes (:mod:`zorktui.engine.actions.search_workers`).
"""

from __future__ import annotations

from collections.abc import Callable

from zorktui.engine.calibrate.compass import Compass
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.fingerprint import ObjectsReading

#: The objects digest given to a candidate after which the interpreter halted.
HALTED = b"halted"

#: What a batch gives per command: objects digest, the globals' raw bytes, where the machine then waits.
Outcome = tuple[bytes, bytes, tuple[int, int]]


def play_batch(vm: Interpreter, start: Snapshot, commands: list[str], reading: ObjectsReading,
               compass: Compass | None = None, lifted: Snapshot | None = None,
               done: Callable[[int], None] | None = None) -> list[Outcome]:
    """Play each command from ``start`` on ``vm``; the interpreter is left at ``start``.

    Args:
        vm: The interpreter to play on.
        start: The state every command is played from.
        commands: The commands.
        reading: How to read an outcome (see :class:`ObjectsReading`).
        compass: Inform's compass, if the story has one.
        lifted: ``start`` with the compass out of scope: a command that names
            no direction is played from it, and the compass put back in the
            memory read after it (see :mod:`zorktui.engine.calibrate.compass`).
        done: Told the number of commands played so far after each one (a
            worker process's progress, so a command that kills it is known).

    Returns:
        One :data:`Outcome` per command, in order.
    """
    objects_digest = reading.digester()
    raw_globals = reading.raw_globals
    out: list[Outcome] = []
    for command in commands:
        if lifted is not None and compass is not None and not compass.names_a_direction(command):
            vm.rewind(lifted)
            vm.play(command)
            ram = vm.ram()
            # Stopped, or something moved into the compass: played again with it in place.
            if not vm.halted() and compass.put_back(ram, start):
                out.append((objects_digest(ram), raw_globals(ram), vm.position()))
                if done is not None:
                    done(len(out))
                continue
        vm.rewind(start)
        vm.play(command)
        ram = vm.ram()
        # A command that stops the machine (a runtime error) is no action: it is kept
        # out by an objects digest no state has.
        out.append((HALTED if vm.halted() else objects_digest(ram), raw_globals(ram), vm.position()))
        if done is not None:
            done(len(out))
    vm.restore(start)  # with the reply's text, as a search leaves the game
    return out
