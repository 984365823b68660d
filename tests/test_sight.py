"""What the parser can see: things in a shut container are out of sight, asked of the parser itself."""

from __future__ import annotations

import numpy as np
from paths import BUNDLED, BUNDLED_WALKTHROUGH, ZIL, ZIL_WALKTHROUGH, commands

from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.game import Game
from zorktui.engine.world.sight import Sight


def _object(game: Game, name: str) -> int:
    objects = game.zm.objects
    return next(o for o in range(1, objects.count + 1) if objects.name(o) == name)


def _walk_to(story, walkthrough, before: str) -> Game:
    game = Game(story)
    steps = commands(walkthrough)
    for command in steps[: steps.index(before)]:
        game.step(command)
    return game


def test_a_thing_in_a_shut_chest_is_out_of_sight_until_the_chest_opens() -> None:
    game = _walk_to(BUNDLED, BUNDLED_WALKTHROUGH, "open chest")  # the Cottage Loft, chest shut
    try:
        mantle, chest, lantern = (_object(game, n) for n in ("spare mantle", "sea chest", "brass lantern"))
        sure = [(lantern, "lantern"), (chest, "chest")]
        sight = Sight(game.zm)
        memory = game.vm.ram().copy()
        assert sight.unseen(game.vm, {mantle: ("mantle", b"shut")}, sure) == {mantle}
        assert sight.nouns  # the parser's noun variable was found from the two things in sight
        assert np.array_equal(game.vm.ram(), memory)  # asking left the game as it was
        assert sight.unseen(game.vm, {mantle: ("mantle", b"shut")}, sure) == {mantle}
        assert sight.asked == 1  # the same situation is not asked about twice
        game.step("open chest")
        assert sight.unseen(game.vm, {mantle: ("mantle", b"open")}, sure) == set()
    finally:
        game.close()


def test_no_command_names_a_thing_the_parser_cannot_see() -> None:
    """In the loft the mantle is in the shut chest: "read mantle" answers "You can't see any such thing".

    That parser error used to leave a state no idle command matched, so
    "read mantle" was listed as a valid action; no command naming the
    mantle is played there now, and "take mantle" is found once the chest is open.
    """
    game = _walk_to(BUNDLED, BUNDLED_WALKTHROUGH, "open chest")
    finder = ActionFinder(game, parallel=False)
    played: list[str] = []
    play_on = finder._play_on
    finder._play_on = lambda vm, start, cmds, *lifted: played.extend(cmds) or play_on(vm, start, cmds, *lifted)  # type: ignore[method-assign]
    try:
        shut = finder.find()
        assert not [c for c in shut if "mantle" in c]
        assert played and not [c for c in played if "mantle" in c]
        game.step("open chest")
        assert "take spare mantle from sea chest" in finder.find()
    finally:
        finder.close()
        game.close()


def test_a_parser_without_a_noun_variable_sees_everything() -> None:
    """Our ZIL story's parser keeps the noun in a local: nothing is judged unseen, nothing is touched."""
    game = _walk_to(ZIL, ZIL_WALKTHROUGH, "open the wooden chest")  # the lens is in the shut chest
    try:
        lens, chest = _object(game, "glass lens"), _object(game, "wooden chest")
        sure = [(i.id, i.name.split()[-1]) for i in game.current.inventory] + [(chest, "chest")]
        sight = Sight(game.zm)
        memory = game.vm.ram().copy()
        assert sight.unseen(game.vm, {lens: ("lens", b"shut")}, sure) == set()
        assert sight.nouns is None
        assert np.array_equal(game.vm.ram(), memory)
    finally:
        game.close()


def test_the_turn_shows_what_is_in_the_chest_only_once_it_is_open() -> None:
    """``Turn.visible`` feeds the Room panel, the agent's prompt and the memory: no peeking into shut things."""
    game = _walk_to(BUNDLED, BUNDLED_WALKTHROUGH, "open chest")
    try:
        names = {o.name for o in game.current.visible}
        assert "sea chest" in names and "spare mantle" not in names
        assert game.sight.asked  # the turn asked the parser...
        # ...and its state hash is still that of the game's memory, not of a question's.
        assert game.current.state_hash == game.fingerprint(game.vm.ram().copy())
        assert "spare mantle" in {o.name for o in game.step("open chest").visible}
        assert "spare mantle" not in {o.name for o in game.step("close chest").visible}
    finally:
        game.close()


def test_an_answer_is_asked_again_in_the_dark_or_when_anything_in_scope_changes() -> None:
    """A lamp lit (even one on the floor) or the room going dark may change what the parser sees."""
    from zorktui.engine.world.sight import situations

    game = _walk_to(BUNDLED, BUNDLED_WALKTHROUGH, "open chest")
    try:
        mantle, chest, lantern = (_object(game, n) for n in ("spare mantle", "sea chest", "brass lantern"))
        scope = [mantle, chest, lantern]
        lit = situations(game.zm, [mantle], scope, dark=False)
        assert situations(game.zm, [mantle], scope, dark=False) == lit
        assert situations(game.zm, [mantle], scope, dark=True) != lit
        game.step("light lantern with matches")
        game.zm.refresh(game.vm.ram())
        assert situations(game.zm, [mantle], scope, dark=False) != lit
    finally:
        game.close()


def test_things_lying_in_a_room_the_tree_does_not_call_dark_are_asked_about_where_told(game_of) -> None:
    """ZIL's darkness leaves the room global on the room; where things lying there are judged
    (games not Inform's), the parser says what the player sees. Shown on the bundled game, told
    to judge them, in the dark Sea Cave with the flask in hand: the winding handle is out of sight."""
    from zorktui.engine.world.facts import Place

    game = game_of(BUNDLED)
    flask, handle, boat = (_object(game, n) for n in ("flask of tea", "winding handle", "rowing boat"))
    game.step("take flask")
    sight = Sight(game.zm)
    assert not sight.judge_lying  # an Inform story: its darkness shows in the room global
    sight.judge_lying = True
    # Lit, at the landing stage: the boat lies there and is seen, the noun variable found from it.
    landing = Place(game.zm.objects.parent(boat), dark=False)
    named = {flask: "flask", boat: "boat", handle: "handle"}
    assert sight.hidden(game.vm, landing, [flask], [flask, boat], named.get) == set()
    for command in ["east", "north", "north"]:
        game.step(command)
    assert game.current.location.name == "Sea Cave" and game.current.dark
    cave = Place(game.zm.objects.parent(handle), dark=False)  # as a ZIL game would leave it
    assert sight.hidden(game.vm, cave, [flask], [flask, handle], named.get) == {handle}
    assert game.current.visible == ()
