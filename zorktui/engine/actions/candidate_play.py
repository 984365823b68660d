"""Playing a valid-action search's candidates: on the search workers, a twin interpreter or here.

A mixin of :class:`zorktui.engine.actions.valid_actions.ActionFinder`, which holds the
state it uses (the game, the workers' setup, the twin, the commands known to
kill an interpreter). What comes back for each command is read in one go:
the objects' digest, the kept globals, the move counter and where the
machine then waits (a command that took no time is outside the world).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.actions.batch import HALTED, Outcome, play_batch
from zorktui.engine.actions.search_workers import (
    DIED,
    SearchWorkers,
    WorkerError,
    shared_workers,
    story_setup,
)
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.fingerprint import globals_table

if TYPE_CHECKING:
    from zorktui.engine.actions.dispatch import Dispatcher
    from zorktui.engine.actions.search_workers import StorySetup
    from zorktui.engine.actions.searched import SearchedGame
    from zorktui.engine.calibrate.compass import Compass
    from zorktui.engine.world.fingerprint import ObjectsReading

#: Below this many candidates a second thread costs more than it saves (handing
#: a batch to the worker costs well under one command's time).
PARALLEL_MIN = 4
#: The same for the worker processes: a second hand-over there is one message, no thread switch.
WORKERS_MIN = 2
#: Nor below this much work (seconds) in a batch: on a small ZIL story a
#: command costs a few microseconds, and handing half a batch to the twin
#: (a thread switch, the GIL passed back and forth) cost more than it saved.
PARALLEL_MIN_SECONDS = 0.002
#: What a search reads of one command played: objects digest, kept globals, move counter
#: (None: the story keeps none) and where the machine then waits (see ``_timeless``).
_Played = tuple[bytes, np.ndarray, int | None, tuple[int, int]]


class CandidatePlaying:
    """Plays batches of candidate commands from a snapshot and reads what each did."""

    # Held by the host (:class:`ActionFinder`), which sets them all in its ``__init__``.
    game: SearchedGame
    parallel: bool
    workers: bool
    _reading: ObjectsReading
    _compass: Compass | None
    _setup: StorySetup | None
    _deadly: set[str]
    _lifted: tuple[Snapshot, Snapshot] | None
    _per_command: float | None
    _twin: Interpreter | None
    _pool: ThreadPoolExecutor | None
    _vm_lock: threading.RLock
    dispatcher: Dispatcher

    def _play_on(self, vm: Interpreter, start: Snapshot, commands: list[str],
                 lifted: Snapshot | None = None) -> list[Outcome]:
        """Play each command from ``start`` on ``vm``: (objects hash, raw globals, where it waits) after each.

        With ``lifted`` (``start`` with Inform's compass out of scope), a
        command that names no direction is played from it, and the compass
        put back in the memory read after it (see :mod:`zorktui.engine.calibrate.compass`).
        """
        return play_batch(vm, start, commands, self._reading, self._compass, lifted)

    def _play(self, start: Snapshot, commands: list[str], sent: Callable[[], None] = lambda: None) -> list[_Played]:
        """Play each command from ``start``; results in the order of ``commands``.

        With ``parallel``, every other command goes to the twin interpreter in
        the worker thread. Interleaving (rather than halves) keeps the two
        shares even: two-object commands, the dearest, come last. ``sent`` is
        told once the commands are on their way (before this interpreter is
        waited for, where they are played on it).
        """
        if not commands:
            sent()
            return []
        deadly = self._deadly_ones()
        if deadly and not deadly.isdisjoint(commands):
            # Known to kill an interpreter: never played again, here least of all.
            played_ones = iter(self._play(start, [c for c in commands if c not in deadly], sent))
            dead: _Played = (HALTED, self.game.fingerprint.kept_globals(start.ram()), None, DIED)
            return [dead if c in deadly else next(played_ones) for c in commands]
        lifted = None
        if self._compass is not None:
            if self._lifted is None or self._lifted[0] is not start:
                self._lifted = (start, self._compass.lifted(start))
            lifted = self._lifted[1]
        began = time.perf_counter()
        worth_twin = self._per_command is None or len(commands) * self._per_command >= PARALLEL_MIN_SECONDS
        workers = self._search_workers() if self.parallel and self.workers else None
        split = len(commands) >= (WORKERS_MIN if workers is not None else PARALLEL_MIN) and worth_twin
        if workers is not None:
            # Every batch, however small: a command that kills an interpreter kills a worker, not us.
            # A small one goes to one worker alone (one hand-over instead of two).
            try:
                played = workers.play(self._story_setup(), start, lifted, commands, split=split, sent=sent)
            except WorkerError:
                self.workers = False  # this game searches on its own from now on
            else:
                self._deadly.update(c for c, outcome in zip(commands, played, strict=False) if outcome[2] == DIED)
                self._measured((2 if split else 1) * (time.perf_counter() - began), len(commands))
                return self._read(played, start)
        sent()
        with self._vm_lock:  # dispatch may be using the game's interpreter on the main thread meanwhile
            return self._play_here(start, commands, lifted, split, began)

    def _play_here(self, start: Snapshot, commands: list[str], lifted: Snapshot | None, split: bool,
                   began: float) -> list[_Played]:
        """Play ``commands`` on the game's interpreter (and the twin's, split) in this process."""
        if not self.parallel or not split:
            played = self._play_on(self.game.vm, start, commands, lifted)
            self._measured(time.perf_counter() - began, len(commands))
            return self._read(played, start)
        if self._twin is None:
            self._twin = self.game.vm.twin()
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="valid-actions")
            began = time.perf_counter()  # loading the twin is not what a command costs
        assert self._pool is not None
        theirs = self._pool.submit(self._play_on, self._twin, start, commands[1::2], lifted)
        mine = self._play_on(self.game.vm, start, commands[0::2], lifted)
        merged: list[Outcome] = [(b"", b"", (0, 0))] * len(commands)
        merged[0::2] = mine
        merged[1::2] = theirs.result()
        self._measured(2 * (time.perf_counter() - began), len(commands))
        return self._read(merged, start)

    def _parser_asked(self, start: Snapshot, command: str, idle: str) -> bool:
        """Whether ``command``, typed from ``start``, left the parser asking which thing it meant.

        Inform's parser asks "Which do you mean, the key or the American style
        key?" before any action: the command did nothing. A question an action
        asks ("Shall I split the floor?") comes after the action routine's
        entry. Where that routine is known (see :mod:`zorktui.engine.actions.dispatch`),
        the command is typed with a stop at its entry. Elsewhere, by what the
        story does with a command typed at the question: the parser takes it
        as a new one, while at an action's question or an ending's an idle
        command (``idle``: "look") is no answer and the story asks again. So
        the command is typed, then ``idle``: back at the prompt, it was the
        parser asking. The game's interpreter is left at ``start``.
        """
        vm = self.game.vm
        calls, routine = self.dispatcher.calls, self.dispatcher.routine
        with self._vm_lock:
            try:
                if calls is not None and routine is not None:
                    return calls.stop_at(start, command, routine) is None
                vm.restore(start)
                vm.step(command)
                if vm.halted():
                    return False
                vm.step(idle)
                return not vm.halted() and vm.position() == self.game.prompt_at
            finally:
                vm.restore(start)

    def _story_setup(self) -> StorySetup:
        """This game's story as the search workers know it (made on first use)."""
        if self._setup is None:
            self._setup = story_setup(self.game.vm.zcode_path, self.game.vm.seed, self._reading, self._compass)
        return self._setup

    def deadly(self, command: str) -> bool:
        """Whether ``command`` killed a search worker's interpreter in some state of this game (or a fork of it)."""
        return command in self._deadly_ones()

    def _deadly_ones(self) -> frozenset[str] | set[str]:
        """The commands known to kill an interpreter: this finder's, and the workers' for this game's forks."""
        if self._setup is None:
            return self._deadly
        workers = shared_workers()
        killed = workers.killed_by(self._setup) if workers is not None else frozenset()
        # Into the game's own set: a game refuses them by hand too, though its fork's search found them.
        self._deadly |= killed
        return self._deadly

    def _search_workers(self) -> SearchWorkers | None:
        """The process's search workers, loaded (the first search waits for them, about 0.2 s), or None where they are off."""
        workers = shared_workers()
        return workers if workers is not None and workers.wait_ready() else None

    def _read(self, played: list[Outcome], start: Snapshot) -> list[_Played]:
        """Per command: objects hash, kept globals (all read in one go), move counter and where it waits.

        A command after which the story asks a question ("Shall I split the
        floor?") has done something though the world is as it was: its hash
        is marked, so it is another moment than the prompt's. Waiting where
        the search began (a story's second command loop) is no such moment.
        """
        raws = [raw for _digest, raw, _at in played]
        table = globals_table(raws)
        kept = self.game.fingerprint.kept_globals_of(raws)
        moves_global = self._moves_global()
        moves = table[:, moves_global].tolist() if moves_global is not None else [None] * len(played)
        waits = (self.game.prompt_at, start.position())
        return [(digest + b"?" if at is not None and at not in waits else digest, row, m, at)
                for (digest, _raw, at), row, m in zip(played, kept, moves, strict=False)]

    def _moves_global(self) -> int | None:
        """The global counting moves, where the story keeps one (not a clock)."""
        facts = self.game.facts
        if not facts.status_globals or facts.time_game or not 0 <= facts.moves_global < 240:
            return None
        return facts.moves_global

    @staticmethod
    def _timeless(start_moves: int | None, idle: list[_Played], played: list[_Played]) -> list[bool]:
        """Per command, whether it took no time where passing time does: a command outside the world.

        Inform's meta verbs and ZIL's game verbs (Zork's VERBOSE, SCORE,
        SAVE) leave the move counter as it was, and so do settings a library
        or a story adds of its own (TextWorld's "restrict commands"): they
        change a flag, not the world, and are no action. The word lists of
        :func:`zorktui.engine.zmachine.verbs.is_meta` catch the usual ones by name;
        this catches them by what they do. Applies only where an idle command
        ("wait", "look") moves the counter on, and only to a command after
        which the machine waits where it does after that idle command: an
        ending takes no time either (TextWorld's winning "take coin"), but
        the game then asks its last question from elsewhere.

        Args:
            start_moves: The move counter before any command (None: the story keeps none).
            idle: What the idle commands gave.
            played: What each command judged gave.
        """
        ticked = [at for _h, _g, m, at in idle if m != start_moves]
        if start_moves is None or not ticked:
            return [False] * len(played)
        return [m == start_moves and at == ticked[0] for _h, _g, m, at in played]

    def _measured(self, seconds: float, commands: int) -> None:
        """Update the running cost of one command (seconds of one core)."""
        if commands:
            cost = seconds / commands
            self._per_command = cost if self._per_command is None else 0.7 * self._per_command + 0.3 * cost
