"""Words that name things, asked of the parser where a story keeps its names private (Inform 7)."""

from __future__ import annotations

import pytest

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
        for command in ["go south", "go north", "go west", "go south", "open fridge"]:
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
