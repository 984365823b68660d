"""Inform's grammar tables, read straight from the story.

Inform 6 (and Inform 7, which compiles through it) keeps a table of grammar
lines per verb at the start of static memory: each line names an action and
the tokens it takes (objects, objects held, prepositions, topics). Reading
them gives the exact command forms a verb has, and lets verbs that lead to
the same action with the same tokens ("take", "get", "carry") be tried once.

Two layouts exist. Version 2 (library 6/3 on, and Inform 7) gives each line
an action word and 3-byte tokens up to an end marker. Version 1 (Inform 5
and early Inform 6 games, such as many of the classic Inform titles) gives
each line 8 bytes: the number of objects, six token bytes and the action;
its prepositions are numbers that the dictionary entry of each preposition
carries in its third data byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from zorktui.engine.zmachine.dictionary import Dictionary
from zorktui.engine.zmachine.header import word
from zorktui.engine.zmachine.verbs import PREFERRED, is_meta, shape_rank
from zorktui.engine.zmachine.zmachine import ZMachine

_ENDIT = 15
_ELEMENTARY, _PREPOSITION, _NOUN_ROUTINE, _ATTRIBUTE, _SCOPE_ROUTINE, _ROUTINE = 1, 2, 3, 4, 5, 6
_NOUN, _HELD, _MULTI, _MULTIHELD = 0, 1, 2, 3
_SPECIAL, _NUMBER, _TOPIC = 7, 8, 9


@dataclass(frozen=True)
class GrammarLine:
    """One way to use a verb.

    Attributes:
        action: The action number the line leads to.
        words: The command with ``{0}``/``{1}`` for object slots, verb first.
        held: For each slot, whether the object must be held.
        tokens: What the parser asks of each slot's thing before any
            action, one string per line written alike (this one and the
            verb's others with the same words), one letter per slot: ``n``
            nothing but to be in reach (``noun``, ``multi``), ``h`` to be
            held, ``t`` a test of its own (a creature, an attribute, a
            routine, inside another).
    """

    action: int
    words: str
    held: tuple[bool, ...]
    tokens: tuple[str, ...] = ()


def _line_words(memory: bytearray, dictionary: Dictionary, p: int) -> tuple[list[tuple[int, int, int]], int] | None:
    tokens: list[tuple[int, int, int]] = []
    while memory[p] != _ENDIT:
        if len(tokens) > 12 or p + 3 > len(memory):
            return None
        tokens.append((memory[p], word(memory, p + 1), p))
        p += 3
    return tokens, p + 1


def plainer(word_: str, than: str) -> bool:
    """Whether ``word_`` is a plainer name for a verb than ``than`` (preferred, else not a one-letter abbreviation)."""
    def rank(w: str) -> tuple[int, int, int]:
        return (PREFERRED.index(w) if w in PREFERRED else len(PREFERRED), len(w) == 1, len(w))

    return rank(word_) < rank(than)


def read_grammar(zm: ZMachine) -> list[GrammarLine] | None:
    """Every grammar line of every non-meta verb, or None if the story has no readable GV2 table.

    Returns:
        One line per action and number of objects (an action does the same
        whichever words led to it). Of the lines leading to an action, the
        one kept takes the fewest objects that must be held (the widest),
        then costs the parser least, then is shortest, then has the plainest
        verb. The parser tries a verb's lines in order and every earlier line
        that reaches an object token matches the nouns in scope again before
        it fails: "put {0} in {1}" (put's first line) parses in about half the
        time of "drop {0} in {1}" (after drop's "drop {0}"), "transfer {0} to
        {1}" in a third of that of "push {0} to {1}".
    """
    header = zm.header
    if not header.is_inform:
        return None
    memory = zm.memory
    dictionary = zm.dictionary
    table = header.static_memory
    verbs: dict[int, str] = {}
    for w in dictionary.words:
        if w.verb and not w.meta and w.text.isalpha() and 0 <= w.verb_number < 256 and not is_meta(w.text):
            current = verbs.get(w.verb_number)
            if current is None or plainer(w.text, current):
                verbs[w.verb_number] = w.text
    if not verbs:
        return None
    seen: dict[tuple[int, int], tuple[tuple[int, int, int, int], GrammarLine]] = {}
    alike: dict[str, tuple[str, ...]] = {}

    def plain_first(n: int) -> tuple[int, str]:
        # Of verbs sharing an action and form, keep the plainest ("take" over "carry").
        text = verbs[n]
        return (PREFERRED.index(text) if text in PREFERRED else len(PREFERRED), text)

    by_verb = _all_lines(memory, dictionary, table, verbs, _verb_lines)
    if by_verb is None:
        prepositions = _gv1_prepositions(memory, dictionary)
        by_verb = _all_lines(memory, dictionary, table, verbs, partial(_gv1_verb_lines, prepositions=prepositions))
    if by_verb is None:
        return None
    for number in sorted(verbs, key=plain_first):
        verb = verbs[number]
        lines = by_verb[number]
        for index, (action, shape) in enumerate(lines):
            line = _usable_line(verb, action, shape)
            if line is None:
                continue
            alike[line.words] = alike.get(line.words, ()) + line.tokens
            key = (action, len(line.held))
            # The widest line first, then the shape people write ("put {0} on {1}" over "drop {0}
            # on {1}", "turn on {0}" over "switch {0}"), then what the parser spends on it.
            cost = (sum(line.held), shape_rank(line.words), _noun_searches_before(shape, [s for _a, s in lines[:index]]),
                    len(line.words.split()))
            best = seen.get(key)
            # Verbs come plainest first, so of equal costs the plainer stays.
            if best is None or cost < best[0]:
                seen[key] = (cost, line)
    return [replace(line, tokens=alike[line.words]) for _cost, line in seen.values()]


# A line's tokens as the parser meets them: a group of prepositions that may
# stand in one place ('in'/'into'), or an object token with its kind and data.
_Shape = list[tuple[str, list[str] | tuple[int, int]]]


def _all_lines(
    memory: bytearray,
    dictionary: Dictionary,
    table: int,
    verbs: dict[int, str],
    reader: Callable[[bytearray, Dictionary, int, int], list[tuple[int, _Shape]] | None],
) -> dict[int, list[tuple[int, _Shape]]] | None:
    """Every verb's lines read in one layout, or None if any verb does not read in it."""
    out: dict[int, list[tuple[int, _Shape]]] = {}
    for number in verbs:
        lines = reader(memory, dictionary, table, number)
        if lines is None:
            return None
        out[number] = lines
    return out


def _verb_lines(memory: bytearray, dictionary: Dictionary, table: int, number: int) -> list[tuple[int, _Shape]] | None:
    """A verb's grammar lines in the parser's order, as (action, shape); None if unreadable as version 2."""
    addr = word(memory, table + 2 * number)
    if not table <= addr < len(memory) - 1:
        return None
    count = memory[addr]
    if count > 64:
        return None
    p = addr + 1
    lines: list[tuple[int, _Shape]] = []
    for _ in range(count):
        action = word(memory, p) & 0x3FF
        parsed = _line_words(memory, dictionary, p + 2)
        if parsed is None:
            return None
        tokens, p = parsed
        shape: _Shape = []
        previous_was_alternative = False
        for ttype, data, _ in tokens:
            kind = ttype & 0x0F
            alternative = bool(ttype & 0x30)
            if kind == _PREPOSITION:
                entry = dictionary.at(data)
                if entry is None:
                    return None
                words = shape[-1][1] if shape else None
                if alternative and previous_was_alternative and isinstance(words, list):
                    words.append(entry.text)
                else:
                    shape.append(("words", [entry.text]))
            elif kind in (_ELEMENTARY, _NOUN_ROUTINE, _ATTRIBUTE, _SCOPE_ROUTINE, _ROUTINE):
                shape.append(("object", (kind, data)))
            else:
                return None
            previous_was_alternative = kind == _PREPOSITION and alternative
        lines.append((action, shape))
    return lines


def _gv1_verb_lines(
    memory: bytearray, dictionary: Dictionary, table: int, number: int, prepositions: dict[int, str]
) -> list[tuple[int, _Shape]] | None:
    """A verb's lines in the version 1 layout, as (action, shape); None if unreadable as version 1.

    A line is 8 bytes: how many objects it takes, six tokens, the action. Its
    tokens stop at the first "noun" (0) once that many objects have been
    met, as in the library's own ``UnpackGrammarLine``. Token values: 0-8
    the elementary tokens (numbered as in version 2), 16-47 ``noun=Routine``,
    48-79 a general parsing routine, 80-127 ``scope=Routine``, 128-179 an
    attribute, 180-255 a preposition (``prepositions`` maps them to words).
    """
    addr = word(memory, table + 2 * number)
    if not table <= addr < len(memory) - 1:
        return None
    count = memory[addr]
    if count > 64 or addr + 1 + 8 * count > len(memory):
        return None
    lines: list[tuple[int, _Shape]] = []
    for i in range(count):
        p = addr + 1 + 8 * i
        wanted = memory[p]
        if wanted > 6:
            return None
        shape: _Shape = []
        objects = 0
        for token in memory[p + 1 : p + 7]:
            if token == 0 and objects == wanted:
                break
            if token >= 180:
                entry = prepositions.get(token)
                if entry is None:
                    return None
                shape.append(("words", [entry]))
                continue
            if 9 <= token <= 15:
                return None
            objects += 1
            if token <= 8:
                shape.append(("object", (_ELEMENTARY, token)))
            elif token < 48:
                shape.append(("object", (_NOUN_ROUTINE, token - 16)))
            elif token < 80:
                shape.append(("object", (_ROUTINE, token - 48)))
            elif token < 128:
                shape.append(("object", (_SCOPE_ROUTINE, token - 80)))
            else:
                shape.append(("object", (_ATTRIBUTE, token - 128)))
        if objects != wanted:
            return None
        lines.append((memory[p + 7], shape))
    return lines


def _gv1_prepositions(memory: bytearray, dictionary: Dictionary) -> dict[int, str]:
    """Version 1 preposition numbers: each preposition's entry holds its number in its third data byte."""
    found: dict[int, str] = {}
    for w in dictionary.words:
        if w.preposition:
            found.setdefault(memory[w.addr + dictionary.text_bytes + 2], w.text)
    return found


def _usable_line(verb: str, action: int, shape: _Shape) -> GrammarLine | None:
    """The line as a command template, or None if it takes text, a number or more than two objects.

    Of a place's alternative words ('in'/'inside'/'into') the one that
    makes the plainest shape is written ("insert {0} into {1}").
    """
    out = [verb]
    held: list[bool] = []
    tokens: list[str] = []
    choices: list[tuple[int, list[str]]] = []
    for _kind, value in shape:
        if isinstance(value, list):  # kind "words"
            choices.append((len(out), value))
            out.append(value[0])
            continue
        token, data = value
        if token == _ROUTINE or (token == _ELEMENTARY and data in (_SPECIAL, _NUMBER, _TOPIC)):
            return None  # a general parsing routine, a number or free text
        held.append(token == _ELEMENTARY and data in (_HELD, _MULTIHELD))
        plain, held_only = token == _ELEMENTARY and data in (_NOUN, _MULTI), held[-1]
        tokens.append("n" if plain else "h" if held_only else "t")
        out.append(f"{{{len(held) - 1}}}")
    if len(held) > 2:
        return None
    for index, alternatives in choices:
        def rank(word_: str, index: int = index) -> int:
            return shape_rank(" ".join([*out[:index], word_, *out[index + 1 :]]))

        out[index] = min(alternatives, key=rank)
    return GrammarLine(action, " ".join(out), tuple(held), ("".join(tokens),))


def _noun_searches_before(shape: _Shape, earlier: list[_Shape]) -> int:
    """How many of a verb's earlier lines match nouns against the scope before failing on this line's words.

    An earlier line fails cheaply where it wants a preposition the command
    lacks, or ends where the command goes on; where it reaches an object
    token first, the parser searches the scope for the noun.
    """
    searches = 0
    for other in earlier:
        for i, (kind, value) in enumerate(other):
            if kind == "object":
                searches += 1
                break
            if i >= len(shape) or shape[i][0] != "words" or shape[i][1][0] not in value:  # type: ignore[index,operator]
                break
    return searches
