"""The worker's side: open one host object, then answer calls on it until told to stop or the pipe closes.

Messages from the parent:

* ``("open", "zorktui.MODULE:CLASS", spec)``: build the host from ``spec``;
  answered ``("ok", host.opened())``;
* ``("call", NAME, ARGS)``: call the host's public method; answered
  ``("ok", RESULT)``, ``("raise", ERROR_CLASS, MESSAGE)`` for one of zorktui's
  own errors (to be raised again in the parent as the same class), or
  ``("fail", TEXT)`` for a fault of the worker's own;
* ``("stop",)``.
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from zorktui.core.errors import ZorkTuiError


def _host_class(path: str) -> Any:
    module, _, name = path.partition(":")
    if not module.startswith("zorktui.") or not name:
        raise ValueError(f"not a zorktui host: {path!r}")
    return getattr(importlib.import_module(module), name)


def _answer(call: Callable[[], Any]) -> tuple[Any, ...]:
    """Call ``call`` (made and called at once, in one message's turn of the loop) and put its outcome in a reply."""
    try:
        return ("ok", call())
    except ZorkTuiError as exc:
        return ("raise", type(exc).__name__, str(exc))
    except Exception as exc:  # noqa: BLE001 - a fault of ours: the parent says it in one line
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return ("fail", f"{type(exc).__name__}: {exc} ({where.filename.rsplit('/', 1)[-1]}:{where.lineno})")


def _reply(message: tuple[Any, ...], host: Any) -> tuple[Any, tuple[Any, ...]]:
    """The host (opened by this message, or as it was) and the reply to one message other than stop."""
    kind = message[0]
    if kind == "open" and host is None:
        _kind, path, spec = message
        reply = _answer(lambda: _host_class(path)(spec))
        return (reply[1], _answer(reply[1].opened)) if reply[0] == "ok" else (None, reply)
    if kind == "call" and host is not None and not message[1].startswith("_"):
        _kind, name, args = message
        return host, _answer(lambda: getattr(host, name)(*args))
    return host, ("fail", f"unexpected message {kind!r}")


def serve(conn_in: Connection, conn_out: Connection) -> None:
    """Answer the parent's messages (see the module docstring) until it says stop or goes away."""
    host: Any = None
    while True:
        try:
            message = conn_in.recv()
        except (EOFError, OSError):
            return
        if message[0] == "stop":
            return
        host, reply = _reply(message, host)
        try:
            conn_out.send(reply)
        except (OSError, ValueError):
            return
        except Exception as exc:  # noqa: BLE001 - an answer that cannot be pickled: said, not a silent hang
            conn_out.send(("fail", f"cannot send the answer: {type(exc).__name__}: {exc}"))


def main(argv: list[str]) -> None:
    """A worker process's entry: the pipe from the parent and the pipe to it, as descriptors."""
    serve(Connection(int(argv[0]), writable=False), Connection(int(argv[1]), readable=False))
