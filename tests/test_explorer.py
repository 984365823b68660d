"""The offline explorer: a door shut, then opened (a TextWorld cooking game); a room left with things untried."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from paths import BUNDLED, FULL_HANDS

from zorktui.agent.critic import Critic
from zorktui.agent.explorer import Explorer
from zorktui.agent.playlog import PlayLog, normal
from zorktui.agent.situation import MapView, Situation
from zorktui.engine.game import Game
from zorktui.memory import queries as q
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.session import Session, StopRules


@contextmanager
def _session(**options: Any) -> Iterator[Session]:
    """A session built with ``options``, closed with its game afterwards."""
    s = build_session(SessionOptions(**options)).session
    try:
        yield s
    finally:
        s.close()
        s.game.close()


def test_a_way_shut_before_is_tried_again_once_a_door_is_opened(tw_game: Any) -> None:
    # This generated game starts in a pantry whose only way out, south, is a closed door.
    path, _ = tw_game("cooking", seed=2)
    with _session(story=path, agent="explore", mode="human") as s:
        first = s.play("south")
        assert first.location.name == s.game.opening.location.name      # shut: still in the pantry
        s.play("open plain door")
        rooms = set()
        for _ in range(6):
            proposal = s.propose()
            assert proposal is not None
            rooms.add(s.accept().location.name)
        assert rooms - {s.game.opening.location.name}, "the explorer stayed in the pantry after the door was opened"
        assert not any(c.command.startswith("close") for c in s.log.consequences[:4])


def test_it_walks_back_to_a_room_that_offered_something_never_tried(game_of) -> None:
    # The bundled game: the kitchen (lantern, matches, the keeper) is passed through once;
    # where nothing is left to try, the explorer heads back there rather than pacing about.
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    for command in ["take flask", "north", "west"]:
        log.add(game.step(command))
    kitchen = log.current.location
    explorer = Explorer()
    in_kitchen = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=game.valid_actions()))
    assert in_kitchen.command.startswith("take ")             # it would take something, but walks on
    log.add(game.step("east"))
    # Back on the path with only the way it has already taken on offer.
    spent = Situation(turn=log.current, log=log, valid_actions=("west",), map=MapView(walks={kitchen.id: ("west",)}))
    back = explorer.suggest(spent)
    assert back.command == "west" and f"back to {kitchen.name}" in back.reflection, back
    # A fresh explorer never saw the kitchen's offer and has no reason to go back.
    assert "back to" not in Explorer().suggest(spent).reflection


def _straight_back(turns: list) -> tuple[int, int]:
    """(moves, moves straight back to the room just left) along a line of play."""
    moves = back = 0
    previous = None
    for before, after in zip(turns, turns[1:], strict=False):
        a, b = before.location.id, after.location.id
        if a != b:
            moves += 1
            back += int(b == previous)
            previous = a
    return moves, back


def test_it_moves_on_rather_than_walking_straight_back() -> None:
    # The bundled game with a scratch memory, as `zorktui run --agent explore` plays it.
    with _session(story=BUNDLED, agent="explore", mode="autopilot", seed=1, knowledge=False) as s:
        s.autopilot.run(60)
        turns = s.log.turns
        moves, back = _straight_back(turns)
        rooms = {t.location.id for t in turns}
        assert len(rooms) >= 12, [t.command for t in turns]
        assert back <= moves / 4, (moves, back, [t.command for t in turns])
        # Never back and forth between two rooms, turn after turn.
        path = [turns[0].location.id] + [b.location.id for a, b in zip(turns, turns[1:], strict=False)
                                         if a.location.id != b.location.id]
        assert not any(path[i] == path[i + 2] == path[i + 4] for i in range(len(path) - 4)), path


def test_it_never_puts_out_a_light_nor_toggles_one_again(game_of) -> None:
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    for command in ["north", "west", "take lantern", "take matches", "light lantern with matches"]:
        log.add(game.step(command))
    toggles = ("close off lantern", "extinguish lantern", "switch off lantern", "douse lantern", "put out lantern",
               "blow out lantern", "turn off lantern")
    explorer = Explorer()
    for _ in range(3):
        idea = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=toggles + ("east",)))
        assert idea.command not in toggles, idea
    # A bare switch typed once elsewhere is not played again in every room.
    log.add(game.step("switch lantern"))
    log.add(game.step("east"))
    spent = Situation(turn=log.current, log=log, valid_actions=("switch lantern", "west"), map=MapView(exit_directions=["west"]))
    assert Explorer().suggest(spent).command != "switch lantern"


def test_what_was_carried_and_dropped_is_picked_up_again_where_it_was_tried_before(game_of) -> None:
    # The bundled game: the flask is taken and dropped again on the landing stage (as a death
    # scatters what was carried): "take flask" was tried there, yet it comes first again.
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    for command in ["take flask", "drop flask"]:
        log.add(game.step(command))
    situation = Situation(turn=log.current, log=log, valid_actions=game.valid_actions(), map=MapView())
    idea = Explorer().suggest(situation)
    assert normal(idea.command).startswith("take") and ("flask" in idea.command or "tea" in idea.command), idea
    assert "again" in idea.reflection


def _lit_on_the_cliff(game: Game) -> PlayLog:
    """The bundled game played to the cliff top, the lantern lit there."""
    log = PlayLog(game.opening)
    for command in ["north", "west", "take lantern", "take matches", "east", "south", "south", "east",
                    "light lantern with matches"]:
        log.add(game.step(command))
    return log


def test_the_critic_refuses_what_loses_or_puts_out_the_light_carried(game_of) -> None:
    game = game_of(BUNDLED)
    log = _lit_on_the_cliff(game)
    lantern = next(o for o in log.current.inventory if o.name == "brass lantern")
    matches = next(o for o in log.current.inventory if "matches" in o.name)
    assert lantern.id in log.lights() and matches.id not in log.lights()
    critic = Critic(peek=game.peek)
    situation = Situation(turn=log.current, log=log, valid_actions=game.valid_actions())
    # Put down where it lies in sight, the lantern can be taken back: disliked, not grave.
    dropped = critic.judge("drop lantern", situation)
    assert not dropped.accepted and not dropped.grave, dropped
    assert "look-ahead: gives up something carried" in dropped.reasons
    # Gone from sight (the look-ahead's room shows nothing: swept away, sunk), it is lost.
    swept = Critic(peek=lambda c: replace(game.peek(c), visible=())).judge("drop lantern", situation)
    assert swept.grave and "look-ahead: loses the light you carry" in swept.reasons, swept
    # Giving up the matches is a smaller matter than losing the light.
    assert critic.judge("drop matches", situation).score > swept.score
    assert log.puts_out_a_light("turn off lantern") and log.puts_out_a_light("douse brass lantern")
    assert not log.puts_out_a_light("turn off matches") and not log.puts_out_a_light("take lantern")
    assert "puts out the light you carry" in critic.judge("extinguish lantern", situation).reasons


def test_the_search_tells_where_each_way_leads_and_the_memory_learns_it(tmp_path) -> None:
    with _session(story=BUNDLED, session=tmp_path / "s", mode="human", knowledge=False) as s:
        landing = s.game.opening.location
        s.play("north")
        situation = s.situation()                                   # the valid actions are found here
        assert "south" in situation.valid_actions
        assert s.game.valid_destinations()["south"] == landing.id
        # Nobody walked south from here, but the search saw it lead to the Landing Stage: a way, not a guess.
        exits = [e.text() for e in q.exits(s.memory)[1]]
        assert f"south -> {landing.name}" in exits, exits
        assert "south" not in q.unexplored(s.memory).ways


def test_in_the_dark_with_nothing_to_light_it_backs_out_and_does_not_walk_in_again(game_of) -> None:
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    # To the foot of the tower without the lantern, then down into the oil cellar (dark).
    for command in ["take flask", "north", "west", "give flask to nessa", "east", "north",
                    "unlock door with key", "open door", "north", "down"]:
        log.add(game.step(command))
    assert log.current.dark
    explorer = Explorer()
    idea = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=tuple(game.valid_actions())))
    assert idea.command == "up" and "dark" in idea.reflection
    log.add(game.step("up"))
    # The memory would call the cellar a frontier (its ways are unwalked): a walk down there
    # is what an explorer with no account of the dark proposes; carrying the same things,
    # this one does not.
    cellar = Situation(turn=log.current, log=log, valid_actions=("down", "south"),
                       map=MapView(exit_directions=["south", "down"], back=["south"],
                                   frontiers=[("Oil Cellar", ("north",), ("down",))]))
    assert Explorer().suggest(cellar).command == "down"
    for _ in range(3):
        assert explorer.suggest(cellar).command != "down"


def test_a_light_carried_and_never_lit_is_lit_before_a_new_way(game_of) -> None:
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    for command in ["north", "west", "take lantern", "take matches"]:
        log.add(game.step(command))
    valid = tuple(game.valid_actions())
    assert "turn on brass lantern" in valid and "up" in valid  # the loft above is new
    situation = Situation(turn=log.current, log=log, valid_actions=valid, map=MapView(accepted=["up"]))
    idea = Explorer().suggest(situation)
    assert idea.command == "turn on brass lantern" and "dark" in idea.reflection
    log.add(game.step(idea.command))
    after = Situation(turn=log.current, log=log, valid_actions=tuple(game.valid_actions()), map=MapView(accepted=["up"]))
    assert Explorer().suggest(after).command == "up"  # lit once: on it goes


def test_full_hands_make_room_for_a_thing_the_load_kept_out_of_reach(game_of) -> None:
    """Carrying two things at most, the crown on the lawn is taken after leaving the least used one.

    The take the game refuses for the load is no valid action (it changes
    nothing); the game names it among the blocked takes, and the explorer
    drops a thing to make room, and never picks that thing up again.
    """
    game = game_of(FULL_HANDS)
    log = PlayLog(game.opening)
    for command in ["take trowel", "take twine", "north"]:
        log.add(game.step(command))
    assert "take golden crown" not in game.valid_actions()
    assert game.blocked_takes() == ("take golden crown",)
    explorer = Explorer()
    commands = []
    for _ in range(6):
        idea = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=game.valid_actions(),
                                          blocked_takes=game.blocked_takes()))
        commands.append(idea.command)
        log.add(game.step(idea.command))
        if log.current.score == 10:
            break
    assert commands[:2] == ["drop twine", "take golden crown"], commands  # the twine was taken last
    assert log.current.score == 10
    log.add(game.step("south"))
    log.add(game.step("north"))  # the twine is on the lawn, out of reach of full hands again
    assert game.blocked_takes() == ("take twine",)
    nxt = explorer.suggest(Situation(turn=log.current, log=log, valid_actions=game.valid_actions(),
                                     blocked_takes=game.blocked_takes()))
    assert "twine" not in nxt.command and not nxt.command.startswith("drop"), nxt  # left on purpose


def test_autopilot_with_the_critic_makes_room_and_takes_the_crown(tmp_path) -> None:
    """End to end: the session tells the explorer and the critic what the load keeps out of reach."""
    with _session(story=FULL_HANDS, session=tmp_path / "s", agent="explore", mode="autopilot",
                  knowledge=False, stop=StopRules(steps=12, on_loop=False)) as s:
        s.autopilot.run(12)
        commands = [t.command for t in s.log.turns[1:]]
        assert max(t.score or 0 for t in s.log.turns) == 10, commands
        made_room = next(i for i, c in enumerate(commands) if c.startswith("drop "))
        assert commands[made_room + 1] == "take golden crown", commands


def test_a_light_found_burning_counts_as_a_light(game_of) -> None:
    """A thing a valid action would put out is a light, though no command of the player's lit it."""
    game = game_of(BUNDLED)
    log = PlayLog(game.opening)
    for command in ["north", "west", "take lantern"]:
        log.add(game.step(command))
    lantern = next(o.id for o in log.current.inventory if "lantern" in o.name)
    assert lantern not in Situation(turn=log.current, log=log, valid_actions=game.valid_actions()).lights()
    # As Zork III's torch is found: burning, "douse torch" on offer.
    burning = Situation(turn=log.current, log=log, valid_actions=("douse brass lantern", "east"))
    assert burning.lights() == {lantern}
