"""Valid actions: what the game accepts and nothing that changes nothing."""

import pytest
from paths import BUNDLED, TO_THE_KITCHEN, ZIL

from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.game import Game


def _changes(game: Game, command: str) -> bool:
    before = game.current.state_hash
    game.step("wait" if "wait" in game.zm.dictionary else "look")
    idle = game.current.state_hash
    game.undo()
    changed = game.step(command).state_hash not in (before, idle)
    game.undo()
    return changed


def test_v3_opening_actions(game_of) -> None:
    game = game_of(ZIL)
    actions = set(game.valid_actions())
    assert {"north", "west"} <= actions
    assert any(a.split()[0] in ("take", "get") and a.endswith("wick") for a in actions)
    assert not any(a.startswith(("look", "examin", "invent")) for a in actions)
    assert game.current == game.opening  # searching leaves the game as it was


def test_every_valid_action_changes_the_world(game_of) -> None:
    game = game_of(ZIL)
    for command in ["north", "east"]:
        game.step(command)
    actions = game.valid_actions()
    assert actions
    for action in actions:
        assert _changes(game, action), action


def test_two_object_actions_found(game_of) -> None:
    game = game_of(ZIL)
    for command in ["take wick", "north", "up", "open housing"]:
        game.step(command)
    actions = game.valid_actions()
    assert "put cotton wick in lamp housing" in actions, actions
    assert "down" in actions


def test_bundled_game_actions_and_cache(game_of) -> None:
    game = game_of(BUNDLED)
    actions = game.valid_actions()
    # "north" and "up" lead to the same place: the compass direction names it.
    assert {"east", "north"} <= set(actions) and "up" not in actions
    assert any(a.startswith("take ") for a in actions)
    assert game.valid_actions() is actions  # cached by world-state hash
    game.step("take flask")
    game.step("north")
    assert {"west", "south"} <= set(game.valid_actions())  # not "in", not "down"
    game.step("west")
    kitchen = game.valid_actions()
    assert any(a.startswith("give ") for a in kitchen) or any(a.startswith("take lantern") for a in kitchen)


def test_a_search_books_its_wall_time_phase_by_phase(game_of) -> None:
    """``FinderStats.phases``: what a benchmark reads of where a search's time went, and no more than it took."""
    import time

    game = game_of(BUNDLED)
    finder = ActionFinder(game)
    began = time.perf_counter()
    finder.find()
    took = (time.perf_counter() - began) * 1000
    phases = finder.stats.phases
    assert list(phases)[:2] == ["reading the room", "dispatched and typed"]
    assert all(ms >= 0 for ms in phases.values())
    assert 0 < sum(phases.values()) <= took
    finder.close()


def test_parallel_search_matches_serial(game_of) -> None:
    """Splitting candidates over a twin interpreter, or over the search workers, changes nothing but the time taken."""
    from zorktui.engine.actions.valid_actions import ActionFinder

    game = game_of(BUNDLED)
    for command in ["take flask", "north", "west"]:
        game.step(command)
    before = game.current
    serial = ActionFinder(game, parallel=False)
    parallel = ActionFinder(game, parallel=True, workers=False)
    in_workers = ActionFinder(game, parallel=True)
    try:
        for _ in range(2):  # the second search runs with failures remembered
            expected = serial.find()
            assert parallel.find() == expected
            assert parallel.stats == serial.stats
            assert in_workers.find() == expected
            assert in_workers.stats == serial.stats
        assert parallel._twin is not None  # the twin really was used
    finally:
        parallel.close()
        in_workers.close()
        serial.close()
    assert game.current == before
    assert game.step("take lantern").state_hash != before.state_hash  # the game still plays


