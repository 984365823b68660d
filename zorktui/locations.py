"""Where zorktui keeps its files (one place, from platformdirs)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

_APP = "zorktui"


def _override(name: str) -> Path | None:
    # ZORKTUI_HOME puts everything under one folder (tests and portable installs).
    home = os.environ.get("ZORKTUI_HOME")
    return Path(home) / name if home else None


def data_dir() -> Path:
    """User data: sessions and knowledge bases."""
    return _override("data") or Path(platformdirs.user_data_dir(_APP))


def config_dir() -> Path:
    """User configuration: config file, keymap, themes."""
    return _override("config") or Path(platformdirs.user_config_dir(_APP))


def cache_dir() -> Path:
    """Disposable files: Z-code extracted from Blorb files, what dispatch learned about each story."""
    return _override("cache") or Path(platformdirs.user_cache_dir(_APP))


def sessions_dir() -> Path:
    """Default parent folder of session folders."""
    return data_dir() / "sessions"


def bundled_story() -> Path:
    """The game that ships with zorktui."""
    # deferred: only the commands that play the bundled game need it
    from zorktui.resources import resource_path

    return resource_path("lighthouse.z5")
