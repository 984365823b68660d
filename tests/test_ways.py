"""Ways out that match the game: valid-action directions, the way back, one-way only when proven, strict mentions."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import BUNDLED, BUNDLED_WALKTHROUGH, commands

from zorktui.memory import queries as q
from zorktui.memory.belief import belief_state
from zorktui.memory.maps.mapmodel import build_map
from zorktui.memory.mentions import mentioned_directions
from zorktui.session.factory import SessionOptions, build_session

WALK = commands(BUNDLED_WALKTHROUGH)


def until(command: str, nth: int = 1) -> list[str]:
    """The walkthrough up to and including the ``nth`` time ``command`` is played."""
    seen = 0
    for i, c in enumerate(WALK):
        if c == command:
            seen += 1
            if seen == nth:
                return WALK[: i + 1]
    raise AssertionError(command)


@pytest.fixture()
def session(tmp_path: Path):
    built = build_session(SessionOptions(story=BUNDLED, session=tmp_path / "s", mode="human", knowledge=False))
    yield built.session
    built.session.close()
    built.session.game.close()


@pytest.mark.parametrize("text, ways", [
    ("This is an open field west of a white house, with a boarded front door.", []),
    ("West of House", []),
    ("You are facing the north side of a white house. To the north a narrow path winds through the trees.", ["north"]),
    ("A passage leads to the west and a dark staircase can be seen leading upward. A dark chimney leads down"
     " and to the east is a small window which is open.", ["west", "up", "down", "east"]),
    ("The path heads north-south here.", ["north", "south"]),
    ("The north wall is damp. Pick up the lamp and turn up the wick.", []),
    ("It stands to the west of the house.", []),
    ("The shingle path is west, and the lighthouse yard lies northwest.", ["west", "northwest"]),
    ("There is an unguarded exit to the east. You should try going west.", ["east", "west"]),
    ("Exits: north, south and west.", ["north", "south", "west"]),
])
def test_mentions_are_read_strictly(text: str, ways: list[str]) -> None:
    assert mentioned_directions(text) == ways


def test_the_way_back_is_known_right_after_arriving(session) -> None:
    session.play("north")                                        # Landing Stage -> Shingle Path
    _, found, _ = q.exits(session.memory)
    assert "south (back to Landing Stage, likely)" in [e.text() for e in found]
    ways = q.unexplored(session.memory)
    assert "south" not in ways.ways and [d for d, _ in ways.back] == ["south"]
    belief = belief_state(session.memory)
    assert belief.exits and "none known" not in belief.text()


def test_directions_among_the_valid_actions_are_known_ways_and_come_first(session) -> None:
    for command in until("unlock door with key"):              # in the Lighthouse Yard, the iron door shut
        session.play(command)
    assert "north" not in q.unexplored(session.memory).accepted
    session.play("open door")
    situation = session.situation()                             # the valid actions are found: the memory learns them
    assert "north" in situation.valid_actions
    ways = q.unexplored(session.memory)
    assert ways.accepted and ways.ways[: len(ways.accepted)] == ways.accepted and "north" in ways.accepted
    assert "north (not walked yet)" in [e.text() for e in q.exits(session.memory)[1]]
    assert situation.map.unexplored[0] in ways.accepted and "north" in situation.map.accepted
    session.play("north")
    back = q.exits(session.memory, "lighthouse yard")[1]
    assert "north -> Foot of the Tower" in [e.text() for e in back]


def test_one_way_only_when_proven(session) -> None:
    for command in until("down", nth=2):                        # slid down the blowhole into the Sea Cave
        session.play(command)
    down = {e.direction: e for e in q.exits(session.memory, "cliff top")[1]}["down"]
    assert not down.one_way                                     # walked once: nothing proves it one-way
    assert not any(link.one_way for link in build_map(session.memory).links)
    session.play("up")                                          # no climbing back up the blowhole
    down = {e.direction: e for e in q.exits(session.memory, "cliff top")[1]}["down"]
    assert down.one_way and down.text() == "down -> Sea Cave (one-way)"
    assert [link.direction for link in build_map(session.memory).links if link.one_way] == ["down"]
    assert "up" not in [d for d, _ in q.unexplored(session.memory).back]


def test_valid_actions_recorded_reach_the_memory_as_they_reach_the_trajectory(tmp_path: Path) -> None:
    built = build_session(SessionOptions(story=BUNDLED, session=tmp_path / "s", mode="human", knowledge=False,
                                         valid_actions=True))
    s = built.session
    try:
        s.play("north")
        accepted = q.unexplored(s.memory).accepted
        record = [r for r in s.recorder.folder.records() if r.get("type") == "turn"][-1]
        from zorktui.engine.directions import direction_of

        walked_back = {"south"}
        assert set(accepted) == {d for a in record["valid_actions"] if (d := direction_of(a))} - walked_back
        assert accepted
    finally:
        s.close()
        s.game.close()


def test_the_search_finding_no_way_back_proves_one_way(session) -> None:
    for command in until("down", nth=2):                        # slid down the blowhole into the Sea Cave
        session.play(command)
    assert "up" in [d for d, _ in q.unexplored(session.memory).back]
    session.situation()                                         # the valid actions: "up" is not among them
    down = {e.direction: e for e in q.exits(session.memory, "cliff top")[1]}["down"]
    assert down.one_way and "up" in q.exits(session.memory)[2]  # blocked here, though nobody typed it
    assert "up" not in [d for d, _ in q.unexplored(session.memory).back]


def test_a_way_that_goes_nowhere_now_is_no_longer_an_exit(session) -> None:
    for command in until("north", 4) + ["south", "close door", "lock door with key"]:  # through and back, locked
        session.play(command)
    assert "north -> Foot of the Tower" in [e.text() for e in q.exits(session.memory, "lighthouse yard")[1]]
    assert session.play("north").location.name == "Lighthouse Yard"  # the locked door stops the player
    texts = [e.text() for e in q.exits(session.memory, "lighthouse yard")[1]]
    assert not any("Foot of the Tower" in t and t.startswith("north") for t in texts), texts
    assert not q.path_to(session.memory, "foot of the tower")[1]  # no walk through the locked door
    session.play("unlock door with key")
    session.play("north")                                        # walked again: the way is back
    assert q.path_to(session.memory, "foot of the tower", start="lighthouse yard")[1] == ["north"]
    assert "north -> Foot of the Tower" in [e.text() for e in q.exits(session.memory, "lighthouse yard")[1]]
