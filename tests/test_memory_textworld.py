"""The memory on generated TextWorld games (Inform 7, v8): rooms, inventory, map and paths that work."""

from __future__ import annotations

from pathlib import Path

import pytest

from zorktui.engine.directions import OPPOSITE
from zorktui.memory import queries as q
from zorktui.memory.maps.mapmodel import build_map
from zorktui.memory.maps.maprender import render_map
from zorktui.session.files.recorder import SessionRecorder

pytestmark = pytest.mark.textworld


@pytest.mark.parametrize("kind,seed", [("cooking", 1), ("coin_collector", 3), ("custom", 2)])
def test_memory_follows_a_textworld_walkthrough(tw_game, tmp_path: Path, kind: str, seed: int, game_of) -> None:
    path, truth = tw_game(kind, seed)
    game = game_of(path)
    recorder = SessionRecorder(tmp_path / "s", game)
    recorder.opening(game.current)
    turns = [game.current]
    # The walkthrough without its winning move (the game must go on), then back the way it came.
    script = truth["walkthrough"][:-1]
    back = [f"go {OPPOSITE[c.split()[1]]}" for c in reversed(script) if c.startswith("go ") and c.split()[1] in OPPOSITE]
    for command in script + back:
        turns.append(game.step(command))
        recorder.turn(turns[-1], actor="script")
    memory = recorder.memory

    for turn in turns:
        place, _ = q.where_am_i(memory, turn.turn)
        assert place is not None and place.id == f"obj:{turn.location.id}" and place.name == turn.location.name
        assert sorted(p.id for p in q.inventory(memory, turn.turn)) == sorted(f"obj:{o.id}" for o in turn.inventory)

    visited = {t.location.name for t in turns}
    assert {p.name for p in q.rooms(memory)} == visited
    text = render_map(build_map(memory))
    assert all(name[:15] in text for name in visited)

    # Every path the memory plans from here is walkable in the game itself.
    walked = 0
    for room in q.rooms(memory):
        _, steps = q.path_to(memory, room.name)
        if not steps:
            continue
        depth = game.undo_depth
        for command in steps:
            game.step(command)
        assert game.current.location.name == room.name, (room.name, steps)
        game.undo(game.undo_depth - depth)
        walked += 1
    assert walked >= len(visited) - 1
    recorder.close()
