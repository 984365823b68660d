"""Learning dispatch from typed commands: the story's action routine, and a template's slots.

See :mod:`zorktui.engine.actions.dispatch`.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from zorktui.engine.vm.interpreter import Snapshot

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
        if not one_each or len({min(a) for a in actions.values()}) < 2:
            continue  # the action must stay put for one verb and tell some verbs apart (synonyms share one)
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
