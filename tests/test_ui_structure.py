"""The app's shared pieces: the replay viewer's themes, the app commands in the command palette."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from helpers import recorded, settle, type_command, until

from zorktui.locations import config_dir
from zorktui.session.baseline import BaselineRules
from zorktui.session.commands.slash import APP_COMMANDS
from zorktui.session.factory import SessionOptions, build_session
from zorktui.ui.app import create_app
from zorktui.ui.app_commands import REGISTRY
from zorktui.ui.keymap import UiConfig
from zorktui.ui.palette import AppCommandProvider
from zorktui.ui.replay_app import open_replay
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.transcript import Transcript

SIZE = (110, 34)


def test_replay_uses_the_configured_user_theme(tmp_path: Path) -> None:
    folder = recorded(tmp_path / "s")
    themes = config_dir() / "themes"
    themes.mkdir(parents=True)
    (themes / "sea.toml").write_text('name = "sea"\nprimary = "#2080c0"\nbackground = "#001020"\ndark = true\n')
    (config_dir() / "config.toml").write_text('theme = "sea"\n')
    app = open_replay(folder)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == "sea" and "sea" in app.available_themes
            assert app.current_theme.primary == "#2080c0"

    asyncio.run(go())
    # --theme still wins over the config file, and the built-in themes are there too.
    light = open_replay(folder, theme="zork-light")
    assert light.theme == "zork-light"
    light.memory.close()


def test_every_app_command_has_one_registry_entry() -> None:
    assert [e.name for e in REGISTRY] == list(APP_COMMANDS)
    assert [e.name for e in REGISTRY if e.needs_arg] == ["save", "restore", "mode", "speed", "theme"]


async def palette_pick(pilot: Any, query: str, expected: str) -> None:
    """Open the command palette, type ``query`` and run the hit whose text is ``expected``."""
    from textual.command import CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*query)
    options = app.screen.query_one("CommandList")

    def texts() -> list[str]:
        return [options.get_option_at_index(i).hit.text for i in range(options.option_count)]

    await until(pilot, lambda: expected in texts())
    index = texts().index(expected)
    assert options.get_option_at_index(index).hit.help == REGISTRY.get(expected.split()[0][1:]).help
    options.highlighted = index
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))


def test_slash_commands_are_in_the_palette_and_run_from_it(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await type_command(pilot, "north")
            await settle(pilot, app)
            assert app.session.current.turn == 1
            # /undo runs from the palette, through the same registry as the command line
            await palette_pick(pilot, "/undo", "/undo [N]")
            await settle(pilot, app)
            assert app.session.current.turn == 0
            # one that needs an argument is put on the command line to finish
            await palette_pick(pilot, "/save", "/save NAME")
            assert app.query_one(CommandLine).value == "/save "
            await pilot.press(*"cellar", "enter")
            await settle(pilot, app)
            await palette_pick(pilot, "/saves", "/saves")
            await settle(pilot, app)
            await until(pilot, lambda: "Checkpoints: cellar" in app.query_one(Transcript).text)

    asyncio.run(go())


def test_palette_lists_only_what_a_baseline_study_allows(tmp_path: Path) -> None:
    built = build_session(SessionOptions(session=tmp_path / "s", seed=1, baseline=BaselineRules("P-1")))
    app = create_app(built, config=UiConfig(), themes_dir=tmp_path / "themes")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            provider = AppCommandProvider(app.screen)
            shown = [hit.text async for hit in provider.discover()]
            assert "/undo [N]" in shown and "/help" in shown
            assert not any(t.startswith(("/auto", "/mode", "/memory", "/map")) for t in shown)
            app.exit()

    asyncio.run(go())


def test_quit_typed_on_the_command_line_closes_the_app(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert len(app.screen_stack) == 1 and app.query_one("#transcript")
            await type_command(pilot, "/quit")
            end = time.monotonic() + 30
            while app.is_running and time.monotonic() < end:
                await asyncio.sleep(0.05)  # not pilot.pause: the app is closing
            assert not app.is_running
        assert app.session.closed

    asyncio.run(go())
