"""Structured replies, the context window and the budget of calls, against a scripted OpenAI-compatible server.

The scripted server (tests/llm_server.py) plays the endpoints a real model
cannot be made to play on demand: one that takes OpenAI's ``json_schema``, one
that takes none, one that refuses a prompt for its length, one that fails for
a while. The client, the agent, the critic and the session are all real.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_server import ScriptedLLM

from zorktui.agent.llm import LlmClient, LlmConfig
from zorktui.agent.llm_endpoint import EndpointBook, limit_named
from zorktui.agent.prompt import room_state_block
from zorktui.agent.reply import parse_json_reply, reply_schema
from zorktui.record.summary import summarize, table
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ZORKTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-structured")
    return tmp_path


def answer(action: str | dict, reflection: str = "The landing stage is quiet.") -> str:
    return json.dumps({"reflection": reflection, "objective": "light the lamp", "action": action})


def offered_in(body: dict) -> tuple[list[str], bool]:
    """The commands a request's schema offers, and whether it lets the model type another."""
    action = body["response_format"]["json_schema"]["schema"]["properties"]["action"]
    if "anyOf" in action:
        return action["anyOf"][0]["enum"], True
    return action["enum"], False


def first_offered(body: dict) -> str:
    """A schema-honouring model's reply: the first command the schema offers."""
    return answer(offered_in(body)[0][0])


def build(llm: ScriptedLLM, tmp_path: Path, **kw):
    options = SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=5, max_retries=0,
                             session=tmp_path / "s", mode="autopilot", llm_subagents=kw.pop("llm_subagents", False),
                             **kw)
    return build_session(options).session


def client(llm: ScriptedLLM, book: EndpointBook | None = None) -> LlmClient:
    return LlmClient(LlmConfig(model="m", base_url=llm.base_url, api_key="x", max_retries=0), book or EndpointBook(None))


# ---------------------------------------------------------------- finding out what the endpoint takes
@pytest.mark.parametrize("shape", ["json_schema", "json_object", "guided_json", "format"])
def test_the_probe_finds_the_shape_the_endpoint_takes_and_it_is_remembered(shape: str, tmp_path: Path) -> None:
    book = EndpointBook(tmp_path / "endpoints.json")
    with ScriptedLLM(structured=shape) as llm:
        assert client(llm, book).reply_mode() == shape
        assert len(llm.probes) == 1 and llm.requests == []
        # A second session with the same endpoint and model asks nothing.
        again = client(llm, book)
        assert again.reply_mode() == shape and len(llm.probes) == 1
    assert json.loads((tmp_path / "endpoints.json").read_text())[f"{llm.base_url} m"]["replies"] == shape


def test_an_endpoint_that_takes_no_schema_gets_text_and_no_scripted_reply_is_spent() -> None:
    with ScriptedLLM(["REFLECTION: a\nOBJECTIVE: b\nACTION: north"]) as llm:
        c = client(llm)
        assert c.reply_mode() == "text"
        assert len(llm.refused) == 4 and llm.steps  # every shape refused (HTTP 400), nothing else asked
        assert "ACTION: north" in c.complete([{"role": "user", "content": "hi"}], schema={"type": "object"}).text


# ---------------------------------------------------------------- the agent's structured replies
def test_the_agent_asks_for_one_object_whose_action_is_a_screened_valid_action(tmp_path: Path) -> None:
    with ScriptedLLM(default=answer("north"), structured="json_schema") as llm:
        session = build(llm, tmp_path, calls_per_turn=0)
        try:
            proposal = session.propose()
            request = llm.requests[-1]
        finally:
            session.close()
    assert proposal is not None and proposal.command == "north" and proposal.source == "llm"
    assert proposal.reflection == "The landing stage is quiet." and proposal.objective == "light the lamp"
    offered, typing = offered_in(request)
    assert "north" in offered and typing
    # Offered: the valid actions the critic lets through (the flask of tea here is one of them).
    assert any("tea" in a for a in offered)
    assert "Answer with one JSON object." in request["messages"][1]["content"]


def test_a_command_typed_out_is_played(tmp_path: Path) -> None:
    with ScriptedLLM(default=answer({"typed": "e"}), structured="json_schema") as llm:
        session = build(llm, tmp_path, calls_per_turn=0)
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command == "e" and proposal.source == "llm"


@pytest.mark.parametrize("hostile", [
    '{"action": "quit"}',                                      # a server that ignores the schema
    '{"reflection": "x", "objective": "y", "action": 7}',
    '[1, 2, 3]',
    '{"reflection": "x", "action": {"typed": ""}}',
    "not json at all",
])
def test_a_reply_outside_the_schema_is_never_played_as_is(hostile: str, tmp_path: Path) -> None:
    with ScriptedLLM(default=hostile, structured="json_schema") as llm:
        session = build(llm, tmp_path)
        try:
            proposal = session.propose()
        finally:
            session.close()
    assert proposal is not None and proposal.command != "quit" and proposal.source != "llm"


def test_typing_is_offered_only_when_the_budget_could_pay_for_asking_again(tmp_path: Path) -> None:
    with ScriptedLLM(default=first_offered, structured="json_schema") as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=12, on_loop=False))
        try:
            session.autopilot.run()
        finally:
            session.close()
    offered = [offered_in(r)[1] for r in llm.requests]
    # The probe, then one call a turn from turn 0: at turn 9 the 1.2 a turn has room for a second call.
    assert offered == [False] * 9 + [True] * 3


