"""Snapshot tests of the app's screens (pytest-textual-snapshot, SVGs under tests/__snapshots__/).

Made deterministic: a fixed terminal size, a seeded story, no cursor blink,
and every queued command and panel reader finished before the picture is
taken. Only human play is pictured: an agent's panel shows its thinking time,
which no two runs share. Update after a deliberate change with
``pytest tests/test_ui_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from typing import Any

from helpers import settle, type_command

from zorktui.ui.widgets.commandline import CommandLine

SIZE = (100, 30)


async def steady(pilot: Any) -> None:
    """No blinking cursor, nothing left to draw."""
    pilot.app.query_one(CommandLine).cursor_blink = False
    await settle(pilot, pilot.app)


def test_main_screen_after_a_command(snap_compare: Any, make_app) -> None:
    async def before(pilot: Any) -> None:
        await steady(pilot)
        await type_command(pilot, "north")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=before)


def test_help_screen(snap_compare: Any, make_app) -> None:
    async def before(pilot: Any) -> None:
        await steady(pilot)
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=before)


def test_light_theme(snap_compare: Any, make_app) -> None:
    async def before(pilot: Any) -> None:
        await steady(pilot)

    assert snap_compare(make_app(theme="zork-light"), terminal_size=SIZE, run_before=before)
