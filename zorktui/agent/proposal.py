"""A proposed command, the critic's verdict on it, and the policies that make one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

#: The trajectory's ``actor`` (and the start of a proposal's ``source``) for an outside agent.
OUTSIDE_ACTOR = "mcp"

if TYPE_CHECKING:
    from zorktui.agent.situation import Situation


@dataclass
class Verdict:
    """The critic's judgement of one command.

    Attributes:
        command: The command judged.
        score: In [-1, 1]; higher is better.
        accepted: Whether the command may be played.
        reasons: Why, in short phrases (both for and against).
        lookahead: What the look-ahead saw, in a few words ("" when not run).
        fatal: The look-ahead saw the game end badly.
        grave: The look-ahead saw what no line of play outweighs: the game ending badly, or the
            light the player carries lost (a search that played the command out is refused too).
    """

    command: str
    score: float
    accepted: bool
    reasons: list[str] = field(default_factory=list)
    lookahead: str = ""
    fatal: bool = False
    grave: bool = False

    def to_record(self) -> dict[str, Any]:
        """JSON form for the trajectory."""
        return {"command": self.command, "score": round(self.score, 3), "verdict": "accept" if self.accepted else "reject",
                "reasons": list(self.reasons), "lookahead": self.lookahead}

    def text(self) -> str:
        """One line for people."""
        word = "in favour" if self.accepted else "against"
        why = "; ".join(self.reasons) if self.reasons else "no objection"
        return f"{word} ({self.score:+.2f}): {why}"


@dataclass
class Proposal:
    """A command an agent wants to play, and how it came to it.

    Attributes:
        command: The command.
        source: Who made it: "llm", "explore", "critic" (the critic's best
            untried valid action after refusals), "guard".
        turn: The turn it was made for (stale once play moves on).
        reflection: The agent's reflection on the situation.
        objective: Its standing objective.
        verdict: The critic's judgement of the final command.
        refused: Earlier candidates the critic or a guard refused, with why.
        think_ms: Time spent thinking, model calls included.
        tokens: Model tokens spent (prompt + completion).
        cost: Dollars spent where prices are configured.
        notes: Lines for the Agent panel (fallback reasons, sub-agent notes).
        client: The outside agent (an MCP client) that made it, by the name it gave; None for the
            session's own agent.
    """

    command: str
    source: str
    turn: int
    reflection: str = ""
    objective: str = ""
    verdict: Verdict | None = None
    refused: list[dict[str, Any]] = field(default_factory=list)
    think_ms: float = 0.0
    tokens: int = 0
    cost: float = 0.0
    notes: list[str] = field(default_factory=list)
    client: str | None = None

    def to_record(self, fate: str, reason: str | None = None) -> dict[str, Any]:
        """The ``proposal`` field of a trajectory turn record."""
        record: dict[str, Any] = {
            "command": self.command,
            "source": self.source,
            "critic": self.verdict.to_record() if self.verdict else None,
            "fate": fate,
            "reason": reason,
        }
        if self.reflection:
            record["reflection"] = self.reflection
        if self.objective:
            record["objective"] = self.objective
        if self.refused:
            record["refused"] = list(self.refused)
        if self.notes:
            record["notes"] = list(self.notes)
        return record


@dataclass
class Idea:
    """One candidate from a policy, before the critic sees it.

    Attributes:
        command: The command.
        reflection, objective: The policy's reasoning, if any.
        source: The policy's name.
        tokens, cost: Model spend for this idea.
        notes: Lines for people (e.g. why the LLM was not used).
        searched: The command was chosen by playing its consequences out on the emulator: the
            critic's rules of thumb give way to what the search saw (it still vetoes a death).
    """

    command: str
    source: str
    reflection: str = ""
    objective: str = ""
    tokens: int = 0
    cost: float = 0.0
    notes: list[str] = field(default_factory=list)
    searched: bool = False


class Policy(Protocol):
    """Something that suggests the next command."""

    name: str

    def suggest(self, situation: Situation) -> Idea:
        """The next command for this situation (``situation.feedback`` says what was refused)."""
        ...
