"""A v3 story compiled from our own ZIL with zorkie: facts from the standard status globals."""

import json

from paths import ZIL, ZIL_EXPECTED, ZIL_WALKTHROUGH, commands
from zorktui.engine.game import Game


def test_facts_match_expected_after_each_command() -> None:
    expected = json.loads(ZIL_EXPECTED.read_text())
    game = Game(ZIL)
    assert game.max_score == expected["max_score"] == 30
    steps = expected["steps"]
    assert [s["command"] for s in steps] == commands(ZIL_WALKTHROUGH)
    for step in steps:
        t = game.step(step["command"])
        assert t.location.name == step["room"], step
        assert (t.score, t.moves) == (step["score"], step["moves"]), step
        assert [o.name for o in t.inventory] == step["inventory"], step
        assert not t.observation.startswith(">") and "Moves:" not in t.observation
    assert t.score == 30


def test_victory_detected() -> None:
    game = Game(ZIL)
    for command in commands(ZIL_WALKTHROUGH):
        t = game.step(command)
        if t.done:
            break
    assert t.done and t.victory and t.score == 30


def test_undo_works_in_v3() -> None:
    game = Game(ZIL)
    t1 = game.step("take wick")
    assert t1.score == 2
    back = game.undo()
    assert back == game.opening
    assert game.step("look").score == 0
