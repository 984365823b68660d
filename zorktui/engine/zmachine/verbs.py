"""Verbs as English knows them: out-of-world verbs, preferred synonyms, command shapes, a dictionary's verb groups.

Game-agnostic word lists read by both the grammar-table reader
(:mod:`zorktui.engine.zmachine.inform_grammar`) and the template learner
(:mod:`zorktui.engine.actions.grammar`).
"""

from __future__ import annotations

import re

from zorktui.engine.zmachine.whole_words import whole_verb
from zorktui.engine.zmachine.zmachine import ZMachine

#: Out-of-world commands: never candidates (their effects are on the session, not the world).
META_WORDS = frozenset(
    "save restore restart quit q die verify score fullscore full verbose brief superbrief short normal script unscript "
    "transcript version undo again g oops o notify pronouns nouns places objects diagnose random "
    "recording replay noscript help hint hints about info credits license".split()
) | frozenset(
    # A debugging build's verbs (ZIL's "debug", Inform's "actions", "purloin", "gonear"...): they
    # print the parser's workings into every later reply or move things by magic.
    "debug trace actions routines messages timers daemons tree purloin abstract gonear "
    "scope showobj showverb xpurloin xabstract xtree".split()
)
#: Verbs preferred as the name of a synonym group (plain English, not any game's).
PREFERRED = (
    "take", "drop", "open", "close", "put", "insert", "give", "show", "unlock", "lock", "turn",
    "switch", "push", "pull", "move", "eat", "drink", "wear", "remove", "enter", "exit", "climb",
    "read", "attack", "tie", "fill", "empty", "light", "ask", "tell", "burn", "cut", "dig", "wave",
    "throw", "search", "examine", "listen", "smell", "touch", "wait", "jump", "sleep", "pray",
    "sing", "swim", "go", "cook", "slice", "chop", "dice", "prepare", "kill", "break", "rub",
)
#: Command shapes people (and TextWorld) write, plainest first, for commands with the same effect
#: and for the one grammar line kept per action. "_" stands for an object. Game-agnostic English.
SHAPES = (
    "take _ from _", "take _", "drop _", "put _ on _", "insert _ into _", "put _ in _", "put _ into _",
    "open _", "close _", "unlock _ with _", "lock _ with _", "turn on _", "turn off _", "switch on _",
    "switch off _", "light _", "wear _", "take off _", "eat _", "drink _", "give _ to _", "show _ to _",
    "ask _ about _", "ask _ for _", "tell _ about _", "enter _", "get off _", "climb _", "read _",
    "cook _ with _", "slice _ with _", "chop _ with _", "dice _ with _", "cut _ with _", "push _", "pull _",
    "move _", "turn _", "tie _ to _", "fill _", "empty _", "search _", "examine _",
)
_SHAPE_RANK = {shape: i for i, shape in enumerate(SHAPES)}
_SLOT = re.compile(r"\{\d\}")
#: Words in a command that make it about the interface, not the world: TextWorld's "enable
#: print state option" and "restrict commands", "inventory tall", "mode" switches.
SETTING_WORDS = frozenset("option options mode commands tall wide".split())

def shape_rank(template: str) -> int:
    """Where a template's shape stands in :data:`SHAPES` (past the end when not listed)."""
    return _SHAPE_RANK.get(_SLOT.sub("_", template), len(SHAPES))


def about_settings(template: str) -> bool:
    """Whether a template's own words (not its objects) make it an interface command."""
    words = _SLOT.sub(" ", template).split()
    return any(w in SETTING_WORDS for w in words) or bool(words) and is_meta(words[0])


def is_meta(word: str) -> bool:
    """Whether a (possibly truncated) dictionary word is an out-of-world verb."""
    # Dictionary words are truncated ("transcrip"): compare as prefixes.
    return word in META_WORDS or (len(word) >= 6 and any(m.startswith(word) for m in META_WORDS))


def verb_groups(zm: ZMachine) -> list[str]:
    """One word per distinct verb in the dictionary (synonyms share a verb number).

    Returns:
        Verb words, sorted; meta verbs (save, score, ...) are left out.
    """
    groups: dict[int, list[str]] = {}
    meta_groups: set[int] = set()
    words = zm.dictionary.words
    resolution = zm.dictionary.resolution
    flagged = any(w.verb for w in words)
    for w in words:
        if flagged:
            if not w.verb:
                continue
        elif w.noun or w.adjective or w.direction or w.preposition or len(w.text) < 2:
            # A hand-written parser may flag no verbs at all: then every word
            # that is not some other part of speech is worth asking about.
            continue
        if not w.text.isalpha():
            continue
        key = w.verb_number if w.verb_number >= 0 else -1000 - len(groups)
        if w.meta or is_meta(w.text):
            # The whole group goes: Zork's "super" shares its verb number
            # with "superbrief" (stored as "superb").
            meta_groups.add(key)
        groups.setdefault(key, []).append(w.text)
    out = []
    for key, synonyms in groups.items():
        if key in meta_groups:
            continue
        preferred = [p for p in PREFERRED if p in synonyms]
        if preferred:
            out.append(preferred[0])
            continue
        # A synonym the dictionary keeps whole (or one a common verb spells out) over a cut one.
        spelled = [whole_verb(t, resolution) for t in synonyms]
        out.append(max(spelled, key=lambda t: (len(t) >= 3, len(t) != resolution, -abs(len(t) - 5), t)))
    return sorted(set(out))
