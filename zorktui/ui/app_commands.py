"""The app commands (``/undo 2``, ``/save NAME``...): one registry, read by the command line and the palette.

Each entry joins a command's usage and help (from
:data:`zorktui.session.slash_commands.APP_COMMANDS`, which line mode shares) to
what it does in the app. The command line runs entries by name
(:meth:`ZorkApp.run_app_command`); the command palette (ctrl+p) lists them
through :class:`zorktui.ui.palette.AppCommandProvider`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zorktui.session.slash_commands import APP_COMMANDS, AppCommand, CommandError, saves_text

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


@REGISTRY.command("undo")
def _undo(app: AppHost, command: AppCommand) -> None:
    n = command.int_arg(1)
    app.submit_job(lambda: app.session.undo(n) and None, label="/undo")


@REGISTRY.command("save")
def _save(app: AppHost, command: AppCommand) -> None:
    name = command.arg
    if not name:
        raise CommandError("/save needs a name, e.g. /save before-the-cellar")
    app.submit_job(lambda: f"Saved checkpoint '{name}' ({app.session.save(name).name})", label="/save")


@REGISTRY.command("restore")
def _restore(app: AppHost, command: AppCommand) -> None:
    name = command.arg
    if not name:
        raise CommandError("/restore needs a name (/saves lists them)")
    app.submit_job(lambda: app.session.restore(name) and None, label="/restore")


@REGISTRY.command("saves")
def _saves(app: AppHost, command: AppCommand) -> None:
    app.submit_job(lambda: saves_text(app.session.checkpoints()), label="/saves")


@REGISTRY.command("restart")
def _restart(app: AppHost, command: AppCommand) -> None:
    app.submit_job(lambda: app.session.restart() and None, label="/restart")


@REGISTRY.command("mode")
def _mode(app: AppHost, command: AppCommand) -> None:
    app.set_mode(command.arg)


@REGISTRY.command("auto")
def _auto(app: AppHost, command: AppCommand) -> None:
    app.start_autopilot(command.int_arg(0, minimum=0) or None)


@REGISTRY.command("pause")
def _pause(app: AppHost, command: AppCommand) -> None:
    app.action_pause()


@REGISTRY.command("step")
def _step(app: AppHost, command: AppCommand) -> None:
    app.action_step()


@REGISTRY.command("speed")
def _speed(app: AppHost, command: AppCommand) -> None:
    try:
        delay = float(command.arg)
    except ValueError:
        raise CommandError("/speed takes seconds, e.g. /speed 0.5") from None
    if delay < 0 or delay > 60:
        raise CommandError("/speed takes 0 to 60 seconds")
    app.set_delay(delay)


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
