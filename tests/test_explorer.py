"""The offline explorer: a door shut, then opened (a TextWorld cooking game); a room left with things untried."""

from __future__ import annotations

from typing import Any

from paths import BUNDLED

from zorktui.agent.explorer import Explorer
from zorktui.agent.playlog import PlayLog
from zorktui.agent.situation import MapView, Situation
from zorktui.engine.game import Game
from zorktui.session.factory import SessionOptions, build_session


def test_a_way_shut_before_is_tried_again_once_a_door_is_opened(tw_game: Any) -> None:
    # This generated game starts in a pantry whose only way out, south, is a closed door.
    path, _ = tw_game("cooking", seed=2)
    built = build_session(SessionOptions(story=path, agent="explore", mode="human"))
    s = built.session
    try:
        first = s.play("south")
        assert first.location.name == s.game.opening.location.name      # shut: still in the pantry
        s.play("open plain door")
        rooms = set()
        for _ in range(6):
            proposal = s.propose()
            assert proposal is not None
            rooms.add(s.accept().location.name)
        assert len(rooms) > 1, "the explorer stayed in the pantry after the door was opened"
        assert not any(c.command.startswith("close") for c in s.log.consequences[:4])
    finally:
        s.close()
        s.game.close()


def test_it_walks_back_to_a_room_that_offered_something_never_tried() -> None:
    # The bundled game: the kitchen (lantern, matches, the keeper) is passed through once;
    # where nothing is left to try, the explorer heads back there rather than pacing about.
    game = Game(BUNDLED)
    try:
        log = PlayLog(game.opening)
        for command in ["take flask", "north", "west"]:
            log.add(game.step(command))
        kitchen = log.current.location
        explorer = Explorer()
        in_kitchen = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=game.valid_actions()))
        assert in_kitchen.command.startswith("take ")             # it would take something, but walks on
        log.add(game.step("east"))
        # Back on the path with only the way it has already taken on offer.
        spent = Situation(turn=log.current, log=log, valid_actions=("west",), map=MapView(walks={kitchen.id: ("west",)}))
        back = explorer.suggest(spent)
        assert back.command == "west" and f"back to {kitchen.name}" in back.reflection, back
        # A fresh explorer never saw the kitchen's offer and has no reason to go back.
        assert "back to" not in Explorer().suggest(spent).reflection
    finally:
        game.close()
