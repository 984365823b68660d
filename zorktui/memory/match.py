"""Matching a person's words to entities: by name and by the game's own vocabulary.

"lamp" finds a "brass lantern" when the game's dictionary lists "lamp" among
the lantern's words; "the old key" finds "rusty key" only if the game calls
it old. Rooms match by name, or loosely (difflib) when nothing matches exactly.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from zorktui.memory.mirror import EntityInfo

#: Words that name nothing in a question ("where is the lamp", "my key").
_FILLER = frozenset("a an the my your this that these those some any of to".split())


def _tokens(text: str) -> list[str]:
    return [w for w in text.lower().replace("?", " ").replace(",", " ").split() if w not in _FILLER]


def _score(entity: EntityInfo, words: list[str], phrase: str) -> int:
    name = entity.name.lower()
    if name == phrase:
        return 4
    name_words = set(name.split())
    if all(w in name_words for w in words):
        return 3
    vocabulary = {w.lower() for w in entity.words}
    if all(w in name_words or w in vocabulary for w in words):
        return 2
    # Z-machine dictionaries keep only the first 6 or 9 letters of a word.
    if all(any(v and w.startswith(v) and len(v) >= 6 for v in vocabulary | name_words) for w in words):
        return 1
    return 0


def match_entities(entities: Iterable[EntityInfo], text: str, rooms: bool = False) -> list[EntityInfo]:
    """Entities the words name, best matches only.

    Args:
        entities: Candidates (objects, and rooms when ``rooms``).
        text: The person's words.
        rooms: Also consider rooms.

    Returns:
        An exact name match alone; else everything named or called by the
        words (the game's own synonyms included), name matches first.
    """
    words = _tokens(text)
    if not words:
        return []
    phrase = " ".join(words)
    kinds = {"object", "thing", "room"} if rooms else {"object", "thing"}
    scored = [(s, e) for e in entities if e.kind in kinds and (s := _score(e, words, phrase)) > 0]
    if not scored:
        return []
    best = max(s for s, _ in scored)
    floor = best if best in (4, 1) else 2
    scored.sort(key=lambda pair: -pair[0])
    return [e for s, e in scored if s >= floor]


def match_rooms(entities: Iterable[EntityInfo], text: str) -> list[EntityInfo]:
    """Rooms a name refers to: exact, then all words, then the closest spelling."""
    candidates = [e for e in entities if e.kind == "room"]
    words = _tokens(text)
    if not words:
        return []
    phrase = " ".join(words)
    scored = [(s, e) for e in candidates if (s := _score(e, words, phrase)) > 0]
    if scored:
        best = max(s for s, _ in scored)
        return [e for s, e in scored if s == best]
    names = {e.name.lower(): e for e in candidates}
    close = difflib.get_close_matches(phrase, list(names), n=1, cutoff=0.6)
    return [names[close[0]]] if close else []
