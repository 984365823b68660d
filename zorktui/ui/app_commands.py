"""The app commands (``/undo 2``, ``/save NAME``...): one registry, read by the command line and the palette.

Each entry joins a command's usage and help (from
:data:`zorktui.session.commands.slash.APP_COMMANDS`, which line mode shares) to
what it does on the main screen (the session's own verbs go to
``session.commands``). The command line runs entries by name
(:meth:`MainScreen.run_app_command`); the command palette (ctrl+p) lists them
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


def _session_verb(main: AppHost, command: AppCommand) -> None:
    """A verb the session answers (:data:`SESSION_VERBS`), run in order with the commands being played."""
    main.submit_job(lambda: main.session.commands.run(command).shown or None, label=f"/{command.name}")


for _name in SESSION_VERBS:
    if _name not in ("mode", "auto", "pause", "speed", "reject"):  # those change the screen too: below
        REGISTRY.command(_name)(_session_verb)


@REGISTRY.command("mode")
def _mode(main: AppHost, command: AppCommand) -> None:
    main.set_mode(command.arg)


@REGISTRY.command("auto")
def _auto(main: AppHost, command: AppCommand) -> None:
    main.start_autopilot(command.int_arg(0, minimum=0) or None)


@REGISTRY.command("pause")
def _pause(main: AppHost, command: AppCommand) -> None:
    main.action_pause()


@REGISTRY.command("speed")
def _speed(main: AppHost, command: AppCommand) -> None:
    main.set_delay(command.arg)


@REGISTRY.command("reject")
def _reject(main: AppHost, command: AppCommand) -> None:
    main.reject(command.arg)


@REGISTRY.command("edit")
def _edit(main: AppHost, command: AppCommand) -> None:
    main.action_edit()


@REGISTRY.command("room")
def _room(main: AppHost, command: AppCommand) -> None:
    main.zoom_to(None if main.zoomed == "room" else "room")


@REGISTRY.command("memory")
def _memory(main: AppHost, command: AppCommand) -> None:
    main.action_inspector()


@REGISTRY.command("map")
def _map(main: AppHost, command: AppCommand) -> None:
    main.zoom_to(None if main.zoomed == "map" else "map")


@REGISTRY.command("theme")
def _theme(main: AppHost, command: AppCommand) -> None:
    themes = main.app.available_themes
    if command.arg not in themes:
        raise CommandError(f"no theme {command.arg!r}; there are {', '.join(sorted(themes))}")
    main.app.theme = command.arg


@REGISTRY.command("help")
def _help(main: AppHost, command: AppCommand) -> None:
    main.action_help()


@REGISTRY.command("quit")
def _quit(main: AppHost, command: AppCommand) -> None:
    main.call_later(main.action_quit)  # a coroutine: call_later awaits it
