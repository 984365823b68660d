"""The game's interpreter in a worker process: a worker killed at any moment costs at most the turn in flight.

``divide.z5`` (ours, ``tests/data/inform/divide.inf``) has a verb, "split",
that divides by zero in Z-machine assembly: Frotz divides anyway, and the
process running it dies of SIGFPE, as one corrupted by a command would.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.paths import BUNDLED, DIVIDE, ROOT
from zorktui.core.errors import GameError
from zorktui.engine.launch import open_game
from zorktui.engine.worker.game_process import GameProcess

pytestmark = pytest.mark.skipif(os.name != "posix", reason="worker processes are POSIX-only")


def test_a_game_in_a_worker_plays_as_one_here() -> None:
    """The same seed and commands give the same turns, wherever the interpreter runs."""
    commands = ["look", "inventory", "north", "south", "wait", "take all"]
    here = open_game(BUNDLED, seed=3, in_worker=False)
    there = open_game(BUNDLED, seed=3, in_worker=True)
    try:
        assert isinstance(there, GameProcess)
        assert there.opening == here.opening
        for command in commands:
            assert there.step(command) == here.step(command)
        assert there.valid_actions() == here.valid_actions()
        assert there.undo(2) == here.undo(2)
        assert there.zm.object_vocabulary(1) == here.zm.object_vocabulary(1)
    finally:
        here.close()
        there.close()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
def test_a_worker_killed_between_commands_is_rebuilt_from_the_moves_played(sig: signal.Signals) -> None:
    game = GameProcess(BUNDLED)
    said: list[str] = []
    game.listener = said.append
    try:
        for command in ["north", "look", "inventory"]:
            game.step(command)
        before, depth = game.current, game.undo_depth
        pid = game.worker_pid
        assert pid is not None
        os.kill(pid, sig)
        after = game.step("look")
        assert game.worker_pid != pid
        assert after.turn == before.turn + 1 and after.state_hash == before.state_hash
        assert game.undo_depth == depth + 1
        assert len(said) == 1 and sig.name in said[0] and "rebuilt from 3 moves" in said[0]
        assert game.undo(1) == before  # the undo history came back with the game
        # The first worker dispatches valid-action candidates; the one replacing it types them all.
        environ = Path(f"/proc/{game.worker_pid}/environ").read_bytes().split(b"\0")
        assert b"ZORKTUI_DISPATCH=0" in environ
        assert game.valid_actions()
    finally:
        game.close()


def test_a_command_that_kills_the_worker_twice_is_refused_in_one_line() -> None:
    game = GameProcess(DIVIDE)
    said: list[str] = []
    game.listener = said.append
    try:
        before = game.step("look")
        with pytest.raises(GameError, match=r"Not played: 'split' stopped the game's interpreter twice \(killed by SIGFPE\)"):
            game.step("split")
        assert said == []  # the refusal is the one line
        assert game.current == before
        assert game.step("look").state_hash == before.state_hash  # play goes on
        with pytest.raises(GameError, match="Not played"):
            game.step("SPLIT")  # never sent again
        assert game.rebuilds == 2
    finally:
        game.close()


def test_closing_while_a_call_waits_ends_it_at_once() -> None:
    game = GameProcess(BUNDLED)
    errors: list[BaseException] = []

    def search() -> None:
        try:
            game.valid_actions()
        except GameError as exc:
            errors.append(exc)

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.05)
    game.close()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert game.worker_pid is None
    if errors:
        assert "closed" in str(errors[0])


def _workers_of(pid: int) -> list[int]:
    """The game workers among a process's children."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            if "zorktui.engine.worker" in Path(f"/proc/{child}/cmdline").read_text():
                found.append(int(child))
        except OSError:
            pass
    return found


STATUS = re.compile(r"^\[.* \| score .* \| moves .*\]$")


def test_fault_injection_over_200_turns_loses_no_recorded_turn(tmp_path: Path) -> None:
    """``zorktui run`` of 200 commands, its interpreter killed at random moments (before, in and after turns)."""
    steps = [line.strip() for line in (ROOT / "zorktui/stories/lighthouse.walkthrough").read_text().splitlines()
             if line.strip() and not line.startswith("#")][:-1]  # the walk without its ending move
    filler = ["look", "inventory", "wait", "examine me", "north", "south"]
    commands = (steps + filler * 200)[:200]
    folder = tmp_path / "session"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.Popen([sys.executable, "-m", "zorktui", "run", str(BUNDLED), "--commands", "-",
                            "--session", str(folder), "--seed", "1"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, bufsize=1)
    assert run.stdin is not None and run.stdout is not None and run.stderr is not None
    rng = random.Random(34)
    kills: list[str] = []

    def next_status() -> None:
        for line in run.stdout:  # type: ignore[union-attr]
            if STATUS.match(line.strip()):
                return
        raise AssertionError("run ended early")

    try:
        next_status()  # the opening
        for command in commands:
            run.stdin.write(command + "\n")
            run.stdin.flush()
            if rng.random() < 0.15:
                time.sleep(rng.uniform(0.0, 0.003))  # before the command reaches the worker, in it, or after
                for pid in _workers_of(run.pid):
                    sig = rng.choice([signal.SIGKILL, signal.SIGSEGV])
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
                        kills.append(sig.name)
            next_status()
        run.stdin.close()
        out, err = run.stdout.read(), run.stderr.read()
        run.wait(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    assert "Traceback" not in err and "Traceback" not in out
    assert len(kills) >= 15, f"too few faults injected ({len(kills)})"
    said = [line for line in err.splitlines() if "interpreter stopped" in line]
    assert said and all(line.startswith("zorktui: The game's interpreter stopped (killed by SIG") for line in said)
    records = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]
    played = [r["command"] for r in records if r.get("type") == "turn" and r.get("command")]
    assert played == commands  # every command was played and recorded, once, in order
    verify = subprocess.run([sys.executable, "-m", "zorktui", "replay", "--verify", str(folder)],
                            capture_output=True, text=True, env=env, timeout=300)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_the_planner_searches_in_a_worker_and_a_killed_one_costs_only_the_move_in_flight() -> None:
    from zorktui.agent.mcts.planner_process import PlannerProcess
    from zorktui.session.factory import SessionOptions, build_session

    built = build_session(SessionOptions(agent="mcts", seed=1, time_per_move=3.0, knowledge=False))
    s = built.session
    try:
        planner = s.agent
        assert isinstance(planner, PlannerProcess) and isinstance(s.game, GameProcess)
        pid = planner.worker_pid
        assert pid is not None and pid != s.game.worker_pid
        threading.Timer(0.8, os.kill, (pid, signal.SIGSEGV)).start()  # in the middle of the move's search
        proposal = s.propose()
        assert proposal is not None and proposal.source == "mcts"
        assert "killed by SIGSEGV" in proposal.notes[0] and "searched again" in proposal.notes[0]
        assert planner.restarts == 1 and planner.worker_pid not in (None, pid)
        assert s.accept() is not None
    finally:
        s.close()
        s.game.close()