def test_json_replies_parse_with_raw_newlines_and_prose_around() -> None:
    text = 'Sure!\n{"reflection": "two\nlines", "objective": "o", "action": "north"}\nDone.'
    reply = parse_json_reply(text, ["north"])
    assert reply is not None and reply.action == "north" and reply.reflection == "two lines"
    typed = parse_json_reply('{"reflection": "r", "action": {"typed": "xyzzy"}}', ["north"])
    assert typed is not None and typed.action == "xyzzy"
    assert reply_schema(None)["properties"]["action"] == {"type": "string", "maxLength": 80}
    assert "objective" not in reply_schema(["north"], objective=False)["required"]


# ---------------------------------------------------------------- the context window
def test_a_prompt_refused_for_its_length_is_fitted_to_the_window_the_endpoint_named(tmp_path: Path) -> None:
    refusal = json.dumps({"error": {"message": "Requested tokens (2100) exceed context window of 700"}})
    with ScriptedLLM([("status", 400, refusal)], default=answer("north"), structured="json_schema") as llm:
        session = build(llm, tmp_path)
        try:
            proposal = session.propose()
        finally:
            session.close()
    first, second = llm.requests[0], llm.requests[1]
    assert proposal is not None and proposal.source == "llm"
    assert len(second["messages"][1]["content"]) < len(first["messages"][1]["content"])
    assert limit_named("This model's maximum context length is 4096 tokens") == 4096


def test_a_block_fitted_to_a_limit_leaves_out_whole_records_only(tmp_path: Path) -> None:
    with ScriptedLLM(default=answer("north"), structured="json_schema") as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=8, on_loop=False))
        try:
            session.autopilot.run()
            situation = session.situation()
        finally:
            session.close()
    whole = room_state_block(situation)
    short = room_state_block(situation, limit=len(whole) // 2)
    assert len(short) <= len(whole) // 2
    kept = set(whole.splitlines())
    for line in short.splitlines():
        bare = line.split(" (+")[0]
        assert line in kept or any(k.startswith(bare) for k in kept), line
    assert short.splitlines()[0] == whole.splitlines()[0] and short.splitlines()[-1] == whole.splitlines()[-1]


# ---------------------------------------------------------------- the budget, and a model that fails
def test_every_call_of_a_session_fits_a_budget_of_1_2_a_turn(tmp_path: Path) -> None:
    def step(body: dict) -> str:
        system = body["messages"][0]["content"]
        if "review one proposed command" in system:
            return json.dumps({"verdict": "useful", "reason": "why not"})
        if "JSON object" in system:
            return first_offered(body)
        return "A quiet stretch on the island."

    with ScriptedLLM(default=step, structured="json_schema") as llm:
        session = build(llm, tmp_path, llm_subagents=True, critic_llm=True, stop=StopRules(steps=20, on_loop=False))
        try:
            session.autopilot.run()
            played = [r for r in session.recorder.folder.records() if r.get("type") == "turn" and r.get("command")]
        finally:
            session.close()
    calls = len(llm.requests) + len(llm.probes)
    assert len(played) == 20 and calls <= 1.2 * 20
    assert sum(r.get("llm_calls", 0) for r in played) == calls
    # The spare calls went to the optional callers: the critic's model stage, then the sub-agents.
    optional = [r for r in llm.requests if "JSON object" not in r["messages"][0]["content"]
                or "review one proposed command" in r["messages"][0]["content"]]
    assert len(optional) >= 2
    # data summarize reads the same figures back from the trajectory.
    summaries, _ = summarize([tmp_path / "s"])
    line = table(summaries).splitlines()[1]
    assert line.startswith("  model: chose 20 of 20 agent turns;") and f"{calls / 20:.2f} calls" in line


def test_a_model_that_fails_mid_session_is_said_once_and_each_turn_records_who_chose(tmp_path: Path) -> None:
    with ScriptedLLM([first_offered, 500], default=first_offered, structured="json_schema") as llm:
        session = build(llm, tmp_path, stop=StopRules(steps=9, on_loop=False))
        try:
            session.autopilot.run()
            played = [r for r in session.recorder.folder.records() if r.get("type") == "turn" and r.get("command")]
        finally:
            session.close()
    sources = [r["proposal"]["source"] for r in played]
    notes = [n for r in played for n in r["proposal"].get("notes", [])]
    assert sources == ["llm"] + ["explore"] * 5 + ["llm"] * 3
    assert sum("LLM unavailable" in n for n in notes) == 1
    assert sum(n == "the model answers again" for n in notes) == 1


# ---------------------------------------------------------------- what the person sees
def test_the_agent_panel_says_how_replies_are_asked_for_and_what_a_turn_costs(tmp_path: Path) -> None:
    from helpers import SIZE, proposal_ready, run, until

    from zorktui.ui.app import create_app
    from zorktui.ui.keymap import UiConfig
    from zorktui.ui.widgets.agentpanel import AgentPanel

    with ScriptedLLM(default=first_offered, structured="json_schema") as llm:
        built = build_session(SessionOptions(agent="llm", model="m", base_url=llm.base_url, timeout=5, max_retries=0,
                                             session=tmp_path / "s", mode="coplay", llm_subagents=False))
        app = create_app(built, config=UiConfig(), themes_dir=tmp_path / "themes")

        async def go() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: proposal_ready(app))
                await pilot.press("enter")             # accept the model's command
                await until(pilot, lambda: app.session.current.turn == 1 and proposal_ready(app))
                await pilot.pause()
                text = " ".join(app.query_one(AgentPanel).text.split())
                assert "replies as JSON schema (response_format json_schema)" in text, text
                assert "calls," in text and "tokens," in text and "s a turn;" in text, text

        run(go())
