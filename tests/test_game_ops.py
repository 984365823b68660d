"""Undo, restart and named checkpoints."""

from pathlib import Path

import pytest
from paths import BUNDLED, ZIL, ZIL_WALKTHROUGH, commands

from zorktui.engine import GameError
from zorktui.engine.game import Game


def test_undo_more_than_100_levels(game_of) -> None:
    game = game_of(BUNDLED)
    seen = [game.current]
    for i in range(120):
        seen.append(game.step("take flask" if i % 2 == 0 else "drop flask"))
    for expected in reversed(seen[:-1]):
        assert game.undo() == expected
    assert game.current == game.opening
    with pytest.raises(GameError):
        game.undo()


def test_undo_n_and_replay_is_deterministic(game_of) -> None:
    game = game_of(ZIL)
    script = commands(ZIL_WALKTHROUGH)[:10]
    turns = [game.step(c) for c in script]
    game.undo(5)
    assert game.current == turns[4]
    again = [game.step(c) for c in script[5:]]
    assert [t.state_hash for t in again] == [t.state_hash for t in turns[5:]]
    assert [t.observation for t in again] == [t.observation for t in turns[5:]]


def test_restart(game_of) -> None:
    game = game_of(BUNDLED)
    game.step("take flask")
    t = game.restart()
    assert t == game.opening and t.inventory == ()
    assert game.step("take flask").score == 0


def test_checkpoint_round_trip_across_games(tmp_path: Path, game_of) -> None:
    game = game_of(BUNDLED)
    for c in ["take flask", "north", "west"]:
        game.step(c)
    saved = game.current
    game.save_checkpoint(tmp_path, "kitchen", note="before the tea")
    game.step("give flask to nessa")
    assert game.current.score == 10
    other = game_of(BUNDLED)
    t = other.restore_checkpoint(tmp_path, "kitchen")
    assert t.location == saved.location and t.inventory == saved.inventory
    assert t.state_hash == saved.state_hash and t.turn == saved.turn
    assert other.step("give flask to nessa").score == 10
    assert [c["name"] for c in Game.checkpoints(tmp_path)] == ["kitchen"]
    # Restoring is itself undoable.
    assert other.undo(2) == other.opening
    # A folder named by a string, as a user would write it, does as well as a Path.
    game.save_checkpoint(str(tmp_path / "by-name"), "kitchen")
    assert other.restore_checkpoint(str(tmp_path / "by-name"), "kitchen").state_hash == game.current.state_hash
    assert [c["name"] for c in Game.checkpoints(str(tmp_path / "by-name"))] == ["kitchen"]


def test_checkpoint_errors(tmp_path: Path, game_of) -> None:
    game = game_of(BUNDLED)
    with pytest.raises(GameError):
        game.save_checkpoint(tmp_path, "../escape")
    with pytest.raises(GameError):
        game.restore_checkpoint(tmp_path, "absent")
    Game(ZIL).save_checkpoint(tmp_path, "v3")
    with pytest.raises(GameError, match="another story"):
        game.restore_checkpoint(tmp_path, "v3")
    (tmp_path / "v3.npz").write_bytes(b"garbage")
    with pytest.raises(GameError, match="damaged"):
        Game(ZIL).restore_checkpoint(tmp_path, "v3")


def test_bad_commands_refused(game_of) -> None:
    game = game_of(ZIL)
    for bad in ["", "   ", "look\nlook", "x" * 300]:
        with pytest.raises(GameError):
            game.step(bad)
    assert game.current == game.opening
