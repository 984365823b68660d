"""The model-facing parts against a real model: llama.cpp's server on 127.0.0.1 with SmolLM2-135M.

Nothing here is scripted: the agent, the critic's model stage, the sub-agents
and the planner's prior each play a few turns of the bundled story against the
model the ``local-llm`` extra installs (tests/local_llm.py). A 135M model plays
badly; what is checked is that its replies are used as they come, the first
time, within the budget of calls. Marked slow (about a minute in all); skipped
where the extra is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import local_llm
import pytest

from zorktui.agent.llm_endpoint import SHAPES
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(local_llm.missing()), reason=local_llm.missing() or "ok")]


@pytest.fixture(scope="module")
def model_url() -> Iterator[str]:
    with local_llm.serving(local_llm.gguf("smollm2")) as base:
        yield base


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data, config and cache home: the endpoint is found out anew, no lessons from other runs."""
    monkeypatch.setenv("ZORKTUI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path


def options(base: str, tmp: Path, agent: str = "llm", steps: int = 5, **kw) -> SessionOptions:
    return SessionOptions(agent=agent, model="smollm2", base_url=base, timeout=60, session=tmp / "s", mode="autopilot",
                          stop=StopRules(steps=steps, on_loop=False), seed=1, **kw)


def turns(session) -> list[dict]:
    return [r for r in session.recorder.folder.records() if r.get("type") == "turn" and r.get("command") is not None]


def test_the_agent_plays_with_the_models_own_choices_the_first_time(model_url: str, home: Path) -> None:
    session = build_session(options(model_url, home, steps=6)).session
    try:
        assert session.autopilot.run().startswith("step budget")
        played = turns(session)
        usage = session.usage
    finally:
        session.close()
    assert usage.replies in SHAPES  # llama.cpp takes a JSON schema: found by the probe
    chosen = [r for r in played if r["proposal"]["source"] == "llm"]
    assert len(chosen) == len(played) == 6
    assert all(r["proposal"].get("reflection") for r in chosen)
    assert not any("asked again" in n for r in played for n in r["proposal"].get("notes", []))
    # The probe, then one call a turn, and room for the sub-agents within 1.2 a turn.
    assert sum(r.get("llm_calls", 0) for r in played) <= 1 + 1.2 * len(played)


def test_the_critics_model_stage_gives_its_opinion(model_url: str, home: Path) -> None:
    session = build_session(options(model_url, home, steps=3, critic_llm=True, llm_subagents=False,
                                    calls_per_turn=0)).session
    try:
        session.autopilot.run()
        played = turns(session)
    finally:
        session.close()
    reasons = [reason for r in played for reason in (r["proposal"].get("critic") or {}).get("reasons", [])]
    assert any(reason.startswith("model:") for reason in reasons), reasons


def test_the_sub_agents_write_with_the_model(model_url: str, home: Path) -> None:
    session = build_session(options(model_url, home, steps=7, calls_per_turn=0)).session
    try:
        session.autopilot.run()
        notes = session.subagents.notes
        calls = session.usage.calls
    finally:
        session.close()
    # The offline narrator begins "Lately"; the model's account is its own.
    assert notes.narrative and not notes.narrative.startswith("Lately")
    assert calls > 7 + 1  # more than the agent's seven and the probe: the sub-agents asked too


def test_the_planner_asks_the_model_for_its_prior(model_url: str, home: Path) -> None:
    session = build_session(options(model_url, home, agent="mcts", steps=2, sims=20, llm_subagents=False)).session
    try:
        session.autopilot.run()
        played = turns(session)
        usage = session.usage
    finally:
        session.close()
    assert usage.calls >= 2 and usage.replies in SHAPES
    said = " ".join(n for r in played for n in r["proposal"].get("notes", []) + [r["proposal"].get("reflection", "")])
    assert "the model weighed" in said, said
