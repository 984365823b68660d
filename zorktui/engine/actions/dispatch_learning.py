"""Learning dispatch from typed commands: the story's action routine, and a template's entry and slots.

See :mod:`zorktui.engine.actions.dispatch`.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from zorktui.engine.actions.dispatch_run import TemplateRun
from zorktui.engine.vm.interpreter import Snapshot
from zorktui.engine.worker.kept import key_of

#: The least number of traced commands the routine must be called from.
ROUTINE_QUORUM = 3


def action_routine(calls_by_command: list[tuple[str, int, list]]) -> int | None:
    """The entry of the story's action routine, voted from traced commands, or None.

    Args:
        calls_by_command: Per traced command: (its verb's template, the object
            it named, the calls it made, each with ``entry`` and ``args``).
    """
    seen: dict[int, dict[int, tuple[int, str, int]]] = defaultdict(dict)
    for n, (template, obj, calls) in enumerate(calls_by_command):
        for i, call in enumerate(calls):
            if len(call.args) >= 2 and call.args[1] == obj and n not in seen[call.entry]:
                seen[call.entry][n] = (i, template, call.args[0])
    ranked = []
    for entry, hits in seen.items():
        if len(hits) < ROUTINE_QUORUM:
            continue
        actions: dict[str, set[int]] = defaultdict(set)
        for _i, template, action in hits.values():
            actions[template].add(action)
        one_each = all(len(a) == 1 for a in actions.values())
        if not one_each or len({min(a) for a in actions.values()}) < max(2, (len(actions) + 1) // 2):
            # The action must stay put for one verb and tell most verbs apart (synonyms share one): an
            # Inform 7 rule the parser consults with the noun, its first argument one of two values over
            # twelve verbs, had been voted for over BeginAction.
            continue
        ranked.append((-len(hits), sum(i for i, _t, _a in hits.values()) / len(hits), entry))
    return min(ranked)[2] if ranked else None


def slots_between(e1: Snapshot, e2: Snapshot, o1: int, o2: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Word addresses in memory and word indices on the stack holding ``o1`` in ``e1`` and ``o2`` in ``e2``."""
    r1, r2 = e1.ram().astype(np.int32), e2.ram().astype(np.int32)
    w1 = (r1[:-1] << 8) | r1[1:]
    w2 = (r2[:-1] << 8) | r2[1:]
    ram = tuple(int(a) for a in np.nonzero((w1 == o1) & (w2 == o2))[0])
    s1, s2 = e1.state[1].view(np.uint16), e2.state[1].view(np.uint16)
    stack = tuple(int(i) for i in np.nonzero((s1 == o1) & (s2 == o2))[0])
    return ram, stack


@dataclass
class Entry:
    """A template's parse, stopped at the action routine's entry, ready for any object."""

    #: The machine at the entry (its stack and registers are used; memory comes from the state searched).
    snapshot: Snapshot
    #: Memory the parser wrote (addresses, values), less the slots.
    overlay: tuple[np.ndarray, np.ndarray]
    #: Per object slot: word addresses in memory, word indices on the stack.
    ram_slots: tuple[tuple[int, ...], ...]
    stack_slots: tuple[tuple[int, ...], ...]

    def run(self, candidates: tuple[tuple[int, tuple[int, ...]], ...] = ()) -> TemplateRun:
        """What dispatches ``candidates`` ((index, objects) each) of this template, without the interpreter."""
        return TemplateRun(self.overlay, tuple(self.snapshot.state[1:7]), self.ram_slots, self.stack_slots, candidates,
                           self.key)

    @functools.cached_property
    def key(self) -> bytes:
        """Names the overlay and the machine (see :func:`zorktui.engine.actions.dispatch_run.packed`)."""
        return key_of((self.overlay, tuple(self.snapshot.state[1:7])))


def entry_from(start: Snapshot, stops: list[tuple[tuple[int, ...], Snapshot]], known: list[Entry]
               ) -> tuple[Entry | None, bool]:
    """A template's entry from its stops (one or two), or (None, whether that is for good).

    Two stops give the slots; one stop of a command naming nothing needs
    none; one stop naming things (a creature token and one creature here)
    takes the slots of a template already learned (``known``), if the stop
    holds its things in every one of them.
    """
    ram_slots: tuple[tuple[int, ...], ...]
    stack_slots: tuple[tuple[int, ...], ...]
    objs1, e1 = stops[0]
    if not objs1:
        ram_slots = stack_slots = ()
    elif len(stops) == 1:
        borrowed = borrowed_slots(e1, objs1, known)
        if borrowed is None:
            return None, False
        ram_slots, stack_slots = borrowed
    else:
        objs2, e2 = stops[1]
        found = [slots_between(e1, e2, a, b) for a, b in zip(objs1, objs2, strict=True)]
        ram_slots = tuple(f[0] for f in found)
        stack_slots = tuple(f[1] for f in found)
        if e1.state[3] != e2.state[3] or not all(r or k for r, k in found):
            return None, True
    changed = start.ram() != e1.ram()
    for addresses in ram_slots:
        for address in addresses:
            changed[address : address + 2] = False
    where = np.nonzero(changed)[0]
    return Entry(e1, (where, e1.ram()[where].copy()), ram_slots, stack_slots), False


def borrowed_slots(stop: Snapshot, objs: tuple[int, ...], known: list[Entry]
                   ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] | None:
    """The slots of a known entry with as many things whose every slot holds ``objs`` in ``stop``."""
    ram = stop.ram()
    stack = stop.state[1].view(np.uint16)
    for entry in known:
        if len(entry.ram_slots) != len(objs) or entry.snapshot.state[3] != stop.state[3]:
            continue
        if all(all((int(ram[a]) << 8 | int(ram[a + 1])) == obj for a in addresses)
               and all(int(stack[i]) == obj for i in indices)
               for obj, addresses, indices in zip(objs, entry.ram_slots, entry.stack_slots, strict=True)):
            return entry.ram_slots, entry.stack_slots
    return None


def pairable(candidates: list[tuple[str, str, tuple[int, ...]]], known: list[Entry]) -> bool:
    """Whether a template's ``candidates`` here can give its entry: two stops, or one and slots to borrow.

    Two stops need two candidates that name different things in every
    slot; one stop of a command naming things takes the slots of a ``known``
    entry as wide. Where neither can be had (one thing in reach), trying
    says nothing against the template: counted as a try, a first room with
    one thing in it had had every one-object template typed for good.
    """
    if not candidates or not candidates[0][2]:
        return True
    first = candidates[0][2]
    if any(len(entry.ram_slots) == len(first) for entry in known):
        return True
    return any(set(first).isdisjoint(objs) for _command, _template, objs in candidates[1:])
