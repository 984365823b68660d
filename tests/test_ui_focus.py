"""The command line gets the keys back whenever a zoom, a screen or a dialog closes, and no typed key is dropped.

Every test types with ``pilot.press`` into whatever has focus (never by
focusing the command line first), so a key that lands nowhere shows up as a
command missing from the trajectory.
"""

from __future__ import annotations

from pathlib import Path

from helpers import proposal_ready, run, settle, turn_records, until

from zorktui.ui.widgets.commandline import CommandLine

SIZE = (120, 36)


def commands(tmp_path: Path) -> list[str]:
    return [r["command"] for r in turn_records(tmp_path)]


async def type_keys(pilot: object, text: str) -> None:
    """Press each character of ``text`` and Enter into whatever has focus."""
    await pilot.press(*text, "enter")  # type: ignore[attr-defined]


def test_escape_after_a_zoom_gives_the_command_line_the_keys(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("f5")
            assert app.screen.maximized is app.query_one("#transcript")
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen.maximized is None and app.main.zoomed is None
            assert isinstance(app.focused, CommandLine)
            await type_keys(pilot, "look")
            await settle(pilot, app)
            # /map zooms; Escape unzooms it the same way
            await type_keys(pilot, "/map")
            await pilot.pause()
            assert app.main.zoomed == "map"
            await pilot.press("escape")
            await pilot.pause()
            await type_keys(pilot, "inventory")
            await settle(pilot, app)
        assert commands(tmp_path) == ["look", "inventory"]

    run(go())


def test_typing_while_zoomed_unzooms_into_the_command_line_without_losing_a_key(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("f5", "f5")
            assert app.main.zoomed == "room"
            assert not app.query_one(CommandLine).display or app.screen.maximized is not None
            await type_keys(pilot, "look")
            await settle(pilot, app)
            assert app.screen.maximized is None and app.main.zoomed is None
            # A click on a panel takes focus from the command line; typing brings it back
            await pilot.click("#transcript")
            await pilot.pause()
            assert not isinstance(app.focused, CommandLine)
            await type_keys(pilot, "wait")
            await settle(pilot, app)
        assert commands(tmp_path) == ["look", "wait"]

    run(go())


def test_closing_help_or_a_dialog_gives_the_command_line_the_keys(tmp_path: Path, make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("f1")
            await pilot.pause()
            assert len(app.screen_stack) == 2
            await pilot.press("escape")
            await pilot.pause()
            assert len(app.screen_stack) == 1 and isinstance(app.focused, CommandLine)
            await type_keys(pilot, "look")
            await settle(pilot, app)
            await until(pilot, lambda: proposal_ready(app))
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert len(app.screen_stack) == 2
            await pilot.press("escape")  # the reject dialog, cancelled
            await pilot.pause()
            assert len(app.screen_stack) == 1 and isinstance(app.focused, CommandLine)
            await type_keys(pilot, "inventory")
            await settle(pilot, app)
        assert commands(tmp_path) == ["look", "inventory"]

    run(go())


def test_keys_typed_in_a_burst_on_a_zoomed_panel_all_reach_the_command_line(tmp_path: Path, make_app) -> None:
    """As a terminal delivers a fast typist's keys: all queued before the first is handled (tmux send-keys)."""
    from textual import events

    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("f5", "f5")
            assert app.main.zoomed == "room"
            for key, character in [*((c, c) for c in "inventory"), ("enter", "\r")]:
                app.post_message(events.Key(key, character))
            await pilot.pause(0.2)
            await settle(pilot, app)
            assert app.main.zoomed is None and app.query_one(CommandLine).value == ""
        assert commands(tmp_path) == ["inventory"]

    run(go())
