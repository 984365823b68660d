"""The app never goes quiet, and its panels show only what the player was shown.

Driven as the other UI tests are (Pilot at a fixed size, waiting for the
app's workers); the line fronts (``zorktui run``, ``zorktui play`` with a
pipe) are run as a person would run them.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from helpers import SIZE, proposal_ready, records, run, settle, type_command, until
from paths import BUNDLED, BUNDLED_DEATH, BUNDLED_WALKTHROUGH

from zorktui.session.commands.meta import meta_verb
from zorktui.session.headless import read_commands
from zorktui.ui.app import ZorkApp
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript


def zorktui(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zorktui", *args], input=stdin, capture_output=True, text=True,
                          timeout=300)


def proposal_for(app: ZorkApp, turn: int) -> Callable[[], bool]:
    return lambda: proposal_ready(app) and app.session.current.turn == turn


# ------------------------------------------------------------ proposals
def test_a_proposal_follows_undo_restore_and_restart_without_typing(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, proposal_for(app, 0))
            await type_command(pilot, "/save start")
            await type_command(pilot, "north")
            await until(pilot, proposal_for(app, 1))
            await type_command(pilot, "/undo")
            await until(pilot, proposal_for(app, 0))
            await pilot.press("enter")  # Enter plays it: no "No proposal to accept yet"
            await until(pilot, proposal_for(app, 1))
            await type_command(pilot, "/restore start")
            await until(pilot, proposal_for(app, 0))
            await type_command(pilot, "north")
            await until(pilot, proposal_for(app, 1))
            await type_command(pilot, "/restart")
            await until(pilot, proposal_for(app, 0))
            assert "⏎ play" in app.query_one("#command").placeholder

    run(go())


def test_taking_back_a_paused_autopilot_brings_a_proposal(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            await pilot.press("ctrl+a")
            await until(pilot, lambda: app.session.autopilot.running and app.session.current.turn >= 1)
            await pilot.press("f7")
            await until(pilot, lambda: app.session.autopilot.paused)
            await pilot.press("ctrl+a")
            await until(pilot, lambda: not app.session.autopilot.running)
            await until(pilot, lambda: proposal_ready(app))
            assert app.session.mode == "coplay"
            turn = app.session.current.turn
            await pilot.press("enter")
            await until(pilot, lambda: app.session.current.turn == turn + 1)

    run(go())


# ---------------------------------------------------------- the ending
def test_after_the_walkthrough_wins_the_app_says_so_and_the_agent_waits(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")
    commands = list(read_commands(BUNDLED_WALKTHROUGH.read_text().splitlines()))

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for command in commands:
                app.main.submit_job(lambda c=command: app.session.play(c), label=command)
            await until(pilot, lambda: app.session.current.done, timeout=120)
            await settle(pilot, app)
            await until(pilot, lambda: not app.query_one(AgentPanel).state.thinking)
            assert app.session.current.victory
            assert "You have won with 70 of 70 points" in app.query_one(Transcript).text
            assert app.session.pending is None
            assert "you have won" in app.query_one(AgentPanel).text
            assert "idle" in app.query_one(StatusBar).text
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.current.done  # nothing was played

    run(go())


def test_death_line_in_the_app(make_app) -> None:
    app = make_app()
    commands = list(read_commands(BUNDLED_DEATH.read_text().splitlines()))

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for command in commands:
                await type_command(pilot, command)
            await settle(pilot, app)
            assert app.session.current.dead
            assert "You have died" in app.query_one(Transcript).text

    run(go())


# --------------------------------------------- the game's own meta verbs
def test_meta_verbs_are_recognised_by_their_first_word() -> None:
    assert meta_verb("QUIT") == meta_verb("quit") == "quit"
    assert meta_verb("save game") == "save" and meta_verb("restore") == "restore"
    assert meta_verb("script on") == meta_verb("unscript") == "script"
    assert meta_verb("q") is None and meta_verb("q", {"q"}) == "quit"  # a short form where the game defines it
    assert meta_verb("quiet") is None and meta_verb("take save") is None


def test_quit_and_save_typed_in_the_app_are_answered_not_played(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for command in ("quit", "q", "save", "restart", "script"):
                await type_command(pilot, command)
            await type_command(pilot, "y")
            await settle(pilot, app)
            text = app.query_one(Transcript).text
            assert "Not played: to quit, press ctrl+q" in text
            assert "Not played: to save, type /save NAME." in text
            assert "Not played: to start again, type /restart." in text
            assert "Are you sure" not in text and "Score:" not in text
            assert app.session.current.turn == 1 and app.session.current.command == "y"
            assert [r["command"] for r in records(tmp_path) if r.get("type") == "turn" and r.get("command")] == ["y"]

    run(go())


def test_quit_and_save_in_run_get_one_line_each(tmp_path: Path) -> None:
    r = zorktui("run", str(BUNDLED), stdin="quit\nsave\nrestore\nnorth\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "Not played: to quit, type /quit." in lines
    assert "Not played: to save, type /save NAME." in lines
    assert "Not played: to go back to a save, type /restore NAME (/saves lists them)." in lines
    assert "Are you sure" not in r.stdout
    assert lines[-1] == "[Shingle Path | score 0/70 | moves 1]"  # north was the first command played


def test_line_mode_honours_app_commands(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    r = zorktui("play", "--session", str(folder), stdin="north\n/undo\n/save x\n/saves\n/quit\nnorth\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "[undo: back to turn 0 (Landing Stage)]" in out
    assert "Saved checkpoint 'x'" in out and "Checkpoints: x (turn 0" in out
    assert (folder / "saves").is_dir() and any((folder / "saves").iterdir())
    assert "I only understood" not in out and "That's not a verb" not in out
    assert out.rstrip().endswith("> /quit")  # the north after /quit was never played
    jumps = [rec for rec in map(__import__("json").loads, (folder / "trajectory.jsonl").read_text().splitlines())
             if rec.get("type") == "undo"]
    assert len(jumps) == 1


# ----------------------------------------------------------- room panel
def test_room_panel_says_on_for_surfaces_and_hides_what_others_hold(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for command in ("north", "west"):
                await type_command(pilot, command)
            await settle(pilot, app)
            room = app.query_one(RoomPanel).text
            assert "box of matches (on mantelpiece)" in room
            assert "Nessa Tregarth" in room and "iron key" not in room
            for command in ("up",):
                await type_command(pilot, command)
            await settle(pilot, app)
            room = " ".join(app.query_one(RoomPanel).text.split())
            assert "sea chest" in room and "spare mantle" not in room
            await type_command(pilot, "open chest")
            await settle(pilot, app)
            room = " ".join(app.query_one(RoomPanel).text.split())
            assert "spare mantle (in sea chest)" in room

    run(go())


def test_the_engine_leaves_out_what_a_shut_box_holds_without_asking_the_parser(game_of) -> None:
    game = game_of(BUNDLED)
    for command in ("north", "west", "up"):
        game.step(command)
    room = game.current.location.id
    every = game.facts.visible(room)  # the object tree: the chest's contents are there
    assert {"spare mantle", "woollen blanket"} <= {o.name for o in every}
    placed = game.holders.place(every, room)
    assert "spare mantle" not in {o.name for o in placed}
    game.step("open chest")
    placed = game.holders.place(game.facts.visible(room), room)
    assert [o.relation for o in placed if o.name == "spare mantle"] == ["in"]
