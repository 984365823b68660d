"""A worker process and the two pipes to it: the parent's side of every zorktui worker.

A plain subprocess rather than :mod:`multiprocessing`: its "spawn" start runs
the parent's main script again in the child, and a user's script without a
``__main__`` guard would have played its game twice. The worker imports the
very zorktui this process runs (a checkout, a benchmark's older revision),
reads nothing from the terminal and writes nothing to it (Textual draws on
this process's stderr), and works in a scratch folder of this process, where
Frotz writes a transcript when a story turns scripting on.

A worker ends when its pipe from the parent closes, so one left behind by a
parent that was killed outright ends as soon as it next waits for a message.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
from importlib.resources import files
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from zorktui.core.errors import GameError, RecordError, StoryError, ZorkTuiError
from zorktui.core.scratch import scratch_folder

#: The folder holding the zorktui package this process imported (a checkout, or site-packages).
PACKAGE_ROOT = str(Path(str(files("zorktui"))).resolve().parent)

#: The workers' working folder, made with the first worker and removed when this process exits.
_folder: str | None = None


#: zorktui's own errors a worker's answer may carry, raised again here as the same class.
_ERRORS: dict[str, type[ZorkTuiError]] = {cls.__name__: cls for cls in (GameError, StoryError, RecordError, ZorkTuiError)}


class WorkerDied(RuntimeError):
    """The worker process ended while it was being asked something (killed, or crashed in C)."""


def work_folder() -> str:
    """This process's folder for its workers (removed at exit, with whatever a story wrote there)."""
    global _folder
    if _folder is None or not os.path.isdir(_folder):
        _folder = str(scratch_folder("search-workers"))
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return _folder


def how_it_ended(returncode: int | None) -> str:
    """A worker's end in a few words: "killed by SIGKILL", "exited with status 1", "still running"."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with status {returncode}"


class Channel:
    """Starts ``python -m MODULE FD_IN FD_OUT [ARGS...]`` and talks to it over two pipes.

    Args:
        module: The worker's module (its ``main`` reads the two descriptors).
        args: More arguments for the worker.
        env: Environment variables set for the worker over this process's own.
    """

    def __init__(self, module: str, *args: str, env: dict[str, str] | None = None) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = {**os.environ, **(env or {})}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", module, str(to_child_r), str(from_child_w), *args],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, close_fds=True, env=env, cwd=work_folder())
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self.conn_out = Connection(to_child_w, readable=False)
        self.conn = Connection(from_child_r, writable=False)

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self.process.pid

    def send(self, message: Any) -> None:
        """Send one message.

        Raises:
            WorkerDied: The worker has gone (its pipe is closed).
        """
        try:
            self.conn_out.send(message)
        except (OSError, ValueError) as exc:
            raise WorkerDied(self.ended()) from exc

    def receive(self, timeout: float | None = None) -> Any:
        """The worker's next message (waiting up to ``timeout`` seconds; None: for as long as it lives).

        Raises:
            WorkerDied: The worker ended first, or sent nothing in time (it is then stopped).
        """
        try:
            if timeout is not None and not self.conn.poll(timeout):
                self.process.kill()
                raise WorkerDied(f"did not answer within {timeout:.0f} s")
            return self.conn.recv()
        except (EOFError, OSError) as exc:
            raise WorkerDied(self.ended()) from exc

    def ask(self, message: Any) -> Any:
        """Send a message and wait for the answer.

        Raises:
            WorkerDied: As :meth:`send` and :meth:`receive`.
        """
        self.send(message)
        return self.receive()

    def open_host(self, host: str, spec: Any, what: str) -> Any:
        """Open the worker's host (``"zorktui.MODULE:CLASS"``, see :mod:`zorktui.engine.worker.serve`); what it reports.

        Raises:
            WorkerDied: As :meth:`ask`.
            ZorkTuiError: The host refused (its own error, the same class), or failed (a
                :class:`GameError` saying ``what`` failed).
        """
        return self._unpack(self.ask(("open", host, spec)), what)

    def call(self, name: str, *args: Any, what: str) -> Any:
        """Call the host's method ``name`` in the worker and return its answer.

        Raises:
            WorkerDied: As :meth:`ask`.
            ZorkTuiError: As :meth:`open_host`.
        """
        return self._unpack(self.ask(("call", name, args)), what)

    @staticmethod
    def _unpack(reply: tuple[Any, ...], what: str) -> Any:
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "raise":
            raise _ERRORS.get(reply[1], GameError)(reply[2])
        raise GameError(f"{what} failed: {reply[-1]}")

    def ended(self) -> str:
        """How the worker ended, in a few words (waiting a moment for a dying one)."""
        try:
            code = self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            return "stopped answering"
        return how_it_ended(code)

    def close(self) -> None:
        """Stop the worker (asking first, then killing one that does not stop within a second)."""
        with contextlib.suppress(OSError, ValueError):
            self.conn_out.send(("stop",))
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.conn.close()
        self.conn_out.close()
