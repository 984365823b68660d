"""Completion for the command line: app commands, past commands, valid actions, the game's words."""

from __future__ import annotations

from collections.abc import Iterable

from textual.suggester import Suggester

from zorktui.session.commands.slash import APP_COMMANDS


class CommandSuggester(Suggester):
    """Suggests a whole command where one fits, else the rest of the word being typed.

    Order: app commands (after ``/``), the person's own earlier commands, the
    valid actions of the current state, then words of the game's dictionary.
    A word that is itself in the dictionary is not lengthened: a version 1-3
    story keeps only six letters of a word, so "north" would become "northe".
    """

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.actions: tuple[str, ...] = ()
        self.words: tuple[str, ...] = ()
        self.history: list[str] = []
        self._known: frozenset[str] = frozenset()
        self._held = ""

    def set_actions(self, actions: Iterable[str]) -> None:
        """The valid actions of the current state."""
        self.actions = tuple(a.lower() for a in actions)

    def set_words(self, words: Iterable[str]) -> None:
        """The game's vocabulary (dictionary words)."""
        self.words = tuple(sorted({w.lower() for w in words if w and w.isprintable() and len(w) > 1}))
        self._known = frozenset(self.words)

    def hold(self, value: str) -> None:
        """No completion for ``value`` until another line is asked about.

        The app puts whole commands in the line (a proposal to edit); they show
        as they are, and completion starts again when the person types.
        """
        self._held = value.lower()

    def remember(self, command: str) -> None:
        """A command the person typed (most recent wins)."""
        command = command.strip().lower()
        if command in self.history:
            self.history.remove(command)
        self.history.append(command)

    def suggest(self, value: str) -> str | None:
        """The completion for ``value`` (case-folded), or None."""
        if self._held:
            if value.lower() == self._held:
                return None
            self._held = ""
        if not value.strip():
            return None
        if value.startswith("/"):
            for name in APP_COMMANDS:
                if f"/{name}".startswith(value) and f"/{name}" != value:
                    return f"/{name}"
            return None
        for candidate in (*reversed(self.history), *self.actions):
            if candidate.startswith(value) and candidate != value:
                return candidate
        head, _, word = value.rpartition(" ")
        if len(word) >= 2 and word not in self._known:
            for known in self.words:
                if known.startswith(word) and known != word:
                    return f"{head} {known}" if head else known
        return None

    async def get_suggestion(self, value: str) -> str | None:
        return self.suggest(value)
