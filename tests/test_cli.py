"""The command line, run as a user would: exit codes, one-line errors, JSONL records."""

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import BUNDLED, BUNDLED_WALKTHROUGH, ZIL, ZIL_WALKTHROUGH, commands

from zorktui import __version__
from zorktui.cli import build_parser

FIELDS = {"type", "turn", "time", "actor", "command", "observation", "score", "moves", "reward",
          "location", "inventory", "done", "victory", "state_hash"}


def zorktui(*args: str, stdin: str = "", env_columns: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **({"COLUMNS": str(env_columns)} if env_columns else {})}
    return subprocess.run([sys.executable, "-m", "zorktui", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, env=env)


def test_version_says_where_config_data_and_cache_live(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "zorktui", "--version"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "ZORKTUI_HOME": str(tmp_path)})
    assert r.returncode == 0 and r.stdout.splitlines() == [
        f"zorktui {__version__}", f"config: {tmp_path / 'config'}", f"data:   {tmp_path / 'data'}",
        f"cache:  {tmp_path / 'cache'}"]


def test_run_writes_trajectory(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    r = zorktui("run", "--commands", str(BUNDLED_WALKTHROUGH), "--jsonl", str(out))
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    header, opening, turns = records[0], records[1], records[2:]
    assert header["type"] == "session" and header["schema"] == 1
    assert set(header["story"]) >= {"path", "md5", "version", "release", "serial", "title"}
    assert opening["turn"] == 0 and opening["command"] is None and opening["actor"] == "game"
    assert all(FIELDS <= set(t) for t in turns)
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    assert turns[-1]["score"] == 70 and turns[-1]["victory"] and turns[-1]["done"]
    assert turns[-1]["location"] == {"id": turns[-1]["location"]["id"], "name": "Lamp Room"}


def test_run_transcript_and_valid_actions(tmp_path: Path) -> None:
    script = tmp_path / "cmds.txt"
    script.write_text("# a comment\n\ntake wick\n\nnorth\n")
    r = zorktui("run", str(ZIL), "--commands", str(script))
    assert r.returncode == 0 and "> take wick" in r.stdout and "Lighthouse Base" in r.stdout
    out = tmp_path / "v.jsonl"
    r = zorktui("run", str(ZIL), "--commands", str(script), "--jsonl", str(out), "--valid-actions")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["command"] for r in records[2:]] == ["take wick", "north"]
    assert all(isinstance(r["valid_actions"], list) and r["valid_actions_ms"] >= 0 for r in records[1:])
    assert "up" in records[-1]["valid_actions"]
    # The same file named again holds the new run only, not two sessions one after the other.
    zorktui("run", str(ZIL), "--commands", str(script), "--jsonl", str(out))
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["type"] for r in again].count("session") == 1 and len(again) == len(records)


def test_commands_from_stdin() -> None:
    r = zorktui("run", str(ZIL), stdin="take wick\n")
    assert r.returncode == 0 and "You take the cotton wick." in r.stdout


@pytest.mark.parametrize("args", [
    ["run", "/no/such/story.z5"],
    ["run", "."],
    ["run", str(ZIL_WALKTHROUGH)],
    ["run", "--no-such-flag"],
    ["run", str(ZIL), "--commands", "/no/such/file"],
    ["run", str(ZIL), "--seed", "0"],
])
def test_bad_input_exits_2_with_one_line(args: list[str]) -> None:
    r = zorktui(*args)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_play_in_the_terminal_reads_commands(tmp_path: Path) -> None:
    done = zorktui("play", "--session", str(tmp_path / "s"), stdin="north\n")
    assert done.returncode == 0, done.stderr
    assert "Shingle Path" in done.stdout and (tmp_path / "s" / "trajectory.jsonl").exists()


# ---------------------------------------------------------------- a reader that goes away (| head)

#: A shell user's environment: standard output block-buffered into a pipe, as Python has it by default.
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session folder: the bundled game's walkthrough (39 commands, score 0 to 70)."""
    folder = tmp_path_factory.mktemp("walked") / "s"
    r = zorktui("run", "--commands", str(BUNDLED_WALKTHROUGH), "--session", str(folder))
    assert r.returncode == 0, r.stderr
    return folder


