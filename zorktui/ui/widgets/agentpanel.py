"""The Agent panel: reflection, objective, the proposal and its critic verdict, refusals, notes and spend."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from zorktui.agent.safety import clean_text
from zorktui.ui.colours import colour
from zorktui.ui.widgets.panel import TitledPanel


@dataclass
class AgentState:
    """What the panel shows.

    Attributes:
        agent: The agent's name ("" when the session has none).
        thinking: The agent is thinking about a turn.
        proposal: The pending proposal (zorktui.agent.proposal.Proposal) or None.
        objective: The session's standing objective.
        refusals: Recent critic refusals, newest last.
        notes: Sub-agent notes and guard warnings.
        usage: LLM running totals (calls, tokens, cost) or None.
        think_ms: Time the last thought took.
    """

    agent: str = ""
    thinking: bool = False
    proposal: Any = None
    objective: str = ""
    refusals: deque[str] = field(default_factory=lambda: deque(maxlen=5))
    notes: list[str] = field(default_factory=list)
    usage: Any = None
    think_ms: float = 0.0


def render_agent(state: AgentState, accent: str = "yellow", error: str = "red", success: str = "green") -> Text:
    """The panel's text (model text kept literal)."""
    out = Text()
    if not state.agent:
        out.append("No agent in this session.\n", style="dim")
        out.append("Start with --agent explore (offline) or --agent llm.", style="dim")
        return out
    p = state.proposal
    out.append("Proposal: ", style="bold")
    if state.thinking and p is None:
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
    if state.refusals:
        out.append("\n")
        out.append("Refused by the critic:", style="bold")
        for line in state.refusals:
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
        out.append(f"LLM: {u.calls} calls, {u.prompt_tokens + u.completion_tokens} tokens, ${u.cost:.4f}", style="dim")
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
