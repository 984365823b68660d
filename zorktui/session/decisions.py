"""What became of the agent's proposals in the turn being played: the one pending, those the
person refused, those taken back, and what thinking spent; read into the turn's record.

A part of :class:`zorktui.session.session.Session`; it holds no lock of its own (the session's
game lock guards it with the game and the log).
"""

from __future__ import annotations

from typing import Any

from zorktui.agent.proposal import Proposal


class Decisions:
    """The proposals of the turn being played and their fates, until the turn is recorded."""

    def __init__(self) -> None:
        #: The proposal waiting for the person (the agent's, or an outside client's).
        self.pending: Proposal | None = None
        #: Proposals the person refused this turn, with why (the agent hears them).
        self.rejected: list[tuple[Proposal, str]] = []
        #: Outside proposals taken back undecided this turn, with why (recorded with the next turn).
        self.withdrawn: list[tuple[Proposal, str]] = []
        self._spend = {"think_ms": 0.0, "tokens": 0, "cost": 0.0}

    def pending_for(self, turn_no: int) -> Proposal | None:
        """The pending proposal when it is for turn ``turn_no`` (None otherwise)."""
        return self.pending if self.pending is not None and self.pending.turn == turn_no else None

    def take(self, proposal: Proposal) -> None:
        """Make the agent's finished thought the pending proposal, and count what it spent."""
        self._spend["think_ms"] += proposal.think_ms
        self._spend["tokens"] += proposal.tokens
        self._spend["cost"] += proposal.cost
        self.pending = proposal

    def refuse(self, reason: str) -> Proposal | None:
        """The person refused the pending proposal (returned; None when there was none)."""
        proposal, self.pending = self.pending, None
        if proposal is not None:
            self.rejected.append((proposal, reason))
        return proposal

    def take_back(self, proposal: Proposal, reason: str) -> bool:
        """Withdraw ``proposal`` undecided, if it is still the pending one."""
        if self.pending is not proposal:
            return False
        self.pending = None
        self.withdrawn.append((proposal, reason))
        return True

    def clear(self) -> None:
        """Forget the turn's proposals (after a jump: they were for a line of play that is gone)."""
        self.pending = None
        self.rejected = []
        self.withdrawn = []

    def record(self, fate: str, turn_no: int) -> dict[str, Any]:
        """The proposal fields of the record of turn ``turn_no``'s command, then a clean table.

        Args:
            fate: What became of the pending proposal ("accepted", "edited", "superseded").
            turn_no: The turn the command was played at.
        """
        extra: dict[str, Any] = {}
        proposal, reason = self.pending, None
        if proposal is not None and proposal.turn != turn_no:
            proposal = None
        if proposal is None and self.rejected:
            proposal, reason = self.rejected.pop()
            fate = "rejected"
        elif proposal is None and self.withdrawn:
            (proposal, reason), fate = self.withdrawn.pop(), "superseded"
        if proposal is not None:
            record = proposal.to_record(fate, reason or None)
            earlier = [{"command": p.command, "by": "person", "reason": r or None} for p, r in self.rejected]
            earlier += [{"command": p.command, "by": p.source, "reason": r} for p, r in self.withdrawn]
            if earlier:
                record["refused"] = earlier + record.get("refused", [])
            extra["proposal"] = record
        return extra

    def spent(self) -> dict[str, Any]:
        """What thinking spent this turn (agent_ms, tokens, cost: the ones that are not nought), then reset."""
        extra: dict[str, Any] = {}
        if self._spend["think_ms"]:
            extra["agent_ms"] = round(self._spend["think_ms"], 1)
        if self._spend["tokens"]:
            extra["tokens"] = self._spend["tokens"]
        if self._spend["cost"]:
            extra["cost"] = round(self._spend["cost"], 6)
        self._spend = {"think_ms": 0.0, "tokens": 0, "cost": 0.0}
        return extra
