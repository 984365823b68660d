"""Inform's grammar tables (version 2), read straight from the story.

Inform 6 (and Inform 7, which compiles through it) keeps a table of grammar
lines per verb at the start of static memory: each line names an action and
the tokens it takes (objects, objects held, prepositions, topics). Reading
them gives the exact command forms a verb has, and lets verbs that lead to
the same action with the same tokens ("take", "get", "carry") be tried once.
"""

from __future__ import annotations

from dataclasses import dataclass

from zorktui.engine.dictionary import Dictionary
from zorktui.engine.grammar import PREFERRED, is_meta
from zorktui.engine.header import word
from zorktui.engine.zmachine import ZMachine

_ENDIT = 15
_ELEMENTARY, _PREPOSITION, _NOUN_ROUTINE, _ATTRIBUTE, _SCOPE_ROUTINE, _ROUTINE = 1, 2, 3, 4, 5, 6
_HELD, _MULTIHELD = 1, 3
_SPECIAL, _NUMBER, _TOPIC = 7, 8, 9


@dataclass(frozen=True)
class GrammarLine:
    """One way to use a verb.

    Attributes:
        action: The action number the line leads to.
        words: The command with ``{0}``/``{1}`` for object slots, verb first.
        held: For each slot, whether the object must be held.
    """

    action: int
    words: str
    held: tuple[bool, ...]


def _line_words(memory: bytearray, dictionary: Dictionary, p: int) -> tuple[list[tuple[int, int, int]], int] | None:
    tokens = []
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
        One line per action and number of objects, with the plainest verb and
        the shortest form (an action does the same whichever words led to it).
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
    seen: dict[tuple[int, int], GrammarLine] = {}

    def plain_first(n: int) -> tuple[int, str]:
        # Of verbs sharing an action and form, keep the plainest ("take" over "carry").
        text = verbs[n]
        return (PREFERRED.index(text) if text in PREFERRED else len(PREFERRED), text)

    for number in sorted(verbs, key=plain_first):
        verb = verbs[number]
        addr = word(memory, table + 2 * number)
        if not table <= addr < len(memory) - 1:
            return None
        count = memory[addr]
        if count > 64:
            return None
        p = addr + 1
        for _ in range(count):
            action = word(memory, p) & 0x3FF
            parsed = _line_words(memory, dictionary, p + 2)
            if parsed is None:
                return None
            tokens, p = parsed
            out = [verb]
            held: list[bool] = []
            usable = True
            previous_was_alternative = False
            for ttype, data, _ in tokens:
                kind = ttype & 0x0F
                alternative = bool(ttype & 0x30)
                if kind == _PREPOSITION:
                    entry = dictionary.at(data)
                    if entry is None:
                        return None
                    if alternative and previous_was_alternative:
                        continue  # 'in'/'into': the first of the alternatives will do
                    out.append(entry.text)
                elif kind == _ELEMENTARY:
                    if data in (_SPECIAL, _NUMBER, _TOPIC):
                        usable = False
                    held.append(data in (_HELD, _MULTIHELD))
                    out.append("{%d}" % (len(held) - 1))
                elif kind in (_NOUN_ROUTINE, _ATTRIBUTE, _SCOPE_ROUTINE):
                    held.append(False)
                    out.append("{%d}" % (len(held) - 1))
                elif kind == _ROUTINE:
                    usable = False  # a general parsing routine reads what it likes
                else:
                    return None
                previous_was_alternative = kind == _PREPOSITION and alternative
            if not usable or len(held) > 2:
                continue
            candidate = GrammarLine(action, " ".join(out), tuple(held))
            key = (action, len(held))
            # One line per action and number of objects: "pick up {0}" does what "take {0}" does.
            best = seen.get(key)
            if best is None or len(candidate.words.split()) < len(best.words.split()):
                seen[key] = candidate
    return list(seen.values())
