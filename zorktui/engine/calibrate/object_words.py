"""Which words name an object, asked of the parser: for stories whose objects keep their names private.

Inform 7 parses names with routines, so an object's properties hold no
dictionary words; "examine WORD" from a snapshot, with the parser's noun
variable read after, says which object the word reached.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from zorktui.engine.calibrate.sampling import examine_me
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.fingerprint import globals_of
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
                       names: Iterable[str] = ()) -> dict[int, list[str]]:
    """Which dictionary words name which objects in scope, asked of the parser itself.

    For stories whose objects keep their names private (Inform 7 parses
    names with routines), each noun word is tried as "examine WORD" from a
    snapshot and the parser's noun variable says which object it meant.

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.
        scope: Object numbers to find words for.
        nouns: The parser's noun globals (see :func:`noun_globals`).
        names: What the things in scope are called (their printed names). A
            word that is a verb too ("stand", "light") is tried only where it
            is in one of them: every verb tried would cost a command, and a
            TextWorld "stand" had had no word, so nothing was put on it.

    Returns:
        Words per object, in dictionary order: those the parser took for the
        object without hesitation, or, for an object that has none, those
        it chose it for among several ("(the yellow pepper)").
    """
    if not nouns or "examine" not in zm.dictionary:
        return {}
    wanted = set(scope)
    start = vm.snapshot()
    # A word that matches nothing leaves the noun variable as it was, so first
    # point it at the player: a stale value then cannot pass for a match.
    vm.step("examine me")
    base = vm.snapshot()
    found: dict[int, list[str]] = {}
    guesses: dict[int, list[str]] = {}
    ambiguous: list[str] = []
    resolution = zm.dictionary.resolution
    called = {word[:resolution] for name in names for word in _NAME_WORD.findall(name.lower())}
    for w in zm.dictionary.words:
        # Hyphenated names count ("frosted-glass door", kept as "frosted-"): a door named
        # only so had had no word, so no actions, beside another door.
        if not (w.noun or w.adjective) or w.preposition or len(w.text) < 2 or not _NAME_WORD.fullmatch(w.text):
            continue
        if w.verb and (w.text not in called or is_meta(w.text)):
            continue
        if w.text in _DETERMINERS or w.text in _PRONOUNS:
            continue
        if not _name_probe(vm, zm, base, w.text, nouns, wanted, found, guesses):
            ambiguous.append(w.text)
    # "examine potato" may ask which potato: a second word may settle it ("red potato").
    if len(ambiguous) <= MAX_AMBIGUOUS:
        for first in ambiguous:
            for second in ambiguous:
                if first != second:
                    _name_probe(vm, zm, base, f"{first} {second}", nouns, wanted, found, guesses)
    vm.restore(start)
    zm.refresh(vm.ram())
    for obj, words in guesses.items():
        found.setdefault(obj, words)
    return found


def _name_probe(
    vm: Interpreter, zm: ZMachine, base: Snapshot, words: str, nouns: list[int], wanted: set[int],
    found: dict[int, list[str]], guesses: dict[int, list[str]],
) -> bool:
    """Examine ``words``; record the object the parser took them for.

    Returns:
        False if the words fit more than one thing: the parser asked which,
        or chose one itself and said so ("(the yellow pepper)").
    """
    vm.restore(base)
    reply = vm.step(f"examine {words}")
    guessed = reply.lstrip().startswith("(")
    values = globals_of(zm, vm.ram())
    for k in nouns:
        obj = int(values[k])
        if obj in wanted:
            (guesses if guessed else found).setdefault(obj, []).append(words)
            return not guessed
    return "which do you mean" not in reply.lower()
