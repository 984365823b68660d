"""Commands that take no time are outside the world, and are no valid action (``ActionFinder._timeless``).

``timeless.z5`` (our own, ``tests/data/inform/timeless.inf``) has "chime",
whose action changes a setting and sets the library's meta flag although
the dictionary does not mark the word meta (as an Inform 7 story's out of
world actions, or a ZIL game's game verbs: no flag to read); "push bell",
which changes the world and takes a turn; and "vanish", which ends the game.
"""

from tests.paths import TIMELESS


def test_a_setting_that_takes_no_time_is_no_valid_action(game_of) -> None:
    game = game_of(TIMELESS)
    chime = game.step("chime")
    assert chime.moves == 0 and "Chimes are now one" in chime.observation
    game.undo()
    found = game.valid_actions()
    assert "chime" not in found
    assert "push bronze bell" in found
    assert "vanish" in found


def test_moves_and_the_waiting_place_are_read_in_place(game_of) -> None:
    game = game_of(TIMELESS)
    at_prompt = game.vm.position()
    game.step("push bell")
    assert game.vm.position() == at_prompt
    game.step("vanish")
    assert game.current.done
    # The ending asks its question from elsewhere, so an ending that took no time is still an action.
    assert game.vm.position() != at_prompt
