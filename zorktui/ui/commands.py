"""App commands typed on the command line (``/undo 2``); parsed in :mod:`zorktui.session.appcommands`.

The parsing lives below the UI so that line mode (``zorktui play`` with a
pipe, ``zorktui run``) honours the same commands.
"""

from zorktui.session.appcommands import APP_COMMANDS, AppCommand, CommandError, help_lines, parse

__all__ = ["APP_COMMANDS", "AppCommand", "CommandError", "help_lines", "parse"]
