"""The worker's side of a game in another process: a :class:`~zorktui.engine.game.Game` and the calls it answers.

Every call that moves the game answers with the turn that is current after
it and how many turns can be undone, which is all the parent keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zorktui.core.turn import Turn
from zorktui.engine.asking import Outcome
from zorktui.engine.game import Game
from zorktui.engine.game_api import GameState

#: What a move answers: the turn now current, and the undo depth after it.
Moved = tuple[Turn, int]


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to open the game: the story file, the seed and how far undo reaches."""

    path: str
    seed: int | None
    undo_levels: int


class GameHost:
    """A game played in this (worker) process, answering the parent's calls.

    Args:
        spec: The story, seed and undo depth.
    """

    def __init__(self, spec: GameSpec) -> None:
        self.game = Game(spec.path, seed=spec.seed, undo_levels=spec.undo_levels)

    def opened(self) -> dict[str, Any]:
        """What the parent keeps from the start: the opening, the score's maximum, the title the banner gave."""
        game = self.game
        return {"opening": game.opening, "max_score": game.max_score, "prompt_at": game.prompt_at,
                "title": game.story.title}

    def _moved(self) -> Moved:
        return self.game.current, self.game.undo_depth

    # ------------------------------------------------------- moves (journaled by the parent)
    def step(self, command: str, undoable: bool) -> Moved:
        """Play one command."""
        self.game.step(command, undoable=undoable)
        return self._moved()

    def undo(self, n: int) -> Moved:
        """Go back ``n`` turns."""
        self.game.undo(n)
        return self._moved()

    def restart(self) -> Moved:
        """Start the story again."""
        self.game.restart()
        return self._moved()

    def set_state(self, state: GameState) -> Moved:
        """Jump to a state (undo history untouched)."""
        self.game.set_state(state)
        return self._moved()

    def jump(self, state: GameState) -> Moved:
        """Jump to a state, undoably (a checkpoint restored before)."""
        self.game.jump(state)
        return self._moved()

    def restore_checkpoint(self, folder: str, name: str) -> tuple[Turn, int, GameState]:
        """Restore a named checkpoint; also the state it gave, for the parent's journal."""
        self.game.restore_checkpoint(folder, name)
        return self.game.current, self.game.undo_depth, self.game.state()

    def replay(self, journal: list[tuple[str, tuple[Any, ...]]], current: Turn) -> Moved:
        """Play a journal of moves from the opening, in one call: how a new worker rebuilds the game.

        The parent's own record of the turn it had is put back as current:
        the same state, and the very record the session has (its observation
        as first read).
        """
        for name, args in journal:
            getattr(self, name)(*args)
        self.game.current = current if current.state_hash == self.game.current.state_hash else self.game.current
        return self._moved()

    # ------------------------------------------------------------------ questions
    def state(self) -> GameState:
        """The current state."""
        return self.game.state()

    def peek(self, command: str) -> Turn:
        """What a command would do, the game left as it was."""
        return self.game.peek(command)

    def save_checkpoint(self, folder: str, name: str, note: str) -> Path:
        """Save a named checkpoint."""
        return self.game.save_checkpoint(folder, name, note)

    def answers(self) -> tuple[Outcome, ...]:
        """Where each answer to the question asked now leads."""
        return self.game.answers()

    def findings(self) -> tuple[tuple[str, ...], dict[str, int], tuple[str, ...]]:
        """The current state's valid actions, where its directions lead, and its takes that moved nothing."""
        return self.game.findings()

    def valid_actions_cached(self) -> tuple[str, ...] | None:
        """The current state's valid actions if known."""
        return self.game.valid_actions_cached()

    def learn(self, state_hash: str, found: tuple[str, ...], destinations: dict[str, int],
              untaken: tuple[str, ...]) -> None:
        """Take findings searched by another worker."""
        self.game.learn(state_hash, found, destinations, untaken)

    def valid_destinations(self) -> dict[str, int]:
        """Rooms the current state's directions lead to (once its valid actions are found)."""
        return self.game.valid_destinations()

    def blocked_takes(self) -> tuple[str, ...]:
        """Takes refused for the load carried."""
        return self.game.blocked_takes()

    def ram(self) -> bytes:
        """The dynamic memory now."""
        return bytes(np.asarray(self.game.vm.ram()))

    def close(self) -> None:
        """Release the interpreter (the worker ends after)."""
        self.game.close()
