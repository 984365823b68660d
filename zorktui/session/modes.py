"""Who plays: the person alone, the person with an agent proposing, or the agent on autopilot."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """The session's mode; its value is the word the CLI, the trajectory and the UI use."""

    HUMAN = "human"
    COPLAY = "coplay"
    AUTOPILOT = "autopilot"
