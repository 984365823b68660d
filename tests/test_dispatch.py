"""Valid actions by dispatch: the story's own action routine called per object, checked against typing.

``dispatch.z5`` (tests/data/inform) is a story of ours whose every thing is
one of dispatch's risks: a creature token, a ``noun=Routine`` grammar line,
an action that reads the typed words, a daemon, a question asked inside an
action and an action that ends the story.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from paths import BUNDLED, DISPATCH, INFORM7, TO_THE_KITCHEN

from zorktui.engine.actions import dispatch as dispatch_module
from zorktui.engine.actions.batch import play_batch
from zorktui.engine.actions.dispatch import Dispatcher, action_routine, available
from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.game import Game
from zorktui.engine.vm.frotz_calls import FrotzCalls

#: Play of dispatch.z5 that meets each risk.
WALK = ["pet grey cat", "take shiny stone", "light wax candle", "gleam shiny stone", "buff shiny coin",
        "take brass lamp", "wait", "drop shiny stone", "take spotted mushroom", "wait"]


def _routine(game: Game, templates: list[str], obj: int) -> int | None:
    calls = FrotzCalls(game.vm)
    start = game.vm.snapshot()
    traced = [(t, obj, calls.trace(start, t.format("me"))) for t in templates]
    game.vm.restore(start)
    return action_routine(traced)


@pytest.mark.parametrize("story", [DISPATCH, BUNDLED, INFORM7], ids=["inform6", "lighthouse", "inform7"])
def test_the_action_routine_is_found_from_what_typed_commands_call(story) -> None:
    game = Game(story)
    try:
        routine = _routine(game, ["examine {0}", "smell {0}", "touch {0}", "kiss {0}"], game.facts.player)
        assert routine is not None
        # Stopped at its entry, a typed command has its action and its object as the first two arguments.
        calls = FrotzCalls(game.vm)
        start = game.vm.snapshot()
        at_entry = calls.stop_at(start, "smell me", routine)
        assert at_entry is not None
        game.vm.restore(start)
        traced = calls.trace(start, "smell me")
        game.vm.restore(start)
        first = next(c for c in traced if c.entry == routine)
        assert first.args[1] == game.facts.player
    finally:
        game.close()


@dataclass
class _Seen:
    """A call as a trace gives it (entry and arguments), for the vote alone."""

    entry: int
    args: tuple[int, ...]


def test_the_vote_wants_an_action_that_tells_most_verbs_apart() -> None:
    # A rule the parser consults with the noun comes first in every command, its first
    # argument one of two values; the action routine comes later, one action a verb.
    consulted, action = 500, 900
    traced = []
    for n, template in enumerate(["take {0}", "open {0}", "push {0}", "pull {0}", "eat {0}", "climb {0}"]):
        traced.append((template, 7, [_Seen(consulted, (40 + (n == 3), 7)), _Seen(action, (10 + n, 7, 0))]))
    assert action_routine(traced) == action
    # Synonyms share an action: two verbs alike among six still tell most apart.
    traced[1] = ("open {0}", 7, [_Seen(consulted, (40, 7)), _Seen(action, (10, 7, 0))])
    assert action_routine(traced) == action


@pytest.mark.textworld
def test_a_textworld_cooking_game_dispatches_to_its_action_routine(tw_game) -> None:
    """TextWorld's cooking games consult a rule with the noun before the action, in every command.

    Voted for, it stopped dispatched candidates before their effects: directions
    that worked were listed as refused. The routine voted for now begins a
    different action for each verb, and the search lists what typing lists.
    """
    path, _truth = tw_game("cooking", 1)
    game = Game(path)
    try:
        finder = ActionFinder(game, parallel=False)
        finder.find()
        routine = finder.dispatcher.routine
        assert routine is not None
        calls = FrotzCalls(game.vm)
        start = game.vm.snapshot()
        actions = set()
        for verb in ["examine", "smell", "take", "eat"]:
            first = next(c for c in calls.trace(start, f"{verb} me") if c.entry == routine)
            actions.add(first.args[0])
        game.vm.restore(start)
        assert len(actions) == 4
        finder.close()
    finally:
        game.close()
    walk = ["west", "north", "south", "east", "east", "west"]
    _walk_both(path, walk)


def test_a_missed_effect_ends_the_stop_at_the_return_for_the_story() -> None:
    with _side_by_side(DISPATCH) as (dispatched, typed, by_dispatch, by_typing):
        by_dispatch.find()
        judge = by_dispatch.dispatcher
        assert judge.early_stop and judge.stats.stopped_early
        judge.missed_effect()
        assert not judge.early_stop and not any(judge.trusted(t) for t in by_dispatch.templates.single)
        later = Dispatcher(dispatched.vm, judge.prompt_at, story_md5=dispatched.story.md5)
        assert not later.early_stop  # kept for the next run
        for command in WALK[:3]:
            dispatched.step(command)
            typed.step(command)
            assert set(by_dispatch.find()) == set(by_typing.find()), command
        assert judge.stats.stopped_early == 0 and by_dispatch.stats.dispatched


@contextmanager
def _side_by_side(story):
    """Two games of ``story`` and a finder on each, one dispatching and one typing: (games..., finders...)."""
    dispatched, typed = Game(story), Game(story)
    by_dispatch = ActionFinder(dispatched, parallel=False)
    by_typing = ActionFinder(typed, parallel=False, dispatch=False)
    try:
        yield dispatched, typed, by_dispatch, by_typing
    finally:
        for closing in (by_dispatch, by_typing, dispatched, typed):
            closing.close()


def _walk_both(story, walk):
    seen = []
    with _side_by_side(story) as (dispatched, typed, by_dispatch, by_typing):
        for command in [None, *walk]:
            if command is not None:
                dispatched.step(command)
                typed.step(command)
            found = by_dispatch.find()
            assert set(found) == set(by_typing.find()), command
            seen.append((command, by_dispatch.stats.dispatched, found, by_dispatch.dispatcher.stats.stopped_early))
        return by_dispatch, seen


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_rooms_with_one_thing_do_not_leave_a_template_typed_for_good(tw_game) -> None:
    """Cooking 123 begins in rooms with one thing each: no two commands of "take X" to stop there.

    Those rooms say nothing against a template. Counted as tries, three of
    them had left every one-object template typed in every state after,
    the kitchen's several hundred candidates among them. Now, once the
    kitchen's templates have agreed in two states, its candidates are
    dispatched and few are typed, and the search lists what typing lists.
    """
    path, _truth = tw_game("cooking9", 123)
    finder, seen = _walk_both(path, [*TO_THE_KITCHEN, "take knife from table",
                                          "put knife on counter"])
    _command, dispatched, _found, _stopped = seen[-1]
    assert dispatched > 100
    assert finder.stats.typed < dispatched // 4
    # The moves confirmed by typing in the kitchen before are not typed again.
    assert finder.dispatcher.stats.confirmed_before > 0


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_a_pair_the_parser_refuses_for_one_thing_looks_like_any_with_that_thing(tw_game) -> None:
    """"push X [direction]" and "ask [someone] for X": where the parser refuses them, the tested thing decides.

    The grammar tests one slot's thing alone, so a pair looks to the parser
    like every other with the same thing in that slot: one is played for
    all of them. A template the parser takes still tells pairs apart by both
    things. Held or not counts where a slot wants a held thing.
    """
    path, _truth = tw_game("cooking9", 123)
    game = Game(path)
    try:
        finder = ActionFinder(game, parallel=False)
        for command in [*TO_THE_KITCHEN, "take knife from table", "put knife on counter",
                        "take knife"]:
            game.step(command)
            finder.find()
        assert finder.dispatcher.never_parsed("push {0} {1}")
        assert finder.dispatcher.never_parsed("ask {0} for {1}")
        held, scope = finder._scope()
        here = finder._surroundings(held, scope, game.vm.ram())
        knife = held[0]
        a, b = next((a, b) for a in scope for b in scope
                    if knife not in (a, b) and here.signatures[a] != here.signatures[b])
        like = finder._like
        assert like("push {0} {1}", (a, knife), here) == like("push {0} {1}", (b, knife), here)
        assert like("push {0} {1}", (knife, a), here) != like("push {0} {1}", (knife, b), here)
        assert like("ask {0} for {1}", (knife, a), here) == like("ask {0} for {1}", (knife, b), here)
        assert like("put {0} on {1}", (knife, a), here) != like("put {0} on {1}", (knife, b), here)
        finder.close()
    finally:
        game.close()
    # And the search lists what typing lists where they wait on one of theirs.
    _walk_both(path, [*TO_THE_KITCHEN, "take knife from table", "put knife on counter",
                      "take knife", "take banana from counter"])


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_what_the_parser_reads_of_a_command_is_its_things_and_what_is_in_scope(knife_taken) -> None:
    """Taking one thing leaves the parse of a command naming another as it was; of one naming it, not.

    Only the things named (with their holders) and which things are in
    scope count: the confirmation typed before holds for the rest.
    """
    game, finder = knife_taken

    def keys() -> tuple[dict[int, bytes], set[int]]:
        held, scope = finder._scope()
        here = finder._surroundings(held, scope, game.vm.ram())
        return {o: finder._parse_key(f"examine {o}", (o,), here) for o in scope}, set(held)

    before, held_before = keys()
    game.step("put knife on counter")
    after, held_after = keys()
    assert held_before - held_after  # the knife went down
    moved = next(iter(held_before - held_after))
    assert before[moved] != after[moved]
    assert all(before[o] == after[o] for o in before if o != moved and o in after)


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_a_template_the_parser_refuses_is_not_tried_again_on_things_that_look_the_same(tw_game) -> None:
    """TextWorld's "ask X for Y" and "push X Y" want a creature and a direction, and no room has either.

    Once none of their commands reached the action routine in three states,
    a candidate tried before is skipped while its things look as they did:
    walked there and back, the rooms' things are skipped, and the search
    still lists what typing lists.
    """
    path, truth = tw_game("custom6", 109)
    there_and_back = ["go north", "go west", "take shadfly from counter", "go south", "go north", "go east",
                      "go south", "go east", "go west", "go north", "go south"]
    finder, _seen = _walk_both(path, there_and_back)
    assert finder.dispatcher.never_parsed("ask {0} for {1}")
    assert finder.dispatcher.never_parsed("push {0} {1}")
    assert finder.stats.refused_lookalikes > 0


def test_dispatch_lists_what_typing_lists_through_every_risk() -> None:
    finder, seen = _walk_both(DISPATCH, WALK)
    assert sum(n for _c, n, _f, _e in seen) > 500  # most candidates were dispatched, not typed
    # Most refusals stopped where the action returned, the candle's daemon notwithstanding.
    assert sum(e for _c, _n, _f, e in seen) > 300
    trusted = {t for t in finder.templates.single if finder.dispatcher.trusted(t)}
    assert {"take {0}", "smell {0}", "push {0}"} <= trusted
    # A grammar line that tests the object, and an action that reads the words typed: typed for good.
    assert not finder.dispatcher.trusted("gleam {0}")
    assert not finder.dispatcher.trusted("buff {0}")
    # The question inside an action and the ending are listed, as typing finds them.
    assert "push red button" in seen[-1][2]
    assert "eat spotted mushroom" in seen[-1][2]


def test_the_bundled_story_lists_the_same_either_way() -> None:
    from paths import BUNDLED_WALKTHROUGH, commands

    _finder, seen = _walk_both(BUNDLED, commands(BUNDLED_WALKTHROUGH)[:12])
    assert sum(n for _c, n, _f, _e in seen) > 1000


def _trusting(game: Game) -> ActionFinder:
    """A finder that has searched a few states of dispatch.z5 (its templates on trial, then trusted)."""
    finder = ActionFinder(game, parallel=False)
    for command in ["take spotted mushroom", "take brass lamp", "light wax candle"]:
        finder.find()
        game.step(command)
    return finder


def test_the_end_of_the_turn_runs_after_a_dispatched_action() -> None:
    game = Game(DISPATCH)
    finder = _trusting(game)
    try:
        vm = game.vm
        start = vm.snapshot()
        candidates = [(f"smell {name}", "smell {0}", (obj,)) for name, obj in _things(game).items()]
        reading = game.fingerprint.reading()
        outcomes = finder.dispatcher.play(start, candidates, reading)
        vm.restore(start)
        assert len(outcomes) == len(candidates)
        typed = play_batch(vm, start, [c for c, _t, _o in candidates], reading)
        kept = game.fingerprint.kept_globals_of
        before = (reading.digester()(start.ram()), kept([reading.raw_globals(start.ram())])[0].tobytes())
        for i, (h, g, at) in outcomes.items():
            typed_h, typed_g, typed_at = typed[i]
            after = (h, kept([g])[0].tobytes())
            assert after == (typed_h, kept([typed_g])[0].tobytes()) and at == typed_at, candidates[i][0]
            # The candle's daemon burned it down a turn: the world is not the one before.
            assert after != before
    finally:
        finder.close()
        game.close()


def _things(game: Game) -> dict[str, int]:
    zm = game.zm
    zm.refresh(game.vm.ram())
    room, player = game.facts.place().room, game.facts.player
    return {zm.objects.name(o): o for o in zm.objects.children(room) + zm.objects.children(player) if o != player}


def test_a_question_or_an_ending_inside_an_action_is_left_to_typing() -> None:
    game = Game(DISPATCH)
    finder = _trusting(game)
    try:
        vm = game.vm
        start = vm.snapshot()
        things = _things(game)
        candidates = [("push red button", "push {0}", (things["red button"],)),
                      ("eat spotted mushroom", "eat {0}", (things["spotted mushroom"],)),
                      ("eat brass lamp", "eat {0}", (things["brass lamp"],)),
                      ("push brass lamp", "push {0}", (things["brass lamp"],))]
        reading = game.fingerprint.reading()
        finder.dispatcher.new_search()
        outcomes = finder.dispatcher.play(start, candidates, reading)
        vm.restore(start)
        assert set(outcomes) == {2, 3}
        assert finder.dispatcher.stats.fell_back == 2
        # At a question, nothing is dispatched at all (only the normal command read is).
        game.step("push red button")
        assert game.current.question
        asked = vm.snapshot()
        assert finder.dispatcher.play(asked, candidates[3:], reading) == {}
        vm.restore(asked)
    finally:
        finder.close()
        game.close()


def test_a_jericho_not_checked_or_dispatch_turned_off_types(monkeypatch) -> None:
    game = Game(DISPATCH)
    try:
        assert available(game.vm) == ""
        off = Dispatcher(game.vm, lambda: game.prompt_at, enabled=False)
        assert not off.active and off.why_not
        monkeypatch.setattr(dispatch_module, "jericho_version", lambda: "0.1")
        other = Dispatcher(game.vm, lambda: game.prompt_at)
        assert not other.active and "0.1" in other.why_not
        finder = ActionFinder(game, parallel=False)
        finder.dispatcher = other
        assert finder.find() and finder.stats.dispatched == 0
        finder.close()
    finally:
        game.close()


def test_what_dispatch_learned_is_kept_per_story_for_the_next_run() -> None:
    from zorktui.engine.actions import dispatch_cache

    finder, _seen = _walk_both(DISPATCH, WALK[:4])
    trusted = {t for t in finder.templates.single if finder.dispatcher.trusted(t)}
    assert trusted
    game = Game(DISPATCH)
    try:
        later = ActionFinder(game, parallel=False)
        # Trusted and refused before any search, and the routine known: no trial, no tracing.
        assert {t for t in trusted if later.dispatcher.trusted(t)} == trusted
        assert later.dispatcher.routine == finder.dispatcher.routine
        assert not later.dispatcher.trusted("gleam {0}")
        later.find()
        assert later.stats.dispatched > later.stats.typed
        later.close()
        # A broken file is ignored (and written over), never an error.
        path = dispatch_cache._path(game.story.md5)
        path.write_text("{not json")
        fresh = ActionFinder(game, parallel=False)
        assert fresh.dispatcher.routine is None and not fresh.dispatcher.trusted("take {0}")
        fresh.find()
        assert dispatch_cache.load(game.story.md5, dispatch_module.jericho_version()).routine is not None
        fresh.close()
    finally:
        game.close()


def test_dispatch_turned_off_for_a_story_stays_off_in_the_next_run() -> None:
    from zorktui.engine.actions import dispatch_cache

    game = Game(DISPATCH)
    try:
        finder = ActionFinder(game, parallel=False)
        finder.find()
        finder.dispatcher._turn_off("typing costs this story no more than dispatch")
        finder.dispatcher._remember()
        assert dispatch_cache.load(game.story.md5, dispatch_module.jericho_version()).off
        later = ActionFinder(game, parallel=False)
        assert not later.dispatcher.active and "earlier run" in later.dispatcher.why_not
        later.find()
        assert later.stats.dispatched == 0
        finder.close()
        later.close()
    finally:
        game.close()


def test_the_calls_follow_an_interpreter_replaced_after_a_halt() -> None:
    from paths import ASKS_FIRST

    game = Game(ASKS_FIRST)
    try:
        calls = FrotzCalls(game.vm)
        start = game.vm.snapshot()
        routine = _routine(game, ["examine {0}", "smell {0}", "touch {0}", "kiss {0}"], game.facts.player)
        assert routine is not None
        first = calls.lib
        # "crash" runs an illegal opcode in its action: the machine halts, and the next restore loads a fresh library.
        at_entry = calls.stop_at(start, "crash", routine)
        assert at_entry is not None
        game.vm.rewind(at_entry)
        calls.run_to_read()
        assert game.vm.halted()
        assert calls.stop_at(start, "smell me", routine) is not None
        assert calls.lib is game.vm._lib and calls.lib is not first
        game.vm.restore(start)
    finally:
        game.close()
