"""Words that name things, asked of the parser where a story keeps its names private (Inform 7)."""

from __future__ import annotations

import pytest
from paths import TO_THE_KITCHEN

from zorktui.engine.calibrate.object_words import noun_globals, probe_object_words
from zorktui.engine.game import Game


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_printed_names_are_asked_first_and_name_what_the_whole_dictionary_names(tw_game, monkeypatch) -> None:
    """In a TextWorld kitchen, the words of the things' printed names name every thing the dictionary does.

    Asked of every noun in the dictionary, each change of what was in reach
    had cost about a hundred commands; the printed names' words take a
    fraction of that, and the rest is asked only for a thing they leave
    unnamed though in sight.
    """
    path, _truth = tw_game("cooking9", 123)
    game = Game(path)
    try:
        for command in [*TO_THE_KITCHEN, "open fridge"]:
            game.step(command)
        facts, vm, zm = game.facts, game.vm, game.zm
        place = facts.place()
        assert place is not None
        scope = [o.id for o in facts.inventory()] + facts.room_objects(place.room)
        nouns = noun_globals(vm, zm, facts.player)
        asked: list[str] = []
        step = vm.step

        def counted(command: str) -> str:
            asked.append(command)
            return step(command)

        monkeypatch.setattr(vm, "step", counted)
        everything = probe_object_words(vm, zm, scope, nouns)
        every_word = len(asked)
        asked.clear()
        named = probe_object_words(vm, zm, scope, nouns, {o: facts.name(o) for o in scope})
        assert len(everything) >= 8
        assert set(named) == set(everything)
        for obj, words in named.items():
            assert set(words) <= set(everything[obj])
        assert len(asked) < every_word / 3
    finally:
        game.close()


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_things_out_of_sight_send_no_one_through_the_dictionary(tw_game, monkeypatch) -> None:
    """The fridge shut, its contents' own words reach nothing: no other word would, and none is asked.

    A refused word leaves the parser's noun cleared on Inform 7, which had
    read as another thing reached and sent the probe through the whole
    dictionary; and "frosted-glass door" is kept as "frosted-", which had
    left that door with no word of its own.
    """
    path, _truth = tw_game("cooking9", 123)
    game = Game(path)
    try:
        for command in TO_THE_KITCHEN:
            game.step(command)
        facts, vm, zm = game.facts, game.vm, game.zm
        place = facts.place()
        assert place is not None
        scope = [o.id for o in facts.inventory()] + facts.room_objects(place.room)
        names = {o: facts.name(o) for o in scope}
        nouns = noun_globals(vm, zm, facts.player)
        asked: list[str] = []
        step = vm.step

        def counted(command: str) -> str:
            asked.append(command.removeprefix("examine "))
            return step(command)

        monkeypatch.setattr(vm, "step", counted)
        named = probe_object_words(vm, zm, scope, nouns, names)
        printed = {w for name in names.values() for w in name.lower().split()}
        assert all(any(p.startswith(w) for p in printed) for asked_words in asked[1:] for w in asked_words.split())
        door = next(o for o, name in names.items() if "frosted" in name)
        assert "frosted-" in named[door]
    finally:
        game.close()


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_things_named_before_are_not_asked_about_again_in_new_company(knife_taken, monkeypatch) -> None:
    """Into the backyard with the knife: its door and the knife were each named before, and share no word.

    Which words name a thing depends on what else is there, but where no
    two things share a word of their names or words, none can be taken for
    another: the words found before stand, without asking the parser.
    """
    from zorktui.engine.actions import candidate_context

    game, finder = knife_taken
    asked: list[list[int]] = []
    probe = candidate_context.probe_object_words

    def counted(vm, zm, scope, *args):  # type: ignore[no-untyped-def]
        asked.append(scope)
        return probe(vm, zm, scope, *args)

    monkeypatch.setattr(candidate_context, "probe_object_words", counted)
    game.step("go east")
    found = finder.find()
    assert asked == []
    assert {"drop knife", "open screen door"} <= set(found)
