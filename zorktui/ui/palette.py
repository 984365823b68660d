"""The app commands in Textual's command palette (ctrl+p), listed from the one registry.

A command that runs as it is (``/undo``, ``/saves``) runs from the palette;
one that needs an argument (``/save NAME``) is put on the command line for
the person to finish. A baseline study's hidden commands are not listed.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from zorktui.session.commands.slash import AppCommand
from zorktui.ui.app_commands import REGISTRY, AppCommandEntry
from zorktui.ui.widgets.commandline import CommandLine


class AppCommandProvider(Provider):
    """Every app command the session allows, with its help line."""

    def _entries(self) -> list[AppCommandEntry]:
        study = getattr(self.app, "study", None)  # the play app's; other apps list every command
        return [e for e in REGISTRY if study is None or study.allows_command(e.name)]

    async def discover(self) -> Hits:
        for entry in self._entries():
            yield DiscoveryHit(entry.usage, partial(self._choose, entry), help=entry.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for entry in self._entries():
            score = matcher.match(entry.usage)
            if score > 0:
                yield Hit(score, matcher.highlight(entry.usage), partial(self._choose, entry), text=entry.usage,
                          help=entry.help)

    def _choose(self, entry: AppCommandEntry) -> None:
        if entry.needs_arg:
            line = self.app.main.query_one(CommandLine)  # type: ignore[attr-defined]
            line.value = f"/{entry.name} "
            line.cursor_position = len(line.value)
            line.focus()
            return
        self.app.main.run_app_command(AppCommand(entry.name))  # type: ignore[attr-defined]
