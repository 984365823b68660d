"""Values sent to a worker once and named by key after (zorktui.engine.worker.kept)."""

from __future__ import annotations

import pickle
import random

import pytest

from zorktui.engine.worker.kept import Kept, Sent, key_of


def test_the_worker_always_has_what_a_key_names_and_only_new_values_travel() -> None:
    """A long mixed run of keys, each side with room for a few: the store answers every key, values go once each time.

    The offers travel pickled, as through the pipe, so the worker's store
    holds copies, never the parent's objects.
    """
    rng = random.Random(7)
    values = {key_of(n): f"value {n}" for n in range(12)}
    keys = list(values)
    sent, kept = Sent(limit=5), Kept(limit=5)
    travelled = 0
    for _ in range(2000):
        key = rng.choice(keys[:6]) if rng.random() < 0.8 else rng.choice(keys)
        offer = pickle.loads(pickle.dumps(sent.offer(key, values[key])))
        travelled += offer[1] is not None
        assert kept.take(offer) == values[key]
    assert 12 <= travelled < 1000


def test_a_key_the_worker_never_had_is_an_error_not_a_wrong_value() -> None:
    """A worker replaced after a failure starts empty: a key alone fails there (the parent starts anew with it)."""
    sent = Sent()
    sent.offer(b"k", "state")
    with pytest.raises(KeyError):
        Kept().take(sent.offer(b"k", "state"))
