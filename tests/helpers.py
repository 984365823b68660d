"""Plain helpers shared by the test modules (set-up with a tear-down lives in conftest.py as fixtures).

The app under Textual's Pilot: its session folder is ``tmp_path / "s"`` (see the
``make_app`` fixture); these read its trajectory and wait on its workers.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zorktui.session.factory import SessionOptions, build_session
from zorktui.ui.app import ZorkApp
from zorktui.ui.widgets.commandline import CommandLine

#: The terminal size the UI tests drive the app at (columns, rows).
SIZE = (120, 36)


def records(tmp_path: Path) -> list[dict[str, Any]]:
    """Every record of the session's trajectory, in order."""
    lines = (tmp_path / "s" / "trajectory.jsonl").read_text().splitlines()
    return [json.loads(x) for x in lines]


def turn_records(tmp_path: Path) -> list[dict[str, Any]]:
    """The trajectory's turns that played a command."""
    return [r for r in records(tmp_path) if r.get("type") == "turn" and r.get("command")]


async def until(pilot: Any, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app run until ``predicate`` holds (its workers post messages meanwhile)."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.02)


async def settle(pilot: Any, app: ZorkApp) -> None:
    """Wait until queued commands have played and the panel readers have finished."""
    await until(pilot, lambda: not app.main.jobs.busy)
    await pilot.pause()
    readers = [w for w in app.workers if w.group in ("panels", "actions") and not w.is_finished]
    if readers:
        await app.workers.wait_for_complete(readers)
    await pilot.pause()


async def type_command(pilot: Any, text: str) -> None:
    """Put ``text`` in the command line and press Enter."""
    app = pilot.app
    line = app.query_one(CommandLine)
    line.focus()
    line.value = text
    await pilot.press("enter")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def proposal_ready(app: ZorkApp) -> bool:
    """The agent's proposal for the current turn is in."""
    p = app.session.pending
    return p is not None and p.turn == app.session.current.turn


def recorded(folder: Path) -> Path:
    """A session with turns, an undo, a save and a restore, played through the real session."""
    built = build_session(SessionOptions(session=folder, seed=1))
    s = built.session
    try:
        for command in ("north", "west", "east"):
            s.play(command)
        s.undo(1)
        s.save("path")
        s.play("north")
        s.restore("path")
        s.play("east")
    finally:
        s.close()
        s.game.close()
    return folder
