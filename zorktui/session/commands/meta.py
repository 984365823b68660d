"""The game's own out-of-world verbs (QUIT, RESTART, SAVE, RESTORE, SCRIPT), answered by the session.

Played into the story, these stop on a question the app does not show as
one ("Are you sure you want to quit?" with the status line glued to it), ask
for a file name the interpreter cannot take, or end the story behind the
session's back. Every front (the app, ``zorktui run``, line mode) has its own
way to do each of them, so the session answers such a command with one line
that says which, and never plays it.

The verbs are the standard Infocom (ZIL) and Inform library ones, recognised
by the command's first word; a short form ("q", Inform's "die") only counts
when the story's dictionary holds it, i.e. where the library defines it.
"""

from __future__ import annotations

from typing import Protocol

from zorktui.agent.safety import META_VERBS, SHORT_FORMS


class Words(Protocol):
    """A set of words asked only whether it holds one (a story's dictionary, a tuple)."""

    def __contains__(self, word: str, /) -> bool: ...

#: What a person uses instead of each, ``{quit}`` standing for the front's own way to quit.
INSTEAD: dict[str, str] = {
    "quit": "Not played: to quit, {quit}.",
    "restart": "Not played: to start again, type /restart.",
    "save": "Not played: to save, type /save NAME.",
    "restore": "Not played: to go back to a save, type /restore NAME (/saves lists them).",
    "script": "Not played: every turn is already recorded (zorktui export SESSION --format transcript).",
}

#: The game's own ways back, refused when a session does not allow undo.
UNDO_VERBS = frozenset({"undo", "oops undo"})
NO_UNDO = "undo is switched off in this session (a baseline study's rule)"


def meta_verb(command: str, dictionary: Words = ()) -> str | None:
    """The out-of-world action a command asks the game for, or None for an ordinary command.

    Args:
        command: The command as typed.
        dictionary: The story's dictionary words (short forms count only when listed).
    """
    words = command.lower().replace(",", " ").replace(".", " ").split()
    if not words:
        return None
    first = words[0]
    if first in META_VERBS:
        return META_VERBS[first]
    if first in SHORT_FORMS and first in dictionary:
        return SHORT_FORMS[first]
    return None


def instead(action: str, quit_how: str = "type /quit") -> str:
    """The one line that answers an out-of-world command.

    Args:
        action: What :func:`meta_verb` returned.
        quit_how: The front's own way to quit ("press ctrl+q").
    """
    return INSTEAD[action].format(quit=quit_how)
