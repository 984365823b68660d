"""What an agent may send to the game, and how model or game text is made safe to show.

Only the person may quit, restart, save, restore, undo or start a transcript:
those commands end or reload the game or touch files. Text from a model or a
game is shown literally, so terminal escape sequences and control characters
are removed before it reaches any screen (markup is escaped by the UI, which
renders game text as plain ``Text``).
"""

from __future__ import annotations

import re

#: First words of commands reserved for the person (interpreter and file commands).
RESERVED: frozenset[str] = frozenset(
    "quit q restart save restore script unscript transcript notranscript undo oops recording replay "
    "noscript die".split()
)

#: Out-of-world commands parsers accept that change only how the game prints (an inventory
#: style; a debugging option such as TextWorld's "enable print state option", after which every
#: step prints the whole state and costs a hundred times more). They never make progress.
_PRESENTATION = frozenset(("inv tall", "inv wide", "i tall", "i wide", "inventory tall", "inventory wide"))
#: A command ending in one of these is about the interface, not the world ("restrict commands").
_PRESENTATION_WORDS = frozenset(("option", "options", "commands"))

#: Longest command an agent may send (the engine allows more; agents have no reason to).
MAX_AGENT_COMMAND = 80

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x9b][0-?]*[ -/]*[@-~]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean_text(text: str) -> str:
    """Text without terminal escape sequences or control characters (newlines and tabs kept)."""
    return _CONTROL.sub("", _ESCAPES.sub("", text))


def presentation_only(command: str) -> bool:
    """Whether a command only changes how the game prints (never worth an agent's move)."""
    words = command.lower().split()
    return " ".join(words) in _PRESENTATION or bool(words) and words[-1] in _PRESENTATION_WORDS


def reserved_reason(command: str) -> str | None:
    """Why an agent may not send a command, or None when it may.

    Args:
        command: The command as the agent proposed it.
    """
    words = command.lower().replace(",", " ").replace(".", " ").split()
    if not words:
        return "empty command"
    if words[0] in RESERVED or (words[0] in ("*", "#", "/")):
        return f"'{words[0]}' is for the person to type, not the agent"
    if "then" in words or ";" in command:
        return "one command at a time"
    if len(command) > MAX_AGENT_COMMAND:
        return f"longer than {MAX_AGENT_COMMAND} characters"
    return None


def safe_command(command: str) -> str:
    """A proposed command as one clean line (escapes, control characters and extra spaces removed)."""
    return " ".join(clean_text(command).split())
