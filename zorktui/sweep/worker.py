"""One run, as a worker plays it: the story from its bytes, a session folder in a scratch place, the folder back as bytes.

Nothing here imports Ray: the driver wraps :func:`play_run` as a Ray task,
and the tests can call it directly.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

from zorktui.core.scratch import scratch_folder
from zorktui.sweep.pack import pack_folder, point_at_story
from zorktui.sweep.plan import RunSpec

#: Test hook: when the driver's environment sets it, each run writes ``DIR/<run>.pid`` (its worker's
#: process id) as it starts, so a test can kill the worker mid-run (see docs/sweep.md, "Faults").
PID_DIR_ENV = "ZORKTUI_SWEEP_PID_DIR"


def story_copy(story: bytes, spec: RunSpec, folder: Path) -> Path:
    """The story's bytes as a file in the run's scratch folder, named by md5 (gone with the folder).

    Each run keeps its own copy: a user's story is never left readable in a
    shared temporary folder after the sweep.
    """
    path = folder / f"{spec.story.md5}{spec.story.suffix}"
    path.write_bytes(story)
    return path


def play_run(spec: RunSpec, story: bytes, pid_dir: str | None = None) -> dict[str, Any]:
    """Play one run and return its outcome and its session folder, packed.

    Args:
        spec: The run.
        story: The story file's bytes (from the object store on a cluster).
        pid_dir: Test hook: write this worker's process id to ``pid_dir/<run>.pid`` first.

    Returns:
        ``{"outcome": fields of the results row, "folder": the session folder as a gzipped tar}``.
        The outcome's ``error`` is set when the agent's play stopped on an error.

    Raises:
        ZorkTuiError: The story or the session cannot be opened (the driver records the run as failed).
    """
    # deferred: the session factory (and the game behind it) loads in the worker, when a run starts
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.session.session import StopRules

    if pid_dir:
        Path(pid_dir, f"{spec.name}.pid").write_text(str(os.getpid()), encoding="utf-8")
    start = time.perf_counter()
    # Named by this process: a worker killed mid-run leaves it for the next one to remove (core/scratch.py).
    scratch = scratch_folder("sweep")
    try:
        path = story_copy(story, spec, scratch)
        folder = scratch / spec.name
        options = SessionOptions(story=path, mode="autopilot", agent=spec.agent, seed=spec.seed, session=folder,
                                 sims=spec.sims, time_per_move=spec.time_per_move, knowledge=False,
                                 stop=StopRules(steps=spec.steps, on_loop=False))
        built = build_session(options)
        session = built.session
        try:
            reason = session.autopilot.run(spec.steps)
        finally:
            session.close()
        turns = session.log.turns
        scores = [t.score or 0 for t in turns]
        outcome = {
            "title": session.game.story.title,
            "steps_played": len(turns) - 1,
            "best": max(scores),
            "final": scores[-1],
            "max_score": session.game.max_score,
            "victory": any(t.victory for t in turns),
            "stopped": reason,
            "warnings": built.warnings,
            "seconds": round(time.perf_counter() - start, 2),
            "host": socket.gethostname(),
            "error": reason if reason.startswith("error:") else None,
        }
        point_at_story(folder, spec.story.path)
        return {"outcome": outcome, "folder": pack_folder(folder)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
