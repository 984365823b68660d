"""Session data: schema round-trip, torn lines, kill -9 and resume, replay verification, export formats."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from paths import BUNDLED_WALKTHROUGH, ZIL, ZIL_WALKTHROUGH, commands

from zorktui.core.turn import Turn
from zorktui.engine.game import Game
from zorktui.locations import bundled_story
from zorktui.record.export import csv_text, line_of_play, rec, transcript
from zorktui.record.replay import replay
from zorktui.record.trajectory import read_trajectory, turn_record
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.files.folder import SessionFolder

WALK = commands(BUNDLED_WALKTHROUGH)


def zorktui(*args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zorktui", *args], capture_output=True, text=True, input=stdin,
                          env={**os.environ, **(env or {})}, timeout=300)


def play(folder: Path, moves: list[str], story: Path | None = None) -> None:
    session = build_session(SessionOptions(story=story, session=folder, mode="script")).session
    try:
        for m in moves:
            session.play(m, actor="script")
    finally:
        session.close()
        session.game.close()


def test_turn_record_round_trips(game_of) -> None:
    game = game_of(bundled_story())
    for c in WALK[:6]:
        turn = game.step(c)
        back = Turn.from_record(json.loads(json.dumps(turn_record(turn, actor="human"))))
        assert back == turn


def test_torn_last_line_is_skipped_and_resume_appends_cleanly(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    play(folder, WALK[:3])
    with open(folder / "trajectory.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"type": "turn", "turn": 4, "comm')  # a write cut short
    records = list(read_trajectory(folder / "trajectory.jsonl"))
    assert [r.get("turn") for r in records if r["type"] == "turn"] == [0, 1, 2, 3]
    play(folder, WALK[3:5])
    turns = [r["turn"] for r in SessionFolder(folder).records() if r["type"] == "turn"]
    assert turns == [0, 1, 2, 3, 4, 5]
    assert replay(Game(bundled_story()), SessionFolder(folder).records()).ok


def test_kill_9_mid_run_loses_at_most_the_turn_in_flight_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    env = {"ZORKTUI_HOME": str(tmp_path / "home")}
    child = subprocess.Popen([sys.executable, "-m", "zorktui", "run", "--agent", "explore", "--steps", "500",
                              "--session", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ, **env})
    trajectory = folder / "trajectory.jsonl"
    end = time.monotonic() + 60
    while time.monotonic() < end and (not trajectory.exists() or trajectory.read_text().count("\n") < 8):
        time.sleep(0.1)
    child.send_signal(signal.SIGKILL)
    child.wait()
    before = [r for r in SessionFolder(folder).records() if r["type"] == "turn"]
    assert len(before) >= 7
    done = zorktui("run", "--session", str(folder), "--commands", "-", stdin="look\n", env=env)
    assert done.returncode == 0, done.stderr
    assert f"resumed {folder} at turn {before[-1]['turn']}" in done.stderr
    after = [r for r in SessionFolder(folder).records() if r["type"] == "turn"]
    numbers = [r["turn"] for r in after]
    assert numbers == list(range(len(after)))                # continuing, no duplicates, no gaps
    assert after[:-1] == before and after[-1]["command"] == "look"
    assert zorktui("replay", str(folder), "--verify").returncode == 0
    answer = zorktui("memory", str(folder), "where am i", env=env)
    assert answer.returncode == 0 and after[-1]["location"]["name"] in answer.stdout


def test_replay_verify_on_v3_v5_and_textworld(tmp_path: Path, tw_game) -> None:
    play(tmp_path / "v5", WALK)
    play(tmp_path / "v3", commands(ZIL_WALKTHROUGH), story=ZIL)
    path, truth = tw_game("treasure_hunter", 1)
    play(tmp_path / "tw", list(truth["walkthrough"]), story=path)
    for name in ("v5", "v3", "tw"):
        done = zorktui("replay", str(tmp_path / name), "--verify")
        assert done.returncode == 0 and "verified" in done.stdout, (name, done.stderr)


def test_replay_reports_the_first_divergence(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    play(folder, WALK[:6])
    lines = (folder / "trajectory.jsonl").read_text().splitlines()
    record = json.loads(lines[4])
    record["state_hash"] = "0" * 16
    lines[4] = json.dumps(record)
    (folder / "trajectory.jsonl").write_text("\n".join(lines) + "\n")
    done = zorktui("replay", str(folder), "--verify")
    assert done.returncode == 1
    assert done.stderr.startswith(f"zorktui: diverged at turn {record['turn']} (trajectory line 5")
    assert done.stderr.count("\n") == 1


def test_undo_save_restore_are_followed_by_replay_and_rec_export(tmp_path: Path, game_of) -> None:
    folder = tmp_path / "s"
    session = build_session(SessionOptions(session=folder, mode="human")).session
    try:
        for c in WALK[:4]:
            session.play(c)
        session.save("mid")
        session.play(WALK[4])
        session.play("look")
        session.undo()
        session.play(WALK[5])
        session.restore("mid")
        session.play(WALK[4])
        final = session.current
    finally:
        session.close()
        session.game.close()
    records = SessionFolder(folder).records()
    assert line_of_play(records) == WALK[:5]
    assert zorktui("replay", str(folder), "--verify").returncode == 0
    # The .rec file replays to the same final state in a fresh game.
    game = game_of(bundled_story())
    for c in rec(records).splitlines():
        turn = game.step(c)
    assert turn.state_hash == final.state_hash


def test_export_formats_are_complete(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    play(folder, WALK[:8])
    records = SessionFolder(folder).records()
    assert rec(records).splitlines() == WALK[:8]
    text = transcript(records)
    assert all(f">{c}" in text for c in WALK[:8]) and records[1]["observation"].splitlines()[0] in text
    rows = list(csv.DictReader(io.StringIO(csv_text(records))))
    assert [r["command"] for r in rows] == [""] + WALK[:8]
    assert rows[-1]["observation"] == records[-1]["observation"]
    out = tmp_path / "t.csv"
    done = zorktui("export", str(folder), "--format", "csv", "-o", str(out))
    assert done.returncode == 0 and out.read_text() == csv_text(records)
    done = zorktui("export", str(folder), "--format", "rec")
    assert done.stdout.splitlines() == WALK[:8]


@pytest.mark.parametrize("args", [["replay", "/nonexistent"], ["export", "/nonexistent", "--format", "rec"]])
def test_bad_session_folder_is_one_line(args: list[str]) -> None:
    done = zorktui(*args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_data_summarize_tables_and_plots_sessions(tmp_path: Path) -> None:
    for i, moves in enumerate((WALK[:12], WALK[:20], WALK[:4])):
        play(tmp_path / "sessions" / f"p{i}", moves)
    (tmp_path / "sessions" / "broken").mkdir()
    (tmp_path / "sessions" / "broken" / "trajectory.jsonl").write_text("nonsense\n")
    done = zorktui("data", "summarize", str(tmp_path / "sessions"))
    assert done.returncode == 0, done.stderr
    assert "3 sessions" in done.stdout and "median score by step" in done.stdout and "█" in done.stdout
    assert "skipped" in done.stderr
    data = json.loads(zorktui("data", "summarize", str(tmp_path / "sessions"), "--json").stdout)
    assert data[0]["sessions"] == 3 and data[0]["milestones"]
    first = data[0]["milestones"][0]
    assert first["reached"] >= 1 and first["median_steps"] >= 1
    assert zorktui("data", "summarize", str(tmp_path / "nothing")).returncode == 2


def test_run_agent_cli_prints_reflections_and_a_stop_line(tmp_path: Path) -> None:
    done = zorktui("run", "--agent", "explore", "--steps", "4", env={"ZORKTUI_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n> ") + done.stdout.startswith("> ") >= 4 and "# " in done.stdout
    assert "stopped: step budget reached (4)" in done.stderr
    assert zorktui("run", "--agent", "explore").returncode == 2
    assert zorktui("run", "--agent", "mcts", "--steps", "3", "--sims", "0").returncode == 2
    assert zorktui("run", "--agent", "explore", "--steps", "3", "--sims", "5").returncode == 2


def test_ascii_plot_of_an_all_zero_run_has_one_zero_axis() -> None:
    from zorktui.record.summary import ascii_plot

    plot = ascii_plot([0] * 10).splitlines()
    labels = [line.split("|")[0].split("+")[0].strip() for line in plot if "|" in line or "+" in line]
    assert labels == ["0"] and "every step" in plot[0] and plot[-1].rstrip().endswith("step 9")


def test_ascii_plot_labels_are_round_and_distinct() -> None:
    from zorktui.record.summary import ascii_plot

    for curve in ([0, 0, 1, 1, 1], [0, 3, 3, 7, 15], [0, 5, 10, 70], [0, 1.5, 2.5]):
        labels = [line.split("|")[0].strip() for line in ascii_plot(curve).splitlines() if " |" in line]
        assert len(labels) == len(set(labels)) <= 10, (curve, labels)
        assert all(float(label) * 2 == int(float(label) * 2) for label in labels), (curve, labels)


def test_ascii_plot_of_a_long_run_fits_the_width_and_keeps_its_last_step() -> None:
    from zorktui.record.summary import ascii_plot

    curve = [0] * 499 + [10]  # the score comes at the very last step
    plot = ascii_plot(curve, width=100).splitlines()
    assert all(len(line) <= 100 for line in plot)
    assert plot[0].endswith("█") and "step 499" in plot[-2]
