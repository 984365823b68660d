"""Watch a recorded session: play, pause, step, jump to a turn (``zorktui replay DIR`` in a terminal).

Everything shown comes from the trajectory (no interpreter runs), and the
map as of each turn from the session's memory when it kept one. Watching
never writes to the trajectory.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Input, Static

from zorktui.agent.safety import clean_text
from zorktui.core.turn import ObjectRef
from zorktui.record.frames import Frame, frame_at_turn, frames_of
from zorktui.session.view import objects_here
from zorktui.ui.app_base import ZorkTuiAppBase
from zorktui.ui.keymap import UiConfig, load_config
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

if TYPE_CHECKING:  # hints only
    from textual import events
    from textual.timer import Timer

    from zorktui.session.memory_view import MemoryView

#: Seconds between frames the speed keys step through.
SPEEDS = (2.0, 1.0, 0.5, 0.25, 0.1, 0.03)


#: Lines whose items are sentences, joined with semicolons rather than commas.
SENTENCES = frozenset({"Notes", "Refused first"})

class MapReady(Message):
    """The memory's map as of a turn, drawn off the UI thread."""

    def __init__(self, index: int, text: str | None) -> None:
        super().__init__()
        self.index = index
        self.text = text


def critic_words(critic: dict[str, Any]) -> str:
    """A trajectory's critic record in words: "in favour (+0.45): a valid action here; an unexplored exit"."""
    word = {"accept": "in favour", "reject": "against"}.get(str(critic.get("verdict")), str(critic.get("verdict") or ""))
    score = critic.get("score")
    reasons = critic.get("reasons")
    why = "; ".join(str(r) for r in reasons if r) if isinstance(reasons, list) else str(reasons or "")
    head = f"{word} ({score:+.2f})" if isinstance(score, (int, float)) else word
    return f"{head}: {why}" if why else head


def describe(frame: Frame) -> Text:
    """The Turn panel: what happened in a frame and the state after it (all text literal)."""
    return room_text(frame) + agent_text(frame)


def _liner(out: Text) -> Callable[[str, Any], None]:
    """A writer of "Label: value" lines into ``out`` (lists joined; nothing for an empty value)."""

    def line(label: str, value: Any) -> None:
        if value in (None, "", [], {}):
            return
        out.append(f"{label}: ", style="bold")
        out.append(clean_text(value if isinstance(value, str) else ("; " if label in SENTENCES else ", ").join(map(str, value))
                              if isinstance(value, list) else str(value)))
        out.append("\n")

    return line


def room_text(frame: Frame) -> Text:
    """What happened in a frame and the state after it: place, score, inventory, what is here."""
    r, s = frame.record, frame.state
    out = Text()
    line = _liner(out)
    out.append(clean_text(frame.summary()) + "\n", style="bold")
    line("Time", r.get("time"))
    if r.get("think_ms") is not None:
        line("Think time", f"{r['think_ms'] / 1000:.1f} s")
    location = s.get("location") or {}
    line("Location", location.get("name") if isinstance(location, dict) else location)
    line("Score", s.get("score"))
    line("Carrying", s.get("inventory"))
    line("Here", objects_here([ObjectRef(int(v.get("id", 0)), str(v.get("name", "?")), int(v.get("parent", 0)),
                                         str(v.get("relation", ""))) for v in s.get("visible") or [] if isinstance(v, dict)]))
    if frame.kind == "consent":
        line("Text", r.get("text"))
    return out


def agent_text(frame: Frame) -> Text:
    """The agent's proposal in a frame, its critic and reflection (empty when no agent proposed)."""
    r = frame.record
    out = Text()
    line = _liner(out)
    proposal = r.get("proposal")
    if isinstance(proposal, dict):
        out.append("\nAgent's proposal\n", style="bold underline")
        line("Command", proposal.get("command"))
        line("Source", proposal.get("source"))
        line("Fate", proposal.get("fate"))
        line("Reason", proposal.get("reason"))
        critic = proposal.get("critic")
        if isinstance(critic, dict):
            line("Critic", critic_words(critic))
        refused = proposal.get("refused")
        if isinstance(refused, list):
            line("Refused first", [f"'{x.get('command', '?')}' by the {x.get('by', '?')}"
                                   + (f" ({x['reason']})" if x.get("reason") else "") for x in refused if isinstance(x, dict)])
        line("Reflection", proposal.get("reflection"))
        line("Objective", proposal.get("objective"))
        line("Notes", proposal.get("notes"))
    return out


