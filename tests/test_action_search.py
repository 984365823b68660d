"""Valid actions searched beside the game: play never waits for a search."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from zorktui.session.factory import SessionOptions, build_session


def test_a_command_is_played_while_a_search_is_under_way(tmp_path: Path) -> None:
    session = build_session(SessionOptions(session=tmp_path / "s", seed=1)).session
    try:
        session.play("south")  # a room not searched yet
        found: list[tuple[str, ...]] = []
        # Hold the search where it has copied the state and let go of the game.
        session.thinker.search._lock.acquire()
        searching = threading.Thread(target=lambda: found.append(session.valid_actions()))
        searching.start()
        time.sleep(0.2)
        assert searching.is_alive()
        played = threading.Thread(target=session.play, args=("look",))
        played.start()
        played.join(10)
        assert not played.is_alive(), "a command waited for the valid-action search"
        assert session.current.command == "look"
        session.thinker.search._lock.release()
        searching.join(60)
        # The answer is that of the state the search began in, and the game knows it too.
        assert found and found[0]
        assert session.game.valid_actions_cached() == found[0]
    finally:
        if session.thinker.search._lock.locked():
            session.thinker.search._lock.release()
        session.close()
