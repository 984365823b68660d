"""What the play app and the replay viewer share: themes, the layout's CSS and the quit key.

Both register the built-in themes and the user's theme files
(:mod:`zorktui.ui.themes`) and start on the theme asked for (``--theme``),
else the config file's, else :data:`~zorktui.ui.themes.DEFAULT_THEME`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App, CSSPathType
from textual.binding import Binding, BindingType

from zorktui.locations import config_dir
from zorktui.resources import resource_path
from zorktui.ui.keymap import UiConfig
from zorktui.ui.themes import BUILTIN_THEMES, DEFAULT_THEME, load_user_themes


class ZorkTuiAppBase(App[None]):
    """An app with zorktui's themes, frame layout and quit key.

    Subclasses list their own CSS after :data:`LAYOUT_CSS` and their keys in
    ``BINDINGS`` (Textual merges them with these).
    """

    #: The frame both apps share (#main, #left, #side); a full path, as apps defined in other folders use it too.
    LAYOUT_CSS = str(resource_path("layout.tcss"))
    CSS_PATH: ClassVar[CSSPathType | None] = [LAYOUT_CSS]
    # Textual's own App already binds ctrl+q, so this keeps the Footer's order while showing it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True, tooltip="Save and quit"),
    ]

    def __init__(self, ui_config: UiConfig, theme: str | None = None, themes_dir: Path | None = None) -> None:
        super().__init__()
        self.ui_config = ui_config
        #: Lines to show the person once the app is up (broken theme files, an unknown theme...).
        self.startup_notes: list[str] = list(ui_config.warnings)
        self.startup_notes += self._register_themes(themes_dir)
        wanted = theme or ui_config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.startup_notes.append(f"no theme called {wanted!r}; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME
        self.theme = wanted

    def _register_themes(self, themes_dir: Path | None) -> list[str]:
        """Register the built-in themes and the user's; returns the warnings about unreadable theme files."""
        for builtin in BUILTIN_THEMES:
            self.register_theme(builtin)
        if themes_dir is None:
            themes_dir = config_dir() / "themes"
        user_themes, warnings = load_user_themes(themes_dir)
        for user_theme in user_themes:
            self.register_theme(user_theme)
        return warnings
