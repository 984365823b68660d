"""What the world-state hash leaves out: bookkeeping, never the world."""

from __future__ import annotations

from typing import Any

import numpy as np
from paths import BUNDLED

from zorktui.engine.world.fingerprint import flickering_attributes


def test_an_attribute_flickering_on_several_objects_is_bookkeeping_one_object_is_not() -> None:
    base = np.zeros((5, 6), dtype=np.uint8)  # 5 objects, 6 attribute bytes (v4+)
    printed = base.copy()
    printed[1, 3] |= 0x01  # attribute 31 on object 2 ...
    printed[3, 3] |= 0x01  # ... and on object 4: what the library marks as mentioned
    clue = base.copy()
    clue[2, 0] |= 0x80  # attribute 0 on one object: may be a real effect (a clue marked read)
    assert flickering_attributes([base, printed, clue]) == {31}
    assert flickering_attributes([base]) == set()


def test_a_refusal_is_not_a_change_in_an_inform7_game(tw_game: Any, game_of) -> None:
    path, _truth = tw_game("cooking", seed=1)
    g = game_of(path, seed=1)
    for command in ("north", "west"):  # the kitchen: a table, a counter, a knife
        g.step(command)
    start = g.state()
    hashes = {}
    for command in ("drink table", "drink knife"):
        g.set_state(start)
        hashes[command] = g.step(command, undoable=False).state_hash
    # "The table is fixed in place." and "You need to take the knife first." leave the same
    # world: the library marked a different object as mentioned, nothing else. (A parser
    # global that only this room disturbs still tells them from "look": the finder learns
    # such globals from its own candidates, calibration from the opening room cannot.)
    assert hashes["drink table"] == hashes["drink knife"]
    g.set_state(start)
    valid = g.valid_actions()
    assert not any(a.startswith("drink ") for a in valid), valid
    assert "take knife from counter" in valid


def test_taking_stock_with_something_in_hand_changes_nothing(game_of) -> None:
    """The first list the library prints sets its list-style global: bookkeeping, not the world."""
    from paths import BUNDLED

    game = game_of(BUNDLED)
    taken = game.step("take flask")
    assert taken.changed
    for command in ("inventory", "look", "inventory"):
        turn = game.step(command)
        assert not turn.changed and turn.state_hash == taken.state_hash, command


def test_the_objects_digester_agrees_with_hashing_and_sees_a_change(game_of) -> None:
    """Remembered digests are reused only for memory equal to the letter."""
    from zorktui.engine.world.fingerprint import globals_of

    g = game_of(BUNDLED)
    fingerprint = g.fingerprint
    digest = fingerprint.objects_digester(remember=2)
    start = g.vm.snapshot()
    seen: dict[str, bytes] = {}
    # Refusals leave the objects alone; "take flask" moves one; repeats hit the memory.
    for command in ["eat boat", "take flask", "wait", "eat boat", "take flask", "look", "take flask"]:
        g.vm.restore(start)
        g.vm.play(command)
        ram = g.vm.ram()
        assert digest(ram) == fingerprint.objects_only(ram)
        seen[command] = digest(ram)
        kept = fingerprint.kept_globals(ram)
        plain = globals_of(g.zm, ram).copy()
        plain[sorted(fingerprint.noise_globals)] = 0
        assert np.array_equal(kept, plain)
    assert seen["take flask"] != seen["wait"]
    assert seen["eat boat"] == seen["wait"] == seen["look"]
    g.vm.restore(start)


def test_playing_a_command_leaves_memory_as_stepping_does(game_of) -> None:
    g = game_of(BUNDLED)
    start = g.vm.snapshot()
    g.vm.step("take flask")
    stepped = g.vm.ram().copy()
    g.vm.restore(start)
    g.vm.play("take flask")
    assert np.array_equal(g.vm.ram(), stepped)
    g.vm.restore(start)
