"""Valid actions searched beside the game, so that the person is never kept waiting by a search.

A search plays every candidate command from a snapshot of the game: 10 ms
on a small ZIL story, a few hundred on a first visit to a cluttered Inform
room. Run on the game itself it holds the game lock all that time, and a
command typed meanwhile waits for it. Here it runs on a fork of the game (its
own interpreter), set to a copy of the state: the game lock is held only
while that copy is taken. The fork shares the game's valid-action cache, so
what it finds the game knows too, and its finder is kept for the session,
so what it learns about the story's commands carries from state to state.
"""

from __future__ import annotations

import threading

from zorktui.engine.game_api import GameApi


class ActionSearch:
    """Finds the valid actions of a game's current state on a fork of the game.

    Args:
        game: The session's game.
        game_lock: The lock that guards the game (held only to copy its state).
    """

    def __init__(self, game: GameApi, game_lock: threading.RLock) -> None:
        self._game = game
        self._game_lock = game_lock
        # One search at a time on the fork; closing waits for the one in flight.
        self._lock = threading.Lock()
        self._fork: GameApi | None = None
        self._closed = False

    def current(self) -> tuple[str, ...]:
        """The valid actions of the game's state as it is now.

        The game may move on while the search runs; the answer is still that
        of the state the search began in (and kept in the cache for it).

        Raises:
            RuntimeError: The search was closed.
        """
        game = self._game
        with self._game_lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            cached = game.valid_actions_cached()
            if cached is not None:
                return cached
            state = game.state()
            if self._fork is None:
                self._fork = game.fork()
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            self._fork.set_state(state)
            return self._fork.valid_actions()

    def close(self) -> None:
        """Release the fork (after the search in flight, if any, ends)."""
        self._closed = True
        with self._lock:
            if self._fork is not None:
                self._fork.close()
                self._fork = None
