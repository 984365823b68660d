"""Summaries over many sessions (human baselines or agent runs): per-story tables and score curves."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zorktui.core.errors import one_line
from zorktui.record.trajectory import read_trajectory


@dataclass
class SessionCurve:
    """One session's score over its steps.

    Attributes:
        folder: The session folder.
        story: Story title (or file name) and md5.
        participant: The pseudonym, if any.
        scores: Score after each step (index 0: the opening).
        think_ms: Think times of the person's or agent's commands.
        agent_ms: Time the agent spent on each turn it proposed for.
        agent_turns: Turns the agent proposed for; ``model_turns``: of those, the ones a model's proposal was.
        llm_calls, tokens: Model calls and tokens over the session.
    """

    folder: Path
    title: str
    md5: str
    participant: str | None
    scores: list[int] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)
    agent_ms: list[float] = field(default_factory=list)
    agent_turns: int = 0
    model_turns: int = 0
    llm_calls: int = 0
    tokens: int = 0

    @property
    def final(self) -> int:
        """The score at the end."""
        return self.scores[-1] if self.scores else 0

    def steps_to(self, score: int) -> int | None:
        """The first step at which the score reached ``score`` (None if never)."""
        return next((i for i, s in enumerate(self.scores) if s >= score), None)


def find_sessions(paths: list[Path]) -> list[Path]:
    """Session folders among the paths: each one itself, or every session folder below it.

    Below, at any depth: baseline studies keep ``baseline/<participant>/<time>/``.
    """
    found: list[Path] = []
    for path in paths:
        if (path / "trajectory.jsonl").is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(p.parent for p in path.rglob("trajectory.jsonl") if p.is_file()))
    return list(dict.fromkeys(found))


def load_curve(folder: Path) -> SessionCurve:
    """Read one session's score curve (the line of play as recorded, jumps included).

    Raises:
        ValueError: The trajectory is damaged or has no header.
    """
    records = list(read_trajectory(folder / "trajectory.jsonl"))
    if not records or records[0].get("type") != "session":
        raise ValueError(f"{folder}: no session header")
    story = records[0].get("story") or {}
    curve = SessionCurve(folder, str(story.get("title") or Path(str(story.get("path", "?"))).name),
                         str(story.get("md5", "")), records[0].get("participant"))
    answers = [r.get("answer") for r in records if r.get("type") == "consent"]
    if answers and answers[-1] != "agreed":
        raise ValueError("the participant did not consent; left out")
    for record in records[1:]:
        if record.get("type") == "turn":
            curve.scores.append(int(record.get("score") or 0))
            if record.get("command") is not None and isinstance(record.get("think_ms"), (int, float)):
                curve.think_ms.append(float(record["think_ms"]))
            _count_spend(curve, record)
        elif record.get("type") in ("undo", "restart", "restore") and isinstance(record.get("record"), dict):
            curve.scores.append(int(record["record"].get("score") or 0))
    return curve


#: Proposal sources that are a model's choice (the app's LLM agent; the planner's is a search).
MODEL_SOURCES = ("llm",)


def _count_spend(curve: SessionCurve, record: dict[str, Any]) -> None:
    """Add one turn record's model calls, tokens and agent time to the curve."""
    for key in ("llm_calls", "tokens"):
        value = record.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            setattr(curve, key, getattr(curve, key) + value)
    proposal = record.get("proposal")
    if isinstance(proposal, dict) and record.get("actor") == "agent":
        curve.agent_turns += 1
        curve.model_turns += proposal.get("source") in MODEL_SOURCES
        if isinstance(record.get("agent_ms"), (int, float)):
            curve.agent_ms.append(float(record["agent_ms"]))


