"""Two worker processes that play a valid-action search's candidates, for every game of this process.

A search plays hundreds of candidates, and each costs the story's own Z-code
(in C, which a thread can run beside another) and a few microseconds of
Python around it (which a thread cannot: the twin interpreter's thread and
the game's share one lock). On a ZIL story the Python is a third of a
candidate, so two threads gained a tenth. Two processes run both halves
side by side, and a candidate that kills its interpreter outright (Frotz
divides by zero after reporting it: SIGFPE, which no Python code can catch)
kills a worker, not the application: the worker is replaced and the
candidate counted as no action.

The workers are shared by every game of the process (the app's game, the
agent's forks, the tests'), started by the first search, which waits for
them (about 0.2 s). Each worker keeps an interpreter for the last few
stories it was asked about. ``ZORKTUI_SEARCH_WORKERS=0`` turns them off, and
searches then use the twin thread (see :class:`zorktui.engine.actions.valid_actions.ActionFinder`).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import mmap
import os
import struct
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from zorktui.core.scratch import scratch_file
from zorktui.engine.actions.batch import HALTED, Outcome, play_batch
from zorktui.engine.actions.dispatch_run import Dispatched, DispatchJob, packed, run_job, unpacked
from zorktui.engine.calibrate.compass import Compass
from zorktui.engine.vm.frotz_calls import FrotzCalls
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.worker.channel import Channel
from zorktui.engine.worker.kept import Kept, Sent, key_of
from zorktui.engine.world.fingerprint import ObjectsReading

#: How many stories' interpreters a worker keeps (least recently searched dropped).
KEPT_STORIES = 4
#: Seconds to wait for a worker to load (about 0.2 s on a quiet machine).
READY_TIMEOUT = 30.0
#: Seconds to wait for a replacement worker after one died.
RESTART_TIMEOUT = 60.0
#: Workers that may die in one batch; the batch's other commands then count as no action.
MAX_DEATHS = 8
#: Chunks a dispatch job is cut into per worker (see SearchWorkers.dispatch).
DISPATCH_CHUNKS = 3
_ENV_SWITCH = "ZORKTUI_SEARCH_WORKERS"
#: The folder holding the zorktui package this process imported (a checkout, or site-packages).
#: Where the machine "waits" after a command that killed its worker (no real position is 0, 0).
DIED = (0, 0)
#: Where it "waits" after a command left unplayed once a batch has killed too many workers.
GAVE_UP = (1, 0)


class WorkerError(RuntimeError):
    """A worker failed for a reason of its own (not a command that killed it); the search goes on without workers."""


@dataclass(frozen=True)
class StorySetup:
    """What a worker needs to play a game's candidates.

    Attributes:
        key: Names this setup among all the process's games (see :func:`story_setup`).
        path: The story file.
        seed: The interpreter's random seed.
        reading: How an outcome is read.
        compass: Inform's compass, if the story has one.
    """

    key: str
    path: str
    seed: int
    reading: ObjectsReading
    compass: Compass | None


def story_setup(path: str, seed: int, reading: ObjectsReading, compass: Compass | None) -> StorySetup:
    """A :class:`StorySetup`, keyed by what it holds.

    A game's forks (a planner makes hundreds) read outcomes alike and so
    share one key: a worker keeps one setup for all of them, and a command
    that killed a worker in one is known in the others.
    """
    path = os.path.abspath(path)  # the workers may have been started from another folder
    content = hashlib.blake2b(digest_size=12)
    content.update(f"{path}|{seed}|{reading.span}|{reading.globals}|{compass!r}".encode())
    content.update(reading.index.tobytes())
    if reading.mask is not None:
        content.update(reading.mask.tobytes())
    return StorySetup(content.hexdigest(), path, seed, reading, compass)


class _Progress:
    """How many commands of its batch a worker has finished: four bytes of a file both map.

    Written after every command, read by the parent only when the worker
    has died, to tell which command killed it.
    """

    def __init__(self, path: str, create: bool = False) -> None:
        self.path = path
        if create:
            with open(path, "wb") as f:
                f.write(b"\0\0\0\0")
        with open(path, "r+b") as f:
            self._map = mmap.mmap(f.fileno(), 4)

    @property
    def value(self) -> int:
        return int(struct.unpack_from("<i", self._map)[0])

    @value.setter
    def value(self, count: int) -> None:
        struct.pack_into("<i", self._map, 0, count)

    def close(self) -> None:
        self._map.close()


def _no_action(setup: StorySetup, start: Snapshot, at: tuple[int, int]) -> Outcome:
    """The outcome given to a command not played to its end: halted, globals as at ``start``."""
    return HALTED, start.ram()[setup.reading.globals].tobytes(), at


def _serve(conn_in: Connection, conn_out: Connection, progress: _Progress) -> None:
    """A worker's loop: set stories up, play batches, until told to stop or the pipe closes."""
    setups: dict[str, StorySetup] = {}
    interpreters: OrderedDict[tuple[str, int], Interpreter] = OrderedDict()
    callers: dict[str, FrotzCalls] = {}  # per story, its interpreter's low-level calls (for dispatch)
    kept = Kept()
    conn_out.send(("ready",))

    def done(count: int) -> None:
        progress.value = count

    while True:
        try:
            message = conn_in.recv()
        except (EOFError, OSError):
            return
        kind = message[0]
        if kind == "stop":
            return
        if kind == "setup":
            setup: StorySetup = message[1]
            setups[setup.key] = setup
            continue
        progress.value = 0
        try:
            setup = setups[message[1]]
            vm = _interpreter(interpreters, setup)
            if kind == "dispatch":
                job = unpacked(message[2], kept)
                calls = callers.get(setup.path)
                if calls is None or calls.vm is not vm:
                    callers[setup.path] = calls = FrotzCalls(vm)
                reply: list = run_job(calls, job, setup.reading, done)
            else:
                _kind, _key, offered, halted, lifted_offered, commands = message
                start = Snapshot(kept.take(offered), halted)
                lifted = Snapshot(kept.take(lifted_offered)) if lifted_offered is not None else None
                reply = play_batch(vm, start, commands, setup.reading, setup.compass, lifted, done)
        except Exception as error:  # noqa: BLE001 - a fault of ours (or the file gone): reported, not mistaken for the story's
            conn_out.send(("error", repr(error)))
            continue
        conn_out.send(reply)


