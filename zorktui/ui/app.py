"""The zorktui app: it builds the main screen from the session, starts play, and closes it all once.

The main screen (:mod:`zorktui.ui.screens.main`) holds the layout, the keys
and what the person does; its bridge (:mod:`zorktui.ui.bridge`) draws the
session's events; its jobs (:mod:`zorktui.ui.workers`) play and read off the
UI thread; the app commands are in :mod:`zorktui.ui.app_commands`, a baseline
study's rules in :mod:`zorktui.ui.baseline_view`.

Threads: session events arrive on whatever thread made them and are posted
to the main screen as :class:`~zorktui.ui.messages.SessionEvent` messages.
Everything that plays goes through one queue served by one thread worker
(:meth:`Jobs.submit`); workers only post messages.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding

from zorktui.resources import resource_path
from zorktui.session import events as ev
from zorktui.session.modes import Mode
from zorktui.session.view import SessionView
from zorktui.ui.app_base import ZorkTuiAppBase
from zorktui.ui.baseline_view import BaselineView
from zorktui.ui.keymap import UiConfig, load_config
from zorktui.ui.messages import SessionClosed, SessionEvent
from zorktui.ui.palette import AppCommandProvider
from zorktui.ui.screens.main import MainScreen, main_layout
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import Usage
    from zorktui.session.factory import Built


#: Seconds between autopilot commands in the app unless config.toml says otherwise.
DEFAULT_AUTOPILOT_DELAY = 0.25


class ZorkApp(ZorkTuiAppBase):
    """Co-play of a Z-machine story by a person and an agent.

    Args:
        built: What :func:`zorktui.session.factory.build_session` made (session, warnings, LLM client).
        theme: Theme name to start with (else the config file's, else the default).
        config: Settings (default: read ``config_dir()/config.toml``).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
    """

    CSS_PATH = [ZorkTuiAppBase.LAYOUT_CSS, str(resource_path("app.tcss"))]
    # The palette lists the app commands beside Textual's own (themes, keys, quit).
    COMMANDS = ZorkTuiAppBase.COMMANDS | {AppCommandProvider}
    TITLE = "zorktui"
    def __init__(self, built: Built, theme: str | None = None, config: UiConfig | None = None,
                 themes_dir: Path | None = None, mcp: tuple[str, str] | None = None) -> None:
        ids = {b.id for b in MainScreen.BINDINGS if isinstance(b, Binding) and b.id}
        super().__init__(config if config is not None else load_config(binding_ids=ids), theme=theme,
                         themes_dir=themes_dir)
        self.built = built
        self.session = built.session
        #: (url, token) where outside agents reach this session over MCP (None: not served).
        self.mcp = mcp
        #: What the panels read of the session (the app never reaches into the game or the memory).
        self.view = SessionView(self.session)
        #: A human-baseline study's rules as the app applies them (nothing hidden in an ordinary session).
        self.study = BaselineView(built.baseline)
        self.startup_notes[:0] = built.warnings
        # A person watches the autopilot here: a short pause between its commands unless configured.
        self.session.autopilot.delay = self.ui_config.autopilot_delay if self.ui_config.autopilot_delay is not None \
            else DEFAULT_AUTOPILOT_DELAY
        # The line that answers the game's own QUIT names this front's way.
        self.session.commands.quit_how = "press ctrl+q (your session is kept)"
        self.session.commands.outside_agent = mcp is not None
        self._quitting = False
        self._agent_name = self._describe_agent()
        self._main: MainScreen | None = None
        #: perf_counter when the first story text was written (for the start-up benchmark).
        self.first_text_at: float | None = None

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        # The main screen's layout on the app's own default screen: the first frame comes soonest so.
        yield from main_layout()

    def get_default_screen(self) -> MainScreen:
        """The main screen, built from the session (it gives the command line focus back whenever shown again)."""
        self._main = MainScreen(self.session, self.view, self.study, self.mcp, self._agent_name, self._usage,
                                self._tearing_down)
        return self._main

    @property
    def main(self) -> MainScreen:
        """The main screen (the app's default screen)."""
        if self._main is None:
            raise RuntimeError("the app has not started")
        return self._main

    def _tearing_down(self) -> bool:
        """The app is closing: a message arriving now may find its widgets already gone.

        Textual removes widgets before (or while) it clears ``is_running``, so
        a late event or a panel reader's result has nothing to be shown on.
        """
        return self._quitting or not self.is_running or self._closing or self._closed

    def on_mount(self) -> None:
        # The main screen's widgets are mounted by now: fill them and start the session's work.
        # However a zoom ends (F5, /map, or Textual's own Escape), the command line takes the keys back.
        main = self.main
        self.watch(main, "maximized", main.maximized_changed, init=False)
        if self.ui_config.keymap:
            self.set_keymap(self.ui_config.keymap)
        self.study.apply_layout(main)
        transcript = self.query_one(Transcript)
        turn = self.session.current
        if turn.turn > 0:
            transcript.note(f"Resuming at turn {turn.turn}.")
        transcript.game_text(turn.observation)
        self.first_text_at = time.perf_counter()
        for note in self.startup_notes:
            transcript.note(note, style="italic")
            self.notify(note, severity="warning", timeout=6)
        if self.mcp is not None:
            # On screen for the person to copy; the trajectory and the logs never see the token.
            url, token = self.mcp
            transcript.note(f"Outside agents: {url} with the header  Authorization: Bearer {token}", style="bold")
            self.notify(f"MCP on {url}; token {token}", timeout=10)
        self.query_one(CommandLine).completer.set_words(self.view.vocabulary())
        agent = self.query_one(AgentPanel)
        agent.state.agent = self._agent_name if self.session.agent is not None or self.mcp else ""
        agent.state.usage = self._usage()
        agent.redraw()
        main.bridge.refresh_status()
        main.bridge.connect()
        main.jobs.serve()
        main.jobs.refresh_panels()
        main.bridge.after_turn_started()
        self.study.ask_consent(main, self.built.consent)
        if self.session.pending is not None:  # an outside agent's, handed in before the screen was up
            main.post_message(SessionEvent(ev.ProposalReady(self.session.pending)))
        if self.session.agent is not None and not self.session.current.done:
            if self.session.mode == Mode.AUTOPILOT:
                self.session.autopilot.start()
            elif self.session.mode == Mode.COPLAY and self.session.pending is None:
                self.session.request_proposal()
        self.query_one(CommandLine).focus()

    # --------------------------------------------------------------- agent
    def _describe_agent(self) -> str:
        agent = self.session.agent
        study_name = self.study.agent_name()
        if study_name is not None:
            return study_name
        if agent is None:
            return "outside agent (MCP)" if self.mcp else "no agent"
        llm = self.built.llm
        if llm is not None and getattr(agent, "name", "") != "explore":
            return f"llm {getattr(llm.config, 'model', '')}".strip()
        return f"{getattr(agent, 'name', 'agent')} (offline)"

    def _usage(self) -> Usage | None:
        return self.built.llm.usage if self.built.llm is not None else None

    # ----------------------------------------------------------------- quit
    async def action_quit(self) -> None:
        """Save and quit: the session is closed (last turn written, memory flushed) before the app exits."""
        if self._quitting:
            return
        self._quitting = True
        self.query_one(Transcript).note("Saving and closing…")
        self._close_session()

    @work(thread=True, group="close", exit_on_error=False)
    def _close_session(self) -> None:
        self._close_everything()
        self.post_message(SessionClosed())

    def on_session_closed(self, _: SessionClosed) -> None:
        self.exit()

    def _close_everything(self) -> None:
        """Close the session (and with it the game) once (any thread)."""
        main = self._main
        if main is None:  # never started: nothing follows the session
            if not self.session.closed:
                self.session.close()
            return
        main.jobs.stop()
        main.bridge.disconnect()
        with main.jobs.reading:
            if not self.session.closed:
                self.session.close()

    def on_unmount(self) -> None:
        # Closing the app any other way (tests, ctrl+c) still writes the last turn.
        self._close_everything()


def create_app(built: Built, theme: str | None = None, config: UiConfig | None = None,
               themes_dir: Path | None = None, mcp: tuple[str, str] | None = None) -> ZorkApp:
    """The app for a built session (the CLI and the tests share this).

    Args:
        built: :class:`zorktui.session.factory.Built`.
        theme: Theme name (``--theme``).
        config: Settings (default: the config file).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
        mcp: (url, token) of the MCP server serving this session to outside agents (``--mcp-port``).
    """
    return ZorkApp(built, theme=theme, config=config, themes_dir=themes_dir, mcp=mcp)
