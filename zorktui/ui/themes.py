"""Colour themes: the built-in ones and the user's theme files, all as Textual ``Theme``s.

User themes are TOML or JSON files in ``config_dir()/themes`` whose keys are
``Theme``'s fields (``name``, ``primary``, ``background``, ``dark``, ...). A
file that cannot be read or names a colour Textual does not know is skipped
with a one-line warning; the built-in themes are always there to fall back on.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from zorktui.core.errors import one_line

DEFAULT_THEME = "zork-dark"

BUILTIN_THEMES: tuple[Theme, ...] = (
    Theme(
        name="zork-dark",
        primary="#5fafff",
        secondary="#4a7fb5",
        accent="#ffb86c",
        foreground="#d8dee9",
        background="#1b1f27",
        surface="#222733",
        panel="#2c3240",
        success="#8fcf7f",
        warning="#ebcb8b",
        error="#e06c75",
        dark=True,
    ),
    Theme(
        name="zork-light",
        primary="#005f9f",
        secondary="#5f87af",
        accent="#b35900",
        foreground="#1e1e1e",
        background="#fbfaf5",
        surface="#f0efe8",
        panel="#e3e2da",
        success="#2e7d32",
        warning="#8a5a00",
        error="#b3261e",
        dark=False,
    ),
    Theme(
        name="zork-green",
        primary="#33ff33",
        secondary="#20a020",
        accent="#b0ffb0",
        foreground="#33ff33",
        background="#000000",
        surface="#000000",
        panel="#062406",
        success="#33ff33",
        warning="#d0ff40",
        error="#ff5050",
        dark=True,
    ),
    Theme(
        name="zork-amber",
        primary="#ffb000",
        secondary="#b07a00",
        accent="#ffd580",
        foreground="#ffb000",
        background="#0c0800",
        surface="#120c00",
        panel="#2a1c00",
        success="#ffc840",
        warning="#ffe080",
        error="#ff6040",
        dark=True,
    ),
)

_COLOUR_FIELDS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background",
                  "surface", "panel", "boost")
_FIELDS = {f.name for f in dataclasses.fields(Theme)}


class ThemeFileError(ValueError):
    """A theme file that cannot become a theme (one line, for people)."""


def theme_from_data(data: Any, default_name: str) -> Theme:
    """Make a theme from a file's parsed contents.

    Args:
        data: The parsed TOML or JSON (a table of Theme fields).
        default_name: The name when the file gives none (the file's stem).

    Raises:
        ThemeFileError: Not a table, an unknown field, no primary colour, or a colour Textual cannot parse.
    """
    if not isinstance(data, dict):
        raise ThemeFileError("not a table of theme fields")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ThemeFileError(f"unknown field {unknown[0]!r}")
    fields = dict(data)
    fields.setdefault("name", default_name)
    if not isinstance(fields["name"], str) or not fields["name"].strip():
        raise ThemeFileError("the name must be text")
    if "primary" not in fields:
        raise ThemeFileError("no primary colour")
    for key in _COLOUR_FIELDS:
        value = fields.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise ThemeFileError(f"{key} must be a colour string")
        try:
            Color.parse(value)
        except ColorParseError:
            raise ThemeFileError(f"{key} = {value!r} is not a colour") from None
    if "variables" in fields and not isinstance(fields["variables"], dict):
        raise ThemeFileError("variables must be a table")
    for key in ("dark", "ansi"):
        if key in fields and not isinstance(fields[key], bool):
            raise ThemeFileError(f"{key} must be true or false")
    try:
        theme = Theme(**fields)
        theme.to_color_system().generate()
    except Exception as exc:  # noqa: BLE001 - any failure of a user's file is reported, never raised
        raise ThemeFileError(one_line(exc, with_type=True)) from None
    return theme


def read_theme_file(path: Path) -> Theme:
    """Read one TOML or JSON theme file.

    Raises:
        ThemeFileError: The file cannot be read or is not a valid theme.
    """
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # TOMLDecodeError and JSONDecodeError are ValueErrors
        raise ThemeFileError(one_line(exc)) from None
    return theme_from_data(data, path.stem)


def load_user_themes(folder: Path) -> tuple[list[Theme], list[str]]:
    """The user's themes, and one warning line for each file that could not be used.

    Args:
        folder: ``config_dir()/"themes"`` (missing is fine: no themes).
    """
    themes: list[Theme] = []
    warnings: list[str] = []
    if not folder.is_dir():
        return themes, warnings
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in (".toml", ".json")):
        try:
            themes.append(read_theme_file(path))
        except ThemeFileError as exc:
            warnings.append(f"theme file {path.name} is broken ({exc}); it was skipped")
    return themes, warnings
