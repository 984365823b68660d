"""Deaths, endings and questions read from what a story does, on stories worded unlike any other.

tests/data/any holds three stories of ours (Inform 6, ZIL, Inform 7) whose
deaths, offers of a new life and questions are each worded differently from
every other story and from the usual phrasings; ``expected.json`` says, step
by step, what a player would say happened. The engine must agree on each step.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from zorktui.engine.asking import offered_answers

ANY = Path(__file__).resolve().parent / "data" / "any"
EXPECTED = json.loads((ANY / "expected.json").read_text(encoding="utf-8"))["stories"]
#: Confirmations of the story's own quit and restart verbs, which the session never plays (see session/meta.py):
#: only the question itself is read there.
META_RUNS = {"chalk_meta.cmds", "ferry_meta.cmds"}
RUNS = [(name, run) for name, story in EXPECTED.items() for run in story["runs"]]


def _commands(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


@pytest.mark.parametrize(("name", "run"), RUNS, ids=[f"{n}-{r}" for n, r in RUNS])
def test_each_step_reads_as_a_player_would(name: str, run: str, game_of) -> None:
    story = EXPECTED[name]
    expected: list[dict[str, Any]] = story["runs"][run]["steps"]
    game = game_of(ANY / story["story"])
    commands = _commands(ANY / run)
    assert commands == [step["command"] for step in expected]
    for command, want in zip(commands, expected, strict=False):
        turn = game.step(command)
        seen = {"dead": turn.dead, "done": turn.done, "question": turn.question, "score": turn.score}
        if run in META_RUNS:
            seen = {"question": turn.question, "score": turn.score}
            want = {k: want[k] for k in seen}
        else:
            want = {k: want[k] for k in seen}
        assert seen == want, f"{run}: after {command!r}: {turn.observation[-200:]!r}"
        if turn.question:
            # The question alone: no status window glued to it, no prompt.
            assert not re.search(r"Score:|\d+/\d+\s*$|>\s*$", turn.observation), turn.observation[-200:]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_a_walkthrough_to_the_full_score_is_a_victory(name: str, game_of) -> None:
    story = EXPECTED[name]
    walkthrough = next(run for run in story["runs"] if run.endswith(".walkthrough"))
    game = game_of(ANY / story["story"])
    turns = [game.step(command) for command in _commands(ANY / walkthrough)]
    assert turns[-1].done and turns[-1].victory and not turns[-1].dead
    assert turns[-1].score == story["max_score"]
    assert not any(t.dead for t in turns)


def test_a_question_offers_yes_and_no_then_its_own_words() -> None:
    assert offered_answers('Will you have it?"\n[Y/N]') == ["yes", "no", "y", "n"]
    assert offered_answers("Shall I?\n(aye or nay)") == ["yes", "no", "aye", "nay"]
    assert offered_answers("Type AGAIN to begin, or anything else to stop:") == ["yes", "no", "again"]
    # Never the story's file verbs.
    assert offered_answers("You may RESTART, RESTORE a saved place, or QUIT.") == ["yes", "no", "restart", "quit"]


def test_a_new_life_after_an_offer_is_not_a_second_death(game_of) -> None:
    story = EXPECTED["chalk"]
    game = game_of(ANY / story["story"])
    turns = [game.step(command) for command in _commands(ANY / "chalk_mend.cmds")]
    offer = next(t for t in turns if t.question)
    assert offer.dead and not offer.done
    taken_up = turns[turns.index(offer) + 1]
    assert not taken_up.dead and taken_up.reward == -10 and taken_up.location is not None
    assert taken_up.location.name == "Tollhouse"


def test_a_second_command_loop_is_not_a_question_and_its_ways_out_are_valid(game_of) -> None:
    """A room that reads commands in a loop of its own (echo.inf): a direction there moves the player."""
    from paths import COMMAND_LOOP

    game = game_of(COMMAND_LOOP)
    hall = game.step("east")
    assert hall.location is not None and hall.location.name == "Roaring Hall"
    assert not hall.question and not hall.done  # not a question: no yes or no is offered as its answer
    assert game.answers() == ()
    valid = game.valid_actions()
    assert {"north", "west"} <= set(valid) and "yes" not in valid and "no" not in valid
    echoed = game.step("take medal")
    assert not echoed.question and echoed.score == 0 and "roars back" in echoed.observation
    assert game.step("hush").observation.startswith("The cataract falls quiet.")
    assert game.step("take medal").score == 10
