"""Trajectory JSONL (schema v1): one header line, a turn-0 opening line, then one line per command.

Each line is appended and flushed as soon as its turn is done, so a killed
process loses at most the turn in flight; the reader tolerates a torn last line.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from zorktui import __version__
from zorktui.core.errors import RecordError
from zorktui.core.turn import Turn
from zorktui.engine import StoryInfo

SCHEMA_VERSION = 1


def now_iso() -> str:
    """The current local time, ISO 8601 with offset."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def session_header(
    story: StoryInfo,
    *,
    mode: str,
    agent: dict[str, Any] | None,
    seed: int,
    participant: str | None = None,
) -> dict[str, Any]:
    """The first line of a trajectory.

    Args:
        story: The story's identity.
        mode: human, coplay, autopilot or script.
        agent: Agent settings (never secrets such as API keys), or None.
        seed: The game's random seed.
        participant: A pseudonym for human-baseline data, or None.

    Returns:
        The header record.
    """
    return {
        "type": "session",
        "schema": SCHEMA_VERSION,
        "story": story.to_record(),
        "app_version": __version__,
        "started": now_iso(),
        "mode": mode,
        "agent": agent,
        "participant": participant,
        "seed": seed,
    }


def turn_record(turn: Turn, *, actor: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """One turn line: the engine's facts plus who acted and when.

    Args:
        turn: The turn.
        actor: "game" for the opening, else "human", "agent" or "script".
        extra: Optional fields (proposal, think_ms, tokens, valid_actions, ...).

    Returns:
        The turn record.
    """
    record: dict[str, Any] = {"type": "turn", "turn": turn.turn, "time": now_iso(), "actor": actor}
    record.update(turn.to_record())
    if extra:
        record.update(extra)
    return record


class TrajectoryWriter:
    """Appends records to a trajectory file, one flushed line each.

    Args:
        path: The JSONL file (created with its parent folder if needed).
        fresh: Start the file anew rather than append (a file named on the
            command line holds one run; a session's log grows across resumes).
    """

    def __init__(self, path: Path | str, fresh: bool = False) -> None:
        self.path = Path(path)
        #: Why writing stopped (None: it has not): the one line a person reads.
        self.failed: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh: IO[str] = open(self.path, "w" if fresh else "a", encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def write(self, record: dict[str, Any]) -> None:
        """Append one record and flush it to the operating system.

        Raises:
            RecordError: The record could not be written (a full disk, a closed file); every
                later write raises it too, so no record follows one that was torn.
            BrokenPipeError: The reader of a pipe has gone (left to the caller, who stops quietly).
        """
        if self.failed is not None:
            raise RecordError(self.failed)
        try:
            self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._fh.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # ValueError: the file was closed under us
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.failed = f"{self.path}: cannot write ({detail}); play stops here, every turn before it is kept"
            self._abandon()
            raise RecordError(self.failed) from None

    def _abandon(self) -> None:
        """Let go of a file that can take no more: what is still buffered is dropped, not retried."""
        try:
            self._fh.close()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        """Close the file (quietly once writing has failed: that was said already)."""
        if self.failed is not None:
            self._abandon()
            return
        try:
            self._fh.close()
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.failed = f"{self.path}: cannot write ({exc.strerror or exc}); the last turn may be lost"
            self._abandon()
            raise RecordError(self.failed) from None

    def __enter__(self) -> TrajectoryWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_trajectory(path: Path | str) -> Iterator[dict[str, Any]]:
    """Read records, skipping a torn (incomplete) final line.

    Raises:
        ValueError: A line other than the last is not valid JSON.
    """
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    last = len(lines) - 1
    while last >= 0 and not lines[last].strip():
        last -= 1
    for i, line in enumerate(lines[: last + 1]):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            if i == last:
                return  # a write cut short by a crash
            raise ValueError(f"{path}: line {i + 1} is not valid JSON") from None


def last_turn(records: Iterable[dict[str, Any]]) -> int:
    """The turn play stood at when the trajectory ends (an undo or restore at the end counts).

    Args:
        records: The trajectory's records, header first.

    Returns:
        The turn number (0 when no command was played).
    """
    turn = 0
    for record in records:
        # A turn record, or a jump (undo, restart, restore) naming the turn play continues from.
        if record.get("type") in ("turn", "undo", "restart", "restore") and isinstance(record.get("turn"), int):
            turn = record["turn"]
    return turn
