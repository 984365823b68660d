"""Loop and stuck guards: stop an agent repeating itself, and say so when play goes nowhere.

* The same command three times in a row: a fourth is refused (something else is forced).
* Any command four or more times in the last ten: a warning.
* The world returns to a state it has been in (left and come back to, not merely unchanged): a warning,
  and the critic tightens.
* 10, 20 and 30 commands without the score going up: escalating notes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from zorktui.agent.playlog import PlayLog, normal
from zorktui.core.turn import Turn

#: Consecutive repeats allowed before a command is refused.
MAX_IN_A_ROW = 3
#: A command this often in the last :data:`WINDOW` commands draws a warning.
REPEAT_WARNING = 4
WINDOW = 10
#: Commands without score before each escalating note.
NO_SCORE_STEPS = (10, 20, 30)
#: Visits to one state (in the recent window) that count as going round in circles.
REVISITS_FOR_LOOP = 3

_NO_SCORE_NOTES = {
    10: "10 turns without points: try something new here or move on to an unexplored exit.",
    20: "20 turns without points: stop repeating yourself; change area or examine things you have not examined.",
    30: "30+ turns without points: this approach is stuck. Drop the current objective and pick a new one "
        "(an unexplored exit, an unopened container, an object you have not used).",
}


@dataclass
class GuardReport:
    """What the guards see in the log now.

    Attributes:
        warnings: Lines for the prompt and the Agent panel.
        revisit: The current world state was seen before on this line.
        looping: Play is going round in circles (a stop rule for autopilot).
    """

    warnings: list[str] = field(default_factory=list)
    revisit: bool = False
    looping: bool = False


def refuse_repeat(log: PlayLog, command: str) -> str | None:
    """Why ``command`` may not be played now (a fourth time in a row), or None."""
    recent = log.recent_commands(MAX_IN_A_ROW)
    if len(recent) == MAX_IN_A_ROW and all(c == normal(command) for c in recent):
        return f"'{command}' was just played {MAX_IN_A_ROW} times in a row; do something else"
    return None


def _returns(turns: list[Turn], key: str) -> int:
    """How many times play came to a state: runs of turns in it, each run counted once."""
    runs, inside = 0, False
    for turn in turns:
        here = turn.key == key
        runs += here and not inside
        inside = here
    return runs


def inspect(log: PlayLog) -> GuardReport:
    """The warnings the guards raise for the current line of play."""
    report = GuardReport()
    recent = log.recent_commands(WINDOW)
    for command, n in Counter(recent).most_common():
        if n >= REPEAT_WARNING:
            report.warnings.append(f"You typed '{command}' {n} times in the last {WINDOW} turns; it is not working.")
    current = log.current
    # A command that changed nothing leaves the world as it was: that is no return to it. A state
    # counts again only when play left it and came back (a run of equal states is one visit).
    window = log.turns[-(WINDOW + 1):]
    if len(log.turns) > 1 and _returns(log.turns, current.key) > 1:
        report.revisit = True
        report.warnings.append("This exact situation has happened before: the last moves undid each other.")
    if _returns(window, current.key) >= REVISITS_FOR_LOOP:
        report.looping = True
    idle = log.turns_since_score()
    for step in reversed(NO_SCORE_STEPS):
        if idle >= step:
            report.warnings.append(_NO_SCORE_NOTES[step])
            break
    return report
