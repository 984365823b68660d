"""The bundled game, played through the engine: walkthrough, death, darkness, facts."""

import pytest
from paths import BUNDLED, BUNDLED_DEATH, BUNDLED_WALKTHROUGH, commands

from zorktui.engine.game import Game


@pytest.fixture
def game(game_of):
    return game_of(BUNDLED)


def test_opening_facts(game: Game) -> None:
    t = game.opening
    assert t.turn == 0 and t.command is None
    assert game.story.title == "THE KEEPER'S LIGHT"
    assert game.max_score == 70
    assert (t.score, t.moves, t.reward) == (0, 0, 0)
    assert t.location is not None and t.location.name == "Landing Stage"
    assert t.inventory == ()
    assert "flask of tea" in [o.name for o in t.visible]
    assert not t.done and not t.observation.rstrip().endswith(">")


def test_walkthrough_reaches_maximum(game: Game) -> None:
    total = 0
    for command in commands(BUNDLED_WALKTHROUGH):
        t = game.step(command)
        total += t.reward
        assert "Score:" not in t.observation and not t.observation.rstrip().endswith(">")
    assert t.done and t.victory and not t.dead
    assert t.score == 70 == total == game.max_score
    assert t.moves == 38
    assert t.location.name == "Lamp Room"


def test_inventory_and_location_track_play(game: Game) -> None:
    t = game.step("take flask")
    assert [o.name for o in t.inventory] == ["flask of tea"]
    assert "flask of tea" not in [o.name for o in t.visible]
    t = game.step("north")
    assert t.location.name == "Shingle Path" and t.moves == 2
    t = game.step("xyzzy")
    assert t.moves == 2  # a parser error takes no time


def test_death(game: Game) -> None:
    for command in commands(BUNDLED_DEATH):
        t = game.step(command)
    assert t.done and t.dead and not t.victory


def test_darkness_is_reported_with_the_real_room(game: Game) -> None:
    for command in ["north", "east", "down"]:
        t = game.step(command)
    assert t.dark
    assert t.location.name == "Sea Cave"
    assert "dark" in t.observation.lower()


def test_state_hash_ignores_time(game: Game) -> None:
    game.step("look")
    before = game.step("look").state_hash
    assert game.step("wait").state_hash == before
    assert game.step("inventory").state_hash == before
    assert game.step("take flask").state_hash != before
