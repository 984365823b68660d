"""The user's settings for the app: ``config_dir()/config.toml``.

```toml
theme = "zork-green"          # the theme to start with
autopilot_delay = 0.5         # seconds between autopilot commands

[keymap]                      # binding id = key(s), comma-separated
accept = "ctrl+y"
autopilot = "f12"
```

A missing file means defaults; a broken one is reported in one line and ignored.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zorktui.core.errors import one_line


@dataclass
class UiConfig:
    """Settings read from the config file.

    Attributes:
        theme: Theme to start with (None: the default, or ``--theme``).
        keymap: Binding id to key string (overrides ``BINDINGS``).
        autopilot_delay: Seconds between autopilot commands (None: the session's).
        warnings: One line per problem found in the file.
    """

    theme: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    autopilot_delay: float | None = None
    warnings: list[str] = field(default_factory=list)


def config_file() -> Path:
    """Where the config file lives (one place decides: :func:`zorktui.settings.config_path`)."""
    # deferred: the settings module (tomllib) loads only when the config file is looked for
    from zorktui.settings import config_path

    return config_path()


def load_config(path: Path | None = None, binding_ids: set[str] | None = None) -> UiConfig:
    """Read the config file (a missing one gives the defaults).

    Args:
        path: The file (default: :func:`config_file`).
        binding_ids: Known binding ids, to warn about a keymap entry naming none.
    """
    path = path or config_file()
    config = UiConfig()
    if not path.is_file():
        return config
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        config.warnings.append(f"{path.name} is broken ({one_line(exc)}); using defaults")
        return config
    theme = data.get("theme")
    if isinstance(theme, str) and theme.strip():
        config.theme = theme.strip()
    elif theme is not None:
        config.warnings.append(f"{path.name}: theme must be a name")
    delay = data.get("autopilot_delay")
    if isinstance(delay, (int, float)) and not isinstance(delay, bool) and delay >= 0:
        config.autopilot_delay = float(delay)
    elif delay is not None:
        config.warnings.append(f"{path.name}: autopilot_delay must be a number of seconds")
    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        config.warnings.append(f"{path.name}: [keymap] must be a table")
        return config
    for binding_id, keys in keymap.items():
        if not isinstance(keys, str) or not keys.strip():
            config.warnings.append(f"{path.name}: keymap {binding_id} must be a key such as \"ctrl+y\"")
        elif binding_ids is not None and binding_id not in binding_ids:
            config.warnings.append(f"{path.name}: keymap names no binding {binding_id!r}")
        else:
            config.keymap[binding_id] = keys.strip()
    return config
