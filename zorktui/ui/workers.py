"""The main screen's thread workers: the one job queue that plays, the panel reader, the valid-action finder.

Everything that plays (commands, accept, undo, save...) goes through one queue
served by one thread worker, so commands play in the order they were typed and
the UI never waits for the game lock. Panel refreshes and valid actions are
thread workers too. Workers only post messages to the screen they serve, which
shows what they found on the UI thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.worker import Worker, WorkerState, get_current_worker

from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.session.commands import CommandError, sentence
from zorktui.ui.messages import ActionsReady, Notice, PanelData, PanelsReady

if TYPE_CHECKING:  # hints only
    from textual.screen import Screen

    from zorktui.session.session import Session
    from zorktui.session.view import SessionView


class Jobs:
    """The job queue, the panel reader and the valid actions of one screen's session.

    Args:
        screen: The screen the workers run on and post to.
        session: The session played.
        view: What the panels read of it.
    """

    def __init__(self, screen: Screen[None], session: Session, view: SessionView) -> None:
        self._screen = screen
        self._session = session
        self._view = view
        self._jobs: queue.Queue[tuple[str, Callable[[], object]] | None] = queue.Queue()
        #: Readers of the memory and the game hold this; closing takes it so no read outlives the database.
        self.reading = threading.Lock()
        # The panel reader's state (see refresh_panels).
        self._panels_lock = threading.Lock()
        self._panels_wanted = False
        self._panels_reading = False

    # ------------------------------------------------------------ the queue
    def serve(self) -> None:
        """Start the thread worker that plays queued jobs (again, after it failed)."""
        self._screen.run_worker(self._serve_jobs, thread=True, group="game", exit_on_error=False, name="game loop")

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
                    self._post(Notice(f"{label}: {exc}", "error"))
                else:
                    self._post(Notice(sentence(str(exc)), "warning", transcript=False))
            except (ZorkTuiError, ValueError, OSError) as exc:
                text = one_line(exc)
                self._post(Notice(f"{label}: {text}" if label else text, "error"))
            else:
                if isinstance(result, str):
                    self._post(Notice(result))
            finally:
                self._jobs.task_done()

    def _post(self, message: Notice | PanelsReady | ActionsReady) -> None:
        self._screen.post_message(message)

    @property
    def busy(self) -> bool:
        """Commands are queued or playing."""
        return self._jobs.unfinished_tasks > 0

    def submit(self, call: Callable[[], object], label: str = "") -> None:
        """Queue something that plays or jumps (runs on the game worker, in order).

        ``call`` may return a string: it is shown to the person.
        """
        self._jobs.put((label, call))

    def stop(self) -> None:
        """Let the job worker end after the jobs queued before this."""
        self._jobs.put(None)

    # ----------------------------------------------------------- the panels
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
        self._screen.run_worker(self._read_panels, thread=True, group="panels", exit_on_error=False)

    def _read_panels(self) -> None:
        session = self._session
        try:
            while True:
                with self._panels_lock:
                    if not self._panels_wanted:
                        self._panels_reading = False
                        return
                    self._panels_wanted = False
                with self.reading:
                    if session.closed:
                        return
                    turn = session.current.turn
                    info = self._view.room()
                    map_text = self._view.map_text()
                self._post(PanelsReady(PanelData(turn, info, map_text)))
        finally:
            with self._panels_lock:
                self._panels_reading = False

    def fetch_actions(self) -> Worker[None]:
        """Find the valid actions of the current state, for completion (beside the game: play goes on)."""
        return self._screen.run_worker(self._find_actions, thread=True, exclusive=True, group="actions",
                                       exit_on_error=False)

    def _find_actions(self) -> None:
        if self._session.closed:
            return
        turn = self._session.current.turn
        try:
            actions = self._view.valid_actions()
        except RuntimeError:
            return  # the session closed while it searched
        if not get_current_worker().is_cancelled:
            self._post(ActionsReady(turn, actions))

    # -------------------------------------------------------------- failure
    @staticmethod
    def failure(event: Worker.StateChanged) -> str | None:
        """The one line for a worker that failed (None: it did not).

        Args:
            event: A worker's change of state, as the screen received it.
        """
        if event.state != WorkerState.ERROR or event.worker.error is None:
            return None
        return f"{event.worker.name or 'worker'} failed: {one_line(event.worker.error, 200, with_type=True)}"
