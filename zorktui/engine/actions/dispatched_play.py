"""Dispatched and typed candidates side by side: what goes which way, and dispatch judged against typing.

A mixin of :class:`zorktui.engine.actions.valid_actions.ActionFinder` (see
:mod:`zorktui.engine.actions.dispatch` for dispatch itself).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.actions.batch import HALTED
from zorktui.engine.actions.dispatch_run import Dispatched, DispatchJob, run_job
from zorktui.engine.actions.search_workers import WorkerError
from zorktui.engine.directions import ORDER, direction_of
from zorktui.engine.zmachine.verbs import PREFERRED, shape_rank

#: Seconds at most to wait for a batch typed ahead to reach the workers (see DispatchedPlaying._typing_ahead).
SENDING_WAIT = 1.0

if TYPE_CHECKING:
    from zorktui.engine.actions.candidate_play import _Played
    from zorktui.engine.actions.dispatch import Dispatcher
    from zorktui.engine.actions.search_workers import SearchWorkers, StorySetup
    from zorktui.engine.actions.searched import SearchedGame
    from zorktui.engine.vm.interpreter import Snapshot
    from zorktui.engine.world.fingerprint import ObjectsReading


def _plainness(command: str, template: str) -> tuple[int, int, int, int, int, int]:
    """Sort key choosing the plainest of commands with the same effect.

    A direction comes first, compass points before up, down, in and out
    ("west" over "in" and "enter" where all three lead through a window: a
    player moves by directions, and maps are drawn from them); then fewer
    things named ("wave mantle" over "insert mantle into key" where both
    only pick it up; what a thing is taken from does not count: it says
    where the thing is); then the command shape people write (see
    :data:`zorktui.engine.zmachine.verbs.SHAPES`: "put orange on chair" over "drop
    orange on chair", "take knife from table" over "take knife", "turn on
    lamp" over "switch lamp"); then fewer words (an object counts as one,
    however long its name), then the plainer verb ("take flask" over "eat
    flask").
    """
    words = command.split()
    direction = direction_of(command)
    way = ORDER.index(direction) if direction else len(ORDER)
    shape = template.split()
    things = sum(w.startswith("{") for w in shape) - (shape[-2:] == ["from", "{1}"])
    rank = PREFERRED.index(words[0]) if words[0] in PREFERRED else len(PREFERRED)
    return (way, things, shape_rank(template), len(shape), rank, len(command))


class DispatchedPlaying:
    """Plays a search's candidates by dispatch where it may and typed otherwise, and judges the two."""

    # Held by the host (:class:`ActionFinder`), which sets them all in its ``__init__``.
    game: SearchedGame
    parallel: bool
    workers: bool
    dispatcher: Dispatcher
    _reading: ObjectsReading
    _typist: ThreadPoolExecutor | None
    _vm_lock: threading.RLock
    #: Globals the library's actions keep books in: they differ where an action returns, yet the turn ends as idle.
    _action_books: set[int]
    #: Commands typed and found to do what dispatch did, each where the parser saw what it saw (see _disagrees).
    _confirmed: set[bytes]

    if TYPE_CHECKING:  # CandidatePlaying's, on the same host
        def _play(self, start: Snapshot, commands: list[str], sent: Callable[[], None] = ...) -> list[_Played]: ...
        def _read(self, played: list, start: Snapshot) -> list[_Played]: ...
        def _search_workers(self) -> SearchWorkers | None: ...
        def _story_setup(self) -> StorySetup: ...
        def deadly(self, command: str) -> bool: ...

    def _typing(self, start: Snapshot, commands: list[str]) -> Future[list[_Played]]:
        """Play ``commands`` typed: on the search workers from a thread where they run, else now.

        Meanwhile this thread learns what dispatch needs (the routine, the
        templates' entries) and weighs its sample; the dispatched job then
        takes its turn on the workers.
        """
        if self.dispatcher.active and (ahead := self._typing_ahead(start, commands)) is not None:
            return ahead
        done: Future[list[_Played]] = Future()
        done.set_result(self._play(start, commands))
        return done

    def _typing_ahead(self, start: Snapshot, commands: list[str], until_sent: bool = False
                      ) -> Future[list[_Played]] | None:
        """Play ``commands`` typed on the search workers from a thread (None where there are none).

        The search's idle baseline goes before the candidates are even
        listed (``until_sent``: this thread goes on once it is sent): the
        workers type it while this thread reads the room. The caller holds
        ``_vm_lock`` meanwhile, where it uses the interpreter: a worker that
        fails has the batch played on it.
        """
        if not (self.parallel and self.workers and self._search_workers() is not None):
            return None
        if self._typist is None:
            self._typist = ThreadPoolExecutor(max_workers=1, thread_name_prefix="typed-candidates")
        sent = threading.Event()

        def play() -> list[_Played]:
            try:
                return self._play(start, commands, sent.set)
            finally:
                sent.set()

        ahead = self._typist.submit(play)
        if until_sent:
            # Reading the room, this thread would otherwise keep the interpreter lock for Python's
            # whole switch interval (5 ms), and the workers would wait for the room to be read.
            sent.wait(SENDING_WAIT)
        return ahead

    def _dispatched(self, start: Snapshot, to_try: list[tuple[str, str, tuple[int, ...]]],
                    among: set[int]) -> dict[int, _Played]:
        """What dispatch gives for those of ``to_try`` at ``among`` it can take: {index: outcome as a search reads it}."""
        self.dispatcher.weigh()
        if not self.dispatcher.active or not among:
            return {}
        # Not the search's scratch (globals many candidates disturb): a puzzle flag many verbs set is among them,
        # and an action may set it long before the status line shows the points it gave.
        world = self.game.fingerprint.kept_mask()
        world[[g for g in self._action_books if g < len(world)]] = 0
        farm = self._farm if self.parallel and self.workers and self._search_workers() is not None else None
        with self._vm_lock:
            played = self.dispatcher.play(start, to_try, self._reading, world, among, farm)
            self.game.vm.restore(start)
        if not played:
            return {}
        indices = list(played)
        return dict(zip(indices, self._read([played[i] for i in indices], start), strict=True))

    def _farm(self, job: DispatchJob) -> list[Dispatched]:
        """Dispatch ``job`` on the search workers (here, where they fail for a reason of their own)."""
        workers = self._search_workers()
        if workers is not None:
            try:
                return workers.dispatch(self._story_setup(), job)
            except WorkerError:
                self.workers = False  # this game searches on its own from now on
        assert self.dispatcher.calls is not None
        return run_job(self.dispatcher.calls, job, self._reading)

    def _disagrees(self, start: Snapshot, to_try: list[tuple[str, str, tuple[int, ...]]],
                   dispatched: dict[int, _Played], typed: list[int], keys: list[bytes],
                   state_key: Callable[[bytes, np.ndarray], bytes], idle_keys: set[bytes], state: bytes,
                   parse_key: Callable[[int], bytes]) -> bool:
        """Judge dispatch against typing; True where a template was just refused (the search is run again).

        Candidates both dispatched and typed (their template on trial) are
        compared. Then the plainest command of each group of those that
        changed the world, if only dispatched, is typed: a listed action is
        one a person can type and that does what the group does.

        A command typed and agreeing is not typed again where the parser
        sees what it saw then (``parse_key``): the same words and, for a
        command naming things, those things and their holders as they were,
        among the same things held and in reach (a name two things fit).
        Dispatch runs the action from the state searched either way, so only
        the parse could tell the two apart.
        """
        judge = self.dispatcher
        was_typed = set(typed)
        refused = False
        for i, (h, g, _m, _at) in dispatched.items():
            if i in was_typed:
                # The same world, or no change either way (a refusal typed takes no turn where one dispatched may).
                mine = state_key(h, g)
                agreed = mine == keys[i] or (mine in idle_keys and keys[i] in idle_keys)
                if not agreed and i in judge.stopped and keys[i] not in idle_keys:
                    judge.missed_effect()
                    return True
                judge.judge(to_try[i][1], state, agreed)
                refused |= not agreed
        # Globals that kept a dispatched refusal running past the action though its turn ended as idle: books.
        for i, differs in judge.went_on.items():
            if keys[i] in idle_keys:
                self._action_books |= differs
        groups: dict[bytes, list[int]] = {}
        for i, k in enumerate(keys):
            if k not in idle_keys and not k.startswith(HALTED):
                groups.setdefault(k, []).append(i)
        unconfirmed = []
        for k, members in groups.items():
            plainest = min(members, key=lambda i: _plainness(to_try[i][0], to_try[i][1]))
            if plainest in dispatched and plainest not in was_typed:
                if parse_key(plainest) in self._confirmed:
                    judge.stats.confirmed_before += 1
                else:
                    unconfirmed.append((plainest, k))
        if unconfirmed:
            played = self._play(start, [to_try[i][0] for i, _k in unconfirmed])
            for (i, k), (h, g, _m, _at) in zip(unconfirmed, played, strict=True):
                if state_key(h, g) != k:
                    judge.refuse(to_try[i][1])
                    refused = True
                else:
                    self._confirmed.add(parse_key(i))
            judge.stats.confirmed += len(unconfirmed)
        return refused

