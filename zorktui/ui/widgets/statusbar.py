"""The status bar: story, place, score, moves, turn, mode and what the agent is doing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.text import Text
from textual.widgets import Static

from zorktui.agent.safety import clean_text


@dataclass(frozen=True)
class Status:
    """What the status bar shows."""

    title: str = ""
    location: str = ""
    score: int | None = None
    max_score: int | None = None
    moves: int | None = None
    turn: int = 0
    mode: str = "human"
    agent: str = "no agent"
    autopilot: str = ""


class StatusBar(Static):
    """One line at the top of the screen."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        width: 1fr;
        background: $primary 25%;
        color: $foreground;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.status = Status()

    def update_status(self, **changes: object) -> None:
        """Change some fields and redraw."""
        self.status = replace(self.status, **changes)  # type: ignore[arg-type]
        self.update(self.render_status())

    def render_status(self) -> Text:
        """The line as rich Text (game text kept literal)."""
        s = self.status
        score = "-" if s.score is None else str(s.score)
        if s.max_score:
            score += f"/{s.max_score}"
        parts: list[tuple[str, str]] = [
            (clean_text(s.title) or "zorktui", "bold"),
            (clean_text(s.location) or "?", ""),
            (f"score {score}", ""),
            (f"moves {'-' if s.moves is None else s.moves}", ""),
            (f"turn {s.turn}", ""),
            (f"mode {s.mode}", "bold"),
            (s.agent, "italic"),
        ]
        if s.autopilot:
            parts.append((s.autopilot, "bold reverse"))
        line = Text(no_wrap=True, overflow="ellipsis")
        for i, (text, style) in enumerate(parts):
            if i:
                line.append(" │ ", style="dim")
            line.append(text, style=style)
        return line

    @property
    def text(self) -> str:
        """The line as plain text."""
        return self.render_status().plain
