"""The app commands (``/undo 2``, ``/save NAME``...): one registry, read by the command line and the palette.

Each entry joins a command's usage and help (from
:data:`zorktui.session.commands.slash.APP_COMMANDS`, which line mode shares) to
what it does in the app. The command line runs entries by name
(:meth:`ZorkApp.run_app_command`); the command palette (ctrl+p) lists them
through :class:`zorktui.ui.palette.AppCommandProvider`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zorktui.session.commands import SESSION_VERBS
from zorktui.session.commands.slash import APP_COMMANDS, AppCommand, CommandError

if TYPE_CHECKING:  # hints only
    from zorktui.ui.app_host import AppHost

Handler = Callable[["AppHost", AppCommand], None]


@dataclass(frozen=True)
class AppCommandEntry:
    """One app command.

    Attributes:
        name: The name without its slash ("undo").
        args: What it takes, as the help shows it ("[N]", "NAME", "" for nothing).
        help: One line on what it does.
        run: What it does in the app (raises :class:`CommandError` for a person to read).
    """

    name: str
    args: str
    help: str
    run: Handler

    @property
    def usage(self) -> str:
        """How it is typed: "/undo [N]"."""
        return f"/{self.name} {self.args}".rstrip()

    @property
    def needs_arg(self) -> bool:
        """It cannot run without an argument (its args are not optional)."""
        return bool(self.args) and not self.args.startswith("[")


class AppCommandRegistry:
    """App commands by name, in the order the help lists them."""

    def __init__(self) -> None:
        self._entries: dict[str, AppCommandEntry] = {}

    def command(self, name: str) -> Callable[[Handler], Handler]:
        """Register a handler for an app command that :data:`APP_COMMANDS` describes."""
        args, text = APP_COMMANDS[name]

        def register(run: Handler) -> Handler:
            self._entries[name] = AppCommandEntry(name, args, text, run)
            return run

        return register

    def __iter__(self) -> Iterator[AppCommandEntry]:
        # The help's order, whatever order the handlers were registered in.
        return iter([self._entries[name] for name in APP_COMMANDS if name in self._entries])

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def get(self, name: str) -> AppCommandEntry:
        """The entry for a command name.

        Raises:
            CommandError: No such command.
        """
        try:
            return self._entries[name]
        except KeyError:
            raise CommandError(f"unknown app command /{name} (try /help)") from None


#: Every app command the app runs.
REGISTRY = AppCommandRegistry()


def _session_verb(app: AppHost, command: AppCommand) -> None:
    """A verb the session answers (:data:`SESSION_VERBS`), run in order with the commands being played."""
    app.submit_job(lambda: app.session.commands.run(command).shown or None, label=f"/{command.name}")


for _name in SESSION_VERBS:
    if _name not in ("mode", "auto", "pause", "speed", "reject"):  # those change the screen too: below
        REGISTRY.command(_name)(_session_verb)


@REGISTRY.command("mode")
def _mode(app: AppHost, command: AppCommand) -> None:
    app.set_mode(command.arg)


@REGISTRY.command("auto")
def _auto(app: AppHost, command: AppCommand) -> None:
    app.start_autopilot(command.int_arg(0, minimum=0) or None)


@REGISTRY.command("pause")
def _pause(app: AppHost, command: AppCommand) -> None:
    app.action_pause()


@REGISTRY.command("speed")
def _speed(app: AppHost, command: AppCommand) -> None:
    app.set_delay(command.arg)


@REGISTRY.command("reject")
def _reject(app: AppHost, command: AppCommand) -> None:
    app.reject(command.arg)


@REGISTRY.command("memory")
def _memory(app: AppHost, command: AppCommand) -> None:
    app.action_inspector()


@REGISTRY.command("map")
def _map(app: AppHost, command: AppCommand) -> None:
    app.zoom_to(None if app.zoomed == "map" else "map")


@REGISTRY.command("theme")
def _theme(app: AppHost, command: AppCommand) -> None:
    if command.arg not in app.available_themes:
        raise CommandError(f"no theme {command.arg!r}; there are {', '.join(sorted(app.available_themes))}")
    app.theme = command.arg


@REGISTRY.command("help")
def _help(app: AppHost, command: AppCommand) -> None:
    app.action_help()


@REGISTRY.command("quit")
def _quit(app: AppHost, command: AppCommand) -> None:
    app.call_later(app.action_quit)  # a coroutine: call_later awaits it
