"""The offline explorer and the critic on a door that is shut, then opened (a TextWorld cooking game)."""

from __future__ import annotations

from typing import Any

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
