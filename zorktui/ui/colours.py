"""Theme colours as plain ``#rrggbb`` strings for rich ``Text`` styles (which know no CSS variables)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.color import Color, ColorParseError

if TYPE_CHECKING:  # hints only
    from textual.app import App


def colour(app: App[object], name: str, fallback: str) -> str:
    """The current theme's colour variable ``name`` (alpha dropped), or ``fallback``."""
    value = getattr(app, "theme_variables", {}).get(name)
    if not value:
        return fallback
    try:
        return Color.parse(value).hex6
    except ColorParseError:
        return fallback
