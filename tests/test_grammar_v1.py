"""Inform's version 1 grammar tables (Inform 5 and early Inform 6 games), read like version 2 ones.

``tests/data/inform/gv1.z5`` is our own two-room story built with grammar
version 1 (``build_gv1.sh``); ``dark.z5`` is built from the same library with
version 2, so the two tables must give the same command forms.
"""

from __future__ import annotations

from paths import DARK_FIRST, OLD_GRAMMAR

from zorktui.engine.game import Game
from zorktui.engine.zmachine.inform_grammar import read_grammar


def _forms(path: object) -> set[tuple[str, tuple[bool, ...]]]:
    game = Game(path)  # type: ignore[arg-type]
    try:
        lines = read_grammar(game.zm)
        assert lines is not None
        return {(line.words, line.held) for line in lines}
    finally:
        game.close()


def test_version_1_tables_give_the_forms_version_2_tables_give() -> None:
    old, new = _forms(OLD_GRAMMAR), _forms(DARK_FIRST)
    # Both keep "give tea to nessa" (the form people write) over "give nessa tea", which
    # version 1 lacks; version 2 reaches "exit {0}"'s action by "get off {0}" too, and keeps that.
    assert old - new == {("exit {0}", (False,))}
    assert new - old == set()
    assert {("give {0} to {1}", (True, False)), ("show {0} to {1}", (True, False))} <= new
    assert {"unlock {0} with {1}", "insert {0} into {1}", "take {0}"} <= {words for words, _held in old}


def test_valid_actions_on_a_version_1_story_include_its_two_object_commands(game_of) -> None:
    # Before version 1 was read, templates came from asking the parser: three times the time
    # on the bundled game rebuilt this way, and "unlock door with key" was never found.
    game = game_of(OLD_GRAMMAR)
    assert game.step("take key").inventory[0].name == "iron key"
    found = set(game.valid_actions())
    assert {"unlock oak door with iron key", "insert iron key into cardboard box", "drop iron key"} <= found
    assert not any(a.startswith(("go key", "go box")) for a in found)
    steps = [game.step(c) for c in ["unlock door with key", "open door", "north", "take gem"]]
    assert steps[2].location.name == "Vault" and steps[3].score == 5 and steps[3].reward == 5


def test_a_refused_move_after_a_two_object_command_changes_nothing(game_of) -> None:
    # The parser's second noun is left set by "take key from box" and cleared by the next
    # command; calibration learns it from a two-object probe, so the refusal is no change.
    game = game_of(OLD_GRAMMAR)
    for command in ["take key", "put key in box", "take key from box"]:
        assert game.step(command).changed
    assert not game.step("north").changed
