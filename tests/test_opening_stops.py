"""Stories that ask before play begins: a key to press, a question to answer.

Calibration and every fact need the command prompt. Before these were
answered, our test story's opening read score 26 and no location, and its
valid actions were "hug coin" and "inv wide".
"""

from __future__ import annotations

from paths import ASKS_FIRST, DARK_FIRST


def test_a_key_and_a_question_are_passed_and_shown(game_of) -> None:
    game = game_of(ASKS_FIRST)
    opening = game.opening
    assert opening.observation.startswith("[Press a key to begin.]\nHave you played before?\n> no\n\nWelcome.")
    assert opening.location.name == "Porch" and (opening.score, opening.moves) == (0, 0)
    took = game.step("take coin")
    assert (took.score, took.moves, took.reward) == (5, 1, 5) and took.inventory[0].name == "brass coin"
    assert set(game.valid_actions()) == {"drop brass coin", "south"}
    game.restart()
    assert game.current.observation == opening.observation and game.current.state_hash == opening.state_hash


def test_a_story_at_its_prompt_is_left_as_it_is(game_of) -> None:
    # "no" at the command prompt is a command like any other: the read it lands in is the same one.
    game = game_of(DARK_FIRST)
    assert game.opening.observation.startswith("DARK FIRST") and game.opening.moves == 0
    assert "rhetorical" not in game.opening.observation


def test_a_prompt_of_the_games_own_is_cut_with_the_status_window_after_it(game_of) -> None:
    # jericho glues the status window to the line the game waits on; with "What now?" for a
    # prompt, "What now?<spaces>Porch Score: 5 Moves: 1" had stayed at the end of every reply.
    game = game_of(ASKS_FIRST)
    took = game.step("take coin")
    assert took.observation == "Taken.\n\n[The score has just gone up by five points.]"
    moved = game.step("south")
    assert moved.observation == "Garden\nA small garden." and moved.location.name == "Garden"
    assert game.opening.observation.endswith("You can see a brass coin here.")


def test_a_command_that_stops_the_interpreter_is_no_valid_action_and_undo_recovers(game_of) -> None:
    # jericho's restore leaves Frotz's "halted" flag as it was: the valid-action search had
    # tried "crash" (an illegal opcode) and every command after it was refused, undo or not.
    game = game_of(ASKS_FIRST)
    assert "crash" not in game.valid_actions()
    assert game.step("south").location.name == "Garden"
    crashed = game.step("crash")
    assert crashed.done
    game.undo()
    assert game.step("north").location.name == "Porch"


def test_a_halted_interpreter_is_replaced_before_a_snapshot_goes_back_in(game_of) -> None:
    # Frotz can keep broken state past a runtime error (Zork III built from its source: every
    # command after a crashing candidate halted again), so a fresh one takes the snapshot.
    game = game_of(ASKS_FIRST)
    game.step("crash")
    assert game.vm.halted()
    game.undo()
    assert game.vm.revivals >= 1 and not game.vm.halted()
    assert game.step("south").location.name == "Garden"
