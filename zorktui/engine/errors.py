"""Errors the engine raises, each carrying a one-line message fit for a user."""


class ZorkTuiError(Exception):
    """Base class for errors shown to the user as one line."""


class StoryError(ZorkTuiError):
    """The story file is missing, unreadable or not a playable Z-machine story."""


class GameError(ZorkTuiError):
    """The game cannot do what was asked (no undo left, unknown checkpoint, game over)."""
