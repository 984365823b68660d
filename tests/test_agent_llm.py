"""The ReflAct agent and the session loop against a real local OpenAI-compatible server that replies from a script.

Each test starts :class:`ScriptedLLM` on 127.0.0.1; the real ``openai`` client
talks to it over HTTP. The session, critic, guards and game are all real.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import ScriptedLLM

from zorktui.agent.llm import LlmUnavailable
from zorktui.agent.safety import RESERVED
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules

SECRET = "sk-test-DO-NOT-LEAK-1234567890"


def reply(action: str, reflection: str = "Looking around.", objective: str = "explore the island") -> str:
    return f"REFLECTION: {reflection}\nOBJECTIVE: {objective}\nACTION: {action}"


def agent_only(text: str):
    """A step that answers the ReflAct agent with ``text`` and sub-agents with a short note."""
    def step(body: dict) -> str:
        system = body["messages"][0]["content"]
        return text if "REFLECTION" in system else "A quiet start on the island."
    return step


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def build(llm: ScriptedLLM, tmp_path: Path, **kw):
    options = SessionOptions(agent="llm", model="scripted-model", base_url=llm.base_url, timeout=5, max_retries=2,
                             session=tmp_path / "s", mode=kw.pop("mode", "autopilot"), llm_subagents=False, **kw)
    return build_session(options)


def agent_requests(llm: ScriptedLLM) -> list[dict]:
    return [r for r in llm.requests if "REFLECTION" in r["messages"][0]["content"]]


def test_first_command_follows_the_model_and_request_carries_model_and_room(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM([reply("north")]) as llm:
        built = build(llm, tmp_path)
        session = built.session
        try:
            assert built.warnings == []
            proposal = session.propose()
            assert proposal is not None and proposal.command == "north" and proposal.source == "llm"
            assert proposal.reflection == "Looking around." and proposal.objective == "explore the island"
            assert proposal.verdict is not None and proposal.verdict.accepted
            turn = session.accept()
            assert turn is not None and turn.command == "north" and turn.location.name == "Shingle Path"
        finally:
            session.close()
    request = llm.requests[0]
    assert request["model"] == "scripted-model"
    user = request["messages"][1]["content"]
    assert "ROOM: Landing Stage" in user and "VALID ACTIONS:" in user
    records = [json.loads(x) for x in (tmp_path / "s" / "trajectory.jsonl").read_text().splitlines()]
    turn1 = records[2]
    assert turn1["actor"] == "agent" and turn1["proposal"]["fate"] == "accepted"
    assert turn1["proposal"]["source"] == "llm" and turn1["tokens"] > 0 and turn1["think_ms"] > 0
    assert turn1["proposal"]["critic"]["verdict"] == "accept"


def test_malformed_reply_is_asked_again_once(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(["I think we should go somewhere nice.", reply("east")]) as llm:
        session = build(llm, tmp_path).session
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command == "east"
    assert len(agent_requests(llm)) == 2
    assert "no usable ACTION" in agent_requests(llm)[1]["messages"][-1]["content"]
    assert any("asked again" in n for n in proposal.notes)


def test_two_unusable_replies_fall_back_to_the_explorer(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(["blah", ("raw", "{not json"), reply("x" * 200)], default="nothing useful") as llm:
        session = build(llm, tmp_path).session
        try:
            proposal = session.propose()
            assert proposal is not None and proposal.source == "explore"
            assert session.accept() is not None
        finally:
            session.close()


@pytest.mark.parametrize("critic", [True, False])
def test_a_model_repeating_one_command_forever_never_runs_it_more_than_three_times_in_a_row(
        llm_env, tmp_path: Path, critic: bool) -> None:
    with ScriptedLLM(default=agent_only(reply("wait"))) as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=12, on_loop=False), critic=critic).session
        try:
            reason = session.autopilot.run()
            commands = [t.command for t in session.log.turns[1:]]
        finally:
            session.close()
    assert reason.startswith("step budget")
    assert len(commands) == 12
    run = longest = 0
    for a, b in zip([None] + commands, commands, strict=False):
        run = run + 1 if a == b else 1
        longest = max(longest, run)
    assert longest <= 3, commands
    records = [json.loads(x) for x in (tmp_path / "s" / "trajectory.jsonl").read_text().splitlines()]
    refused = [r for rec in records if rec.get("proposal") for r in rec["proposal"].get("refused", [])]
    if critic:  # the critic's look-ahead sees that waiting changes nothing, here ever
        assert any("nothing changes" in r["reason"] for r in refused)
    else:  # the model is followed until the loop guard alone forces something else after three in a row
        assert commands[:3] == ["wait"] * 3 and commands[3] != "wait"
        assert any("in a row" in r["reason"] for r in refused)


@pytest.mark.parametrize("bad", ["quit", "QUIT", "restart", "restore", "save", "script", "unscript", "q",
                                 "save then quit", "undo"])
def test_reserved_commands_never_reach_the_game(llm_env, tmp_path: Path, bad: str) -> None:
    with ScriptedLLM(default=agent_only(reply(bad))) as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=4, on_loop=False)).session
        try:
            session.autopilot.run()
            turns = session.log.turns[1:]
        finally:
            session.close()
    assert len(turns) == 4 and not any(t.done for t in turns)
    assert all(t.command.split()[0].lower() not in RESERVED for t in turns)
    assert all(t.turn == i + 1 for i, t in enumerate(turns))  # never restarted or reloaded


def test_markup_and_escapes_are_stripped(llm_env, tmp_path: Path) -> None:
    nasty = ("REFLECTION: [bold red]pwned[/] \x1b[2J\x1b]0;title\x07 ok\n"
             "OBJECTIVE: [link=http://x]y[/link]\nACTION: \x1b[31mnorth\x1b[0m")
    with ScriptedLLM([nasty]) as llm:
        session = build(llm, tmp_path).session
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command == "north"
    assert "\x1b" not in proposal.reflection and "\x07" not in proposal.reflection
    text = (tmp_path / "s" / "trajectory.jsonl").read_text()
    assert "\\u001b" not in text and "\x1b" not in text


def test_429_then_success_retries(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM([429, reply("north")]) as llm:
        session = build(llm, tmp_path).session
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command == "north" and proposal.source == "llm"
    assert len(llm.requests) == 2


def test_timeout_falls_back_with_a_reason(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(default=("sleep", 3, reply("north"))) as llm:
        options = SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=0.5, max_retries=0,
                                 session=tmp_path / "s", mode="autopilot", llm_subagents=False)
        session = build_session(options).session
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.source == "explore"
    assert any("did not answer in time" in n for n in proposal.notes)


def test_dead_endpoint_says_why_and_the_explorer_plays(llm_env, tmp_path: Path) -> None:
    options = SessionOptions(agent="llm", model="m", base_url="http://127.0.0.1:9/v1", timeout=2, max_retries=0,
                             session=tmp_path / "s", mode="autopilot", llm_subagents=False,
                             stop=StopRules(steps=3, on_loop=False))
    session = build_session(options).session
    try:
        assert session.autopilot.run().startswith("step budget")
        assert session.current.turn == 3
        assert "cannot be reached" in session.agent.offline_reason
    finally:
        session.close()


def test_no_model_configured_is_refused_by_the_factory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZORKTUI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ZORKTUI_HOME", str(tmp_path / "home"))  # no config.toml with an [llm] table
    with pytest.raises(LlmUnavailable, match="--agent llm: no LLM configured"):
        build_session(SessionOptions(agent="llm", mode="autopilot", stop=StopRules(steps=2)))


@pytest.mark.parametrize("argv", [
    ["run", "--agent", "llm", "--steps", "2"],
    ["play", "--agent", "llm"],
    ["serve", "--agent", "llm", "--port", "8199"],
    ["sweep", "{story}", "--agents", "llm", "--steps", "2", "--out", "{tmp}/sweep"],
])
def test_agent_llm_with_nothing_configured_exits_2_with_one_line(argv: list[str], tmp_path: Path) -> None:
    import os

    from zorktui.locations import bundled_story

    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZORKTUI_MODEL")}
    env["ZORKTUI_HOME"] = str(tmp_path / "home")
    args = [a.format(story=bundled_story(), tmp=tmp_path) for a in argv]
    done = subprocess.run([sys.executable, "-m", "zorktui", *args], capture_output=True, text=True, env=env,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "no LLM configured" in done.stderr and "OPENAI_API_KEY" in done.stderr
    assert not (tmp_path / "home").exists() or not list((tmp_path / "home").rglob("trajectory.jsonl"))


def test_the_key_is_nowhere_on_disk_or_in_output(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(default=agent_only(reply("north"))) as llm:
        env = {"OPENAI_API_KEY": SECRET, "ZORKTUI_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
        import os

        env = {**os.environ, **env}
        done = subprocess.run(
            [sys.executable, "-m", "zorktui", "run", "--agent", "llm", "--steps", "3", "--base-url", llm.base_url,
             "--model", "scripted-model", "--session", str(tmp_path / "s"), "--llm-extract"],
            capture_output=True, text=True, env=env, timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout and SECRET not in done.stderr
    assert "> north" in done.stdout
    for path in list(tmp_path.rglob("*")):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    # The key did go over the wire to the endpoint (so the test would see a leak if it were written down).
    assert any(SECRET in v for h in llm.headers for k, v in h.items() if k.lower() == "authorization")


def test_token_budget_stops_autopilot(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(default=agent_only(reply("north"))) as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=50, max_tokens=1, on_loop=False)).session
        try:
            reason = session.autopilot.run()
        finally:
            session.close()
    assert reason.startswith("token budget") and session.current.turn == 1


def test_llm_subagents_write_the_narrative(llm_env, tmp_path: Path) -> None:
    with ScriptedLLM(default=agent_only(reply("look"))) as llm:
        options = SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=5, session=tmp_path / "s",
                                 mode="autopilot", stop=StopRules(steps=6, on_loop=False), calls_per_turn=0)
        session = build_session(options).session
        try:
            session.autopilot.run()
            notes = session.subagents.notes
        finally:
            session.close()
    assert notes.narrative == "A quiet start on the island."
    assert any("keep the log" in r["messages"][0]["content"] for r in llm.requests)


def test_llm_critic_stage_can_veto(llm_env, tmp_path: Path) -> None:
    def step(body: dict) -> str:
        system = body["messages"][0]["content"]
        if "review one proposed command" in system:
            cmd = body["messages"][1]["content"].rsplit("PROPOSED COMMAND: ", 1)[1]
            return "SCORE: -1\nREASON: pointless" if cmd == "north" else "SCORE: 0.8\nREASON: fine"
        return reply("north")

    with ScriptedLLM(default=step) as llm:
        options = SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=5, session=tmp_path / "s",
                                 mode="autopilot", llm_subagents=False, critic_llm=True, calls_per_turn=0)
        session = build_session(options).session
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command != "north"
    assert any("model: pointless" in r["reason"] for r in proposal.refused)
    assert proposal.verdict is not None and any(x.startswith("model:") for x in proposal.verdict.reasons)


def test_config_file_sets_model_and_endpoint_but_never_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from zorktui.agent.llm import LlmConfig
    from zorktui.settings import config_path

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("ZORKTUI_MODEL", raising=False)
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text('[llm]\nmodel = "from-config"\nbase_url = "http://127.0.0.1:9/v1"\ntimeout = 7\n'
                             'api_key = "sk-in-a-file"\n')
    config = LlmConfig.from_env()
    assert (config.model, config.base_url, config.timeout, config.api_key) == ("from-config", "http://127.0.0.1:9/v1", 7.0, None)
    assert LlmConfig.from_env(model="flag").model == "flag"
    config_path().write_text("[llm\nbroken")
    assert LlmConfig.from_env().model == "gpt-4o-mini"  # a broken file falls back on the defaults
