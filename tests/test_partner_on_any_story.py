"""The partner on a story nobody tuned it on: questions answered, the dark respected, and what the person reads true.

Played on THE CHALK WARREN (tests/data/any), a cave of ours whose deaths and
questions are worded unlike any other story's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from zorktui.agent import guards
from zorktui.agent.playlog import PlayLog
from zorktui.engine.directions import direction_of
from zorktui.memory import queries as q
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import Session, StopRules

CHALK = Path(__file__).resolve().parent / "data" / "any" / "chalk.z5"
#: From the Tollhouse to the Root Chamber below the hatch, the lamp carried and lit.
DOWN_WITH_LIGHT = ["take lamp", "north", "take key", "take flask", "south", "east", "unlock hatch with key",
                   "open hatch", "turn on lamp", "down"]


@contextmanager
def _session(tmp_path: Path) -> Iterator[Session]:
    s = build_session(SessionOptions(story=str(CHALK), agent="explore", mode="human", session=tmp_path / "s")).session
    try:
        yield s
    finally:
        s.close()
        s.game.close()


def test_at_an_offer_after_a_fall_the_partner_answers_and_never_walks(tmp_path: Path) -> None:
    with _session(tmp_path) as s:
        for command in ["north", "take key", "south", "east", "unlock hatch with key", "open hatch", "down", "north",
                        "north"]:
            s.play(command)
        assert s.current.question and s.current.dead and not s.current.done
        assert set(s.valid_actions()) == {"yes", "no"} and s.valid_actions()[-1] == "no"  # the one that ends, last
        proposal = s.propose()
        assert proposal is not None and proposal.command == "yes", proposal
        assert direction_of(proposal.command) is None
        # The critic's look-ahead plays both answers: "no" ends the story.
        assert s.critic is not None
        verdict = s.critic.judge("no", s.situation())
        assert verdict.fatal and not verdict.accepted
        # A direction typed at the question is no way tried, and in the dark the search's refused steps
        # are no ways refused (the way back up is open once there is light): nothing reads "blocked".
        s.play("west")
        assert s.current.question and s.memory is not None
        s.situation()  # hands the memory this state's valid actions, as a proposal does
        _, _, blocked = q.exits(s.memory)
        assert "west" not in blocked and "up" not in blocked, blocked
        taken_up = s.play(proposal.command)
        assert not taken_up.question and not taken_up.dead and taken_up.location is not None


def test_in_the_dark_it_lights_the_lamp_carried_and_never_puts_it_out(tmp_path: Path) -> None:
    with _session(tmp_path) as s:
        for command in DOWN_WITH_LIGHT:
            s.play(command)
        assert not s.current.dark
        assert s.critic is not None
        put_out = s.critic.judge("turn off lamp", s.situation())
        assert not put_out.accepted and put_out.grave and "dark" in " ".join(put_out.reasons)
        s.play("turn off lamp")
        assert s.current.dark
        situation = s.situation()
        assert situation.lighting == ("turn on hooded lamp",)
        proposal = s.propose()
        assert proposal is not None and proposal.command == "turn on hooded lamp", proposal
        assert "nothing gives light" not in (proposal.reflection or "")


def test_an_unlocked_hatch_is_opened_next(tmp_path: Path) -> None:
    with _session(tmp_path) as s:
        for command in ["take lamp", "north", "take key", "south", "east", "unlock hatch with key"]:
            s.play(command)
        proposal = s.propose()
        assert proposal is not None and proposal.command == "open wooden hatch", proposal


def test_a_pair_that_undoes_itself_is_not_tried_again(tmp_path: Path) -> None:
    with _session(tmp_path) as s:
        for command in ["take lamp", "north", "take flask", "south", "east", "fill flask", "empty flask"]:
            s.play(command)
        assert {"fill flask", "empty flask"} <= s.log.undone()
        for _ in range(4):
            proposal = s.propose()
            assert proposal is not None
            assert proposal.command not in ("fill flask", "empty flask"), proposal
            s.accept()


def test_a_command_that_changes_nothing_is_no_return_to_an_old_state(game_of) -> None:
    game = game_of(CHALK)
    log = PlayLog(game.opening)
    log.add(game.step("examine strongbox"))       # changes nothing
    report = guards.inspect(log)
    assert not report.revisit and not any("happened before" in w for w in report.warnings)
    for command in ["take lamp", "north", "take flask", "south", "east", "fill flask", "empty flask"]:
        log.add(game.step(command))                # the last two: back where play was, a real return
    assert guards.inspect(log).revisit


def test_the_explorer_wins_the_cave_without_a_death(tmp_path: Path) -> None:
    # The mask's question answered, the moss watered once the flask is full (it did nothing while empty),
    # the treasures banked and never taken out again.
    s = build_session(SessionOptions(story=str(CHALK), agent="explore", mode="autopilot", seed=1, knowledge=False,
                                     session=tmp_path / "s", stop=StopRules(steps=100, on_loop=False))).session
    try:
        s.autopilot.run(100)
        turns = s.log.turns
        assert turns[-1].victory and turns[-1].score == 70, (turns[-1].turn, turns[-1].score)
        assert not any(t.dead for t in turns)
        taken_back = [c.command for c in s.log.consequences if c.command.startswith("take ") and " from " in c.command
                      and c.command.split()[1] in {"amber", "silver", "jade", "opal"}]
        assert taken_back == []
    finally:
        s.close()
        s.game.close()


def test_a_question_in_play_is_answered_without_a_refusal(tmp_path: Path) -> None:
    # Dry Parcel (Inform 7): "Trust your weight to it?" Either answer leaves the world as the player may
    # have seen it before; neither is a loop, and the first the story offers is played.
    ferry = CHALK.with_name("ferry.z8")
    s = build_session(SessionOptions(story=str(ferry), agent="explore", mode="human", session=tmp_path / "s")).session
    try:
        for command in ["take parcel", "east", "pull rope"]:
            s.play(command)
        assert s.current.question and not s.current.dead
        # Both answers, though the world's hash sees neither change (Inform 7 keeps its map in an array).
        assert s.valid_actions() == ("yes", "no")
        proposal = s.propose()
        assert proposal is not None and proposal.command == "yes" and not proposal.refused, proposal
    finally:
        s.close()
        s.game.close()
