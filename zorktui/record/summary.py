"""Summaries over many sessions (human baselines or agent runs): per-story tables and score curves."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zorktui.record.trajectory import read_trajectory

#: Score milestones shown per story (the most commonly reached distinct scores, in order).
MAX_MILESTONES = 6


@dataclass
class SessionCurve:
    """One session's score over its steps.

    Attributes:
        folder: The session folder.
        story: Story title (or file name) and md5.
        participant: The pseudonym, if any.
        scores: Score after each step (index 0: the opening).
        think_ms: Think times of the person's or agent's commands.
    """

    folder: Path
    title: str
    md5: str
    participant: str | None
    scores: list[int] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)

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
        elif record.get("type") in ("undo", "restart", "restore") and isinstance(record.get("record"), dict):
            curve.scores.append(int(record["record"].get("score") or 0))
    return curve


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

    def milestones(self) -> list[tuple[int, float | None, int]]:
        """(score, median steps to reach it among sessions that did, how many did)."""
        reached: dict[int, int] = {}
        for c in self.curves:
            for s in sorted(set(c.scores)):
                if s > 0:
                    reached[s] = reached.get(s, 0) + 1
        scores = sorted(sorted(reached, key=lambda s: (-reached[s], s))[:MAX_MILESTONES])
        out = []
        for s in scores:
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
            skipped.append(f"skipped {folder}: {str(exc).splitlines()[0]}")
            continue
        by_story.setdefault(curve.md5, StorySummary(curve.title, curve.md5, [])).curves.append(curve)
    return sorted(by_story.values(), key=lambda s: s.title), skipped


def table(summaries: list[StorySummary]) -> str:
    """The per-story table as plain text."""
    lines = []
    for s in summaries:
        think = s.median_think_ms
        lines.append(f"{s.title} (md5 {s.md5[:8]}): {len(s.curves)} sessions, median final score {s.median_final:g}, "
                     f"median think time {'-' if think is None else f'{think / 1000:.1f} s'}")
        for score, steps, n in s.milestones():
            lines.append(f"  score {score:>4}: reached by {n}/{len(s.curves)}, median step "
                         f"{'-' if steps is None else f'{steps:g}'}")
    return "\n".join(lines)


def ascii_plot(curve: list[float], width: int = 60, height: int = 10) -> str:
    """A score-vs-step plot drawn with characters."""
    if not curve:
        return ""
    top = max(curve) or 1
    cols = [curve[min(len(curve) - 1, int(i * len(curve) / width))] for i in range(min(width, len(curve)))]
    rows = []
    for r in range(height, 0, -1):
        level = top * r / height
        rows.append(f"{level:>6.0f} |" + "".join("█" if v >= level - 1e-9 else " " for v in cols))
    rows.append("       +" + "-" * len(cols))
    rows.append(f"        step 0{' ' * max(0, len(cols) - 12)}step {len(curve) - 1}")
    return "\n".join(rows)


def png_plot(summaries: list[StorySummary], path: Path) -> None:
    """Score-vs-step curves of every session, one panel per story, as a PNG (needs matplotlib).

    Raises:
        ImportError: matplotlib is not installed (``pip install zorktui[plot]``).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(summaries), 1, figsize=(8, 3 * len(summaries)), squeeze=False)
    for ax, s in zip(axes[:, 0], summaries):
        for c in s.curves:
            ax.plot(range(len(c.scores)), c.scores, alpha=0.4, label=c.participant or c.folder.name)
        ax.plot(range(len(s.median_curve())), s.median_curve(), color="black", linewidth=2, label="median")
        ax.set_title(s.title)
        ax.set_xlabel("step")
        ax.set_ylabel("score")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def to_json(summaries: list[StorySummary]) -> list[dict[str, Any]]:
    """The summaries as JSON-ready dicts."""
    return [{"title": s.title, "md5": s.md5, "sessions": len(s.curves), "median_final_score": s.median_final,
             "median_think_ms": s.median_think_ms,
             "milestones": [{"score": a, "median_steps": b, "reached": n} for a, b, n in s.milestones()]}
            for s in summaries]
