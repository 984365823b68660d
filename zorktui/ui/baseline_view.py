"""What a human-baseline study changes in the app, in one place: hidden keys and commands, layout, consent.

A baseline participant plays alone: no agent panel, none of the agent's keys
or app commands, and the memory's panels (Room, Map, the inspector) only when
the study shows them. Play begins once the participant has agreed to the
study's consent text. For an ordinary session (no rules) nothing is hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from zorktui.session.baseline import BaselineRules
from zorktui.ui.screens.consent import ConsentScreen
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    from zorktui.ui.app_host import AppHost

#: Key actions a participant does not get (the inspector only when the study shows the memory).
HIDDEN_ACTIONS = frozenset({"accept", "reject", "edit", "autopilot", "pause", "step", "speed", "inspector",
                            "toggle_panel"})
#: App commands a participant does not get (/memory and /map only when the study shows the memory).
HIDDEN_COMMANDS = frozenset({"mode", "auto", "pause", "step", "speed", "reject", "memory", "map"})
#: What the study may show of the memory when its rules say so.
MEMORY_ACTIONS = frozenset({"inspector"})
MEMORY_COMMANDS = frozenset({"memory", "map"})


class BaselineView:
    """The study's rules as the app applies them.

    Args:
        rules: The study's rules (None: an ordinary session, where everything is allowed).
    """

    def __init__(self, rules: BaselineRules | None) -> None:
        self.rules = rules

    @property
    def active(self) -> bool:
        """This is a baseline study's session."""
        return self.rules is not None

    def allows_action(self, action: str) -> bool:
        """Whether the participant gets a key action."""
        if self.rules is None or action not in HIDDEN_ACTIONS:
            return True
        return action in MEMORY_ACTIONS and self.rules.show_memory

    def allows_command(self, name: str) -> bool:
        """Whether the participant gets an app command (its name without the slash)."""
        if self.rules is None or name not in HIDDEN_COMMANDS:
            return True
        return name in MEMORY_COMMANDS and self.rules.show_memory

    def zoom_panels(self, panels: tuple[str, ...]) -> tuple[str, ...]:
        """The panels the zoom key may show: never one the study hides."""
        if self.rules is None:
            return panels
        return ("transcript", "room", "map") if self.rules.show_memory else ("transcript",)

    def agent_name(self) -> str | None:
        """What the status bar calls the player (None: not a study, the agent's own name)."""
        return None if self.rules is None else f"baseline {self.rules.participant}"

    def apply_layout(self, screen: Screen[Any]) -> None:
        """No agent panel; the memory's panels only if the study shows them."""
        if self.rules is None:
            return
        screen.query_one("#agent").display = False
        if not self.rules.show_memory:
            for panel in ("#room", "#map", "#side"):
                screen.query_one(panel).display = False

    # -------------------------------------------------------------- consent
    def ask_consent(self, app: AppHost, answer: bool | None) -> None:
        """Ask before the first command (a resumed session that was agreed to is not asked again).

        Args:
            app: The app to ask in.
            answer: The answer the session folder already holds (None: not asked yet).
        """
        rules = self.rules
        if rules is None or answer is True:
            return
        if answer is False:
            app.notify("This participant declined; the session stays closed.", severity="error")
            app.call_after_refresh(app.action_quit)
            return
        app.push_screen(ConsentScreen(rules.consent, rules.participant), lambda agreed: self._answered(app, agreed))

    def _answered(self, app: AppHost, agreed: bool | None) -> None:
        rules = self.rules
        assert rules is not None  # only asked in a study
        answer = "agreed" if agreed else "declined"
        session = app.session
        recorder = session.recorder

        def record() -> None:
            if recorder is not None:
                recorder.consent(answer, rules.consent, rules.header_fields())
            # Think time of the first command starts now, not while the consent text was read.
            session.mark_ready()

        app.submit_job(record, label="consent")
        transcript = app.query_one(Transcript)
        if agreed:
            transcript.note(f"Thank you. Participant {rules.participant}: play begins"
                            + ("" if rules.allow_undo else " (undo is off in this study)") + ".", style="bold italic")
            app.query_one(CommandLine).focus()
        else:
            transcript.note("You declined: nothing will be played. Closing.", style="bold italic")
            app.call_after_refresh(app.action_quit)
