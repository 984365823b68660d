"""Playing commands from a snapshot and reading what they left in memory: the probes' common tools.

Used by every calibration (:mod:`zorktui.engine.calibrate.probes`,
:mod:`zorktui.engine.calibrate.noise`, :mod:`zorktui.engine.calibrate.object_words`)
and by the valid-action finder.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from zorktui.engine.directions import DIRECTIONS
from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.world.fingerprint import attributes_of, globals_of
from zorktui.engine.zmachine.zmachine import ZMachine

#: Words no parser knows: a command of them is a parser error that changes nothing.
NONSENSE = ("qzxvw", "vwxzq")


def direction_commands(zm: ZMachine) -> list[str]:
    """One command per direction the story's dictionary knows (full word preferred)."""
    out = []
    for forms in DIRECTIONS:
        for form in forms:
            if form in zm.dictionary:
                out.append(form)
                break
    return out


class IndividualProperties:
    """The values of every object's Inform individual properties, to see which numbers commands disturb."""

    def __init__(self, zm: ZMachine) -> None:
        objects = zm.objects
        entries = [e for obj in range(1, objects.count + 1) for e in objects.individual_entries(obj)]
        self.index = np.array([i for _n, start, end in entries for i in range(start, end)], dtype=np.intp)
        self.number = np.array([n for n, start, end in entries for _i in range(start, end)], dtype=np.int64)

    def values(self, ram: np.ndarray) -> np.ndarray:
        """The bytes of every individual property value in ``ram``."""
        return np.asarray(ram)[self.index].copy()

    def differing(self, snapshots: list[np.ndarray]) -> set[int]:
        """Property numbers whose value is not the same in every one of ``snapshots``."""
        if len(snapshots) < 2 or not len(self.index):
            return set()
        stack = np.stack(snapshots)
        return set(np.unique(self.number[(stack != stack[0]).any(axis=0)]).tolist())

    def disturbed(self, results: list[np.ndarray], baseline: np.ndarray, quorum: int) -> set[int]:
        """Property numbers that at least ``quorum`` of ``results`` changed from ``baseline``."""
        counts: Counter[int] = Counter()
        for values in results:
            counts.update(np.unique(self.number[values != baseline]).tolist())
        return {n for n, k in counts.items() if k >= quorum}


def probe_globals(vm: Interpreter, zm: ZMachine, start: object, commands: list[str],
                   attributes: list[np.ndarray] | None = None,
                   props: tuple[IndividualProperties, list[np.ndarray]] | None = None) -> list[np.ndarray]:
    """The globals after each of ``commands`` played from ``start``.

    Also the attribute bytes, and the Inform individual property values, if asked.
    """
    out = []
    for command in commands:
        vm.restore(start)  # type: ignore[arg-type]
        vm.step(command)
        ram = vm.ram()
        out.append(globals_of(zm, ram).copy())
        if attributes is not None:
            attributes.append(attributes_of(zm, ram).copy())
        if props is not None:
            props[1].append(props[0].values(ram))
    return out


def examine_me(vm: Interpreter, zm: ZMachine) -> tuple[np.ndarray, np.ndarray] | None:
    """Globals after "look" and after "examine me" from the current state (restored after), or None without those words."""
    if "me" not in zm.dictionary or "examine" not in zm.dictionary:
        return None
    start = vm.snapshot()
    looked, examined = probe_globals(vm, zm, start, ["look", "examine me"])
    vm.restore(start)
    zm.refresh(vm.ram())
    return looked, examined
