"""A live, read-only view of a session being played elsewhere (``zorktui watch``, ``zorktui serve --watch``).

The replay viewer's frames, following the trajectory as it grows: new lines
of ``trajectory.jsonl`` are read twice a second and the view moves to the
newest frame unless the watcher has stepped back (End follows again). The
map comes from a private copy of the memory, built from the trajectory in a
temporary folder, because the playing process holds the session's own. Nothing
here writes to the session folder, and there is no command line: a watcher
cannot type into the game.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from zorktui.core.scratch import scratch_folder
from zorktui.record.frames import Frame, frames_of
from zorktui.ui.replay_app import ReplayApp, agent_text, room_text
from zorktui.ui.widgets.mapview import MapView

#: Seconds between looks at the trajectory.
POLL_SECONDS = 0.5


class NewRecords(Message):
    """Lines the trajectory gained since the last look."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        super().__init__()
        self.records = records


class LiveApp(ReplayApp):
    """Follow a session folder's trajectory as it grows.

    Args:
        folder: The session folder (its trajectory must have its header by now).
        theme: Theme name (else the config file's, else the default).
    """

    TITLE = "zorktui watch"
    MODE_WORD = "watch"
    CSS = ReplayApp.CSS + """
    #room-box, #agent-box { height: 1fr; border: round $secondary; border-title-color: $secondary; padding: 0 1; }
    """

    def __init__(self, folder: Path, theme: str | None = None) -> None:
        # deferred: the session folder's readers load with the viewer
        from zorktui.session.files.folder import SessionFolder

        session_folder = SessionFolder(folder)
        records = session_folder.records()
        super().__init__(folder, records, memory=None, theme=theme)
        self.records = records
        #: Every record read so far, kept by the reader thread for the private memory (the UI has its own list).
        self._seen = list(records)
        self._offset = session_folder.trajectory.stat().st_size
        self._replica = scratch_folder("watch")
        self._memory_failed = False

    def side_panels(self) -> ComposeResult:
        """Room and agent apart, then the map."""
        with VerticalScroll(id="room-box"):
            yield Static(id="room")
        with VerticalScroll(id="agent-box"):
            yield Static(id="agent-text")
        yield MapView(id="map")

    def start(self) -> None:
        """Show the newest frame and start looking for more."""
        self.query_one("#room-box").border_title = "Room"
        agent = self.header.get("agent")
        name = agent.get("name") if isinstance(agent, dict) else agent
        self.query_one("#agent-box").border_title = f"Agent ({name})" if name else "Agent"
        self.query_one(MapView).show("(the map is being drawn from the trajectory…)")
        for note in self.startup_notes:
            self.notify(note, severity="warning", timeout=6)
        self.go_to(len(self.frames) - 1)
        self._timer = self.set_interval(1.0, self._tick, pause=True)
        self._catch_up()
        self.set_interval(POLL_SECONDS, self._look)

    # ------------------------------------------------------------ showing
    def show_frame(self, frame: Frame) -> None:
        """The Room and Agent panels for a frame."""
        self.query_one("#room", Static).update(room_text(frame))
        proposal = agent_text(frame)
        self.query_one("#agent-text", Static).update(proposal if proposal.plain else "(no proposal at this turn)")

    def state_label(self) -> str:
        """Live at the newest frame; stepped back otherwise."""
        if self.playing:
            return super().state_label()
        return "● live" if self.following else "❚❚ behind (End follows)"

    @property
    def following(self) -> bool:
        """Whether the view stands at the newest frame (and so moves on with the play)."""
        return self.index >= len(self.frames) - 1

    # ------------------------------------------------------------ growing
    def _look(self) -> None:
        self._read_new()

    @work(thread=True, exclusive=True, group="look", exit_on_error=False)
    def _read_new(self) -> None:
        """Read the trajectory's complete new lines (a line being written waits for the next look)."""
        path = self.folder / "trajectory.jsonl"
        try:
            with path.open("rb") as f:
                f.seek(self._offset)
                data = f.read()
        except OSError:
            return
        end = data.rfind(b"\n")
        if end < 0:
            return
        self._offset += end + 1
        records: list[dict[str, Any]] = []
        for line in data[:end].split(b"\n"):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except ValueError:
                    continue  # a damaged line: the rest still shows
        if records:
            with self._reading:
                self._seen.extend(records)
            self._apply_to_memory()
            self.post_message(NewRecords(records))

    def on_new_records(self, message: NewRecords) -> None:
        at_end = self.following
        self.records.extend(message.records)
        self.frames = frames_of(self.records)
        if at_end and not self.playing:
            self.go_to(len(self.frames) - 1)
        elif self.frames:
            self._status()

    @work(thread=True, exclusive=True, group="replica", exit_on_error=False)
    def _catch_up(self) -> None:
        """Build the private memory from the trajectory so far, then draw the map."""
        self._apply_to_memory()
        self.call_from_thread(lambda: self.read_map(self.index, self.frames[self.index].turn) if self.frames else None)

    def _apply_to_memory(self) -> None:
        """Bring the private memory up to the records read (made on first use; none if it cannot be made)."""
        from zorktui.session.memory_view import replica  # deferred: the memory (kuzu behind it) loads on this thread

        with self._reading:
            if self._memory_failed:
                return
            try:
                if self.memory is None:
                    self.memory = replica(self._replica, (self.header.get("story") or {}).get("path"))
                self.memory.catch_up(self._seen)
            except Exception:  # noqa: BLE001 - the map is optional: a memory that cannot be built means no map
                self._memory_failed = True
                self.memory = None
                self.call_from_thread(lambda: self.query_one(MapView).show("(no map: the memory could not be built)"))

    def on_unmount(self) -> None:
        with self._reading:
            if self.memory is not None:
                self.memory.close()
                self.memory = None
        shutil.rmtree(self._replica, ignore_errors=True)
