"""What the person does in the app: the command line, app commands (/undo, /save...) and key actions.

App commands are run from the registry in :mod:`zorktui.ui.app_commands`;
a baseline study's limits come from :mod:`zorktui.ui.baseline_view`. A mixin of
:class:`zorktui.ui.app.ZorkApp`; everything that plays goes through the app's one job queue (:meth:`ZorkApp.submit_job`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.widgets import Input

from zorktui.session import commands as appcmd
from zorktui.session.commands import Answer, sentence
from zorktui.session.modes import Mode
from zorktui.ui.app_commands import REGISTRY
from zorktui.ui.app_host import AppMixin
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    import threading

    from textual import events

    from zorktui.agent.proposal import Proposal
    from zorktui.session.session import Session
    from zorktui.session.view import SessionView
    from zorktui.ui.baseline_view import BaselineView

#: Autopilot delays the speed key cycles through (seconds between commands).
SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)
#: Panels the zoom key cycles through.
ZOOM_ORDER = ("transcript", "room", "map", "agent")


class PlayerActions(AppMixin):
    """The command line, the app commands and the key bindings' actions."""

    # Held by the app (:class:`ZorkApp`), which sets them in its ``__init__``.
    session: Session
    view: SessionView
    study: BaselineView
    mcp: tuple[str, str] | None
    zoomed: str | None
    _editing: Proposal | None
    _reading: threading.Lock

    if TYPE_CHECKING:  # the other mixins'
        def submit_job(self, call: Callable[[], object], label: str = "") -> None: ...

        def _refresh_status(self) -> None: ...

        def _show_hint(self) -> None: ...

    # ---------------------------------------------------------- command line
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not isinstance(event.input, CommandLine):
            return
        line = event.input
        text = event.value.strip()
        line.value = ""
        line.remember(text)
        try:
            command = appcmd.parse(text)
        except appcmd.CommandError as exc:
            self.query_one(Transcript).error(str(exc))
            return
        if command is not None:
            self.run_app_command(command)
            return
        if text.startswith("//"):
            text = text[1:]
        if not text:
            if self._editing is not None:
                self._editing = None
                return
            self.action_accept()
            return
        if self._editing is not None:
            self._editing = None
            self.submit_job(lambda: self.session.edit(text), label=text)
        else:
            self.submit_job(lambda: self.session.play(text, actor="human"), label=text)

    def run_app_command(self, command: appcmd.AppCommand) -> None:
        """Run an app command from the registry (they never reach the game)."""
        try:
            if not self.study.allows_command(command.name):
                raise appcmd.CommandError(f"/{command.name} is not part of this study (you play alone)")
            REGISTRY.get(command.name).run(self, command)
        except appcmd.CommandError as exc:
            self.query_one(Transcript).error(str(exc))

    # -------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Game keys do nothing while a dialog or the inspector is on top.
        if action in {"accept", "reject", "edit", "autopilot", "pause", "step", "speed", "zoom", "toggle_panel",
                      "inspector"} and len(self.screen_stack) > 1:
            return False
        # A baseline participant plays alone: the agent's keys (and the memory, unless shown) are gone.
        return self.study.allows_action(action)

    def action_accept(self) -> None:
        """Play the agent's pending proposal."""
        self.submit_job(lambda: self.session.commands.accept().shown or None, label="")

    def action_reject(self) -> None:
        """Refuse the proposal, with an optional reason from a small dialog."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to reject.", timeout=3)
            return
        # deferred: the screen loads when first opened, not with the app's first frame
        from zorktui.ui.screens.reject import RejectScreen

        def done(reason: str | None) -> None:
            if reason is not None:
                self.reject(reason)

        self.push_screen(RejectScreen(p.command), done)

    def reject(self, reason: str) -> None:
        """Refuse the pending proposal with a reason ("" for none); the agent thinks again."""
        try:
            answer = self.session.commands.reject(reason)  # quick: it only asks the thinking thread anew
        except appcmd.CommandError as exc:
            self.notify(sentence(str(exc)), timeout=3)
            return
        self.query_one(Transcript).note(answer.text)
        agent = self.query_one(AgentPanel)
        agent.state.proposal = None
        agent.redraw()
        self._show_hint()
        self._refresh_status()

    def action_edit(self) -> None:
        """Put the proposal into the command line to change it (Enter then plays it as an edit)."""
        p = self.session.pending
        if p is None:
            self.notify("No proposal to edit.", timeout=3)
            return
        line = self.query_one(CommandLine)
        line.put(p.command)  # exactly the proposal: no completion shown after it
        line.focus()
        self._editing = p

    def action_autopilot(self) -> None:
        """Hand control to the agent, or take it back."""
        if self.session.autopilot.running or (self.session.agent is None and self.session.mode == Mode.AUTOPILOT):
            self._say(self.session.commands.take_back)
        else:
            self.start_autopilot(None)

    def start_autopilot(self, steps: int | None) -> None:
        """Hand control to the agent (for at most ``steps`` commands; None: until it stops)."""
        self._say(lambda: self.session.commands.auto(steps), timeout=6)
        self._show_hint()

    def action_pause(self) -> None:
        """Pause or resume the autopilot."""
        self._say(self.session.commands.pause)

    def action_step(self) -> None:
        """One autopilot command when paused; otherwise play the pending proposal."""
        self.submit_job(lambda: self.session.commands.step().shown or None, label="")

    def action_speed(self) -> None:
        """Cycle the autopilot's delay between commands."""
        later = [d for d in SPEEDS if d > self.session.autopilot.delay]
        self.set_delay(later[0] if later else SPEEDS[0])

    def set_delay(self, delay: float | str) -> None:
        """Seconds the autopilot waits between commands.

        Raises:
            CommandError: Not a number of seconds from 0 to 60.
        """
        self.notify(self.session.commands.speed(delay).text, timeout=2)
        self._refresh_status()

    def set_mode(self, mode: str) -> None:
        """Who plays: "human", "coplay" or "autopilot".

        Raises:
            CommandError: Not a mode, or an agent's mode in a session without one.
        """
        self.session.commands.mode(mode)
        self._refresh_status()

    def _say(self, verb: Callable[[], Answer], timeout: float = 3) -> None:
        """Run a quick verb of the session's and show its answer (or why it was refused) as a notification."""
        try:
            answer = verb()
        except appcmd.CommandError as exc:
            self.notify(sentence(str(exc)), severity="warning", timeout=timeout)
        else:
            if answer.text:
                self.notify(answer.text, timeout=timeout)
        self._refresh_status()

    def action_toggle_panel(self, name: str) -> None:
        """Hide or show a side panel."""
        panel = self.query_one(f"#{name}")
        panel.display = not panel.display
        side = self.query_one("#side")
        side.display = any(w.display for w in side.children)

    def action_zoom(self) -> None:
        """Zoom the next panel (transcript, room, map, agent, then none)."""
        order = [None, *self.study.zoom_panels(ZOOM_ORDER)]
        self.zoom_to(order[(order.index(self.zoomed) + 1) % len(order)])

    def zoom_to(self, name: str | None) -> None:
        """Zoom a panel by id to fill the screen (None: unzoom)."""
        self.zoomed = name
        if name is None:
            self.screen.minimize()
            return
        widget = self.query_one(f"#{name}")
        widget.display = True
        self.query_one("#side").display = True
        self.screen.maximize(widget, container=False)

    def action_help(self) -> None:
        """Show every key and app command."""
        # deferred: the screen loads when first opened, not with the app's first frame
        from zorktui.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.key_rows()))

    def key_rows(self) -> list[tuple[str, str, str]]:
        """(keys, id, description) for every binding of the main screen, as remapped by the keymap."""
        keymap = getattr(self, "_keymap", {}) or {}
        rows = []
        for binding in [*self.BINDINGS, *CommandLine.BINDINGS]:
            if not isinstance(binding, Binding):
                continue
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            rows.append((keys.replace(",", ", "), binding.id or "", binding.tooltip or binding.description))
        rows.append(("enter", "", "play the command; on an empty line, play the agent's proposal"))
        rows.append(("escape", "", "unzoom (typing unzooms too, into the command line)"))
        rows.append(("ctrl+p", "", "command palette (app commands, themes, keys, quit)"))
        return rows

    def action_inspector(self) -> None:
        """Open the memory inspector on the current turn."""
        memory = self.view.memory_view(self._reading)
        if memory is None:
            self.notify("This session keeps no memory (play with a session folder).", severity="warning")
            return
        # deferred: the inspector and the memory queries behind it (about 40 ms) load when first opened
        from zorktui.ui.screens.inspector import InspectorScreen

        self.push_screen(InspectorScreen(memory, self.session.current.turn))

    def maximized_changed(self, widget: object | None) -> None:
        """The main screen's zoom changed, by F5, /map or Textual's own Escape: unzoomed, the keys go to the command line."""
        if widget is None:
            self.zoomed = None
            self.set_focus(self.query_one(CommandLine))

    async def on_key(self, event: events.Key) -> None:
        # A key typed where nothing takes text (a zoomed panel, a clicked panel) reaches the app unused:
        # it is not dropped but goes to the command line (unzooming), as if the person had never left it.
        # Keys typed quickly all went to that panel before the first came back here, so each is routed,
        # Enter included, whatever has focus by now (an Input uses every key it is sent).
        if len(self.screen_stack) > 1:
            return
        line = self.query_one(CommandLine)
        if event.key == "enter":
            if not (line.value and line.has_focus):
                return
            await line.action_submit()
        elif event.is_printable and event.character is not None:
            if self.zoomed is not None:
                self.zoom_to(None)
            self.set_focus(line)
            line.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()
