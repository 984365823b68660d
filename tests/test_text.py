"""Game text: the narrative apart from status lines and prompts, and the banners that end a game."""

from __future__ import annotations

import pytest

from zorktui.engine.vm.text import ending_in, split_reply

# jericho's Frotz draws a v3 status line as " <room>", padding, "Score: N", padding, "Moves: M".
V3_STATUS = " Foyer of the Opera House" + " " * 90 + "Score: 0" + " " * 16 + "Moves: 1" + " " * 14


def test_a_v3_status_line_after_the_prompt_is_cut() -> None:
    # Infocom games: the prompt, then the status line as it stood, then the reply.
    parts = split_reply("> West of House" + " " * 80 + "Score: 0     Moves: 1   \nWest of House\nAn open field.\n\n")
    assert parts.narrative == "West of House\nAn open field." and parts.prompted


def test_a_v3_status_line_drawn_on_request_is_cut() -> None:
    # PunyInform calls @show_status before its own prompt: the line arrives first, with no ">".
    parts = split_reply(V3_STATUS + "\nCloakroom\nThe walls of this small room...\n\n>")
    assert parts.narrative == "Cloakroom\nThe walls of this small room..."


def test_a_v3_time_status_line_is_cut() -> None:
    status = " Your Bedroom" + " " * 80 + "Time:  9:05 am" + " " * 10
    assert split_reply(status + "\nThe alarm rings.\n\n>").narrative == "The alarm rings."


def test_a_status_window_glued_to_the_last_question_is_cut() -> None:
    # The game is over: no prompt, and the upper window's text follows the question on its line.
    raw = ("*** You have won ***\n\nWould you like to RESTART, RESTORE or QUIT?  Foyer bar"
           + " " * 60 + "Score: 2" + " " * 40 + "Moves: 7" + " " * 30)
    parts = split_reply(raw)
    assert parts.narrative.endswith("RESTORE or QUIT?") and parts.status == "Foyer bar Score: 2 Moves: 7"


def test_the_status_after_an_inform_prompt_is_cut() -> None:
    parts = split_reply("You can't go that way.\n\n>" + " " * 60 + "Cliff TopScore: 0Moves: 3")
    assert parts.narrative == "You can't go that way." and parts.status == "Cliff TopScore: 0Moves: 3"


@pytest.mark.parametrize("text", [
    "Score: 3 out of 10, Moves: 4 so far.",                       # a game's own sentence, no wide gaps
    "The scoreboard reads:\nHome   Score: 3   Moves: 4\nWell played.",  # not the first line
])
def test_the_games_own_words_about_scores_stay(text: str) -> None:
    assert split_reply(text + "\n\n>").narrative == text


@pytest.mark.parametrize(("text", "expected"), [
    ("*** You have died ***\n\nIn that game you scored 0 out of a possible 70, in 3 turns.\n\n"
     "Would you like to RESTART, RESTORE a saved game or QUIT?", (True, False, True)),
    ("*** The End ***\n\nWould you like to RESTART, RESTORE a saved game, QUIT or UNDO the last command?",
     (True, True, False)),
    ("*** You have won ***\n(You may keep exploring.)", (True, True, False)),   # a win ends it, asked or not
    # Zork: a death followed by a new life is a death but not the end; a newspaper's headline is neither.
    ("****  You have died  ****\n\nNow, let's take a look here... Well, you probably deserve another chance.",
     (False, False, True)),
    ("(Taken)\n** U.S. News and Dungeon Report **\n\nFAMED ADVENTURER TO EXPLORE", (False, False, False)),
    ("****  You have died  ****\n\nYour score is 10.\nWould you like to restart the game from the beginning, "
     "restore a saved game position, or end this session of the game?\n(Type RESTART, RESTORE, or QUIT):",
     (True, False, True)),
])
def test_an_ending_is_a_banner_that_closes_the_game(text: str, expected: tuple[bool, bool, bool]) -> None:
    assert ending_in(text) == expected


def test_a_quote_box_comes_out_one_row_a_line() -> None:
    # Inform's ``box`` draws in the upper window; jericho lays the rows end to end on one
    # line, each padded to the window's width (jericho's reply to "take coin" in our own
    # test story with a box added to the coin).
    raw = ("\nYou pick it up.\n" + " " * 60 + "Money is a kind of poetry." + " " * 30 + "-- Wallace Stevens"
           + " " * 30 + "\n[The score has just gone up by five points.]\n\n>" + " " * 128 + "PorchScore: 5Moves: 1")
    assert split_reply(raw).narrative == (
        "You pick it up.\nMoney is a kind of poetry.\n-- Wallace Stevens\n\n[The score has just gone up by five points.]")


def test_ascii_art_keeps_its_indentation() -> None:
    # TextWorld's logo indents its rows by up to 23 spaces: art, not a window's rows.
    art = ("                    ________  ________\n"
           "                   |        \\|        \\\n"
           "                    \\$$$$$$$$| $$$$$$$$")
    assert split_reply(art + "\n\n>").narrative == art


def test_a_take_refused_for_the_load_is_told_from_other_refusals() -> None:
    from zorktui.engine.vm.text import refused_for_load

    assert refused_for_load("Your load is too heavy.")                          # ZIL
    assert refused_for_load("You're holding too many things already!")          # ZIL
    assert refused_for_load("You're carrying too many things already.")        # Inform 6 and 7
    assert not refused_for_load("The boulder is too heavy to carry.")           # too heavy whatever is carried
    assert not refused_for_load("That's hardly portable.")
    assert not refused_for_load("A valiant attempt.")
