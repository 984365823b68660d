"""The user's config file (``config_dir()/config.toml``): settings that flags and the environment can override.

Only the sections a part needs are read, each by that part; a broken file
gives one line of warning and the defaults, never a crash. Keys for models
are not read from here: they come from the environment only, so they never
sit in a file zorktui writes or shows.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from zorktui.core.errors import one_line
from zorktui.locations import config_dir


def config_path() -> Path:
    """Where the config file lives."""
    return config_dir() / "config.toml"


def load_section(name: str, path: Path | None = None) -> tuple[dict[str, Any], str]:
    """One table of the config file, and a one-line warning if the file could not be used.

    Args:
        name: The table, e.g. "llm" or "keymap".
        path: The file (default: :func:`config_path`).

    Returns:
        The table ({} when missing) and "" or the warning.
    """
    path = path or config_path()
    if not path.is_file():
        return {}, ""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, f"{path}: ignored ({one_line(exc)})"
    table = data.get(name, {})
    if not isinstance(table, dict):
        return {}, f"{path}: [{name}] is not a table; ignored"
    return table, ""
