"""Re-executing a recorded session on its story: to verify it, or to resume it after a crash.

Turns are replayed command by command and each world-state hash is compared
with the recorded one. Undo, restart and restore events are followed the way
they happened (a restore needs its checkpoint in the session's ``saves/``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zorktui.core.errors import GameError
from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameApi


@dataclass
class Divergence:
    """Where a replay stopped matching the recording.

    Attributes:
        turn: The recorded turn number.
        line: The trajectory line (1-based).
        command: The command replayed there (None for a jump).
        expected: The recorded state hash.
        got: The replayed state hash ("" when the step itself failed).
        why: A one-line description.
    """

    turn: int
    line: int
    command: str | None
    expected: str
    got: str
    why: str


@dataclass
class ReplayResult:
    """What a replay did.

    Attributes:
        turns: Turn records replayed (the opening included).
        jumps: Undo, restart and restore events followed.
        divergence: The first mismatch, or None when everything matched.
    """

    turns: int = 0
    jumps: int = 0
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        """No divergence."""
        return self.divergence is None


def replay(game: GameApi, records: Iterable[dict[str, Any]], saves: Path | None = None,
           on_turn: Callable[[Turn, dict[str, Any]], None] | None = None, stop_at_divergence: bool = True) -> ReplayResult:
    """Replay a trajectory's events on a freshly opened game.

    Args:
        game: The story, opened with the recorded seed, at its opening.
        records: The trajectory records (header first).
        saves: Where named checkpoints are (for restore events).
        on_turn: Called with each replayed turn and its record (watch mode).
        stop_at_divergence: Stop at the first mismatch (else go on, reporting the first).

    Returns:
        What was replayed and the first divergence.
    """
    result = ReplayResult()
    for line, record in enumerate(records, start=1):
        kind = record.get("type")
        problem: Divergence | None = None
        if kind == "session":
            continue
        if kind == "turn":
            command = record.get("command")
            if command is None:
                turn = game.current
                if record.get("turn", 0) != 0:
                    problem = Divergence(int(record["turn"]), line, None, str(record.get("state_hash")), "",
                                         "an opening record that is not turn 0")
            else:
                try:
                    turn = game.step(str(command))
                except GameError as exc:
                    result.divergence = result.divergence or Divergence(
                        int(record.get("turn", -1)), line, command, str(record.get("state_hash")), "", str(exc))
                    return result
            result.turns += 1
            expected = str(record.get("state_hash", ""))
            if problem is None and turn.state_hash != expected:
                problem = Divergence(int(record.get("turn", -1)), line, command, expected, turn.state_hash,
                                     "the world state differs from the recording")
            if problem is None and turn.turn != record.get("turn"):
                problem = Divergence(int(record.get("turn", -1)), line, command, expected, turn.state_hash,
                                     f"turn numbering differs (replayed turn {turn.turn})")
            if on_turn is not None:
                on_turn(turn, record)
        elif kind in ("undo", "restart", "restore"):
            result.jumps += 1
            try:
                turn = _jump(game, record, saves)
            except GameError as exc:
                result.divergence = result.divergence or Divergence(
                    int(record.get("turn", -1)), line, None, "", "", f"cannot follow the {kind}: {exc}")
                return result
            if turn.turn != record.get("turn"):
                problem = Divergence(int(record.get("turn", -1)), line, None, "", turn.state_hash,
                                     f"the {kind} landed on turn {turn.turn}")
            if on_turn is not None:
                on_turn(turn, record)
        if problem is not None and result.divergence is None:
            result.divergence = problem
            if stop_at_divergence:
                return result
    return result


def _jump(game: GameApi, record: dict[str, Any], saves: Path | None) -> Turn:
    kind = record["type"]
    if kind == "restart":
        return game.restart()
    if kind == "restore":
        if saves is None:
            raise GameError("no saves folder")
        return game.restore_checkpoint(saves, str(record.get("name")))
    levels = record.get("levels")
    if isinstance(levels, int) and levels > 0:
        return game.undo(levels)
    # Older records name only the turn landed on: step back until there.
    target = int(record.get("turn", 0))
    turn = game.undo(1)
    while turn.turn != target and game.undo_depth:
        turn = game.undo(1)
    return turn