def into_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    """Run the CLI with stdout a pipe whose reader has already gone (``| head`` that has quit)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "zorktui", *args], stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, timeout=300, env=BUFFERED)
    finally:
        os.close(write)


def assert_quiet_end(status: int, stderr: str) -> None:
    """Ended as ``yes | head`` would: status 0 or 141 (SIGPIPE's), nothing on stderr about the pipe."""
    assert status in (0, 141), (status, stderr)
    for sign in ("Traceback", "BrokenPipeError", "Exception ignored", "Broken pipe"):
        assert sign not in stderr, stderr


PIPED = [
    ["run", "--commands", "{walk}"],
    ["run", "--commands", "{walk}", "--jsonl", "-"],
    ["run", "--agent", "explore", "--steps", "5"],
    ["play", "{story}"],
    ["replay", "{dir}", "--print"],
    ["replay", "{dir}", "--verify"],
    ["data", "summarize", "{dir}"],
    ["data", "summarize", "{dir}", "--json"],
    ["export", "{dir}", "--format", "transcript"],
    ["export", "{dir}", "--format", "csv"],
    ["memory", "{dir}", "help"],
    ["memory", "{dir}", "where am i", "--json"],
    ["memory", "{dir}", "--cypher", "MATCH (n) RETURN n.name LIMIT 5"],
    ["map", "{dir}"],
    ["map", "{dir}", "--json"],
    ["--help"],
    ["run", "--help"],
    ["data", "summarize", "--help"],
]


@pytest.mark.parametrize("args", PIPED, ids=[" ".join(a) for a in PIPED])
def test_every_subcommand_ends_quietly_into_a_closed_pipe(args: list[str], walked: Path) -> None:
    given = [a.format(dir=walked, walk=BUNDLED_WALKTHROUGH, story=BUNDLED) for a in args]
    done = into_closed_pipe(*given)
    assert_quiet_end(done.returncode, done.stderr)
    assert done.returncode == 141 or args[-1] == "--help", "its output was lost: the status should say so"


def test_head_of_an_agent_run_stops_the_agent(tmp_path: Path) -> None:
    """``run --agent ... | head -1``: one line read, the pipe closed; the agent stops rather than play on unread."""
    folder = tmp_path / "s"
    child = subprocess.Popen([sys.executable, "-m", "zorktui", "run", "--agent", "explore", "--steps", "1000",
                              "--session", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True, env=BUFFERED)
    try:
        first = child.stdout.readline()
        child.stdout.close()
        stderr = child.stderr.read()
        child.wait(300)
    finally:
        child.kill()
    assert first.strip()
    assert_quiet_end(child.returncode, stderr)
    assert child.returncode == 141 and "stopped:" not in stderr
    turns = [json.loads(line)["turn"] for line in (folder / "trajectory.jsonl").read_text().splitlines()[1:]]
    assert 0 < max(turns) < 400, "the agent played on after its reader had gone"


# ---------------------------------------------------------------- flags: contradictory or ignored ones are errors

FLAG_ERRORS = [
    (["run", "--steps", "5"], "--steps is for --agent"),
    (["run", "--steps", "-3", "--agent", "explore"], "--steps"),
    (["run", "--agent", "explore", "--steps", "0"], "--steps"),
    (["run", "--agent", "explore", "--steps", "2", "--commands", "{walk}"], "not both"),
    (["run", "--agent", "mcts", "--steps", "2", "--sims", "5", "--time-per-move", "1"], "not allowed with"),
    (["run", "--agent", "explore", "--steps", "2", "--sims", "5"], "for --agent mcts"),
    (["run", "--model", "m"], "--model"),
    (["run", "--agent", "explore", "--steps", "2", "--base-url", "http://127.0.0.1:9/v1"], "uses no model"),
    (["run", "--agent", "explore", "--steps", "2", "--critic-llm"], "--critic-llm"),
    (["run", "--no-memory"], "--no-memory"),
    (["run", "--valid-actions"], "--valid-actions"),
    (["run", "--session", "{dir}", "--seed", "7"], "recorded seed 1"),
    (["play", "--theme", "zork-amber"], "--theme"),
    (["play", "--mode", "autopilot"], "--mode"),
    (["play", "--sims", "5"], "--sims"),
    (["memory", "{dir}", "where am i", "--as-of", "999"], "the session has 39 turns"),
    (["memory", "{dir}", "where am i", "--as-of", "-1"], "--as-of"),
    (["memory", "{dir}", "where am i", "--cypher", "MATCH (n) RETURN n"], "not both"),
    (["memory", "{dir}", "--cypher", "MATCH (n) RETURN n", "--as-of", "3"], "--as-of"),
    (["map", "{dir}", "--as-of", "40"], "the session has 39 turns"),
    (["replay", "{dir}", "--print", "--verify"], "not allowed with"),
    (["replay", "{dir}", "--print", "--theme", "zork-dark"], "--theme"),
    (["data", "summarize", "{dir}", "--png", "/no/such/folder/plot.png"], "cannot write"),
]


@pytest.mark.parametrize("args,says", FLAG_ERRORS, ids=[" ".join(a) for a, _ in FLAG_ERRORS])
def test_contradictory_or_ignored_flags_are_one_line_errors(args: list[str], says: str, walked: Path) -> None:
    if args[-1].endswith(".png"):
        pytest.importorskip("matplotlib")
    done = zorktui(*[a.format(dir=walked, walk=BUNDLED_WALKTHROUGH) for a in args])
    assert done.returncode == 2, done.stdout[-300:]
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_as_of_the_last_turn_is_answered(walked: Path) -> None:
    done = zorktui("memory", str(walked), "where am i", "--as-of", "39")
    assert done.returncode == 0 and "Lamp Room" in done.stdout


def _actions(parser: argparse.ArgumentParser, prog: str = "zorktui") -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{prog} {choice.dest}", choice
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{prog} {name}")
        yield prog, action


def test_every_flag_has_help() -> None:
    missing = [f"{where}: {action.option_strings or action.dest}" for where, action in _actions(build_parser())
               if not action.help or action.help == argparse.SUPPRESS]
    assert not missing


def test_help_of_each_subcommand_shows_every_flag() -> None:
    """``zorktui SUBCOMMAND --help``, run as a user would, names every option with its help's first words."""
    subcommands: dict[str, list[argparse.Action]] = {}
    for where, action in _actions(build_parser()):
        if action.option_strings and where != "zorktui":
            subcommands.setdefault(where, []).append(action)
    assert len(subcommands) == 12  # play, run, serve, watch, mcp, memory, map, replay, export, data, data summarize, sweep
    for where, actions in subcommands.items():
        shown = " ".join(zorktui(*where.split()[1:], "--help").stdout.split())
        for action in actions:
            assert f"{', '.join(action.option_strings)}" in shown or action.option_strings[0] in shown, (where, action)
            assert " ".join(action.help.split()[:4]) in shown, (where, action.option_strings)


# ---------------------------------------------------------------- data summarize of a short run


def test_summarize_plots_every_step_and_every_milestone_of_a_short_run(walked: Path) -> None:
    done = zorktui("data", "summarize", str(walked), env_columns=80)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (walked / "trajectory.jsonl").read_text().splitlines()]
    scores = sorted({r["score"] for r in records if r.get("type") == "turn" and r["score"]})
    assert len(scores) > 6
    assert "1 session," in done.stdout
    assert [int(line.split()[1].rstrip(":")) for line in done.stdout.splitlines() if line.startswith("  score ")] == scores
    plot = done.stdout.split("median score by step\n", 1)[1].splitlines()
    top = plot[0]
    assert top.split("|")[0].strip() == "70" and top.endswith("█"), "the last step (score 70) is not drawn"
    assert plot[-1].rstrip().endswith(f"step {len(commands(BUNDLED_WALKTHROUGH))}")
    assert all(len(line) <= 80 for line in plot)
