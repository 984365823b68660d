"""Facts on stories unlike the bundled one: a first exit into the dark, calibration's own probes.

Each case comes from a story the engine had not met before (a 22-game
TextWorld sweep, Cloak of Darkness built with PunyInform); the stories here
are our own, made to show the same shape.
"""

from __future__ import annotations

from paths import BUNDLED, DARK_FIRST, DARK_START


def test_the_room_global_is_found_when_the_first_exit_leads_into_the_dark(game_of) -> None:
    # Inform points ``location`` at its darkness object in the cellar; a lit garden shows
    # which global follows the player. Taken from the cellar walk, score and moves had
    # been read from the globals after ``real_location`` (score 26, moves 19).
    game = game_of(DARK_FIRST)
    assert game.opening.location.name == "Porch" and game.opening.score == 0
    took = game.step("take coin")
    assert (took.score, took.moves, took.reward) == (5, 1, 5)
    cellar = game.step("north")
    assert cellar.location.name == "Cellar" and cellar.dark and cellar.moves == 2
    assert cellar.visible == ()  # the crate is there, but nothing can be seen in the dark
    back = game.step("south")
    assert back.location.name == "Porch" and not back.dark and back.score == 5


def test_the_room_global_is_found_when_the_story_opens_in_the_dark(game_of) -> None:
    # Only ``real_location`` follows the player out of the dark cellar; ``location`` shows
    # itself from the porch next door. Taken from the cellar, score read 28 and moves 26.
    game = game_of(DARK_START)
    opening = game.opening
    assert opening.location.name == "Cellar" and opening.dark and (opening.score, opening.moves) == (0, 0)
    assert opening.visible == ()
    porch = game.step("south")
    assert porch.location.name == "Porch" and not porch.dark and porch.moves == 1
    took = game.step("take coin")
    assert (took.score, took.moves, took.reward) == (5, 2, 5)


def test_looking_after_a_move_and_asking_the_score_change_nothing(game_of) -> None:
    # The first look after a move updates the library's note of where the last command
    # began; "score" sets the parser's meta flag. Neither is the world.
    game = game_of(BUNDLED)
    changed = [game.step(command).changed for command in ["north", "look", "score", "west", "look", "east"]]
    assert changed == [True, False, False, True, False, True]
