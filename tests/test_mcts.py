"""The MCTS planner (``--agent mcts``) on real games: points nearby, deaths avoided, reproducible, never touching the game.

Budgets are given in simulations, so every test is deterministic and none is
timed. The LLM prior is tested against a real local server that replies from
a script.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from llm_server import ScriptedLLM

from zorktui.agent.mcts.llm_prior import parse_weights
from zorktui.agent.mcts.planner import MctsPlanner, PlannerSettings
from zorktui.agent.mcts.tree import Edge, Node, ranked
from zorktui.agent.safety import presentation_only
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules


def planner_session(sims: int = 60, seed: int = 1, here: bool = False, **kw: Any):
    """A session with the planner; ``here``: the game and the search in this process, to look inside the tree."""
    with pytest.MonkeyPatch.context() as patch:
        if here:
            patch.setenv("ZORKTUI_GAME_WORKER", "0")
        built = build_session(SessionOptions(agent="mcts", mode="human", seed=seed, sims=sims, knowledge=False, **kw))
    return built.session


def play_all(session, commands: list[str]) -> None:
    for c in commands:
        session.play(c)


def test_the_planner_finds_points_one_step_away_and_explains_its_search() -> None:
    s = planner_session(sims=80)
    try:
        play_all(s, ["take flask", "north", "west"])  # in the kitchen with what the keeper wants
        proposal = s.propose()
        assert proposal is not None and proposal.source == "mcts"
        assert proposal.command.startswith("give ")  # the game's own words for it: "give tea to nessa tregarth"
        assert "Searched 80 lines" in proposal.reflection and "visits" in proposal.reflection
        assert f"Expects: {proposal.command}" in proposal.reflection
        report = s.agent.report
        assert report.chosen_by == "search" and report.to_points[proposal.command] == 1
        assert "points within 1 commands" in proposal.reflection
        turn = s.accept()
        assert turn is not None and turn.reward == 10
    finally:
        s.close()
        s.game.close()


def test_with_no_points_in_reach_the_explorer_chooses_and_the_trace_says_what_was_searched() -> None:
    s = planner_session(sims=60)
    try:
        proposal = s.propose()  # the opening: no line of 60 simulations scores
        report = s.agent.report
        assert proposal is not None and proposal.source == "mcts"
        assert report.chosen_by == "explorer" and report.to_points == {}
        assert "none scored" in proposal.reflection and proposal.command == "take tea"  # the explorer picks up first
        trace = report.trace()
        assert trace["sims"] == 60 and trace["edges"] and json.dumps(trace)
        assert {"command", "visits", "value", "prior", "played", "noop"} <= set(trace["edges"][0])
        assert sum(e["visits"] for e in trace["edges"]) >= 59  # every line but a loop back goes through the root
    finally:
        s.close()
        s.game.close()


def test_a_deadly_command_is_learned_and_never_proposed() -> None:
    s = planner_session(sims=60, here=True)
    try:
        play_all(s, ["north", "east"])  # the cliff top: jumping kills
        assert "jump" in s.game.valid_actions()
        proposal = s.propose()
        assert proposal is not None and proposal.command != "jump"
        planner = s.agent
        assert isinstance(planner, MctsPlanner)
        assert any(r.command == "jump" and "death" in r.text for r in planner.reflections.items)
        assert any("learned: 'jump'" in n for n in proposal.notes)
        root = planner.nodes[s.current.state_hash]
        jump = next(e for e in root.edges if e.action == "jump")
        others = [e.prior for e in root.edges if e.action != "jump"]
        assert jump.prior < min(others), "the lesson lowers the prior of the deadly command"
    finally:
        s.close()
        s.game.close()


def test_same_seed_and_budget_give_the_same_search() -> None:
    found = []
    for _ in range(2):
        s = planner_session(sims=40, seed=7)
        try:
            play_all(s, ["take flask", "north"])
            p = s.propose()
            assert p is not None
            found.append((p.command, p.reflection.split(" in ")[0], p.reflection.split("): ")[1]))
        finally:
            s.close()
            s.game.close()
    assert found[0] == found[1]


def test_searching_never_disturbs_the_game_and_the_person_can_play_meanwhile() -> None:
    s = planner_session(sims=400)
    try:
        play_all(s, ["take flask", "north"])
        before = (s.current.state_hash, s.game.state().turn, s.game.undo_depth)
        thinking = threading.Thread(target=s.propose)
        thinking.start()
        turn = s.play("west")  # the person moves on while the planner searches its own fork
        thinking.join(60)
        assert turn.location is not None and turn.location.name == "Cottage Kitchen"
        assert s.game.undo_depth == before[2] + 1
        assert s.pending is None, "a proposal for a turn already played is dropped"
        s.undo()
        assert s.current.state_hash == before[0]
    finally:
        s.close()
        s.game.close()


def test_closing_the_session_stops_a_search_in_flight() -> None:
    s = planner_session(sims=100000)
    thinking = threading.Thread(target=s.propose)
    thinking.start()
    s.close()  # waits for the planner to notice, then releases its fork
    thinking.join(30)
    assert not thinking.is_alive()
    s.game.close()


def test_coin_collector_is_won_by_the_planner(tw_game: Any) -> None:
    path, truth = tw_game("coin_collector", seed=1)
    built = build_session(SessionOptions(story=path, agent="mcts", mode="autopilot", seed=1, sims=40, knowledge=False,
                                         stop=StopRules(steps=25, on_loop=False)))
    s = built.session
    try:
        reason = s.autopilot.run(25)
        assert reason == "victory", reason
        assert s.current.score == truth["max_score"]
    finally:
        s.close()
        s.game.close()


def test_run_agent_mcts_writes_the_trajectory_and_states_the_best_score(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "-m", "zorktui", "run", "--agent", "mcts", "--steps", "4", "--sims", "20",
                           "--seed", "3", "--jsonl", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "best score" in last and "/70" in last
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["agent"]["name"] == "mcts" and records[0]["agent"]["planner"]["sims"] == 20
    turns = [r for r in records if r.get("type") == "turn" and r["turn"] > 0]
    assert len(turns) == 4 and all(t["actor"] == "agent" for t in turns)
    assert all(t["proposal"]["source"] in ("mcts", "critic") for t in turns)
    assert any("Searched 20 lines" in t["proposal"].get("reflection", "") for t in turns)
    bad = subprocess.run([sys.executable, "-m", "zorktui", "run", "--agent", "mcts", "--steps", "2", "--time-per-move", "-1"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) <= 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("reply,expected", [
    ('{"2": 0.7, "1": 0.3}', {"b": 0.7, "a": 0.3}),
    ('Sure! {"b": 2, "c": -1, "zzz": 5, "1": "lots"} and more', {"b": 2.0}),
    ('{"1": NaN}', None),
    ("no json at all", None),
    ('[0.5, 0.5]', None),
    ('{"1": true, "3": 1e400}', None),
])
def test_model_weights_are_parsed_defensively(reply: str, expected: dict | None) -> None:
    assert parse_weights(reply, ["a", "b", "c"]) == expected


@pytest.mark.parametrize("here", [True, False], ids=["search-here", "search-in-worker"])
def test_the_model_weighs_the_actions_and_its_prior_steers_the_search(monkeypatch: pytest.MonkeyPatch, here: bool) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")

    def weigh(body: dict) -> str:
        text = body["messages"][-1]["content"]
        numbers = {line.split(". ", 1)[1]: line.split(".")[0] for line in text.splitlines() if line[:1].isdigit()}
        if "up" not in numbers:
            return "{}"
        return json.dumps({numbers["up"]: 0.97, **{n: 0.001 for a, n in numbers.items() if a != "up"}})

    with ScriptedLLM(default=weigh) as llm:
        s = planner_session(sims=30, base_url=llm.base_url, llm_subagents=False, here=here)
        try:
            play_all(s, ["take flask", "north", "west"])
            p = s.propose()
            assert p is not None
            asks = [r for r in llm.requests if "advise a planner" in r["messages"][0]["content"]]
            assert len(asks) == 1
            prompt = asks[0]["messages"][-1]["content"]
            assert "Recent play:" in prompt and "> west" in prompt and "give tea to nessa tregarth" in prompt
            assert p.tokens > 0 and any("the model weighed: up" in n for n in p.notes)
            if not here:  # the tree is in the worker: the model's prior shows in what the search weighed
                assert "up" in p.reflection.split("Expects:")[0] or p.command == "up"
                return
            root = s.agent.nodes[s.current.state_hash]
            up = next(e for e in root.edges if e.action == "up")
            assert up.prior == max(e.prior for e in root.edges)
        finally:
            s.close()
            s.game.close()


def test_a_broken_model_leaves_the_planner_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with ScriptedLLM(default=500) as llm:
        s = planner_session(sims=20, base_url=llm.base_url, llm_subagents=False, max_retries=0)
        try:
            p = s.propose()
            assert p is not None and p.source in ("mcts", "critic")
            assert any("LLM unavailable" in n and "heuristic priors" in n for n in p.notes)
        finally:
            s.close()
            s.game.close()


@pytest.mark.parametrize("command,only", [
    ("enable print state option", True), ("inv wide", True), ("Inventory  Tall", True),
    ("take lamp", False), ("open options box", False), ("east", False), ("restrict commands", True),
])
def test_commands_that_only_change_printing_are_recognised(command: str, only: bool) -> None:
    # The planner gives them almost no prior and the explorer never picks them.
    assert presentation_only(command) is only


def test_planner_settings_default_to_two_seconds_a_move() -> None:
    assert PlannerSettings().time_per_move == 2.0 and PlannerSettings().sims is None


def _edge(action: str, returns: list[float]) -> Edge:
    e = Edge(action, prior=0.1)
    for r in returns:
        e.add(r)
    return e


def test_an_action_is_worth_its_best_line_more_than_its_dying_rollouts() -> None:
    # A story replays the same from a saved state, so the best line through an action can
    # really be followed: random rollouts that die must not bury it (eat the meal too soon).
    risky = _edge("cook potato with stove", [-10.0] * 9 + [5.0])
    safe = _edge("drop potato", [0.5] * 10)
    assert risky.best == 5.0 and risky.mean == pytest.approx(-8.5)
    assert risky.value > safe.value
    node = Node("root", state=None, turn=None, edges=[safe, risky])  # type: ignore[arg-type]
    assert [e.action for e in ranked(node)] == ["cook potato with stove", "drop potato"]


def test_the_choice_trusts_value_once_an_action_is_searched_enough() -> None:
    much = _edge("east", [0.1] * 100)
    found_late = _edge("take potato", [2.0] * 30)  # a point found late in the move
    barely = _edge("jump", [9.0] * 10)  # one lucky look: not trusted yet
    node = Node("root", state=None, turn=None, edges=[much, barely, found_late])  # type: ignore[arg-type]
    assert [e.action for e in ranked(node)] == ["take potato", "east", "jump"]


def test_routes_walk_the_moves_the_game_has_made_and_the_planner_may_take_one() -> None:
    from zorktui.agent.mcts.routes import routes_from
    from zorktui.engine.game import Game
    from zorktui.locations import bundled_story

    game = Game(bundled_story())
    try:
        turns = [game.current]
        for c in ["take flask", "north", "west", "up", "down", "east"]:  # back on the shingle path
            turns.append(game.step(c))
        here = turns[-1].location.id
        routes = {r.name: r.commands for r in routes_from(turns, here)}
        assert routes["Cottage Loft"] == ("west", "up")
        assert "Cottage Kitchen" not in routes  # one step away: already a valid action
        # Walking one of them for real arrives where it says.
        for c in routes["Cottage Loft"]:
            game.step(c)
        assert game.current.location.name == "Cottage Loft"
    finally:
        game.close()
    s = planner_session(sims=60, here=True)
    try:
        play_all(s, ["take flask", "north", "west", "up", "down", "east"])
        p = s.propose()
        assert p is not None
        root = s.agent.nodes[s.current.state_hash]
        walks = [e for e in root.edges if e.path]
        assert any(e.action == "go to Cottage Loft" and e.path == ("west", "up") for e in walks)
    finally:
        s.close()
        s.game.close()


def test_a_thing_coming_into_sight_is_news_the_search_looks_at_at_once() -> None:
    from zorktui.agent.mcts.planner import _revealed
    from zorktui.engine.game import Game
    from zorktui.locations import bundled_story

    game = Game(bundled_story())
    try:
        for command in ["north", "west", "up"]:  # the loft: the sea chest holds a mantle
            game.step(command)
        before = game.current
        assert not _revealed(before, game.peek("look"))
        opened = game.step("open chest")
        assert _revealed(before, opened), [o.name for o in opened.visible]
        assert not _revealed(opened, game.step("down"))  # another room is not a reveal
    finally:
        game.close()


def test_a_death_belongs_to_the_step_not_to_the_state_it_leads_to() -> None:
    # Zork's new life after a death is a world state that an ordinary walk can reach too: the
    # tree shares one node for both, so the death is kept on the edge that died.
    from zorktui.agent.mcts.reward import DEATH, Novelty, step_reward
    from zorktui.engine.game import Game
    from zorktui.locations import bundled_story

    game = Game(bundled_story())
    try:
        before = game.current
        after = game.step("north")
        assert not after.dead
        walked = step_reward(before, after, Novelty(), 70)
        died = step_reward(before, after, Novelty(), 70, died=True)
        assert died <= DEATH < walked
        assert not Node("k", game.state(), after).terminal and Edge("north", 0.5).died is False
    finally:
        game.close()