@dataclass
class StorySummary:
    """The figures of one story over its sessions."""

    title: str
    md5: str
    curves: list[SessionCurve]

    @property
    def median_final(self) -> float:
        """Median final score."""
        return statistics.median(c.final for c in self.curves)

    @property
    def median_think_ms(self) -> float | None:
        """Median think time over every command of every session."""
        times = [t for c in self.curves for t in c.think_ms]
        return statistics.median(times) if times else None

    def model_figures(self) -> dict[str, float] | None:
        """The model's share of the agent's turns and its cost a turn (None when no model was asked)."""
        calls = sum(c.llm_calls for c in self.curves)
        tokens = sum(c.tokens for c in self.curves)
        turns = sum(c.agent_turns for c in self.curves)
        if not (calls or tokens) or not turns:
            return None
        times = [t for c in self.curves for t in c.agent_ms]
        return {"agent_turns": turns, "model_turns": sum(c.model_turns for c in self.curves),
                "calls_per_turn": calls / turns, "tokens_per_turn": tokens / turns,
                "median_agent_s": statistics.median(times) / 1000 if times else 0.0}

    def milestones(self) -> list[tuple[int, float | None, int]]:
        """Every score above 0 any session reached: (score, median steps to it among sessions that did, how many did)."""
        reached: dict[int, int] = {}
        for c in self.curves:
            for s in sorted(set(c.scores)):
                if s > 0:
                    reached[s] = reached.get(s, 0) + 1
        out = []
        for s in sorted(reached):
            steps = [n for n in (c.steps_to(s) for c in self.curves) if n is not None]
            out.append((s, statistics.median(steps) if steps else None, len(steps)))
        return out

    def median_curve(self) -> list[float]:
        """The median score at each step (sessions that ended keep their final score)."""
        length = max(len(c.scores) for c in self.curves)
        return [statistics.median(c.scores[min(i, len(c.scores) - 1)] for c in self.curves) for i in range(length)]


def summarize(paths: list[Path]) -> tuple[list[StorySummary], list[str]]:
    """Per-story summaries of the sessions found under ``paths``, and one-line notes on skipped folders."""
    by_story: dict[str, StorySummary] = {}
    skipped: list[str] = []
    for folder in find_sessions(paths):
        try:
            curve = load_curve(folder)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            skipped.append(f"skipped {folder}: {one_line(exc)}")
            continue
        by_story.setdefault(curve.md5, StorySummary(curve.title, curve.md5, [])).curves.append(curve)
    return sorted(by_story.values(), key=lambda s: s.title), skipped


