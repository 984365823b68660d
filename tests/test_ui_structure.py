"""The app's shared pieces: the replay viewer's themes, the app commands in the command palette."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_replay_watch import recorded

from zorktui.locations import config_dir
from zorktui.ui.replay_app import open_replay

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
