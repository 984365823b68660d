"""The driver: every run as a Ray task, with a time limit, one retry, and the results written as they come.

Ray is imported here and only here (an import-linter contract keeps it in
``zorktui.sweep``); the command imports this module only to sweep.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import GetTimeoutError, RayError, RayTaskError, TaskCancelledError, WorkerCrashedError

from zorktui.core.errors import one_line
from zorktui.sweep.pack import unpack_folder
from zorktui.sweep.plan import RUNS, Results, RunSpec, failed_row, finished_row
from zorktui.sweep.worker import PID_DIR_ENV, play_run

#: Attempts a run gets in one call of ``zorktui sweep`` (the first and one retry).
ATTEMPTS = 2
#: Longest wait between looks at the running runs' time limits, seconds.
TICK = 0.5
#: Environment variables a worker needs for the llm agent (handed over by the cluster's runtime environment).
MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZORKTUI_MODEL")


@dataclass
class ClusterOptions:
    """Where the runs go and what each may take.

    Attributes:
        address: A running cluster ("auto", "ray://host:10001", "host:6379"); None starts Ray on this machine.
        local_cpus: CPUs of a Ray started on this machine (None: all of them).
        cpus_per_run: CPUs each run reserves.
        run_timeout: Seconds a run may take before it is stopped and counted as failed.
        pass_model_env: Hand the model's environment variables to the workers (for the llm agent).
    """

    address: str | None = None
    local_cpus: int | None = None
    cpus_per_run: float = 1.0
    run_timeout: float = 3600.0
    pass_model_env: bool = False


@dataclass
class Tally:
    """What the progress display shows."""

    total: int
    done: int = 0
    failed: int = 0
    running: int = 0
    events: list[str] = field(default_factory=list)


def connect(options: ClusterOptions) -> tuple[bool, float]:
    """Join the cluster or start Ray here; returns (whether this call started or joined it, seconds taken).

    A Ray already initialised in this process (a test's) is used as it is.

    Raises:
        ConnectionError: No cluster at the address, or it refused the connection.
        RuntimeError, ValueError: Ray could not start, or the address is not one.
    """
    if ray.is_initialized():
        return False, 0.0
    start = time.perf_counter()
    env = {k: os.environ[k] for k in MODEL_ENV if options.pass_model_env and os.environ.get(k)}
    ray.init(address=options.address, num_cpus=options.local_cpus if options.address is None else None,
             include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": env} if env else None)
    return True, time.perf_counter() - start


def capacity(cpus_per_run: float) -> int:
    """Runs the cluster can play at once (so a run's clock starts when it can start, not while it queues)."""
    cpus = float(ray.cluster_resources().get("CPU", 1.0))
    return max(1, int(cpus // cpus_per_run))


def describe(exc: BaseException, timeout: float | None = None) -> str:
    """One line for why a run failed."""
    if timeout is not None:
        return f"timed out after {timeout:g} s (stopped)"
    if isinstance(exc, WorkerCrashedError):
        return "lost its worker (the worker process died)"
    if isinstance(exc, TaskCancelledError):
        return "cancelled"
    if isinstance(exc, RayTaskError):
        inner = getattr(exc, "cause", None)  # the worker's own exception, when Ray could carry it back
        return "crashed: " + one_line(inner if isinstance(inner, BaseException) else exc, 300, with_type=True)
    return "failed: " + one_line(exc, 300, with_type=True)


@dataclass
class _Running:
    spec: RunSpec
    attempt: int
    started: float


def sweep(specs: list[RunSpec], stories: dict[str, bytes], results: Results, options: ClusterOptions,
          on_change: Callable[[Tally], None] = lambda tally: None) -> Tally:
    """Play the runs on Ray; each result is written to ``results`` (and its folder unpacked) as it comes.

    A run that crashes, takes longer than the time limit or loses its worker is
    recorded as failed and tried once more; the others go on. Ray must be
    connected (:func:`connect`).

    Args:
        specs: The runs to play (those not finished already).
        stories: Each story's bytes by md5 (put in the object store once, handed to every run of it).
        results: The results file.
        options: The time limit and CPUs per run.
        on_change: Called after each start, finish and failure (the progress display).

    Raises:
        KeyboardInterrupt: Ctrl+C: the running runs are stopped first, the results kept.
    """
    refs = {md5: ray.put(data) for md5, data in stories.items()}
    task = ray.remote(play_run).options(num_cpus=options.cpus_per_run, max_retries=0)
    pid_dir = os.environ.get(PID_DIR_ENV) or None
    queue: deque[tuple[RunSpec, int]] = deque((s, 1) for s in specs)
    running: dict[Any, _Running] = {}
    tally = Tally(total=len(specs))
    try:
        while queue or running:
            room = capacity(options.cpus_per_run)
            while queue and len(running) < room:
                spec, attempt = queue.popleft()
                running[task.remote(spec, refs[spec.story.md5], pid_dir)] = _Running(spec, attempt, time.monotonic())
            tally.running = len(running)
            on_change(tally)
            ready, _ = ray.wait(list(running), num_returns=1, timeout=TICK)
            for ref in ready:
                _settle(ref, running.pop(ref), results, tally, queue, options)
            now = time.monotonic()
            for ref, run in list(running.items()):
                if now - run.started > options.run_timeout:
                    ray.cancel(ref, force=True)
                    del running[ref]
                    _failed(run, describe(Exception(), options.run_timeout), now - run.started, results, tally, queue)
        tally.running = 0
        on_change(tally)
        return tally
    except KeyboardInterrupt:
        for ref in running:
            ray.cancel(ref, force=True)
        results.flush()
        raise


def _settle(ref: Any, run: _Running, results: Results, tally: Tally, queue: deque[tuple[RunSpec, int]],
            options: ClusterOptions) -> None:
    """Record a run whose task has ended: its folder and row, or a failure (and its retry)."""
    seconds = time.monotonic() - run.started
    try:
        value = ray.get(ref, timeout=options.run_timeout)
    except (RayError, GetTimeoutError) as exc:
        _failed(run, describe(exc), seconds, results, tally, queue)
        return
    spec = run.spec
    unpack_folder(value["folder"], results.out / RUNS / spec.name)
    row = finished_row(spec, value["outcome"], run.attempt)
    if row["error"]:
        # The agent's play stopped on an error: its folder is kept to look at, the run counts as failed.
        _failed(run, row["error"], seconds, results, tally, queue, row)
        return
    results.record(row)
    tally.done += 1
    tally.events.append(f"done {spec.name}: best {row['best']}/{row['max_score'] or '?'} in {row['steps_played']} steps, "
                        f"{row['seconds']:.1f} s")


def _failed(run: _Running, error: str, seconds: float, results: Results, tally: Tally,
            queue: deque[tuple[RunSpec, int]], row: dict[str, Any] | None = None) -> None:
    """Record a failed attempt; queue the retry, or count the run failed after its last attempt."""
    results.record(row or failed_row(run.spec, error, run.attempt, seconds))
    retry = run.attempt < ATTEMPTS
    if retry:
        queue.append((run.spec, run.attempt + 1))
    else:
        tally.failed += 1
    tally.events.append(f"failed {run.spec.name} (attempt {run.attempt}): {error}" + ("; retrying" if retry else ""))


def story_bytes(paths: dict[str, Path]) -> dict[str, bytes]:
    """Each story's bytes by md5 (read once, on the driver)."""
    return {md5: Path(p).read_bytes() for md5, p in paths.items()}
