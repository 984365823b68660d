"""Watching a recorded session in the app (``zorktui replay DIR``): frames, play, pause, step, jump."""

from __future__ import annotations

import asyncio
from pathlib import Path

from helpers import recorded, until

from zorktui.record.frames import frame_at_turn, frames_of
from zorktui.session.factory import SessionOptions, build_session
from zorktui.ui.replay_app import ReplayApp, open_replay
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript

SIZE = (110, 34)


def test_frames_follow_turns_and_jumps(tmp_path: Path) -> None:
    from zorktui.session.files.folder import SessionFolder

    frames = frames_of(SessionFolder(recorded(tmp_path / "s")).records())
    kinds = [f.kind for f in frames]
    assert kinds == ["turn", "turn", "turn", "turn", "undo", "save", "turn", "restore", "turn"]
    assert [f.turn for f in frames] == [0, 1, 2, 3, 2, 2, 3, 2, 3]
    undo = frames[4]
    assert undo.state["turn"] == 2 and undo.state["command"] == "west"   # the state landed on
    assert "back to turn 2" in undo.summary() and frames[1].summary() == "human > north"
    assert frame_at_turn(frames, 3) == 3 and frame_at_turn(frames, 99) == len(frames) - 1


def test_watch_steps_jumps_plays_and_never_writes(tmp_path: Path) -> None:
    folder = recorded(tmp_path / "s")
    before = (folder / "trajectory.jsonl").read_bytes()
    app = open_replay(folder)
    assert isinstance(app, ReplayApp) and app.memory is not None

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            status = app.query_one(StatusBar)
            transcript = app.query_one(Transcript)
            assert app.index == 0 and "frame 1/9" in status.text and "Landing Stage" in transcript.text
            await pilot.press("right", "right")
            assert app.index == 2 and "you > west" in transcript.text and "turn 2" in status.text
            await pilot.press("left")
            assert app.index == 1 and "you > west" not in transcript.text
            await until(pilot, lambda: "as of turn 1" in str(app.query_one(MapView).border_subtitle))
            assert "╔" in app.query_one(MapView).map_text                  # the memory's map as of that turn
            await pilot.press("g")
            await pilot.press("3", "enter")
            assert app.index == 3 and "you > east" in transcript.text
            await pilot.press("end")
            assert app.index == 8 and "restored checkpoint 'path'" in transcript.text
            await pilot.press("home")
            await pilot.press("plus", "plus")                             # 0.25 s a frame
            await pilot.press("space")
            assert app.playing and "playing" in status.text
            await until(pilot, lambda: app.index == 8 and not app.playing, timeout=20)
            assert "paused" in status.text
            await pilot.press("minus", "minus", "minus")                  # 2 s a frame: a loaded machine cannot
            await pilot.press("space")                                    # play to the end between two checks
            assert app.playing and app.index <= 1                         # at the end: from the opening again
            await pilot.press("space")
            assert not app.playing
            await pilot.press("q")

    asyncio.run(go())
    assert (folder / "trajectory.jsonl").read_bytes() == before


def test_watch_without_memory_and_with_no_turns(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    built = build_session(SessionOptions(session=folder, seed=1, memory=False))
    built.session.play("north")
    built.session.close()
    built.session.game.close()
    app = open_replay(folder)
    empty = ReplayApp(folder, [{"type": "session"}])

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("end")
            assert app.memory is None and "no memory" in app.query_one(MapView).map_text
            assert app.index == 1
        async with empty.run_test(size=SIZE) as pilot:
            await pilot.press("space", "right", "g")
            await pilot.pause()
            assert "no turns" in empty.query_one(Transcript).text

    asyncio.run(go())
