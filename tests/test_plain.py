"""``zorktui play --plain``: co-play as labelled lines, for screen readers and braille displays."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.plain import PlainPlay

#: Who may speak at the start of a line.
SPEAKERS = ("Game", "Game asks", "Status", "Agent", "Agent proposes", "Agent plays", "Critic", "Autopilot", "You",
            "Room", "Exits", "Not yet taken", "Went nowhere", "Here", "Carrying", "Map", "Memory", "Help", "zorktui")
#: What a line-by-line reader must never meet: box drawing, block elements, arrows drawn, escape sequences.
NOISE = re.compile(r"[\u2500-\u259f\u2190-\u21ff\x1b]")


def _paced(session, lines: list[str]) -> Iterator[str]:
    """The person's lines, each sent once the agent has had its say (as a person waits to hear the proposal)."""
    for line in lines:
        end = time.monotonic() + 30
        while time.monotonic() < end and (session.autopilot.running or session.thinker.thinking
                                          or (session.pending is None and not session.current.done)):
            time.sleep(0.05)
        yield line
        time.sleep(0.3 if line.startswith("/auto") else 0)


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]


def test_a_co_play_opening_reads_line_by_line(tmp_path: Path) -> None:
    built = build_session(SessionOptions(mode="coplay", agent="explore", session=tmp_path / "s", seed=1))
    session = built.session
    session.autopilot.delay = 0.0
    out = io.StringIO()
    lines = ["", "/reject not yet", "/edit", "east", "/undo", "/auto 2", "/room", "/map",
             "/memory where is the flask", "/help", "save", "/theme x", "/nonsense", "/quit", "never read"]
    try:
        PlainPlay(session, out=out).run(_paced(session, lines))
    finally:
        session.close()
    text = out.getvalue()
    said = text.splitlines()
    assert said and all(line.split(": ", 1)[0] in SPEAKERS for line in said), [
        line for line in said if line.split(": ", 1)[0] not in SPEAKERS]
    assert not NOISE.search(text)
    # The game's text once: the opening's first words appear a single time.
    assert text.count("The last grey light has gone") == 1
    assert "Agent proposes: take tea." in text and "Critic: in favour" in text
    assert "Agent plays: take tea" in text and "Game: Taken." in text       # Enter on the empty line
    assert "You: refused 'north': not yet" in text
    assert "press Up to bring back 'east'" in text
    assert "Game: Boulder Cove" in text                                      # the edit, played
    assert "Game: undo: back to turn 1 (Landing Stage)." in text
    assert "Autopilot: on:" in text and "Autopilot: stopped: step budget reached (2)." in text
    assert sum(line.startswith("Autopilot: ") and ":" not in line[len("Autopilot: "):] for line in said) == 2
    assert "Exits: " in text and "Carrying: flask of tea." in text
    assert any(line.startswith("Map: ") and "(you are here)" in line for line in said)
    assert "Memory: flask of tea: carried by you" in text
    assert "Help: /edit:" in text
    assert "zorktui: save: Not played: to save, type /save NAME." in text
    assert "zorktui: /theme is for the app's screen" in text and "Unknown app command /nonsense" in text
    assert "never read" not in text
    # The typed commands are not echoed back: "east" and "/undo" appear only in what the tool says.
    assert "east\n" not in text.replace("Autopilot: east\n", "")
    fates = [r["proposal"]["fate"] for r in _records(tmp_path / "s") if r.get("type") == "turn" and r.get("proposal")]
    assert fates[:2] == ["accepted", "edited"] and fates.count("accepted") >= 3  # two of them the autopilot's


def test_a_question_and_the_end_of_the_game_are_announced(tmp_path: Path) -> None:
    # Dry Parcel (Inform 7, our own): "Trust your weight to it?" asked away from the prompt.
    ferry = Path(__file__).resolve().parent / "data" / "any" / "ferry.z8"
    built = build_session(SessionOptions(story=str(ferry), mode="human", agent=None, session=tmp_path / "s", seed=1))
    out = io.StringIO()
    try:
        PlainPlay(built.session, out=out).run(iter(["take parcel", "east", "pull rope"]))
    finally:
        built.session.close()
    assert "Game asks: answer with one of: yes, no." in out.getvalue()
    built = build_session(SessionOptions(mode="human", agent=None, session=tmp_path / "t", seed=1))
    out = io.StringIO()
    try:
        PlainPlay(built.session, out=out).run(iter(["north", "east", "jump"]))
    finally:
        built.session.close()
    assert "Game: You have died" in out.getvalue() and "/undo, /restore NAME or /restart to play on." in out.getvalue()


