"""Inform's compass lifted out of scope while candidates that name no direction are tried.

The lifted search must find exactly what a search with the compass in place
finds; it only spares the parser a dozen objects per noun.
"""

from __future__ import annotations

import numpy as np
from paths import BUNDLED, ZIL

from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.calibrate.compass import find_compass


def test_the_compass_and_its_words_are_found_in_inform_only(game_of) -> None:
    game = game_of(BUNDLED)
    compass = find_compass(game.zm)
    assert compass is not None
    a, b = compass.link
    assert b - a == 2 and b <= game.zm.header.static_memory
    assert {"north", "n", "up", "ceiling", "floor", "in", "outside"} <= compass.words
    assert compass.names_a_direction("push boulder north") and compass.names_a_direction("examine Floor")
    assert not compass.names_a_direction("put lantern on mantelpiece")
    zil = game_of(ZIL)
    assert find_compass(zil.zm) is None


def test_something_moved_into_the_compass_is_played_again_in_place(game_of) -> None:
    game = game_of(BUNDLED)
    compass = find_compass(game.zm)
    assert compass is not None
    start = game.vm.snapshot()
    lifted = compass.lifted(start)
    a, b = compass.link
    assert not lifted.ram()[a:b].any() and start.ram()[a:b].any()
    after = np.array(lifted.ram(), copy=True)
    assert compass.put_back(after, start) and (after[a:b] == start.ram()[a:b]).all()
    after[a:b] = 1  # a thing now inside the compass
    assert not compass.put_back(after, start)


def test_full_searches_with_and_without_the_compass_agree(game_of) -> None:
    game = game_of(BUNDLED)
    lifted, kept = ActionFinder(game, parallel=False), ActionFinder(game, parallel=False)
    kept._compass = None
    try:
        assert lifted._compass is not None
        for command in ["take flask", "north", "west", "take lantern", "take matches", "up"]:
            lifted.forget()
            kept.forget()
            assert set(lifted.find()) == set(kept.find()), game.current.location
            game.step(command)
    finally:
        lifted.close()
        kept.close()
