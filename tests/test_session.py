"""The session loop: modes, proposals and their fates, events, autopilot control, guards, critic, knowledge."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from paths import BUNDLED_DEATH, BUNDLED_WALKTHROUGH, commands

from zorktui.agent import guards
from zorktui.agent.critic import Critic
from zorktui.agent.knowledge import KnowledgeBase
from zorktui.agent.playlog import PlayLog
from zorktui.agent.proposal import Idea
from zorktui.agent.situation import Situation
from zorktui.agent.subagents import SubAgents
from zorktui.locations import bundled_story, data_dir
from zorktui.session import events as ev
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import StopRules

DEATH = commands(BUNDLED_DEATH)
WALK = commands(BUNDLED_WALKTHROUGH)


def records(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "trajectory.jsonl").read_text().splitlines()]


def explore_session(tmp_path: Path, mode: str = "coplay", **kw):
    return build_session(SessionOptions(agent="explore", mode=mode, session=tmp_path / "s", **kw)).session


def wait_for(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def test_coplay_fates_accepted_rejected_edited_superseded(tmp_path: Path) -> None:
    session = explore_session(tmp_path)
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    try:
        first = session.propose()
        assert first is not None and session.pending is first
        session.accept()                                   # turn 1: accepted
        wait_for(lambda: session.pending is not None and session.pending.turn == 1)
        rejected = session.pending.command
        session.reject("not yet")                          # the agent hears why and proposes again
        wait_for(lambda: session.pending is not None and session.pending.turn == 1)
        assert session.pending.command != rejected
        session.play("look")                               # turn 2: the person's own command supersedes
        wait_for(lambda: session.pending is not None and session.pending.turn == 2)
        session.edit("examine boat")                       # turn 3: edited
        wait_for(lambda: session.pending is not None and session.pending.turn == 3)
        session.set_mode("human")                          # in human mode a rejection asks for nothing new
        session.reject("no")
        assert session.pending is None
        session.play("inventory")                          # turn 4: no proposal pending -> the rejection is recorded
    finally:
        session.close()
    recs = [r for r in records(tmp_path / "s") if r.get("type") == "turn"][1:]
    assert [r["actor"] for r in recs] == ["agent", "human", "human", "human"]
    assert [r["proposal"]["fate"] for r in recs] == ["accepted", "superseded", "edited", "rejected"]
    assert recs[1]["proposal"]["refused"][0] == {"command": rejected, "by": "person", "reason": "not yet"}
    assert recs[3]["proposal"]["reason"] == "no"
    assert recs[0]["proposal"]["critic"]["verdict"] == "accept" and recs[0]["think_ms"] > 0
    kinds = {type(e).__name__ for e in seen}
    assert {"TurnDone", "ProposalReady", "ThinkingStarted", "ThinkingFinished", "CriticVerdict"} <= kinds


def test_thinking_never_blocks_the_caller_and_a_stale_proposal_is_dropped(tmp_path: Path) -> None:
    session = explore_session(tmp_path, mode="human")
    gate = threading.Event()
    original = session.agent.suggest

    def slow(situation):
        gate.wait(10)
        return original(situation)

    session.agent.suggest = slow
    ready: list[ev.ProposalReady] = []
    session.subscribe(lambda e: ready.append(e) if isinstance(e, ev.ProposalReady) else None)
    try:
        start = time.perf_counter()
        future = session.request_proposal()
        assert time.perf_counter() - start < 0.5           # returns at once
        session.play("north")                               # the person acts while the agent thinks
        gate.set()
        assert future.result(30) is None                    # thought for turn 0: dropped
        assert ready == [] and session.pending is None
    finally:
        session.close()


def test_autopilot_runs_on_its_thread_pauses_steps_and_typing_takes_over(tmp_path: Path) -> None:
    session = explore_session(tmp_path, mode="coplay", stop=StopRules(on_loop=False))
    states: list[ev.AutopilotState] = []
    session.subscribe(lambda e: states.append(e) if isinstance(e, ev.AutopilotState) else None)
    try:
        session.autopilot.start()
        wait_for(lambda: session.current.turn >= 2)
        session.autopilot.pause()
        time.sleep(1.0)  # let the step in hand finish
        held = session.current.turn
        time.sleep(0.6)
        assert session.current.turn == held and session.autopilot.paused
        session.autopilot.step_once()
        wait_for(lambda: session.current.turn == held + 1)
        time.sleep(0.6)
        assert session.current.turn == held + 1
        session.autopilot.resume()
        wait_for(lambda: session.current.turn >= held + 3)
        session.play("inventory")                           # typing takes over
        session.autopilot.wait(30)
        assert not session.autopilot.running and session.mode == "coplay"
    finally:
        session.close()
    assert [s.state for s in states][:3] == ["running", "paused", "running"]
    assert states[-1].state == "stopped" and states[-1].reason == "the person took over"
    recs = [r for r in records(tmp_path / "s") if r.get("type") == "turn"]
    by_actor = {r["actor"] for r in recs[1:]}
    assert by_actor == {"agent", "human"}


def test_step_budget_stops_autopilot(tmp_path: Path) -> None:
    session = explore_session(tmp_path / "a", mode="autopilot", stop=StopRules(steps=3, on_loop=False))
    try:
        assert session.autopilot.run() == "step budget reached (3)" and session.current.turn == 3
    finally:
        session.close()


def test_critic_look_ahead_sees_death_and_the_agent_never_jumps(tmp_path: Path, game_of) -> None:
    game = game_of(bundled_story())
    for c in DEATH[:-1]:
        game.step(c)
    log = PlayLog(game.opening)
    for t in [game.current]:
        log.turns.append(t)
    situation = Situation(turn=game.current, log=log, valid_actions=game.valid_actions())
    critic = Critic(peek=game.peek)
    before = game.current
    verdict = critic.judge(DEATH[-1], situation)
    assert not verdict.accepted and verdict.fatal and "ends the game" in " ".join(verdict.reasons)
    assert game.current == before and game.undo_depth == len(DEATH) - 1  # the look-ahead left no trace


def test_death_becomes_a_lesson_fed_to_the_next_session(tmp_path: Path) -> None:
    session = explore_session(tmp_path / "a", mode="human")
    try:
        for c in DEATH:
            turn = session.play(c)
        assert turn.dead
    finally:
        session.close()
    kb = KnowledgeBase(data_dir() / "knowledge", session.game.story.md5)
    assert kb.deadly("Cliff Top", "jump") and any(x.kind == "ending" for x in kb.lessons)
    later = explore_session(tmp_path / "b", mode="human")
    try:
        for c in DEATH[:-1]:
            later.play(c)
        situation = later.situation()
        assert any("killed you" in x for x in situation.lessons)
        verdict = later.critic.judge("jump", situation)
        assert "killed you here in an earlier session" in verdict.reasons and not verdict.accepted
    finally:
        later.close()


def test_a_damaged_knowledge_file_is_moved_aside_with_one_line(tmp_path: Path, game_of) -> None:
    folder = data_dir() / "knowledge"
    folder.mkdir(parents=True)
    game = game_of(bundled_story())
    (folder / f"{game.story.md5}.json").write_text("{not json")
    built = build_session(SessionOptions(agent="explore", mode="human"))
    try:
        assert any("unreadable" in w and "\n" not in w for w in built.warnings)
        assert list(folder.glob("*.damaged-*.json"))
    finally:
        built.session.close()


def test_guards_warn_on_repeats_revisits_and_long_droughts(game_of) -> None:
    game = game_of(bundled_story())
    log = PlayLog(game.opening)
    for c in ["north", "south"] * 3 + ["look"] * 4:
        log.add(game.step(c))
    report = guards.inspect(log)
    assert report.revisit and report.looping
    assert any("'look' 4 times" in w for w in report.warnings)
    assert any("10 turns without points" in w for w in report.warnings)
    assert guards.refuse_repeat(log, "look") is not None and guards.refuse_repeat(log, "north") is None
    for _ in range(10):
        log.add(game.step("wait"))
    assert any("20 turns" in w for w in guards.inspect(log).warnings)


def test_undo_restart_restore_keep_log_and_memory_in_step(tmp_path: Path) -> None:
    session = explore_session(tmp_path, mode="human")
    jumps: list[str] = []
    session.subscribe(lambda e: jumps.append(e.jump) if isinstance(e, ev.TurnDone) and e.jump else None)
    try:
        for c in WALK[:4]:
            session.play(c)
        session.save("four")
        session.play(WALK[4])
        session.undo()
        assert session.current.turn == 4 and len(session.log.turns) == 5
        session.restart()
        assert session.current.turn == 0 and len(session.log.turns) == 1
        turn = session.restore("four")
        assert turn.turn == 4 and session.log.current == turn
        assert [c["name"] for c in session.checkpoints()] == ["four"]
    finally:
        session.close()
    assert jumps == ["undo", "restart", "restore"]
    kinds = [r["type"] for r in records(tmp_path / "s")]
    assert kinds.count("undo") == 1 and kinds.count("restart") == 1 and kinds.count("restore") == 1


def test_conversation_tracker_notices_a_stall(game_of) -> None:
    game = game_of(bundled_story())
    log = PlayLog(game.opening)
    for c in ["ask gulls about boat", "ask gulls about tea", "tell gulls about lamp"]:
        log.add(game.step(c))
    notes = SubAgents(None)
    new = notes.after_turn(Situation(turn=log.current, log=log))
    assert any("conversation with gulls has stalled" in n for n in new)


def test_explorer_autopilot_scores_without_a_model_and_stops_on_score_change(tmp_path: Path) -> None:
    session = explore_session(tmp_path, mode="autopilot", stop=StopRules(steps=80, on_score_change=True, on_loop=False))
    try:
        reason = session.autopilot.run()
        assert reason.startswith("score changed"), reason
        assert session.current.reward > 0 and session.current.score > 0
        assert len(session.log.rooms_seen()) >= 6
    finally:
        session.close()


#: Seconds the model of the test below takes to answer, unless the test lets it go first.
MODEL_THINKS = 30


def test_closing_while_the_model_thinks_does_not_wait_or_play(tmp_path: Path) -> None:
    session = explore_session(tmp_path, mode="human")
    gate = threading.Event()
    original = session.agent.suggest

    def slow(situation):
        gate.wait(MODEL_THINKS)
        return original(situation)

    session.agent.suggest = slow
    errors: list[ev.ErrorEvent] = []
    session.subscribe(lambda e: errors.append(e) if isinstance(e, ev.ErrorEvent) else None)
    future = session.request_proposal()
    time.sleep(0.5)
    start = time.perf_counter()
    session.close()
    # Closing waits for a valid-action search in flight (a second or two on a slow machine), never for the model.
    assert time.perf_counter() - start < MODEL_THINKS / 2
    gate.set()
    assert future.result(10) is None and errors == []
    assert [r["type"] for r in records(tmp_path / "s")] == ["session", "turn"]


class _SearchedPolicy:
    """A policy that always proposes one command, saying (as the planner does) it played it out or not."""

    name = "searched"

    def __init__(self, command: str) -> None:
        self.command = command
        self.searched = True

    def suggest(self, situation: Situation) -> Idea:
        return Idea(command=self.command, source=self.name, searched=self.searched)


@pytest.mark.parametrize("searched", [False, True])
def test_a_searched_choice_overrules_the_critic_but_never_a_death(searched: bool, game_of) -> None:
    from zorktui.session.session import Session

    game = game_of(bundled_story())
    policy = _SearchedPolicy("wait")
    policy.searched = searched
    session = Session(game, mode="coplay", agent=policy)
    try:
        proposal = session.propose()
        assert proposal is not None and proposal.verdict is not None
        if searched:  # proposed as the policy chose it, the critic's dislike shown with it
            assert proposal.command == "wait" and proposal.source == "searched"
            assert not proposal.verdict.accepted  # waiting changes nothing: the rules of thumb dislike it
        else:  # refused three times, then the critic's own pick
            assert proposal.command != "wait" and proposal.source == "critic"
        for c in DEATH[:-1]:
            session.play(c)
        policy.command = DEATH[-1]
        proposal = session.propose()
        assert proposal is not None and proposal.command != DEATH[-1]  # a death is refused whoever searched
    finally:
        session.close()
