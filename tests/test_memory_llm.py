"""LLM extraction into the memory, against a real local OpenAI-compatible server that replies from a script."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from llm_server import ScriptedLLM
from paths import BUNDLED_WALKTHROUGH, commands

from zorktui.agent.llm import LlmClient, LlmConfig, LlmUnavailable
from zorktui.engine.game import Game
from zorktui.locations import bundled_story
from zorktui.memory import queries as q
from zorktui.memory.belief import belief_state
from zorktui.memory.extract import Extractor, parse_triplets
from zorktui.memory.graph import Memory
from zorktui.memory.schema import LLM

WALK = commands(BUNDLED_WALKTHROUGH)


def client_for(llm: ScriptedLLM, **kw) -> LlmClient:
    return LlmClient(LlmConfig(model="scripted", base_url=llm.base_url, api_key="sk-test-secret", timeout=5, **kw))


def test_parse_tolerates_markdown_prose_and_garbage() -> None:
    reply = """Sure! Here are the facts:
```
1. **Nessa | wants | flask of tea**
- kettle | is | cold
* no pipes here
OUTDATED: nessa | has | iron key
  obsolete: door|is|locked
```
That's all."""
    added, outdated = parse_triplets(reply)
    assert [(t.subject, t.relation, t.object) for t in added] == [("nessa", "wants", "flask of tea"), ("kettle", "is", "cold")]
    assert [(t.subject, t.relation, t.object) for t in outdated] == [("nessa", "has", "iron key"), ("door", "is", "locked")]
    flood = "\n".join(f"a{i} | b | c" for i in range(500)) + "\n" + "x" * 100000
    added, _ = parse_triplets(flood)
    assert len(added) == 12 and all(len(t.subject) <= 60 for t in added)
    assert parse_triplets("\x00\x1b[31m | | \n|||\nnothing") == ([], [])


def test_extraction_runs_after_turns_and_is_stored_with_provenance(tmp_path: Path, game_of) -> None:
    game = game_of(bundled_story())
    with ScriptedLLM(default="") as llm, Memory(tmp_path / "m", vocabulary=game.zm.object_vocabulary) as memory:
        extractor = Extractor(memory, client_for(llm))
        memory.ingest(game.current, actor="game")
        llm.push(("sleep", 0.5, "rowing boat | is | moored\ngulls | circle | landing stage"))
        start = time.perf_counter()
        turn = game.step(WALK[0])
        memory.ingest(turn)
        extractor.submit(turn)
        assert time.perf_counter() - start < 0.4  # the turn did not wait for the model
        extractor.wait(10)
        facts = q.search(memory, "moored")
        assert facts and facts[0].source == LLM and facts[0].valid_from == turn.turn
        assert facts[0].subject.name == "rowing boat" and facts[0].subject.id.startswith("obj:")  # matched to the game's object
        # A later reply marks the fact outdated: it is closed, not deleted.
        llm.push("OUTDATED: rowing boat | is | moored\nrowing boat | is | adrift")
        turn2 = game.step(WALK[1])
        memory.ingest(turn2)
        extractor.submit(turn2)
        extractor.wait(10)
        assert not q.search(memory, "moored") and q.search(memory, "adrift")
        assert q.search(memory, "moored", as_of=turn.turn)
        assert any("adrift" in n for n in belief_state(memory).notes)
        # The prompt carried the observation; the key went only in the Authorization header.
        assert "OBSERVATION" in llm.requests[0]["messages"][1]["content"]
        assert all("sk-test-secret" not in str(r) for r in llm.requests)
        extractor.close()


def test_model_facts_never_close_engine_facts_and_undo_drops_late_results(tmp_path: Path, game_of) -> None:
    game = game_of(bundled_story())
    with ScriptedLLM() as llm, Memory(tmp_path / "m", vocabulary=game.zm.object_vocabulary) as memory:
        extractor = Extractor(memory, client_for(llm))
        memory.ingest(game.current, actor="game")
        llm.push("OUTDATED: you | at | landing stage\nflask of tea | in | the moon\nyou | at | the moon")
        turn = game.step("look")
        memory.ingest(turn)
        extractor.submit(turn)
        extractor.wait(10)
        assert q.where_am_i(memory)[0].name == "Landing Stage"
        assert q.where_is(memory, "flask")[0].chain[0].name == "Landing Stage"  # the engine's fact still holds
        llm.push(("sleep", 0.3, "ghost | haunts | landing stage"))
        turn = game.step("wait")
        memory.ingest(turn)
        extractor.submit(turn)
        memory.rewind(turn.turn - 1)  # undone while the model thinks
        extractor.wait(10)
        memory.flush()
        assert not q.search(memory, "ghost")
        extractor.close()


def test_failures_are_one_line_and_never_raise_into_play(tmp_path: Path, game_of) -> None:
    with ScriptedLLM([500, 500, 500, ("raw", "{not json")]) as llm:
        client = client_for(llm, max_retries=2)
        with pytest.raises(LlmUnavailable) as info:
            client.complete([{"role": "user", "content": "hi"}])
        assert "500" in str(info.value) and "\n" not in str(info.value)
        assert len(llm.requests) == 3  # retried with backoff
        with pytest.raises(LlmUnavailable):
            client.complete([{"role": "user", "content": "hi"}])
    game = game_of(bundled_story())
    dead = LlmClient(LlmConfig(model="m", base_url="http://127.0.0.1:9/v1", api_key="k", timeout=1, max_retries=0))
    with Memory(tmp_path / "m") as memory:
        extractor = Extractor(memory, dead)
        memory.ingest(game.current, actor="game")
        extractor.submit(game.current)
        extractor.wait(10)
        memory.flush()
        assert extractor.errors and "cannot be reached" in extractor.errors[0]
        extractor.close()


def test_no_llm_configured_means_extraction_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LlmUnavailable, match="no LLM configured"):
        LlmClient(LlmConfig.from_env())
    with Memory(tmp_path / "m") as memory:
        extractor = Extractor(memory, None)
        assert not extractor.enabled and extractor.submit(Game(bundled_story()).current) is None
    assert "sk-" not in repr(LlmConfig(api_key="sk-secret")) and "api_key" not in LlmConfig(api_key="x").public()


def test_cli_run_with_llm_extraction(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    script = tmp_path / "cmds.txt"
    script.write_text("\n".join(WALK[:3]))
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    with ScriptedLLM(default="tea flask | smells of | smoke") as llm:
        r = subprocess.run([sys.executable, "-m", "zorktui", "run", "--commands", str(script), "--session", str(tmp_path / "s"),
                            "--llm-extract", "--base-url", llm.base_url, "--model", "scripted"],
                           capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == 0, r.stderr
        assert len(llm.requests) == 4 and llm.requests[0]["model"] == "scripted"
    r = subprocess.run([sys.executable, "-m", "zorktui", "memory", str(tmp_path / "s"), "--json", "--cypher",
                        "MATCH (a)-[f:Fact]->(b) WHERE f.source = 'llm' RETURN a.name, f.relation, b.name LIMIT 1"],
                       capture_output=True, text=True, timeout=120)
    assert json.loads(r.stdout)["rows"] == [["tea flask", "smells of", "smoke"]]
    r = subprocess.run([sys.executable, "-m", "zorktui", "run", "--commands", str(script), "--session", str(tmp_path / "t"),
                        "--llm-extract"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no LLM configured" in r.stderr