def _interpreter(interpreters: OrderedDict[tuple[str, int], Interpreter], setup: StorySetup) -> Interpreter:
    """A worker's interpreter for ``setup``'s story, loaded if it has none (the least recently used dropped)."""
    story = (setup.path, setup.seed)
    vm = interpreters.pop(story, None)
    if vm is None:
        vm = Interpreter(setup.path, setup.seed)
        vm.reset()
    interpreters[story] = vm
    while len(interpreters) > KEPT_STORIES:
        _story, old = interpreters.popitem(last=False)
        old.close()
    return vm


class _Worker(Channel):
    """One worker process (``python -m zorktui.engine.actions.search_workers``), its pipes and its progress file."""

    def __init__(self) -> None:
        path = scratch_file("search-progress")
        self.progress = _Progress(path, create=True)
        super().__init__("zorktui.engine.actions.search_workers", path)
        self.ready = False
        self.stories: set[str] = set()
        self.sent = Sent()

    def poll_ready(self, timeout: float = 0.0) -> bool:
        """Whether the worker has loaded (waiting up to ``timeout`` seconds for it)."""
        if not self.ready and self.process.poll() is None and self.conn.poll(timeout):
            try:
                self.ready = self.conn.recv() == ("ready",)
            except (EOFError, OSError):
                self.ready = False
            if self.ready:  # both have it mapped: the name is no longer needed, and nothing is left behind
                with contextlib.suppress(OSError):
                    os.unlink(self.progress.path)
        return self.ready

    def _introduce(self, setup: StorySetup) -> None:
        if setup.key not in self.stories:
            self.conn_out.send(("setup", setup))
            self.stories.add(setup.key)

    # States and entries go once a worker, then by key (see zorktui.engine.worker.kept).
    def send_batch(self, setup: StorySetup, start: Snapshot, lifted: Snapshot | None, commands: list[str]) -> None:
        self._introduce(setup)
        offered = self.sent.offer(key_of(start.state), start.state)
        self.conn_out.send(("play", setup.key, offered, start.halted,
                            self.sent.offer(key_of(lifted.state), lifted.state) if lifted is not None else None, commands))

    def send_dispatch(self, setup: StorySetup, job: DispatchJob, start_key: bytes) -> None:
        self._introduce(setup)
        self.conn_out.send(("dispatch", setup.key, packed(job, start_key, self.sent)))

    def stop(self) -> None:
        self.close()
        self.progress.close()
        with contextlib.suppress(OSError):
            os.unlink(self.progress.path)


