"""The person's verbs: one surface (``session.commands``) every front calls, the slash words that
name them, and the game's own out-of-world verbs the session answers instead of playing."""

from zorktui.session.commands.slash import APP_COMMANDS, AppCommand, CommandError, parse
from zorktui.session.commands.surface import SESSION_VERBS, Answer, Commands, jumped_text, sentence

__all__ = ["APP_COMMANDS", "SESSION_VERBS", "Answer", "AppCommand", "CommandError", "Commands", "jumped_text", "parse",
           "sentence"]
