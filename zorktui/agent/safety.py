"""What an agent may send to the game, and how model or game text is made safe to show.

Only the person may quit, restart, save, restore, undo or start a transcript:
those commands end or reload the game or touch files. Text from a model or a
game is shown literally, so terminal escape sequences and control characters
are removed before it reaches any screen (markup is escaped by the UI, which
renders game text as plain ``Text``).
"""

from __future__ import annotations

import re

from zorktui.engine import SETTING_WORDS

#: The game's own out-of-world verbs, by the command's first word, and the action each asks for.
META_VERBS: dict[str, str] = {
    "quit": "quit",
    "restart": "restart",
    "save": "save",
    "restore": "restore",
    "script": "script",
    "unscript": "script",
    "noscript": "script",
    "transcript": "script",
    "notranscript": "script",
}
#: Short forms some libraries define ("q", Inform's "die").
SHORT_FORMS: dict[str, str] = {"q": "quit", "die": "quit"}
#: First words only the person may send: the meta verbs, and the game's own ways back and replays.
RESERVED: frozenset[str] = frozenset(META_VERBS) | frozenset(SHORT_FORMS) | frozenset(
    "undo oops recording replay".split())

#: Longest command an agent may send (the engine allows more; agents have no reason to).
MAX_AGENT_COMMAND = 80

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x9b][0-?]*[ -/]*[@-~]")
#: A full stop with a word after it: the parser's way to chain commands ("north. open door").
_CHAINED = re.compile(r"\.\s*\w")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean_text(text: str) -> str:
    """Text without terminal escape sequences or control characters (newlines and tabs kept)."""
    return _CONTROL.sub("", _ESCAPES.sub("", text))


def presentation_only(command: str) -> bool:
    """Whether a command only changes how the game prints (never worth an agent's move)."""
    # The engine leaves such commands out of the valid actions by the same words (an inventory
    # style, TextWorld's "enable print state option" and "restrict commands"); a model may still
    # propose one.
    words = command.lower().split()
    return len(words) > 1 and words[-1] in SETTING_WORDS


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
    if "then" in words or ";" in command or _CHAINED.search(command):
        return "one command at a time"
    if len(command) > MAX_AGENT_COMMAND:
        return f"longer than {MAX_AGENT_COMMAND} characters"
    return None


def safe_command(command: str) -> str:
    """A proposed command as one clean line (escapes, control characters and extra spaces removed)."""
    return " ".join(clean_text(command).split())