def table(summaries: list[StorySummary]) -> str:
    """The per-story table as plain text."""
    lines = []
    for s in summaries:
        think = s.median_think_ms
        lines.append(f"{s.title} (md5 {s.md5[:8]}): {_count(len(s.curves), 'session')}, median final score {s.median_final:g}, "
                     f"median think time {'-' if think is None else f'{think / 1000:.1f} s'}")
        model = s.model_figures()
        if model:
            lines.append(f"  model: chose {model['model_turns']:g} of {model['agent_turns']:g} agent turns; "
                         f"{model['calls_per_turn']:.2f} calls, {model['tokens_per_turn']:,.0f} tokens a turn, "
                         f"median {model['median_agent_s']:.1f} s a turn")
        for score, steps, n in s.milestones():
            lines.append(f"  score {score:>4}: reached by {n}/{len(s.curves)}, median step "
                         f"{'-' if steps is None else f'{steps:g}'}")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    """``1 session``, ``3 sessions``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


#: Columns a short run's plot spreads over (a run of more steps takes the width it is given).
SHORT_PLOT = 60


def ascii_plot(curve: list[float], width: int = 80, height: int = 10) -> str:
    """A score-vs-step plot drawn with characters, every step of the run on it.

    A run of up to ``SHORT_PLOT`` steps gets the same whole number of columns
    for each step; a longer run one column a step up to the width given, and
    past that each column covers consecutive steps and shows the highest
    score among them, so no step and no peak is left out.

    Args:
        curve: The score at each step (index 0: the opening).
        width: Characters a line may take, labels included (the caller passes the terminal's width).
        height: Rows at most (fewer when the scores span fewer points).

    Returns:
        The plot, lines joined by newlines ("" for an empty curve).
    """
    if not curve:
        return ""
    # Whole scores (or medians of two: halves) need no finer labels than their own.
    finest = next((f for f in (1.0, 0.5) if all(abs(v / f - round(v / f)) < 1e-9 for v in curve)), 0.1)
    step = max(finest, _tick(max(curve) - min(0.0, min(curve)), height))
    bottom = math.floor(min(0.0, min(curve)) / step) * step
    levels = [bottom + step * r for r in range(math.ceil((max(curve) - bottom) / step - 1e-9), 0, -1)]
    label = max(len(_number(v)) for v in levels + [bottom])
    steps = len(curve)
    room = max(width - label - 2, 16)
    if steps <= room:
        cols = [v for v in curve for _ in range(max(1, min(room, SHORT_PLOT) // steps))]
    else:
        cols = [max(curve[i * steps // room:(i + 1) * steps // room]) for i in range(room)]

    def cell(value: float, level: float) -> str:
        # A full block reaches the row's level, a half block its lower half.
        return "█" if value >= level - 1e-9 else ("▄" if value >= level - step / 2 - 1e-9 else " ")

    rows = [f"{_number(level):>{label}} |" + "".join(cell(v, level) for v in cols) for level in levels]
    rows.append(f"{_number(bottom):>{label}} +" + "-" * len(cols))
    first, last = "step 0", f"step {steps - 1}"
    rows.append(" " * (label + 2) + first + " " * max(1, len(cols) - len(first) - len(last)) + last)
    if not levels:
        rows.insert(0, f"(score {_number(bottom)} at every step)")
    if steps > room:
        rows.append(" " * (label + 2) + f"(a column covers {steps / room:.1f} steps and shows the highest score among them)")
    return "\n".join(rows)


def _tick(span: float, rows: int) -> float:
    """A round step between row labels (1, 2 or 5 times a power of ten) giving at most ``rows`` rows."""
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span / rows))
    for factor in (1, 2, 5, 10):
        if span / (factor * power) <= rows + 1e-9:
            return factor * power
    return 10 * power


def _number(value: float) -> str:
    """A score as a label: whole numbers without a decimal point, others to one place."""
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.1f}"


def png_plot(summaries: list[StorySummary], path: Path) -> None:
    """Score-vs-step curves of every session, one panel per story, as a PNG (needs matplotlib).

    Raises:
        ImportError: matplotlib is not installed (``pip install zorktui[plot]``).
    """
    # deferred: matplotlib (an optional dependency, 250-600 ms to import) loads only to draw a figure
    import matplotlib

    matplotlib.use("Agg")
    # after the backend is chosen: a file is drawn, no display is needed
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(len(summaries), 1, figsize=(8, 3 * len(summaries)), squeeze=False)
    for ax, s in zip(axes[:, 0], summaries, strict=False):
        # Scores change at a step and hold until the next: drawn as stairs, not slopes, the last step
        # one step wide like the others (else its score would show only as a rise at the right edge).
        for c in s.curves:
            ax.plot(range(len(c.scores) + 1), c.scores + c.scores[-1:], alpha=0.5, drawstyle="steps-post",
                    label=c.participant or c.folder.name)
        median = s.median_curve()
        ax.plot(range(len(median) + 1), median + median[-1:], color="black", linewidth=2, drawstyle="steps-post",
                label="median")
        ax.set_title(f"{s.title} ({_count(len(s.curves), 'session')})")
        ax.set_xlabel("step")
        ax.set_ylabel("score")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        low = min(0, min(min(c.scores, default=0) for c in s.curves))
        high = max(1, max(max(c.scores, default=0) for c in s.curves))  # an all-zero run still gets an axis from 0
        ax.set_ylim(low - 0.05 * (high - low), high + 0.05 * (high - low))
        ax.set_xlim(0, len(median))
        if len(s.curves) <= 12:
            ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def to_json(summaries: list[StorySummary]) -> list[dict[str, Any]]:
    """The summaries as JSON-ready dicts."""
    return [{"title": s.title, "md5": s.md5, "sessions": len(s.curves), "median_final_score": s.median_final,
             "median_think_ms": s.median_think_ms, "model": s.model_figures(),
             "milestones": [{"score": a, "median_steps": b, "reached": n} for a, b, n in s.milestones()]}
            for s in summaries]
