"""Running dispatched candidates: the machine put at the action routine's entry, a candidate's things in its slots.

What :class:`zorktui.engine.actions.dispatch.Dispatcher` learned is handed
over as a :class:`DispatchJob`, which holds no interpreter: the same job runs
on the game's own interpreter or, shared out, on the search worker processes
(:mod:`zorktui.engine.actions.search_workers`), whose candidates then run on
both cores and whose crash (a story's division by zero kills Frotz outright)
costs a worker, not the application.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from zorktui.engine.actions.batch import HALTED, Outcome
from zorktui.engine.vm.frotz_calls import FrotzCalls
from zorktui.engine.vm.interpreter import Snapshot
from zorktui.engine.worker.kept import Kept, Sent
from zorktui.engine.world.fingerprint import ObjectsReading

#: One candidate dispatched: (its index in the search, its outcome or None where typing must tell,
#: the world globals that kept it running past the action's return or None, stopped there as quiet,
#: the seconds it took).
Dispatched = tuple[int, Outcome | None, frozenset[int] | None, bool, float]


@dataclass(frozen=True)
class TemplateRun:
    """A template's candidates, and what puts the machine at the action routine's entry for them.

    Attributes:
        overlay: Memory the parser wrote for the template (addresses, values), less the slots.
        machine: The stack and registers at the entry (a snapshot's state, items 1 to 6).
        ram_slots: Per object slot, the word addresses in memory holding the object.
        stack_slots: Per object slot, the word indices on the stack holding it.
        candidates: (index in the search, objects) of each candidate to run.
        key: Names the overlay and machine (a worker keeps them by it: see :func:`packed`).
    """

    overlay: tuple[np.ndarray, np.ndarray]
    machine: tuple
    ram_slots: tuple[tuple[int, ...], ...]
    stack_slots: tuple[tuple[int, ...], ...]
    candidates: tuple[tuple[int, tuple[int, ...]], ...] = ()
    key: bytes = b""

    def base(self, start: Snapshot) -> Snapshot:
        """The state searched, its memory overlaid with the template's parse, at the routine's entry.

        Its memory and stack are its own: :meth:`named` writes a candidate's things into them.
        """
        ram = start.ram().copy()
        where, values = self.overlay
        ram[where] = values
        stack, *registers = self.machine
        return Snapshot((ram, stack.copy(), *registers, start.state[7], start.state[8]), False)

    def named(self, base: Snapshot, objs: tuple[int, ...]) -> Snapshot:
        """``base`` (from :meth:`base`) with a candidate's things in the slots, written in place.

        One array write a slot, not a call into the interpreter a word:
        rewinding to it copies the slots in with the rest.
        """
        ram, words = base.state[0], base.state[1].view(np.uint16)  # the stack in the machine's own byte order
        for obj, (high, low, stacked) in zip(objs, self._slot_indices, strict=False):
            ram[high] = obj >> 8  # memory words are big-endian
            ram[low] = obj & 0xFF
            words[stacked] = obj
        return base

    @functools.cached_property
    def _slot_indices(self) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
        """Per slot: its words' high bytes and low bytes in memory, and its words on the stack, as index arrays."""
        out = []
        for addresses, indices in zip(self.ram_slots, self.stack_slots, strict=True):
            high = np.array(addresses, dtype=np.intp)
            out.append((high, high + 1, np.array(indices, dtype=np.intp)))
        return tuple(out)


@dataclass(frozen=True)
class DispatchJob:
    """Candidates to dispatch from one state.

    Attributes:
        start: The state searched.
        prompt_at: Where the story waits for a command (program counter, call depth).
        stop: Where the action routine returns, and at what call depth: a
            candidate is stopped there and, if its action changed nothing,
            given ``start``'s own outcome (None: every candidate runs to the
            next read).
        world_globals: Per global, a mask of the bits that count as world
            state for that stop (zero for noise and the library's books).
        templates: The candidates, by template.
        costs: Seconds each candidate is expected to take, by index (see :meth:`chunks`).
    """

    start: Snapshot
    prompt_at: tuple[int, int]
    stop: tuple[int, int] | None
    world_globals: np.ndarray
    templates: tuple[TemplateRun, ...]
    costs: Mapping[int, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(len(t.candidates) for t in self.templates)

    def chunks(self, count: int) -> list[DispatchJob]:
        """The job cut into about ``count`` jobs, dearest candidates first, each keeping its candidates' templates.

        Handed to whichever worker is free (see ``SearchWorkers.dispatch``):
        the few candidates that run on through a turn (a move to another
        room) cost ten times a refusal, and the cost of a candidate last
        time says little (a way out that was shut is open now). A candidate
        of unknown cost counts as the mean of those known.
        """
        known = [self.costs[i] for t in self.templates for i, _o in t.candidates if i in self.costs]
        usual = sum(known) / len(known) if known else 0.0
        dearest = sorted(((self.costs.get(i, usual), n, i, objs) for n, t in enumerate(self.templates)
                          for i, objs in t.candidates), key=lambda c: (-c[0], c[1]))
        size = max(1, -(-len(dearest) // max(1, count)))
        out = []
        # Built in one pass: cut with parted, each chunk had walked every template twice (a few ms a search).
        for at in range(0, len(dearest), size):
            by_template: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
            for _cost, n, i, objs in dearest[at : at + size]:
                by_template.setdefault(n, []).append((i, objs))
            runs = tuple(TemplateRun(t.overlay, t.machine, t.ram_slots, t.stack_slots, tuple(by_template[n]), t.key)
                         for n, t in enumerate(self.templates) if n in by_template)
            out.append(DispatchJob(self.start, self.prompt_at, self.stop, self.world_globals, runs))
        return out

    def parted(self, these: set[int]) -> tuple[DispatchJob, DispatchJob]:
        """(the job of the candidates at ``these`` indices, the job of the others)."""
        def keeping(inside: bool) -> DispatchJob:
            runs = (replace(t, candidates=tuple(c for c in t.candidates if (c[0] in these) == inside))
                    for t in self.templates)
            return replace(self, templates=tuple(t for t in runs if t.candidates))
        return keeping(True), keeping(False)

    def indices(self) -> list[int]:
        """The candidates' indices in the order they are run."""
        return [i for t in self.templates for i, _objs in t.candidates]


def packed(job: DispatchJob, start_key: bytes, sent: Sent) -> tuple:
    """``job`` as a worker is sent it: the state and each template's overlay and machine by key once it has them."""
    runs = tuple((sent.offer(t.key, (t.overlay, t.machine)), t.ram_slots, t.stack_slots, t.candidates)
                 for t in job.templates)
    return sent.offer(start_key, job.start.state), job.start.halted, job.prompt_at, job.stop, job.world_globals, runs


def unpacked(message: tuple, kept: Kept) -> DispatchJob:
    """The job a worker was sent by :func:`packed`."""
    start, halted, prompt_at, stop, world_globals, runs = message
    snapshot = Snapshot(kept.take(start), halted)
    templates = []
    for entry, ram_slots, stack_slots, candidates in runs:
        overlay, machine = kept.take(entry)
        templates.append(TemplateRun(overlay, machine, ram_slots, stack_slots, candidates, entry[0]))
    return DispatchJob(snapshot, prompt_at, stop, world_globals, tuple(templates))


def run_job(calls: FrotzCalls, job: DispatchJob, reading: ObjectsReading,
            done: Callable[[int], None] | None = None) -> list[Dispatched]:
    """Dispatch every candidate of ``job`` on ``calls``' interpreter (left anywhere); one result each, in order.

    Args:
        calls: The interpreter's low-level calls.
        job: The candidates and what they are run from.
        reading: How an outcome is read.
        done: Told the number of candidates run so far after each one (a
            worker process's progress, so a candidate that kills it is known).
    """
    vm = calls.vm
    digest = reading.digester()
    raw = reading.raw_globals
    start = job.start
    as_before: Outcome = (digest(start.ram()), raw(start.ram()), start.position())
    # The world's bits of each global, as the bytes of the raw globals lie (big-endian words).
    world = np.asarray(job.world_globals, dtype=">u2").view(np.uint8)

    def quiet(at_entry: bytes, now: bytes) -> frozenset[int]:
        """The world globals that differ between two raw globals (none: the action changed nothing there)."""
        if at_entry == now:
            return frozenset()
        differ = (np.frombuffer(at_entry, dtype=np.uint8) ^ np.frombuffer(now, dtype=np.uint8)) & world
        return frozenset((np.flatnonzero(differ) >> 1).tolist())  # a byte's global: its word

    out: list[Dispatched] = []
    for template in job.templates:
        base = template.base(start)
        original = calls.arm(job.stop[0]) if job.stop is not None else 0
        try:
            for index, objs in template.candidates:
                began = time.perf_counter()
                one = _run_one(calls, base, template, objs, job, (original, digest, raw, quiet), as_before, index)
                out.append((*one, time.perf_counter() - began))
                if done is not None:
                    done(len(out))
        finally:
            if job.stop is not None:
                calls.disarm(job.stop[0], original)
    vm.restore(start)
    return out


def _run_one(calls: FrotzCalls, base: Snapshot, template: TemplateRun, objs: tuple[int, ...], job: DispatchJob,
             reading: tuple[int, Callable, Callable, Callable], as_before: Outcome, index: int
             ) -> tuple[int, Outcome | None, frozenset[int] | None, bool]:
    """One candidate from ``base`` (see :func:`run_job`), but for its time."""
    vm = calls.vm
    vm.rewind(template.named(base, objs))
    original, digest, raw, quiet = reading
    went_on = None
    if job.stop is None:
        calls.run_to_read()
    else:
        at_entry = base.state[0]  # what the rewind just wrote: no need to read it back
        entry_digest, entry_globals = digest(at_entry), raw(at_entry)
        calls.run_past(job.stop[0], original, job.stop[1])
        if calls.stopped_at(job.stop[0]):
            now = vm.ram()
            if digest(now) == entry_digest:
                went_on = quiet(entry_globals, raw(now))
                if not went_on:
                    return index, as_before, None, True
            calls.go_on(job.stop[0], original)
    at = vm.position()
    if vm.halted() or at != job.prompt_at:
        return index, None, went_on, False  # a question inside the action, a halt, or the end: typing tells
    ram = vm.ram()
    objects = digest(ram)
    return index, (objects if objects else HALTED, raw(ram), at), went_on, False