def test_remembering_finds_what_a_full_search_finds(game_of) -> None:
    """Skipping candidates whose context is unchanged loses nothing a full search finds.

    The path has the cases that need more than the object's own state: the
    lantern lights once the matches are held (the game picks the instrument),
    the mantle can be taken once the chest it is in is open, and the room
    changes under what the player carries.
    """
    from zorktui.engine.actions.valid_actions import ActionFinder

    game = game_of(BUNDLED)
    remembering = ActionFinder(game, parallel=False)
    full = ActionFinder(game, parallel=False)
    try:
        for command in ["take flask", "north", "west", "take lantern", "take matches", "up", "open chest"]:
            if command:
                game.step(command)
            found = remembering.find()
            full.forget()
            expected = full.find()

            def outcomes(actions: tuple[str, ...]) -> set[str]:
                return {game.peek(a).state_hash for a in actions}

            assert outcomes(found) == outcomes(expected), command
        assert remembering.stats.skipped > 0  # it did remember
        assert "take spare mantle from sea chest" in found
    finally:
        remembering.close()
        full.close()


def test_a_door_is_tried_with_its_own_key_after_failing_with_lookalikes(game_of) -> None:
    """A pair is not skipped as a lookalike of a failed one when it is the door and its own key.

    On this line (a planner's, looping the coast before the tower), "open iron
    door with" failed on held things that look, to the library, just like the
    key; the key is named in the door's own properties, which sets it apart.
    """
    line = ["up", "enter", "take matches", "take lantern", "switch lantern", "up", "push matches to chest",
            "take mantle", "take blanket", "exit", "exit", "north", "southeast", "enter", "take handle", "south",
            "exit", "west", "take tea", "up", "enter", "give tregarth tea", "up", "take matches", "exit", "exit",
            "north"]
    game = game_of(BUNDLED)
    game.valid_actions()
    for command in line:
        game.step(command)
        found = game.valid_actions()
    assert game.current.location is not None and game.current.location.name == "Lighthouse Yard"
    assert any(game.peek(a).reward == 5 for a in found), found  # unlocking the tower door


def test_a_door_meets_its_key_with_six_things_carried(game_of) -> None:
    """A planner's line that reached the tower door carrying six things: the pair of the door and
    its key (named in the door's properties) goes first, before the many pairs of things in hand."""
    line = [  # the planner's own line, command by command
        'take tea', 'up', 'east', 'northwest', 'south', 'enter', 'give tregarth tea', 'take lantern',
        'take matches', 'light lantern', 'up', 'open chest', 'take mantle', 'take blanket', 'exit',
        'exit', 'down', 'east', 'enter', 'north', 'take handle', 'south', 'north', 'close off lantern',
        'south', 'north', 'south', 'north', 'south', 'switch lantern', 'north', 'south', 'exit', 'west',
        'up', 'down', 'up', 'down', 'up', 'enter', 'exit', 'enter', 'exit', 'enter', 'exit', 'enter',
        'exit', 'east', 'northwest'
    ]
    game = game_of(BUNDLED)
    for command in line:
        game.step(command)
    assert len(game.current.inventory) == 6
    assert "unlock iron door with iron key" in game.valid_actions()  # its grammar: "open X with Y" is the same action


def test_the_twin_takes_half_only_of_a_batch_worth_it(game_of) -> None:
    """A batch of cheap commands stays on one thread; a dear one is split. Same results either way.

    The cost per command is set here rather than measured, so the test does
    not depend on how busy the machine is.
    """
    from zorktui.engine.actions.valid_actions import PARALLEL_MIN_SECONDS, ActionFinder

    game = game_of(ZIL)
    finder = ActionFinder(game, parallel=True, workers=False)
    serial = ActionFinder(game, parallel=False)
    try:
        finder.find()
        assert finder._per_command is not None and finder._per_command > 0  # measured on the way
        handed: list[int] = []

        def search_costing(seconds_per_command: float) -> tuple[str, ...]:
            finder.forget()  # every candidate played: a batch of some size
            finder._per_command = seconds_per_command
            if finder._pool is not None:
                submit = finder._pool.submit
                finder._pool.submit = lambda *a, **k: handed.append(1) or submit(*a, **k)  # type: ignore[method-assign]
            found = finder.find()
            if finder._pool is not None:
                finder._pool.submit = submit  # type: ignore[method-assign]
            return found

        game.step("take cotton wick")
        cheap = search_costing(PARALLEL_MIN_SECONDS / 10_000)  # a small ZIL story: microseconds
        assert handed == []
        dear = search_costing(PARALLEL_MIN_SECONDS)  # one command alone is worth a second thread
        assert handed and finder._twin is not None
        assert cheap == dear == serial.find()
    finally:
        finder.close()
        serial.close()


