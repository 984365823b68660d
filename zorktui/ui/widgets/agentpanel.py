"""The Agent panel: reflection, objective, the proposal and its critic verdict, refusals, notes and spend."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from zorktui.agent.safety import clean_text
from zorktui.session.view import llm_line, refusal_line
from zorktui.ui.colours import colour
from zorktui.ui.widgets.panel import TitledPanel

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import Usage
    from zorktui.agent.proposal import Proposal, Verdict


@dataclass
class AgentState:
    """What the panel shows.

    Attributes:
        agent: The agent's name ("" when the session has none).
        thinking: The agent is thinking about a turn.
        proposal: The pending proposal (zorktui.agent.proposal.Proposal) or None.
        objective: The session's standing objective.
        refusals: The critic's refusals for the current turn, one per command, newest last.
        notes: Sub-agent notes and guard warnings.
        usage: LLM running totals (calls, tokens, cost) or None.
        think_ms: Time the last thought took.
        turn: The turn shown (refusals of other turns are dropped).
        ended: How the story ended ("won", "died", "ended"; "" while it goes on).
    """

    agent: str = ""
    thinking: bool = False
    proposal: Proposal | None = None
    objective: str = ""
    refusals: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    usage: Usage | None = None
    think_ms: float = 0.0
    turn: int = 0
    ended: str = ""
    _refusals_turn: int = -1

    def refuse(self, turn: int, verdict: Verdict) -> bool:
        """Note a refusal of the critic's; False when that command was refused already this turn."""
        if turn != self._refusals_turn:
            self.refusals, self._refusals_turn = {}, turn
        new = verdict.command not in self.refusals
        self.refusals.pop(verdict.command, None)
        self.refusals[verdict.command] = refusal_line(verdict)
        while len(self.refusals) > MAX_REFUSALS:
            self.refusals.pop(next(iter(self.refusals)))
        return new


#: Refusals the panel lists at most.
MAX_REFUSALS = 5


def render_agent(state: AgentState, accent: str = "yellow", error: str = "red", success: str = "green") -> Text:
    """The panel's text (model text kept literal)."""
    out = Text()
    if not state.agent:
        out.append("No agent in this session.\n", style="dim")
        out.append("Start with --agent explore (offline) or --agent llm.", style="dim")
        return out
    p = state.proposal
    out.append("Proposal: ", style="bold")
    if state.ended and p is None:
        how = {"won": "you have won", "died": "you have died"}.get(state.ended, "the story has ended")
        out.append(f"none: {how} (the agent waits for /undo, /restore or /restart)", style="dim")
    elif state.thinking and p is None:
        out.append("thinking…", style="italic")
    elif p is None:
        out.append("none", style="dim")
    else:
        out.append(clean_text(p.command), style=f"bold {accent}")
        out.append(f"  ({p.source}, {p.think_ms:.0f} ms)", style="dim")
        out.append("\n")
        out.append("Critic: ", style="bold")
        if p.verdict is None:
            out.append("not judged", style="dim")
        else:
            out.append(clean_text(p.verdict.text()), style=success if p.verdict.accepted else error)
        if p.reflection:
            out.append("\n")
            out.append("Reflection: ", style="bold")
            out.append(clean_text(p.reflection))
    objective = (p.objective if p is not None and p.objective else "") or state.objective
    out.append("\n")
    out.append("Objective: ", style="bold")
    out.append(clean_text(objective) or "none yet", style="" if objective else "dim")
    if state.refusals and state._refusals_turn == state.turn:
        out.append("\n")
        out.append("Refused by the critic this turn:", style="bold")
        for line in state.refusals.values():
            out.append("\n  ")
            out.append(clean_text(line), style=error)
    notes = list(state.notes) + (list(p.notes) if p is not None else [])
    if notes:
        out.append("\n")
        out.append("Notes:", style="bold")
        for line in dict.fromkeys(notes):
            out.append("\n  ")
            out.append(clean_text(line), style="italic")
    out.append("\n")
    u = state.usage
    if u is not None:
        out.append(llm_line(u), style="dim")
    elif state.agent.endswith("(MCP)"):
        out.append("LLM: none in this app (the outside agent brings its own)", style="dim")
    else:
        out.append("LLM: not in use (offline agent)", style="dim")
    return out


class AgentPanel(TitledPanel):
    """Bordered, scrollable view of what the agent thinks."""

    PANEL_TITLE = "Agent"
    BODY_ID = "agent-body"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.state = AgentState()

    def on_mount(self) -> None:
        super().on_mount()
        self.redraw()

    def redraw(self) -> None:
        """Draw the current state."""
        self.body.update(render_agent(
            self.state, colour(self.app, "accent", "yellow"), colour(self.app, "error", "red"),
            colour(self.app, "success", "green")))
        self.border_subtitle = "thinking…" if self.state.thinking else ""

    @property
    def text(self) -> str:
        """The panel as plain text."""
        return render_agent(self.state).plain
