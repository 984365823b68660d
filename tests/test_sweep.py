"""zorktui sweep on a real local Ray with two workers: runs, results, resume, Ctrl+C and faults.

One Ray (two CPUs) serves every test here (starting it takes about 7 s);
``zorktui sweep`` uses a Ray already started in its process as it is.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from zorktui.cli import main  # noqa: E402
from zorktui.locations import bundled_story  # noqa: E402
from zorktui.sweep import driver  # noqa: E402
from zorktui.sweep.plan import Results, Story, plan_runs  # noqa: E402
from zorktui.sweep.worker import PID_DIR_ENV  # noqa: E402

STORY = str(bundled_story())


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """A local Ray with two worker CPUs, shared by the module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def _rows(out: Path) -> dict[str, dict]:
    return {r["run"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}


def _verify(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["replay", "--verify", str(folder)]) == 0  # without --story: the header names the driver's story file
    assert capsys.readouterr().out.startswith("verified:")


def _sweep(out: Path, *extra: str) -> int:
    return main(["sweep", STORY, "--agents", "explore", "--out", str(out), *extra])


def test_ctrl_c_keeps_what_finished_the_next_call_plays_the_rest_and_a_third_skips_all(tmp_path, capsys) -> None:
    out = tmp_path / "sweep"

    def interrupt_after_first_run() -> None:
        # Ctrl+C as a person gives it: SIGINT to the process, once the first run is in results.jsonl.
        while not any(not r["error"] for r in (_rows(out).values() if (out / "results.jsonl").is_file() else [])):
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_after_first_run, daemon=True)
    watcher.start()
    assert _sweep(out, "--seeds", "1,2,3", "--steps", "8") == 130
    watcher.join(timeout=5)
    assert "stopped:" in capsys.readouterr().err
    kept = {name for name, row in _rows(out).items() if not row["error"]}
    assert 1 <= len(kept) < 3

    assert _sweep(out, "--seeds", "1,2,3", "--steps", "8") == 0
    shown, err = capsys.readouterr()
    assert "THE KEEPER'S LIGHT" in shown and "best: median" in shown and "median score by step" in shown
    assert f"{len(kept)} of 3 runs finished already" in err and re.search(rf"; {3 - len(kept)} runs? to play", err)
    rows = _rows(out)
    assert sorted(rows) == [f"lighthouse-explore-seed{n}" for n in (1, 2, 3)]
    for name, row in rows.items():
        assert row["error"] is None and row["title"] == "THE KEEPER'S LIGHT" and row["steps_played"] == 8
        assert row["md5"] == "6f08df07f7a9dcf8824d3faa866db8ad" and row["agent"] == "explore" and row["settings"] == {"steps": 8}
        assert row["max_score"] == 70 and row["best"] >= row["final"] >= 0 and row["victory"] is False and row["seconds"] > 0
        assert row["folder"] == f"runs/{name}" and row["attempts"] == 1
        folder = out / row["folder"]
        assert (folder / "session.json").is_file() and (folder / "memory").is_dir()
        header = json.loads((folder / "trajectory.jsonl").read_text().splitlines()[0])
        assert header["story"]["path"] == str(Path(STORY).resolve()) and header["seed"] == row["seed"]
        _verify(folder, capsys)

    before = (out / "results.jsonl").read_text()
    started = time.monotonic()
    assert _sweep(out, "--seeds", "1,2,3", "--steps", "8") == 0
    assert "3 of 3 runs finished already" in capsys.readouterr().err and time.monotonic() - started < 10
    assert (out / "results.jsonl").read_text() == before


def test_a_killed_worker_and_a_hung_run_are_failed_retried_and_finished(tmp_path, monkeypatch, capsys) -> None:
    out, pids = tmp_path / "sweep", tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv(PID_DIR_ENV, str(pids))
    done: list[str] = []

    def fault(name: str, sig: int) -> None:
        # The first attempt's worker, as soon as it has started the run: SIGKILL loses the worker, SIGSTOP hangs it.
        pid_file = pids / f"{name}.pid"
        while not pid_file.is_file():
            time.sleep(0.02)
        time.sleep(0.3)
        os.kill(int(pid_file.read_text()), sig)
        done.append(name)

    threads = [threading.Thread(target=fault, args=a, daemon=True)
               for a in (("lighthouse-explore-seed1", signal.SIGKILL), ("lighthouse-explore-seed2", signal.SIGSTOP))]
    for t in threads:
        t.start()
    assert _sweep(out, "--seeds", "1,2", "--steps", "8", "--run-timeout", "15") == 0
    assert len(done) == 2
    err = capsys.readouterr().err
    assert "failed lighthouse-explore-seed1 (attempt 1): lost its worker" in err
    assert "failed lighthouse-explore-seed2 (attempt 1): timed out after 15 s" in err
    for row in _rows(out).values():
        assert row["error"] is None and row["attempts"] == 2 and row["steps_played"] == 8
        _verify(out / row["folder"], capsys)


def test_a_run_that_crashes_twice_is_recorded_failed_and_the_others_finish(tmp_path) -> None:
    # The driver itself, given bytes that are no story for one of two stories: its runs crash in the worker.
    good = Story(str(Path(STORY).resolve()), "6f08df07f7a9dcf8824d3faa866db8ad", "lighthouse", ".z5")
    bad = Story("/nowhere/broken.z5", "0" * 32, "broken", ".z5")
    specs = plan_runs([good, bad], ["explore"], [1], 4)
    results = Results(tmp_path)
    tally = driver.sweep(specs, {good.md5: Path(STORY).read_bytes(), bad.md5: b"no story here" * 10}, results,
                         driver.ClusterOptions(run_timeout=120))
    assert (tally.done, tally.failed) == (1, 1)
    rows = _rows(tmp_path)
    broken = rows["broken-explore-seed1"]
    assert broken["error"].startswith("crashed: ") and "not a Z-machine story" in broken["error"] and broken["attempts"] == 2
    assert broken["folder"] is None and not (tmp_path / "runs" / "broken-explore-seed1").exists()
    assert rows["lighthouse-explore-seed1"]["error"] is None
    assert not Results.open(tmp_path).finished(specs[1]) and Results.open(tmp_path).finished(specs[0])


def test_bad_input_is_one_line_before_ray_is_asked(tmp_path, capsys) -> None:
    assert main(["sweep", str(tmp_path / "missing.z5"), "--agents", "explore", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith("missing.z5: no such file")
    assert main(["sweep", STORY, "--agents", "explore", "--sims", "5", "--out", str(tmp_path)]) == 2
    assert "for the mcts agent" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["sweep", STORY, "--agents", "explore,robot", "--out", str(tmp_path)])
    assert exited.value.code == 2 and "agents are explore, mcts and llm" in capsys.readouterr().err
    assert not (tmp_path / "results.jsonl").exists()


def test_without_ray_the_sweep_says_how_to_install_it(tmp_path, monkeypatch, capsys) -> None:
    import zorktui.sweep

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError, as when it is not installed
    monkeypatch.delitem(sys.modules, "zorktui.sweep.driver")
    monkeypatch.delattr(zorktui.sweep, "driver")
    assert _sweep(tmp_path, "--seeds", "1", "--steps", "2") == 2
    assert capsys.readouterr().err.strip().endswith("zorktui sweep needs Ray: pip install 'zorktui[sweep]'")


def test_ray_loads_only_when_a_sweep_plays() -> None:
    code = ("import sys, zorktui.cli, zorktui.sweep.command, zorktui.sweep.plan, zorktui.sweep.worker, zorktui.sweep.pack,"
            " zorktui.sweep.report; assert 'ray' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
