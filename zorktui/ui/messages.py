"""Messages that carry session events and worker results to the app (posted from any thread)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from zorktui.session import events as ev

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.session.view import RoomInfo


class SessionEvent(Message):
    """A session event, hopped from the thread that produced it to the app's."""

    def __init__(self, event: ev.Event) -> None:
        super().__init__()
        self.event = event


class Notice(Message):
    """A line for the person from a worker (a refused command, a saved checkpoint).

    Args:
        text: The line.
        severity: "information", "warning" or "error".
        transcript: Also write it into the transcript.
    """

    def __init__(self, text: str, severity: str = "information", transcript: bool = True) -> None:
        super().__init__()
        self.text = text
        self.severity = severity
        self.transcript = transcript


@dataclass
class PanelData:
    """What the Room and Map panels show, read off the UI thread.

    Attributes:
        turn: The turn it describes.
        room: The Room panel's facts (see :class:`zorktui.session.view.RoomInfo`).
        map_text: The drawn map (None without a memory).
    """

    turn: int
    room: RoomInfo
    map_text: str | None


class PanelsReady(Message):
    """Fresh Room and Map contents."""

    def __init__(self, data: PanelData) -> None:
        super().__init__()
        self.data = data


class ActionsReady(Message):
    """The valid actions of a state, for completion."""

    def __init__(self, turn: int, actions: tuple[str, ...]) -> None:
        super().__init__()
        self.turn = turn
        self.actions = actions


class SessionClosed(Message):
    """The session was closed (the app may exit)."""
