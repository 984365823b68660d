"""The app's thread workers: the one job queue that plays, the panel reader, the valid-action finder.

A mixin of :class:`zorktui.ui.app.ZorkApp`. Everything that plays (commands,
accept, undo, save...) goes through one queue served by one thread worker, so
commands play in the order they were typed and the UI never waits for the
game lock. Panel refreshes and valid actions are thread workers too; workers
only post messages, handled here on the UI thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import work
from textual.css.query import NoMatches
from textual.worker import Worker, WorkerState, get_current_worker

from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.session.commands import CommandError, sentence
from zorktui.ui.app_host import AppMixin
from zorktui.ui.messages import ActionsReady, Notice, PanelData, PanelsReady
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    from zorktui.session.session import Session
    from zorktui.session.view import SessionView


class AppWorkers(AppMixin):
    """The job queue, the panel reader and the valid actions, with the one report of a worker's failure."""

    # Held by the app (:class:`ZorkApp`), which sets them in its ``__init__``.
    session: Session
    view: SessionView
    _quitting: bool

    if TYPE_CHECKING:  # the bridge's
        def _tearing_down(self) -> bool: ...

    def _init_workers(self) -> None:
        self._jobs: queue.Queue[tuple[str, Callable[[], object]] | None] = queue.Queue()
        # Readers of the memory and the game hold this; closing takes it so no read outlives the database.
        self._reading = threading.Lock()
        # The panel reader's state (see refresh_panels).
        self._panels_lock = threading.Lock()
        self._panels_wanted = False
        self._panels_reading = False

    @work(thread=True, group="game", exit_on_error=False, name="game loop")
    def _serve_jobs(self) -> None:
        """Play queued jobs one at a time, in order, until the app closes."""
        worker = get_current_worker()
        while not worker.is_cancelled:
            try:
                job = self._jobs.get(timeout=0.1)
            except queue.Empty:
                continue
            if job is None:
                self._jobs.task_done()
                return
            label, call = job
            try:
                result = call()
            except CommandError as exc:  # a key's verb refused (Enter with no proposal): said, not written down
                if label:
                    self.post_message(Notice(f"{label}: {exc}", "error"))
                else:
                    self.post_message(Notice(sentence(str(exc)), "warning", transcript=False))
            except (ZorkTuiError, ValueError, OSError) as exc:
                text = one_line(exc)
                self.post_message(Notice(f"{label}: {text}" if label else text, "error"))
            else:
                if isinstance(result, str):
                    self.post_message(Notice(result))
            finally:
                self._jobs.task_done()

    @property
    def busy(self) -> bool:
        """Commands are queued or playing."""
        return self._jobs.unfinished_tasks > 0

    def submit_job(self, call: Callable[[], object], label: str = "") -> None:
        """Queue something that plays or jumps (runs on the game worker, in order).

        ``call`` may return a string: it is shown to the person.
        """
        self._jobs.put((label, call))

    def refresh_panels(self) -> None:
        """Ask for the Room and Map panels to be read again (off the UI thread).

        Requests coalesce: one reader runs at a time and reads again while
        more were asked for, so a fast autopilot never starves the panels
        (cancelling a reader per turn would, as none would ever finish).
        """
        with self._panels_lock:
            self._panels_wanted = True
            if self._panels_reading:
                return
            self._panels_reading = True
        self._read_panels()

    @work(thread=True, group="panels", exit_on_error=False)
    def _read_panels(self) -> None:
        session = self.session
        try:
            while True:
                with self._panels_lock:
                    if not self._panels_wanted:
                        self._panels_reading = False
                        return
                    self._panels_wanted = False
                with self._reading:
                    if session.closed:
                        return
                    turn = session.current.turn
                    info = self.view.room()
                    map_text = self.view.map_text()
                self.post_message(PanelsReady(PanelData(turn, info, map_text)))
        finally:
            with self._panels_lock:
                self._panels_reading = False

    def on_panels_ready(self, message: PanelsReady) -> None:
        if self._tearing_down():
            return
        try:
            self.query_one(RoomPanel).show(message.data.room)
            self.query_one(MapView).show(message.data.map_text)
        except NoMatches:
            if not self._tearing_down():
                raise

    @work(thread=True, exclusive=True, group="actions", exit_on_error=False)
    def fetch_actions(self) -> None:
        """Valid actions of the current state, for completion (searched beside the game: play goes on)."""
        if self.session.closed:
            return
        turn = self.session.current.turn
        try:
            actions = self.view.valid_actions()
        except RuntimeError:
            return  # the session closed while it searched
        if not get_current_worker().is_cancelled:
            self.post_message(ActionsReady(turn, actions))

    def on_actions_ready(self, message: ActionsReady) -> None:
        if message.turn == self.session.current.turn and not self._quitting:
            self.query_one(CommandLine).completer.set_actions(message.actions)
            self.refresh_panels()  # the memory has learned the ways out the valid actions hold

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker failures are reported."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            text = f"{event.worker.name or 'worker'} failed: {one_line(error, 200, with_type=True)}"
            self.query_one(Transcript).error(text)
            self.notify(text, severity="error", timeout=6)
            if event.worker.group == "game" and not self._quitting:
                self._serve_jobs()