class SearchWorkers:
    """Two worker processes that play candidates; see the module docstring."""

    def __init__(self, count: int = 2) -> None:
        self._lock = threading.Lock()
        self._workers = [_Worker() for _ in range(count)]
        # Per game (setup key), the commands that killed a worker.
        self._killers: dict[str, set[str]] = {}
        #: How many workers were replaced after one died in a batch.
        self.replaced = 0

    def ready(self) -> bool:
        """Whether every worker has loaded (never waits)."""
        return bool(self._workers) and all(w.poll_ready() for w in self._workers)

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> bool:
        """Whether every worker has loaded, waiting up to ``timeout`` seconds for them."""
        return bool(self._workers) and all(w.poll_ready(timeout) for w in self._workers)

    def play(self, setup: StorySetup, start: Snapshot, lifted: Snapshot | None,
             commands: list[str], split: bool = True, sent: Callable[[], None] = lambda: None) -> list[Outcome]:
        """Play ``commands`` from ``start``, shared between the workers; outcomes in order.

        Interleaved shares (rather than halves) keep the workers even: two-object
        commands, the dearest, come last. Without ``split``, the first worker plays
        them all (too small to be worth two hand-overs). ``sent``: told once sent.
        """
        killers = self._killers.setdefault(setup.key, set())
        if killers & set(commands):  # not played again: each would cost a worker
            played = [c for c in commands if c not in killers]
            outcomes = iter(self.play(setup, start, lifted, played, split, sent) if played else [])
            dead = _no_action(setup, start, DIED)
            return [dead if c in killers else next(outcomes) for c in commands]
        with self._lock:
            ways = len(self._workers) if split else 1
            shares = [commands[i::ways] if i < ways else [] for i in range(len(self._workers))]
            for i, share in enumerate(shares):
                if share:
                    self._send(i, functools.partial(_Worker.send_batch, setup=setup, start=start, lifted=lifted,
                                                    commands=share))
            sent()
            try:
                results = [self._collect(i, setup, start, lifted, share) if share else []
                           for i, share in enumerate(shares)]
            except WorkerError:
                self._fresh_workers()
                raise
        out: list[Outcome] = [(b"", b"", (0, 0))] * len(commands)
        for i, result in enumerate(results[:ways]):
            out[i::ways] = result
        killers.update(c for c, outcome in zip(commands, out, strict=False) if outcome[2] == DIED)
        return out

    def dispatch(self, setup: StorySetup, job: DispatchJob) -> list[Dispatched]:
        """Dispatch ``job``'s candidates on the workers (see :mod:`zorktui.engine.actions.dispatch_run`).

        The job is cut into :data:`DISPATCH_CHUNKS` chunks a worker, each
        handed to whichever worker is free: no worker waits for the other
        when a few candidates cost far more than the rest. A candidate that
        kills a worker is given no outcome (typing tells, and a command that
        kills a worker typed is never played again); the rest of its chunk
        goes back in line.
        """
        queue = job.chunks(DISPATCH_CHUNKS * len(self._workers))
        start_key = key_of(job.start.state)
        out: list[Dispatched] = []
        deaths = 0
        with self._lock:
            busy: dict[int, DispatchJob] = {}

            def give(w: int) -> None:
                if queue:
                    busy[w] = chunk = queue.pop(0)
                    self._send(w, lambda worker: worker.send_dispatch(setup, chunk, start_key))

            for w in range(len(self._workers)):
                give(w)
            try:
                while busy:
                    by_conn = {id(self._workers[w].conn): w for w in busy}
                    for ready in wait([self._workers[w].conn for w in busy]):
                        w = by_conn[id(ready)]
                        chunk = busy.pop(w)
                        try:
                            reply = self._workers[w].conn.recv()
                        except (EOFError, OSError):
                            reply = None
                        if isinstance(reply, list):
                            out += reply
                        elif reply is not None:  # the worker's own failure, not the story's
                            raise WorkerError(f"valid-action worker failed: {reply[1]}")
                        else:
                            order = chunk.indices()
                            fatal = min(self._workers[w].progress.value, len(order) - 1)
                            out.append((order[fatal], None, None, False, 0.0))
                            deaths += 1
                            left = chunk.parted(set(order[fatal + 1 :]))[0]
                            if deaths >= MAX_DEATHS:  # what is left counts as typing's to tell
                                out += [(i, None, None, False, 0.0) for c in [left, *queue] for i in c.indices()]
                                queue = []
                            elif len(left):
                                queue.insert(0, left)
                            self._replace(w)
                        give(w)
            except WorkerError:
                self._fresh_workers()
                raise
        return out

    def killed_by(self, setup: StorySetup) -> frozenset[str]:
        """The commands that have killed a worker playing this game (never played again)."""
        return frozenset(self._killers.get(setup.key, ()))

    def _collect(self, index: int, setup: StorySetup, start: Snapshot, lifted: Snapshot | None,
                 share: list[str]) -> list[Outcome]:
        """The outcomes of worker ``index``'s share (already sent to it).

        A worker that dies in a command (its progress says which) is
        replaced; that command is no action, and the others it had not
        answered for are played by the new one.
        """
        pending = list(range(len(share)))  # positions in ``share`` of the commands the worker was sent
        outcomes: dict[int, Outcome] = {}
        deaths = 0
        while True:
            worker = self._workers[index]
            try:
                reply = worker.conn.recv()
            except (EOFError, OSError):
                reply = None
            if isinstance(reply, list):
                outcomes.update(zip(pending, reply, strict=False))
                return [outcomes[i] for i in range(len(share))]
            if reply is not None:  # the worker's own failure, not the story's
                raise WorkerError(f"valid-action worker failed: {reply[1]}")
            fatal = pending[min(worker.progress.value, len(pending) - 1)]
            outcomes[fatal] = _no_action(setup, start, DIED)
            pending.remove(fatal)
            deaths += 1
            if deaths >= MAX_DEATHS:
                # A story that kills interpreter after interpreter: what is left counts as no action
                # (played here, one of them would take the application down).
                outcomes.update((i, _no_action(setup, start, GAVE_UP)) for i in pending)
                pending = []
            self._replace(index)
            if not pending:
                return [outcomes[i] for i in range(len(share))]
            self._workers[index].send_batch(setup, start, lifted, [share[i] for i in pending])

    def _send(self, index: int, send: Callable[[_Worker], None]) -> None:
        """Send to worker ``index`` with ``send``; a worker that died between searches is replaced first."""
        try:
            send(self._workers[index])
        except (OSError, ValueError):
            self._replace(index)
            send(self._workers[index])

    def _fresh_workers(self) -> None:
        """Replace every worker: a worker's reply may still be waiting in its pipe, and no stale reply may be read."""
        for worker in self._workers:
            worker.stop()
        self._workers = [_Worker() for _ in self._workers]

    def _replace(self, index: int) -> None:
        """Start a new worker in place of worker ``index`` and wait for it."""
        self._workers[index].stop()
        self._workers[index] = worker = _Worker()
        self.replaced += 1
        if not worker.poll_ready(RESTART_TIMEOUT):
            raise WorkerError("a valid-action worker process could not be restarted")

    def stop(self) -> None:
        """Stop the workers."""
        with self._lock:
            for worker in self._workers:
                worker.stop()
            self._workers = []


_shared: SearchWorkers | None = None
_shared_lock = threading.Lock()


def enabled() -> bool:
    """Whether searches may use worker processes (``ZORKTUI_SEARCH_WORKERS=0`` says not; POSIX only)."""
    return os.environ.get(_ENV_SWITCH, "1") != "0" and (os.cpu_count() or 1) > 1 and os.name == "posix"


def shared_workers() -> SearchWorkers | None:
    """The process's workers, started on the first call (None where they are off or cannot start)."""
    global _shared
    if not enabled():
        return None
    with _shared_lock:
        if _shared is None:
            try:
                _shared = SearchWorkers()
            except (OSError, RuntimeError):
                return None
            atexit.register(_shared.stop)
        return _shared


def main(argv: list[str]) -> None:
    """A worker process's entry: the pipe from the parent, the pipe to it, the progress file."""
    conn_in = Connection(int(argv[0]), writable=False)
    conn_out = Connection(int(argv[1]), readable=False)
    _serve(conn_in, conn_out, _Progress(argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])