class ReplayApp(ZorkTuiAppBase):
    """Watch a session folder's trajectory.

    Args:
        folder: The session folder.
        records: Its trajectory records (header first).
        memory: Its memory, opened read-only, for the map as of each turn (None: no map).
        theme: Theme name (else the config file's, else the default).
        config: Settings (default: read ``config_dir()/config.toml``; only its theme is used here).
        themes_dir: The user's theme folder (default: ``config_dir()/themes``).
    """

    TITLE = "zorktui replay"
    # The jump box must never hold the keys while hidden: focus starts (and returns) on the transcript.
    AUTO_FOCUS = "#transcript"
    CSS = """
    #turn-box { height: 1fr; border: round $secondary; border-title-color: $secondary; padding: 0 1; }
    #map { height: 1fr; }
    #jump { dock: bottom; display: none; }
    #jump.open { display: block; }
    """
    # Priority: the transcript (a scroll view) has its own left/right/home/end; here they move through time.
    BINDINGS = [
        Binding("space", "toggle_play", "Play/Pause", id="replay_play", priority=True),
        Binding("right,n", "step(1)", "Step", id="replay_step", priority=True),
        Binding("left,p", "step(-1)", "Back", id="replay_back", priority=True),
        Binding("home", "edge(0)", "Start", id="replay_start", show=False, priority=True),
        Binding("end", "edge(-1)", "End", id="replay_end", show=False, priority=True),
        Binding("g", "jump", "Jump to turn", id="replay_jump", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", id="replay_faster", priority=True),
        Binding("minus", "speed(-1)", "Slower", id="replay_slower", priority=True),
        Binding("ctrl+q", "quit", "Quit", id="replay_quit", priority=True),
        Binding("q", "quit", "Quit", id="replay_q", show=False),
    ]

    def __init__(self, folder: Path, records: list[dict[str, Any]], memory: MemoryView | None = None,
                 theme: str | None = None, config: UiConfig | None = None, themes_dir: Path | None = None) -> None:
        super().__init__(config if config is not None else load_config(), theme=theme, themes_dir=themes_dir)
        self.folder = folder
        self.header = records[0] if records and records[0].get("type") == "session" else {}
        self.frames = frames_of(records)
        self.memory = memory
        self.index = -1
        self.playing = False
        self.speed = 2
        self._timer: Timer | None = None
        self._reading = threading.Lock()

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Transcript(id="transcript")
            with Vertical(id="side"):
                yield from self.side_panels()
        yield Input(placeholder="jump to turn (a number, Enter; Escape cancels)", id="jump", type="integer")
        yield Footer(compact=True)

    def side_panels(self) -> ComposeResult:
        """The panels beside the transcript (the live view shows room and agent apart)."""
        with VerticalScroll(id="turn-box"):
            yield Static(id="turn")
        yield MapView(id="map")

    def on_mount(self) -> None:
        self.start()

    def start(self) -> None:
        """Fill the panels and show the opening (once the widgets are mounted)."""
        self.query_one("#turn-box").border_title = "Turn"
        for note in self.startup_notes:
            self.notify(note, severity="warning", timeout=6)
        if self.memory is None:
            self.query_one(MapView).show("(this session kept no memory: no map)")
        if not self.frames:
            self.query_one(Transcript).note("This session has no turns to watch.")
            return
        self.go_to(0)
        self._timer = self.set_interval(SPEEDS[self.speed], self._tick, pause=True)

    # ------------------------------------------------------------ showing
    def go_to(self, index: int) -> None:
        """Show the session as it was after frame ``index``."""
        if not self.frames:
            return
        index = max(0, min(index, len(self.frames) - 1))
        transcript = self.query_one(Transcript)
        if index == self.index + 1:
            self._write(transcript, self.frames[index])
        elif index != self.index:
            # Going back or far ahead: write the transcript again up to the frame.
            transcript.reset()
            for frame in self.frames[: index + 1]:
                self._write(transcript, frame)
        self.index = index
        frame = self.frames[index]
        self.show_frame(frame)
        self._status()
        if self.memory is not None:
            self.read_map(index, frame.turn)
        if index == len(self.frames) - 1 and self.playing:
            self._set_playing(False)

    def show_frame(self, frame: Frame) -> None:
        """Fill the side panels for a frame (the transcript is written by :meth:`go_to`)."""
        self.query_one("#turn", Static).update(describe(frame))

    def _write(self, transcript: Transcript, frame: Frame) -> None:
        r = frame.record
        if frame.kind == "turn":
            if r.get("command") is not None:
                transcript.echo(str(r["command"]), str(r.get("actor", "")))
            transcript.game_text(str(r.get("observation", "")))
        else:
            transcript.note(f"— {frame.summary()} —", style="bold italic")

    def _status(self) -> None:
        frame = self.frames[self.index]
        s = frame.state
        story = self.header.get("story") or {}
        location = s.get("location") or {}
        state = self.state_label()
        self.query_one(StatusBar).update_status(
            title=str(story.get("title") or Path(str(story.get("path", "?"))).stem),
            location=location.get("name", "") if isinstance(location, dict) else str(location),
            score=s.get("score"), max_score=story.get("max_score"), moves=s.get("moves"), turn=frame.turn,
            mode=self.MODE_WORD, agent=f"frame {self.index + 1}/{len(self.frames)}", autopilot=state)

    #: The status bar's word for the mode ("watch" in the live view).
    MODE_WORD = "replay"

    def state_label(self) -> str:
        """The status bar's word for what the viewer is doing."""
        return ("▶ playing" if self.playing else "❚❚ paused") + f" {SPEEDS[self.speed]:g}s"

    @work(thread=True, exclusive=True, group="map", exit_on_error=False)
    def read_map(self, index: int, turn: int) -> None:
        """Draw the memory's map as of ``turn`` off the UI thread."""
        with self._reading:
            if self.memory is None:
                return
            text = self.memory.map_text(turn)
        self.post_message(MapReady(index, text))

    def on_map_ready(self, message: MapReady) -> None:
        if message.index == self.index:
            self.query_one(MapView).show(message.text, as_of=self.frames[self.index].turn)

    # ------------------------------------------------------------ actions
    def _tick(self) -> None:
        if self.index < len(self.frames) - 1:
            self.go_to(self.index + 1)
        else:
            self._set_playing(False)

    def _set_playing(self, playing: bool) -> None:
        self.playing = playing and bool(self.frames)
        if self._timer is not None:
            (self._timer.resume if self.playing else self._timer.pause)()
        if self.frames:
            self._status()

    def action_toggle_play(self) -> None:
        """Play from here, or pause."""
        if not self.playing and self.index >= len(self.frames) - 1:
            self.go_to(0)  # at the end, play starts again from the opening
        self._set_playing(not self.playing)

    def action_step(self, step: int) -> None:
        """One frame forward or back (pauses)."""
        self._set_playing(False)
        if self.frames:
            self.go_to(self.index + step)

    def action_edge(self, end: int) -> None:
        """The opening (0) or the last frame (-1)."""
        self._set_playing(False)
        if self.frames:
            self.go_to(0 if end == 0 else len(self.frames) - 1)

    def action_speed(self, change: int) -> None:
        """Faster (+1) or slower (-1)."""
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + change))
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.set_interval(SPEEDS[self.speed], self._tick, pause=not self.playing)
        if self.frames:
            self._status()

    def action_jump(self) -> None:
        """Ask for a turn number."""
        self._set_playing(False)
        box = self.query_one("#jump", Input)
        box.add_class("open")
        box.value = ""
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = event.input
        box.remove_class("open")
        self.query_one(Transcript).focus()
        try:
            turn = int(event.value)
        except ValueError:
            self.notify("Give a turn number.", severity="warning")
            return
        if self.frames:
            self.go_to(frame_at_turn(self.frames, turn))

    def on_key(self, event: events.Key) -> None:
        box = self.query_one("#jump", Input)
        if event.key == "escape" and box.has_class("open"):
            box.remove_class("open")
            self.query_one(Transcript).focus()
            event.stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While the jump box is open, keys are typing, not commands (quit still works).
        if self.query("#jump.open") and action not in ("quit",):
            return False
        return True

    def on_unmount(self) -> None:
        with self._reading:
            if self.memory is not None:
                self.memory.close()
                self.memory = None


def open_replay(folder: Path, theme: str | None = None) -> ReplayApp:
    """The watch app for a session folder (its memory opened for the map when it has one).

    Raises:
        SessionError: The folder holds no readable trajectory.
    """
    # deferred: loaded when the watch app opens, not with the CLI
    from zorktui.session.files.folder import SessionError, SessionFolder
    from zorktui.session.memory_view import open_for_replay

    records = SessionFolder(folder).records()
    if not records:
        raise SessionError(f"{folder}: no trajectory to watch")
    memory = open_for_replay(folder, (records[0].get("story") or {}).get("path"))
    return ReplayApp(folder, records, memory=memory, theme=theme)
