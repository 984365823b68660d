"""Which words name an object, asked of the parser: for stories whose objects keep their names private.

Inform 7 parses names with routines, so an object's properties hold no
dictionary words; "examine WORD" from a snapshot, with the parser's noun
variable read after, says which object the word reached.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

from zorktui.engine.calibrate.sampling import examine_me
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.fingerprint import globals_of
from zorktui.engine.zmachine.dictionary import DictWord
from zorktui.engine.zmachine.verbs import is_meta
from zorktui.engine.zmachine.zmachine import ZMachine

#: A word that may name a thing: letters, with hyphens or apostrophes inside or where the dictionary cut it.
_NAME_WORD = re.compile(r"[a-z][a-z'-]*")
#: English determiners a parser accepts before any noun; they name no object.
_DETERMINERS = frozenset("all another any both but each either every except other others some that the these this those".split())
#: Words that stand for another noun: they name whatever the last command named, not a thing.
#: (Two-letter names count: a TextWorld "tv" had had no word and no actions.)
_PRONOUNS = frozenset("it me us him her them myself yourself self".split())


def noun_globals(vm: Interpreter, zm: ZMachine, player: int) -> list[int]:
    """Globals where the parser keeps the object a command is about.

    "examine me" puts the player object there; "look" does not.

    Returns:
        Global numbers, possibly empty.
    """
    probed = examine_me(vm, zm) if player else None
    if probed is None:
        return []
    looked, examined = probed
    return [int(k) for k in np.flatnonzero((examined == player) & (looked != player))]


#: Words that fit several objects are tried in pairs only up to this many (pairs grow as its square).
MAX_AMBIGUOUS = 16


def probe_object_words(vm: Interpreter, zm: ZMachine, scope: list[int], nouns: list[int],
                       names: Mapping[int, str] | None = None, guessed: set[int] | None = None
                       ) -> dict[int, list[str]]:
    """Which dictionary words name which objects in scope, asked of the parser itself.

    For stories whose objects keep their names private (Inform 7 parses
    names with routines), each noun word is tried as "examine WORD" from a
    snapshot and the parser's noun variable says which object it meant.

    The words of the things' own printed names are asked first: what the
    game shows a player is what it understands, nearly always. The rest of
    the dictionary is asked only for a thing those left unnamed and not
    out of sight: a printed name with no word in the dictionary, or words
    that reached another thing. A thing whose words reached nothing at all
    (in a shut fridge) no other word reaches either. Asked of every word,
    a TextWorld kitchen cost about a hundred commands each time what was
    in reach changed.

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.
        scope: Object numbers to find words for.
        nouns: The parser's noun globals (see :func:`noun_globals`).
        names: What each thing in scope is called (its printed name; None:
            not known, every word is asked). A word that is a verb too
            ("stand", "light") is tried only where it is in one of them:
            every verb tried would cost a command, and a TextWorld "stand"
            had had no word, so nothing was put on it.
        guessed: Filled, where given, with the objects whose words are
            only those the parser chose them for among several.

    Returns:
        Words per object, those of printed names first, each lot in
        dictionary order: those the parser took for the object without
        hesitation, or, for an object that has none, those it chose it for
        among several ("(the yellow pepper)").
    """
    if not nouns or "examine" not in zm.dictionary:
        return {}
    names = names or {}
    wanted = set(scope)
    start = vm.snapshot()
    # A word that matches nothing leaves the noun variable as it was, so first
    # point it at the player: a stale value then cannot pass for a match.
    vm.step("examine me")
    base = vm.snapshot()
    as_before = globals_of(zm, base.ram())
    found: dict[int, list[str]] = {}
    guesses: dict[int, list[str]] = {}
    ambiguous: list[str] = []
    resolution = zm.dictionary.resolution
    # The dictionary keeps a hyphenated word cut at the hyphen ("frosted-" of "frosted-glass"):
    # missed, the door's only own word was "door", which another door shares.
    cut = [w.text for w in zm.dictionary.words if w.text.endswith("-")]
    words_of = {obj: {form for word in _NAME_WORD.findall(name.lower())
                      for form in [word[:resolution], *(c for c in cut if word.startswith(c))]}
                for obj, name in names.items()}
    called = set().union(*words_of.values())
    candidates = [w.text for w in zm.dictionary.words if _may_name(w, called)]
    reached: dict[str, str] = {}
    for text in sorted(candidates, key=lambda t: t not in called):
        if text not in called and not _unnamed_in_sight(wanted, found, guesses, words_of, reached, names):
            break
        reached[text] = _name_probe(vm, zm, (base, as_before), text, nouns, wanted, found, guesses)
        if reached[text] == _AMBIGUOUS:
            ambiguous.append(text)
    # "examine potato" may ask which potato: a second word may settle it ("red potato").
    if len(ambiguous) <= MAX_AMBIGUOUS:
        for first in ambiguous:
            for second in ambiguous:
                if first != second:
                    _name_probe(vm, zm, (base, as_before), f"{first} {second}", nouns, wanted, found, guesses)
    vm.restore(start)
    zm.refresh(vm.ram())
    for obj, words in guesses.items():
        if obj not in found and guessed is not None:
            guessed.add(obj)
        found.setdefault(obj, words)
    return found


def _may_name(word: DictWord, called: set[str]) -> bool:
    """Whether a dictionary word is worth asking about as a name (see :func:`probe_object_words`)."""
    # Hyphenated names count ("frosted-glass door", kept as "frosted-"): a door named
    # only so had had no word, so no actions, beside another door.
    if not (word.noun or word.adjective) or word.preposition or len(word.text) < 2:
        return False
    if not _NAME_WORD.fullmatch(word.text) or word.text in _DETERMINERS or word.text in _PRONOUNS:
        return False
    return not word.verb or (word.text in called and not is_meta(word.text))


def _unnamed_in_sight(wanted: set[int], found: dict[int, list[str]], guesses: dict[int, list[str]],
                      words_of: dict[int, set[str]], reached: dict[str, str], names: Mapping[int, str]) -> bool:
    """Whether a thing is still without a word though its own words did not all reach nothing."""
    for obj in wanted:
        if obj in found or obj in guesses:
            continue
        own = [reached[w] for w in words_of.get(obj, ()) if w in reached]
        if obj not in names or not own or any(r != _NOTHING for r in own):
            return True
    return False


#: What a probed word reached: a thing asked about, several, another thing, or nothing in sight.
_NAMED, _AMBIGUOUS, _OTHER, _NOTHING = "named", "ambiguous", "other", "nothing"


def _name_probe(
    vm: Interpreter, zm: ZMachine, base: tuple[Snapshot, np.ndarray], words: str, nouns: list[int],
    wanted: set[int], found: dict[int, list[str]], guesses: dict[int, list[str]],
) -> str:
    """Examine ``words`` from ``base`` (the state after "examine me", and its globals); record what they reached.

    Returns:
        What they reached: ``_AMBIGUOUS`` where they fit more than one thing
        (the parser asked which, or chose one itself and said so: "(the
        yellow pepper)"), ``_NAMED``, ``_OTHER`` (a thing not asked about) or
        ``_NOTHING`` (the noun variable still holds the player).
    """
    state, before = base
    vm.restore(state)
    reply = vm.step(f"examine {words}")
    guessed = reply.lstrip().startswith("(")
    values = globals_of(zm, vm.ram())
    for k in nouns:
        obj = int(values[k])
        if obj in wanted:
            (guesses if guessed else found).setdefault(obj, []).append(words)
            return _AMBIGUOUS if guessed else _NAMED
    if "which do you mean" in reply.lower():
        return _AMBIGUOUS
    # Another thing held where the parser keeps its noun; a refused word may leave it cleared.
    valid = zm.objects.valid
    return _OTHER if any(int(values[k]) != int(before[k]) and valid(int(values[k])) for k in nouns) else _NOTHING
