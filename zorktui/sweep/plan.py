"""What a sweep plays: one run per (story, agent, seed), and the results file that says which are done.

Nothing here imports Ray: the plan and the results are plain data, read and
written by the driver, checked by the tests.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zorktui.core.errors import ZorkTuiError

#: The results file inside the output folder: one JSON row per run.
RESULTS = "results.jsonl"
#: The folder of run folders inside the output folder.
RUNS = "runs"


class SweepError(ZorkTuiError):
    """A sweep that cannot start as asked (one line, for people)."""


@dataclass(frozen=True)
class Story:
    """A story file as the driver read it.

    Attributes:
        path: Where the driver read it (absolute): recorded in each run's header, so a run replays here.
        md5: MD5 of its Z-code (as the trajectory header records it).
        stem: Its file name without the suffix (names the run folders).
        suffix: Its file name's suffix (the worker's copy keeps it: a Blorb is recognised by content, a
            Z-code file by its version byte, but the suffix keeps the copy readable to people).
    """

    path: str
    md5: str
    stem: str
    suffix: str


@dataclass(frozen=True)
class RunSpec:
    """One run: a story played by an agent from a seed for a number of steps.

    Attributes:
        story: The story.
        agent: "explore", "mcts" or "llm".
        seed: The game's random seed.
        steps: Commands the agent plays at most.
        sims: The planner's simulations per move (mcts only).
        time_per_move: The planner's CPU seconds per move (mcts only).
    """

    story: Story
    agent: str
    seed: int
    steps: int
    sims: int | None = None
    time_per_move: float | None = None

    @property
    def name(self) -> str:
        """The run's folder name under ``runs/`` (and its key in the results)."""
        return f"{self.story.stem}-{self.agent}-seed{self.seed}"

    def settings(self) -> dict[str, Any]:
        """The agent's settings as the results record them."""
        out: dict[str, Any] = {"steps": self.steps}
        if self.agent == "mcts":
            out.update(sims=self.sims, time_per_move=self.time_per_move)
        return out


def plan_runs(stories: list[Story], agents: list[str], seeds: list[int], steps: int,
              sims: int | None = None, time_per_move: float | None = None) -> list[RunSpec]:
    """Every (story, agent, seed) once, story by story, then seed by seed (so early results cover every agent).

    Raises:
        SweepError: Two different story files share a name (their run folders would collide).
    """
    stems: dict[str, str] = {}
    for story in stories:
        if stems.setdefault(story.stem, story.md5) != story.md5:
            raise SweepError(f"two different stories are called {story.stem}: rename one (run folders are named by it)")
    unique = list({s.md5: s for s in stories}.values())
    return [RunSpec(story, agent, seed, steps, sims if agent == "mcts" else None,
                    time_per_move if agent == "mcts" else None)
            for story in unique for seed in dict.fromkeys(seeds) for agent in dict.fromkeys(agents)]


@dataclass
class Results:
    """The results file: one row per run, the last attempt's, rewritten whole after each change.

    A row without an ``error`` is a finished run; a sweep run again with the
    same output folder skips those whose folder is still there.

    Attributes:
        out: The output folder.
        rows: The rows by run name, in the order they were first written.
    """

    out: Path
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def open(cls, out: Path) -> Results:
        """Read the results of an output folder (none yet: empty).

        Raises:
            SweepError: The results file is there but not JSON lines.
        """
        results = cls(out)
        path = out / RESULTS
        if not path.is_file():
            return results
        try:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):  # noqa: B007 - said below
                if line.strip():
                    row = json.loads(line)
                    results.rows[str(row["run"])] = row
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SweepError(f"{path}: not a sweep's results (line {number}: {exc})") from None
        return results

    def finished(self, spec: RunSpec) -> bool:
        """Whether the run finished in an earlier call, its folder still there.

        Raises:
            SweepError: The run was played with other settings or another story file of the same name.
        """
        row = self.rows.get(spec.name)
        if row is None or row.get("error"):
            return False
        if row.get("md5") != spec.story.md5 or row.get("settings") != spec.settings():
            raise SweepError(f"{self.out} holds run {spec.name} played with other settings ({row.get('settings')}, md5 "
                             f"{str(row.get('md5'))[:8]}): give another --out")
        return (self.out / str(row.get("folder", "")) / "trajectory.jsonl").is_file()

    def record(self, row: dict[str, Any]) -> None:
        """Keep a run's row (replacing its earlier attempt's) and rewrite the file."""
        self.rows[str(row["run"])] = row
        self.flush()

    def flush(self) -> None:
        """Write every row, atomically (a sweep stopped mid-write keeps the previous file)."""
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / RESULTS
        partial = path.with_name(f".{RESULTS}.partial")
        partial.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.rows.values()), encoding="utf-8")
        os.replace(partial, path)


def failed_row(spec: RunSpec, error: str, attempt: int, seconds: float, host: str | None = None) -> dict[str, Any]:
    """The row of a run that did not finish (crashed, timed out, lost its worker)."""
    return {**_identity(spec), "title": None, "steps_played": None, "best": None, "final": None, "max_score": None,
            "victory": None, "seconds": round(seconds, 2), "folder": None, "attempts": attempt, "host": host,
            "error": error}


def _identity(spec: RunSpec) -> dict[str, Any]:
    """The fields that name a run."""
    return {"run": spec.name, "story": spec.story.stem, "md5": spec.story.md5, "agent": spec.agent,
            "settings": spec.settings(), "seed": spec.seed}


def finished_row(spec: RunSpec, outcome: dict[str, Any], attempt: int) -> dict[str, Any]:
    """The row of a run a worker played to its end (``error`` set when the agent's play stopped on an error)."""
    return {**_identity(spec), **outcome, "folder": f"{RUNS}/{spec.name}", "attempts": attempt}

