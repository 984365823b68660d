"""A v3 story compiled from our own ZIL with zorkie: facts from the standard status globals."""

import json

from paths import ZIL, ZIL_EXPECTED, ZIL_WALKTHROUGH, commands


def test_facts_match_expected_after_each_command(game_of) -> None:
    expected = json.loads(ZIL_EXPECTED.read_text())
    game = game_of(ZIL)
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


def test_victory_detected(game_of) -> None:
    game = game_of(ZIL)
    for command in commands(ZIL_WALKTHROUGH):
        t = game.step(command)
        if t.done:
            break
    assert t.done and t.victory and t.score == 30


def test_undo_works_in_v3(game_of) -> None:
    game = game_of(ZIL)
    t1 = game.step("take wick")
    assert t1.score == 2
    back = game.undo()
    assert back == game.opening
    assert game.step("look").score == 0


def test_valid_actions_spell_out_words_the_v3_dictionary_cuts(game_of) -> None:
    """v3 keeps six letters ("logboo"); commands use the whole word from the object's name, and still work."""
    game = game_of(ZIL)
    seen: list[str] = []
    for command in commands(ZIL_WALKTHROUGH):
        seen += game.valid_actions()
        if game.step(command).done:
            break
    words = {w for action in seen for w in action.split()}
    assert "logbook" in words and "logboo" not in words
    game = game_of(ZIL)
    for command in commands(ZIL_WALKTHROUGH):
        valid = game.valid_actions()
        spelled = [a for a in valid if "logbook" in a.split()]
        if spelled:
            assert game.peek(spelled[0]).state_hash != game.current.state_hash
            break
        game.step(command)
