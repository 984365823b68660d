"""Large values sent to a worker once and named by a key after: the parent's record and the worker's store.

A valid-action search hands its state (about 40 KB on an Inform 7 story)
and each template's entry (a few KB) to the workers in several messages.
Sent whole each time, a search wrote about half a megabyte through the
pipes. Now the first message carries the value and later ones only its key.

Both sides keep the same number of keys, least recently used dropped first,
and see the same keys in the same order (the worker reads the parent's
messages in the order they were written), so the parent always knows
which keys the worker still holds. A worker replaced after a failure starts
with an empty store, and its parent's record starts empty with it.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from typing import Any, TypeVar

#: Keys each side keeps: a story's templates and the last searches' states.
KEPT_KEYS = 256
#: Values whose keys are remembered by identity (a search hands one state to both workers, several times).
_RECENT = 8
_recent: OrderedDict[int, tuple[Any, bytes]] = OrderedDict()
_recent_lock = threading.Lock()  # the typed candidates' thread and the search's both send

_T = TypeVar("_T")


def key_of(value: Any) -> bytes:
    """A key naming a value that pickles and is not changed after (its digest: equal values, equal keys).

    The last few values' keys are remembered by identity: hashing a 40 KB
    state costs about 50 µs, and a search sends the same one a dozen times.
    """
    with _recent_lock:
        hit = _recent.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
    key = hashlib.blake2b(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).digest()
    with _recent_lock:
        _used(_recent, id(value), (value, key), _RECENT)
    return key


def _used(store: OrderedDict[Any, _T], key: Any, value: _T, limit: int) -> None:
    """Put ``key`` last in ``store`` with ``value``, dropping the least recently used past ``limit``.

    Both sides of a worker's pipe keep their keys by this one rule, so they drop the same ones.
    """
    store[key] = value
    store.move_to_end(key)
    while len(store) > limit:
        store.popitem(last=False)


class Sent:
    """The parent's record of the keys one worker holds."""

    def __init__(self, limit: int = KEPT_KEYS) -> None:
        self._keys: OrderedDict[bytes, None] = OrderedDict()
        self._limit = limit

    def offer(self, key: bytes, value: Any) -> tuple[bytes, Any]:
        """(key, value) to send where the worker lacks the key, else (key, None)."""
        known = key in self._keys
        _used(self._keys, key, None, self._limit)
        return (key, None) if known else (key, value)


class Kept:
    """A worker's store of the values its parent named by key (the same size and order as :class:`Sent`)."""

    def __init__(self, limit: int = KEPT_KEYS) -> None:
        self._values: OrderedDict[bytes, Any] = OrderedDict()
        self._limit = limit

    def take(self, offered: tuple[bytes, Any]) -> Any:
        """The value of an offer from :meth:`Sent.offer`: the one it carries (kept), else the one kept before."""
        key, value = offered
        if value is None:
            value = self._values[key]
        _used(self._values, key, value, self._limit)
        return value
