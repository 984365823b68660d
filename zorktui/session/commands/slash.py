"""Slash commands typed on the command line (``/undo 2``): their words, parsing, help and answers; they never reach the game.

Shared by the app and line mode (see :mod:`zorktui.session.headless`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Every app command with its one-line help, in the order the help screen lists them.
APP_COMMANDS: dict[str, tuple[str, str]] = {
    "undo": ("[N]", "take back the last N turns (default 1)"),
    "save": ("NAME", "save a named checkpoint in the session's saves/"),
    "restore": ("NAME", "go back to a named checkpoint"),
    "saves": ("", "list the named checkpoints"),
    "restart": ("", "start the story again"),
    "mode": ("human|coplay|autopilot", "who plays: you, you with proposals, or the agent"),
    "auto": ("[N]", "hand control to the agent (for at most N commands)"),
    "pause": ("", "pause or resume the autopilot"),
    "step": ("", "let a paused autopilot (or the pending proposal) play one command"),
    "speed": ("SECONDS", "wait between autopilot commands"),
    "reject": ("[REASON]", "refuse the agent's proposal and say why"),
    "edit": ("", "put the agent's proposal in the command line to change it"),
    "room": ("", "zoom the Room panel: the ways out, what is here, what you carry"),
    "memory": ("", "open the memory inspector"),
    "map": ("", "zoom the map (Escape or typing unzooms)"),
    "theme": ("NAME", "switch the colour theme"),
    "help": ("", "keys and app commands"),
    "quit": ("", "save and quit"),
}


class CommandError(ValueError):
    """An app command that cannot be run as typed (one line, for people)."""


@dataclass(frozen=True)
class AppCommand:
    """A parsed app command.

    Attributes:
        name: The command without its slash ("undo").
        arg: Everything after the name, stripped ("" when none).
    """

    name: str
    arg: str = ""

    def int_arg(self, default: int, minimum: int = 1) -> int:
        """The argument as a whole number (``default`` when empty).

        Raises:
            CommandError: Not a whole number, or below ``minimum``.
        """
        if not self.arg:
            return default
        try:
            value = int(self.arg)
        except ValueError:
            raise CommandError(f"/{self.name} takes a number, not {self.arg!r}") from None
        if value < minimum:
            raise CommandError(f"/{self.name} takes a number of at least {minimum}")
        return value


def parse(text: str) -> AppCommand | None:
    """Read an app command; None when the text is a game command.

    A doubled slash (``//look``) escapes to the game.

    Raises:
        CommandError: An unknown app command.
    """
    text = text.strip()
    if not text.startswith("/") or text.startswith("//"):
        return None
    name, _, arg = text[1:].partition(" ")
    name = name.lower()
    if name not in APP_COMMANDS:
        raise CommandError(f"unknown app command /{name} (try /help)")
    return AppCommand(name, arg.strip())


def help_lines() -> list[tuple[str, str]]:
    """(usage, description) for every app command."""
    return [(f"/{name} {args}".rstrip(), text) for name, (args, text) in APP_COMMANDS.items()]


def saves_text(saves: list[dict[str, Any]]) -> str:
    """What ``/saves`` answers, in every front end: each checkpoint, damaged ones named as such."""
    if not saves:
        return "No checkpoints yet (/save NAME makes one)."
    return "Checkpoints: " + ", ".join(_describe(c) for c in saves)


def _describe(meta: dict[str, Any]) -> str:
    """One checkpoint as ``/saves`` lists it: ``NAME (turn N, PLACE)``, or that it is damaged."""
    if meta.get("damaged"):
        return f"{meta.get('name', '?')} (damaged: cannot be restored)"
    return f"{meta.get('name', '?')} (turn {meta.get('turn', '?')}, {meta.get('location') or '?'})"
