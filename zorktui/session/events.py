"""What a session tells its subscribers (the UI turns each into a Textual message).

Events are plain frozen dataclasses, delivered on whichever thread produced
them (the caller's for played turns, the thinking or autopilot thread for
proposals): a subscriber must not block, and a UI must hop to its own thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zorktui.agent.proposal import Proposal, Verdict
from zorktui.core.turn import Turn
from zorktui.session.modes import Mode


@dataclass(frozen=True)
class Event:
    """Base class of session events."""


@dataclass(frozen=True)
class TurnDone(Event):
    """A command was played (or play jumped: undo, restart, restore).

    Attributes:
        turn: The turn that is now current.
        actor: Who authored the command ("human", "agent", "script"; "game" for jumps).
        record: The trajectory record written for it (None for jumps).
        jump: "undo", "restart" or "restore" when play jumped rather than stepped.
    """

    turn: Turn
    actor: str
    record: dict[str, Any] | None = None
    jump: str | None = None


@dataclass(frozen=True)
class NotPlayed(Event):
    """The session answered a command itself instead of playing it (the game's own QUIT, SAVE...).

    Attributes:
        command: The command as typed.
        actor: Who typed it.
        message: One line for people: what to use instead.
    """

    command: str
    actor: str
    message: str


@dataclass(frozen=True)
class ThinkingStarted(Event):
    """The agent started thinking about a turn."""

    turn: int


@dataclass(frozen=True)
class ThinkingFinished(Event):
    """The agent stopped thinking (with or without a proposal)."""

    turn: int
    ms: float


@dataclass(frozen=True)
class ProposalReady(Event):
    """The agent proposes a command for the current turn."""

    proposal: Proposal


@dataclass(frozen=True)
class ProposalDecided(Event):
    """What became of a proposal: "accepted", "edited", "superseded" (the person played their own
    command; ``turn`` is the turn played), "rejected" (``reason`` is the person's) or "withdrawn"
    (its outside agent took it back; ``reason`` says why)."""

    proposal: Proposal
    fate: str
    turn: Turn | None = None
    reason: str = ""


@dataclass(frozen=True)
class CriticVerdict(Event):
    """The critic judged a candidate (accepted or not)."""

    verdict: Verdict
    turn: int


@dataclass(frozen=True)
class Notes(Event):
    """Lines for the Agent panel: sub-agent notes, guard warnings, fallback reasons."""

    lines: tuple[str, ...]
    kind: str = "note"


@dataclass(frozen=True)
class ModeChanged(Event):
    """The session's mode changed."""

    mode: Mode


@dataclass(frozen=True)
class AutopilotState(Event):
    """Autopilot started, paused, resumed or stopped (with the stop rule that fired)."""

    state: str
    reason: str = ""


@dataclass(frozen=True)
class GameRebuilt(Event):
    """The game's interpreter process died and the game was rebuilt in a new one; ``message`` says so in one line."""

    message: str


@dataclass(frozen=True)
class ErrorEvent(Event):
    """Something went wrong; ``message`` is one line for people."""

    message: str
    details: dict[str, Any] = field(default_factory=dict)