def test_back_in_a_room_a_thing_carried_is_not_tried_again(game_of) -> None:
    """What failed on the flask at the landing stage is not played there again after a walk.

    Only the last context of each candidate used to be kept: the walk north
    gave the flask another one (the room is in its context), so the return
    played every verb on it again. The search still finds what a full
    search finds.
    """
    from zorktui.engine.actions.valid_actions import ActionFinder

    game = game_of(BUNDLED)
    finder = ActionFinder(game, parallel=False)
    played: list[str] = []
    play_on = finder._play_on
    finder._play_on = lambda vm, start, cmds, *lifted: played.extend(cmds) or play_on(vm, start, cmds, *lifted)  # type: ignore[method-assign]
    try:
        game.step("take flask")
        first = set(finder.find())
        flask = game.current.inventory[0].id
        word = finder._object_word(flask, [flask])
        assert word
        failed_here = {c for c in played if c.split()[1:] == word.split() and c not in first}
        assert len(failed_here) > 10
        game.step("north")
        finder.find()
        game.step("south")
        played.clear()
        back = finder.find()
        # (A verb that has worked somewhere since, "go" and "climb", also waits
        # on the world's flags, which the walk changed: those are played again.)
        productive = {t.split()[0] for t in finder._productive}
        assert not {c for c in failed_here & set(played) if c.split()[0] not in productive}
        full = ActionFinder(game, parallel=False)
        assert back == full.find()
        full.close()
    finally:
        finder.close()


def test_a_flag_searched_on_both_sides_stays_a_flag(game_of) -> None:
    """A command that only sets a flag is found however often the search crosses that flag.

    The planner's fork searches states on both sides of a puzzle in turn
    (the clockwork wound in one line, not in the next). A flag that changes
    between searches is still a flag a command waits on, not bookkeeping to
    leave out of what a failed command's outcome depended on.
    """
    from paths import BUNDLED_WALKTHROUGH, commands

    from zorktui.engine.actions.valid_actions import ActionFinder

    game = game_of(BUNDLED)
    finder = ActionFinder(game, parallel=False)
    try:
        walk = commands(BUNDLED_WALKTHROUGH)
        for command in walk[: walk.index("wind clockwork")]:
            game.step(command)
        before = game.state()
        wound = game.peek("wind clockwork").state_hash
        for _ in range(4):
            game.set_state(before)
            # Found, or a command with the same effect is ("push lenses" winds it too).
            assert wound in {game.peek(a).state_hash for a in finder.find()}
            game.step("wind clockwork")
            finder.find()
    finally:
        finder.close()


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_a_command_that_changes_nothing_changes_no_context(tw_game) -> None:
    """Inform 7 keeps books in a bit on each thing (what a description listed), flipped by most commands.

    A candidate's context holds its thing's state: counted with that bit,
    examining the table (or walking out and back) had changed the contexts
    of the things there, and every candidate that had failed on them was
    played again.
    """
    path, _truth = tw_game("cooking9", 123)
    game = Game(path)
    try:
        finder = ActionFinder(game, parallel=False)
        game._finder = finder
        for command in TO_THE_KITCHEN:
            game.step(command)
        finder.find()

        def chains() -> dict[int, bytes]:
            held, scope = finder._scope()
            return finder._surroundings(held, scope, game.vm.ram()).chains

        before = chains()
        game.step("examine table")
        assert chains() == before
        finder.close()
    finally:
        game.close()
