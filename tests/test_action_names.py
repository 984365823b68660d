"""Valid actions read as a person types them: whole words, the game's own names in its order, no interface commands."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from paths import BUNDLED, ZIL

from zorktui.engine.directions import ORDER
from zorktui.engine.zmachine.adjectives import Adjectives
from zorktui.engine.zmachine.dictionary import DictWord
from zorktui.engine.zmachine.story_family import made_by_textworld
from zorktui.engine.zmachine.verbs import verb_groups
from zorktui.engine.zmachine.zmachine import ZMachine


def _verb(text: str, number: int) -> DictWord:
    return DictWord(text=text, addr=0, verb=True, verb_number=number, meta=False, noun=False,
                    preposition=False, adjective=False, direction=False, plural=False)


def test_a_verb_the_dictionary_cut_is_written_whole() -> None:
    # A v3 dictionary keeps six letters: "activa" is "activate"; of synonyms, one kept whole wins.
    words = [_verb("activa", 1), _verb("extrac", 2), _verb("pry", 2)]
    zm = SimpleNamespace(dictionary=SimpleNamespace(words=words, resolution=6))
    assert verb_groups(zm) == ["activate", "pry"]


def test_bundled_game_names_things_by_their_printed_names(game_of) -> None:
    game = game_of(BUNDLED)
    for command in ["take flask", "north", "west"]:
        game.step(command)
    found = game.valid_actions()
    # The adjective before the noun as the game prints it; what a thing is taken from;
    # "give X to Y" rather than "give Y X".
    assert "take brass lantern" in found
    assert "take matches from mantelpiece" in found
    assert "give tea to nessa tregarth" in found
    for command in ["take lantern", "take matches", "up"]:
        game.step(command)
    found = game.valid_actions()
    assert "turn on brass lantern" in found and not any(a.startswith("switch ") for a in found)
    assert "open sea chest" in found


def test_v3_names_are_whole_and_in_the_printed_order(game_of) -> None:
    """mini.z3 keeps "leathe" for "leather": the command says "take leather logbook"."""
    game = game_of(ZIL)
    for command in ["north"]:
        game.step(command)
    found = game.valid_actions()
    assert "take leather logbook" in found, found
    assert game.peek("take leather logbook").state_hash != game.current.state_hash


def _adjectives_as_bytes(story: bytes) -> bytes:
    """mini.z3 with its ADJECTIVE properties rewritten as Infocom's v3 builds store them: adjective numbers.

    zorkie writes a dictionary address there; Infocom's v3 games one byte per
    adjective, the number the adjective's dictionary entry carries. The
    story's own parser reads neither (it checks adjectives in a routine), so
    it plays the same.
    """
    zm = ZMachine(story)
    memory = bytearray(story)
    changed = 0
    for obj in range(1, zm.objects.count + 1):
        for prop in zm.objects.properties(obj):
            if prop.length != 2:
                continue
            entry = zm.dictionary.at(int.from_bytes(memory[prop.addr : prop.addr + 2], "big"))
            if entry is not None and entry.adjective and not entry.noun:
                memory[prop.addr : prop.addr + 2] = bytes([entry.adjective_number] * 2)
                changed += 1
    assert changed >= 5
    length = zm.header.file_length or len(memory)
    memory[0x1C:0x1E] = (sum(memory[0x40:length]) & 0xFFFF).to_bytes(2, "big")  # the header's checksum
    return bytes(memory)


def test_adjectives_kept_as_numbers_name_things_too(tmp_path: Path, game_of) -> None:
    story = tmp_path / "bytes.z3"
    story.write_bytes(_adjectives_as_bytes(ZIL.read_bytes()))
    assert Adjectives(ZMachine(story.read_bytes())).prop is not None
    assert Adjectives(ZMachine(ZIL.read_bytes())).prop is None  # zorkie's addresses: read as vocabulary
    for path in (ZIL, story):
        game = game_of(path)
        found = game.valid_actions()
        assert "take cotton wick" in found, (path.name, found)
        assert game.peek("take cotton wick").state_hash != game.current.state_hash


def test_moves_are_written_bare_outside_textworld(game_of) -> None:
    """Inform's and Infocom's players write "east": so do the valid actions of a story TextWorld did not make."""
    for story in (BUNDLED, ZIL):
        game = game_of(story)
        assert not made_by_textworld(game.zm)
        found = game.valid_actions()
        assert any(a in ORDER for a in found), found
        assert not any(a.startswith("go ") for a in found), found


# ----------------------------------------------------------------------------- TextWorld
@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
def test_textworld_actions_read_as_textworld_writes_them(tw_game, game_of) -> None:
    """Full names in the game's order, "put X on Y" for supporters, "take X from Y", "go east"; no interface options."""
    path, truth = tw_game("cooking", 1)
    game = game_of(path)
    assert made_by_textworld(game.zm)
    written = counted = 0
    for step, admissible in zip(truth["walkthrough"], truth["admissible"], strict=False):
        found = {a.lower() for a in game.valid_actions()}
        assert not any("option" in a or "restrict" in a for a in found), found
        assert not found & set(ORDER), found  # a move is written as TextWorld writes it
        assert not any(a.startswith("drop ") and len(a.split()) > 3 and " on " in a for a in found), found
        before = game.current.state_hash
        for command in admissible:
            if command.split()[0] in ("look", "inventory", "examine"):
                continue
            if game.peek(command).state_hash != before:
                counted += 1
                written += command.lower() in found
        game.step(step)
    assert counted and written / counted >= 0.95, (written, counted)


@pytest.mark.textworld
@pytest.mark.filterwarnings("ignore:.*is not fully supported")
@pytest.mark.parametrize(("kind", "seed"), [("cooking9", 123), ("custom6", 104), ("custom6", 107)])
def test_every_state_textworld_reaches_is_reached(tw_game, game_of, kind: str, seed: int) -> None:
    """Each state a world-changing admissible command leads to, one of our valid actions leads to as well;
    no valid action leaves the parser asking which thing it meant.

    Cooking 123 burns what it cooks a second time, by the oven or by the
    stove: two endings the fingerprint tells apart (each is listed). Custom
    104 has a "stand", a word that is a verb too: it must still name the
    thing. Custom 107 has a "locker" beside a "type 2 locker": "put type 2
    locker on locker" only asks which locker.
    """
    path, truth = tw_game(kind, seed)
    game = game_of(path)
    for step, admissible in zip(truth["walkthrough"], truth["admissible"], strict=False):
        before = game.current.state_hash
        replies = {a: game.peek(a) for a in game.valid_actions()}
        asking = sorted(a for a, turn in replies.items() if "which do you mean" in turn.observation.lower())
        assert not asking, (step, asking)
        ours = {turn.state_hash for turn in replies.values()}
        theirs = {c: game.peek(c).state_hash for c in admissible if c.split()[0] not in ("look", "inventory", "examine")}
        missed = sorted(c for c, after in theirs.items() if after != before and after not in ours)
        assert not missed, (step, missed)
        game.step(step)
