"""Errors the engine raises, each carrying a one-line message fit for a user."""


class ZorkTuiError(Exception):
    """Base class for errors shown to the user as one line."""


class StoryError(ZorkTuiError):
    """The story file is missing, unreadable or not a playable Z-machine story."""


class GameError(ZorkTuiError):
    """The game cannot do what was asked (no undo left, unknown checkpoint, game over)."""


class RecordError(ZorkTuiError):
    """A record could not be written (full disk, closed file, no permission): play stops there."""


def one_line(exc: BaseException, limit: int = 300, with_type: bool = False) -> str:
    """An exception as the one line a person reads: its first non-blank line, else its type's name.

    Args:
        exc: The exception.
        limit: Longest text returned (the line is cut there).
        with_type: Begin with the type's name ("ValueError: bad thing"), for failures that are
            not our own errors and whose message alone may not say what went wrong.
    """
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    name = type(exc).__name__
    text = lines[0] if lines else name
    if with_type and lines:
        text = f"{name}: {text}"
    return text[:limit]