def _zorktui(*args: str, stdin: str, env: dict[str, str] | None = None, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zorktui", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=cwd, env={**os.environ, **(env or {})})


def test_play_plain_from_a_pipe_records_a_session_that_replays(tmp_path: Path) -> None:
    done = _zorktui("play", "--plain", "--session", str(tmp_path / "s"), stdin="\nnorth\n/room\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Agent proposes: take tea." in done.stdout and "Game: Shingle Path" in done.stdout
    assert f"zorktui: session saved in {tmp_path / 's'}" in done.stdout
    verify = _zorktui("replay", str(tmp_path / "s"), "--verify", stdin="", cwd=tmp_path)
    assert verify.returncode == 0 and "3 turns" not in verify.stderr, verify.stdout + verify.stderr


def test_a_dumb_terminal_and_the_config_file_choose_plain(tmp_path: Path) -> None:
    dumb = _zorktui("play", "--session", str(tmp_path / "a"), stdin="look\n", env={"TERM": "dumb"}, cwd=tmp_path)
    assert dumb.returncode == 0 and "Game: Landing Stage" in dumb.stdout, dumb.stderr
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text("[ui]\nplain = true\n")
    configured = _zorktui("play", "--session", str(tmp_path / "b"), stdin="look\n",
                          env={"TERM": "xterm", "ZORKTUI_HOME": str(home)}, cwd=tmp_path)
    assert configured.returncode == 0 and "Game: Landing Stage" in configured.stdout, configured.stderr
    piped = _zorktui("play", "--session", str(tmp_path / "c"), stdin="look\n", env={"TERM": "xterm"}, cwd=tmp_path)
    assert "Game: " not in piped.stdout and "Landing Stage" in piped.stdout  # plain line mode, as before


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_plain_mode_in_a_real_terminal(tmp_path: Path) -> None:
    """As a screen reader hears it: the lines in a terminal, the person typing at it through tmux."""
    name = f"zorktui-plain-{os.getpid()}"
    command = f"{sys.executable} -m zorktui play --plain --session {tmp_path / 's'}; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "160", "-y", "60", command], check=True,
                   env={**os.environ, "TERM": "xterm"}, cwd=tmp_path)
    try:
        def screen() -> str:
            return subprocess.run(["tmux", "capture-pane", "-t", name, "-p", "-J", "-S", "-200"],
                                  capture_output=True, text=True).stdout

        def until(text: str) -> str:
            end = time.monotonic() + 40
            while time.monotonic() < end:
                shown = screen()
                if text in shown:
                    return shown
                time.sleep(0.2)
            raise AssertionError(f"never saw {text!r} in:\n{screen()}")

        until("Agent proposes: take tea.")
        subprocess.run(["tmux", "send-keys", "-t", name, "Enter"], check=True)
        until("Agent proposes: north.")
        subprocess.run(["tmux", "send-keys", "-t", name, "/edit", "Enter"], check=True)
        until("press Up to bring back")
        subprocess.run(["tmux", "send-keys", "-t", name, "Up", "Enter"], check=True)  # the proposal, unchanged
        until("Game: Shingle Path")
        subprocess.run(["tmux", "send-keys", "-t", name, "/quit", "Enter"], check=True)
        shown = until("zorktui: session saved in")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    assert not NOISE.search(shown)
    fates = [r["proposal"]["fate"] for r in _records(tmp_path / "s") if r.get("type") == "turn" and r.get("proposal")]
    assert fates == ["accepted", "edited"]


def test_plain_mode_says_how_the_model_replies(tmp_path: Path) -> None:
    """The reply mode a model is asked in (issue 28's) is said once, as soon as it is known."""
    from llm_server import ScriptedLLM

    def first_offered(body: dict) -> str:  # a schema-honouring model: the first command its schema offers
        action = body["response_format"]["json_schema"]["schema"]["properties"]["action"]
        offered = action["anyOf"][0]["enum"] if "anyOf" in action else action["enum"]
        return json.dumps({"reflection": "Onwards.", "objective": "explore", "action": offered[0]})

    with ScriptedLLM(default=first_offered, structured="json_schema") as llm:
        built = build_session(SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=5, max_retries=0,
                                             session=tmp_path / "s", mode="coplay", llm_subagents=False))
        session = built.session
        out = io.StringIO()
        try:
            PlainPlay(session, out=out, usage=built.llm.usage).run(_paced(session, ["", "", "/quit"]))
        finally:
            session.close()
    said = out.getvalue().splitlines()
    replies = [line for line in said if line.startswith("Agent: LLM: replies as JSON schema")]
    assert len(replies) == 1, said
    assert sum(line.startswith("Agent plays: ") for line in said) == 2
