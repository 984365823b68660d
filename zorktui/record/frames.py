"""A recorded session as a sequence of frames, for watching it back (play, pause, step, jump).

Each frame is one thing that happened, in the order it happened: the
opening, a turn, an undo / restart / restore, a save, a consent answer.
Watching needs only the trajectory (no story file, no interpreter), so a
session can be watched anywhere its folder is copied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: Record kinds that become frames (the header and unknown kinds do not).
FRAME_KINDS = ("turn", "undo", "restart", "restore", "save", "consent")


@dataclass(frozen=True)
class Frame:
    """One step of a recorded session.

    Attributes:
        index: Position among the frames (0: the opening).
        kind: The record's type ("turn", "undo", "restart", "restore", "save", "consent").
        turn: The game turn the session is on after this frame.
        record: The trajectory record itself.
        state: The turn record describing the game after this frame (for a jump:
            the record of the turn landed on, when known).
    """

    index: int
    kind: str
    turn: int
    record: dict[str, Any]
    state: dict[str, Any]

    def summary(self) -> str:
        """One line saying what happened in this frame."""
        r = self.record
        if self.kind == "turn":
            if r.get("command") is None:
                return "the opening"
            return f"{r.get('actor', '?')} > {r.get('command')}"
        if self.kind == "consent":
            return f"consent: {r.get('answer')}"
        if self.kind == "save":
            return f"saved checkpoint '{r.get('name')}'"
        if self.kind == "restore":
            return f"restored checkpoint '{r.get('name')}': back to turn {self.turn}"
        if self.kind == "undo":
            return f"undo ({r.get('levels', 1)}): back to turn {self.turn}"
        return f"{self.kind}: back to turn {self.turn}"


def frames_of(records: Iterable[dict[str, Any]]) -> list[Frame]:
    """The frames of a trajectory (header skipped; a torn or unknown record left out).

    A jump's state is the last turn record of the turn it lands on (what the
    game showed then), so the status of every frame is known without replaying.
    """
    frames: list[Frame] = []
    by_turn: dict[int, dict[str, Any]] = {}
    state: dict[str, Any] = {}
    for record in records:
        kind = record.get("type")
        if kind not in FRAME_KINDS:
            continue
        turn = int(record.get("turn", state.get("turn", 0)) or 0)
        if kind == "turn":
            state = record
            by_turn[turn] = record
        elif kind in ("undo", "restart", "restore"):
            state = record["record"] if isinstance(record.get("record"), dict) else by_turn.get(turn, state)
            # Turns after the one landed on are no longer the line of play.
            by_turn = {t: r for t, r in by_turn.items() if t <= turn}
        frames.append(Frame(len(frames), str(kind), turn, record, state))
    return frames


def frame_at_turn(frames: list[Frame], turn: int) -> int:
    """The index of the first frame that reaches game turn ``turn`` (the last frame if none does)."""
    for frame in frames:
        if frame.turn >= turn:
            return frame.index
    return len(frames) - 1 if frames else 0
