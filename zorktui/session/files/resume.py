"""Reopening a session folder: replay its trajectory on the story so play continues where it stopped."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zorktui.agent.playlog import PlayLog
from zorktui.core.turn import Turn
from zorktui.engine import open_story
from zorktui.engine.game_api import GameApi
from zorktui.engine.launch import open_game
from zorktui.record.replay import replay
from zorktui.session.files.folder import SessionError, SessionFolder


@dataclass
class Resumed:
    """A game replayed to the end of its trajectory.

    Attributes:
        game: The game, at the last recorded turn (with its undo history rebuilt).
        header: The trajectory's session header.
        log: The line of play, as the agent sees it.
        records: The trajectory's records.
    """

    game: GameApi
    header: dict[str, Any]
    log: PlayLog
    records: list[dict[str, Any]]


def has_session(root: Path | None) -> bool:
    """Whether a folder already holds a recorded session."""
    if root is None:
        return False
    trajectory = SessionFolder(Path(root)).trajectory
    return trajectory.is_file() and trajectory.stat().st_size > 0


def open_recorded_game(root: Path, story: Path | str | None = None) -> tuple[GameApi, dict[str, Any], list[dict[str, Any]]]:
    """Open the story of a recorded session with its seed (not yet replayed).

    Args:
        root: The session folder.
        story: The story file, when it is no longer where the header says (must be the same md5).

    Raises:
        SessionError: Unreadable folder, or the story is missing or a different file.
        StoryError: The story file cannot be played.
    """
    folder = SessionFolder(Path(root))
    records = folder.records()
    header = records[0]
    recorded = header.get("story") or {}
    path = story or recorded.get("path")
    if not path or not Path(path).is_file():
        raise SessionError(f"{folder.root}: its story {path or '?'} is not there; give the story file")
    info = open_story(path)
    if recorded.get("md5") and info.md5 != recorded["md5"]:
        raise SessionError(f"{folder.root}: recorded with another story file (md5 {recorded['md5']}, given {info.md5})")
    seed = header.get("seed")
    return open_game(info, seed=int(seed) if isinstance(seed, int) else None), header, records


def resume_game(root: Path, story: Path | str | None = None) -> Resumed:
    """Replay a session folder's trajectory so play can continue.

    Raises:
        SessionError: As :func:`open_recorded_game`, or the replay does not match the recording.
    """
    game, header, records = open_recorded_game(root, story)
    log = PlayLog(game.opening)

    def follow(turn: Turn, record: dict[str, Any]) -> None:
        if record.get("type") == "turn" and record.get("command") is not None:
            log.add(turn)
        elif record.get("type") != "turn":
            log.reset(turn)

    result = replay(game, records, saves=SessionFolder(Path(root)).saves, on_turn=follow)
    if not result.ok:
        game.close()
        d = result.divergence
        assert d is not None
        raise SessionError(f"{root}: cannot resume: {d.why} at turn {d.turn} (trajectory line {d.line})")
    return Resumed(game, header, log, records)
