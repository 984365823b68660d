"""The adjectives a ZIL object answers to, in either of the forms compilers write them.

A ZIL object's ``ADJECTIVE`` property lists the adjectives the parser accepts
before its nouns ("trap" in "trap door"). Infocom's version 3 games store one
byte per adjective, the adjective's number (kept in the dictionary entry of
the word); later versions, and some compilers for version 3 too (zorkie),
store dictionary addresses, which :meth:`ZMachine.object_vocabulary` already
reads. Which property holds the bytes is not fixed: it is learned from the
story itself, as the property whose bytes hold the numbers of the
adjectives that objects' own short names use ("trap door" on the object
whose bytes include TRAP's number). No per-game tables.
"""

from __future__ import annotations

import weakref

from zorktui.engine.zmachine.zmachine import ZMachine

#: Longest property read as a list of adjective bytes (Infocom's run to 4-6).
MAX_ADJECTIVES = 8
#: Objects whose names agree with a property before it is believed to hold adjectives.
MIN_AGREEING = 3


class Adjectives:
    """Reads the adjective bytes of a ZIL story's objects (nothing for Inform stories).

    Args:
        zm: The memory reader.
    """

    def __init__(self, zm: ZMachine) -> None:
        self.zm = zm
        #: Adjective number -> the dictionary words that carry it.
        self._words: dict[int, list[str]] = {}
        for w in zm.dictionary.words:
            if w.adjective and w.adjective_number >= 0:
                self._words.setdefault(w.adjective_number, []).append(w.text)
        #: The property that lists adjective numbers (None: none does, or an Inform story).
        self.prop = None if zm.header.is_inform or not self._words else self._learn()

    @classmethod
    def of(cls, zm: ZMachine) -> Adjectives:
        """The reader for ``zm``, learned once per memory reader."""
        known = _READERS.get(zm)
        if known is None:
            known = _READERS[zm] = cls(zm)
        return known

    def _learn(self) -> int | None:
        """The property whose bytes hold the numbers of the adjectives in objects' short names."""
        zm = self.zm
        objects = zm.objects
        dictionary = zm.dictionary
        agreeing: dict[int, int] = {}
        for obj in range(1, objects.count + 1):
            numbers = set()
            for token in objects.name(obj).lower().split():
                entry = dictionary.lookup(token)
                if entry is not None and entry.adjective_number >= 0:
                    numbers.add(entry.adjective_number)
            if not numbers:
                continue
            for prop in objects.properties(obj):
                if prop.length <= MAX_ADJECTIVES and numbers & set(zm.memory[prop.addr : prop.addr + prop.length]):
                    agreeing[prop.number] = agreeing.get(prop.number, 0) + 1
        if not agreeing:
            return None
        best = max(agreeing, key=agreeing.__getitem__)
        return best if agreeing[best] >= MIN_AGREEING else None

    def words(self, obj: int) -> list[str]:
        """The adjectives (dictionary texts) an object lists by number, in the order it lists them."""
        if self.prop is None:
            return []
        prop = next((p for p in self.zm.objects.properties(obj) if p.number == self.prop), None)
        if prop is None or prop.length > MAX_ADJECTIVES:
            return []
        out: list[str] = []
        for number in self.zm.memory[prop.addr : prop.addr + prop.length]:
            for text in self._words.get(number, ()):
                if text not in out:
                    out.append(text)
        return out


_READERS: weakref.WeakKeyDictionary[ZMachine, Adjectives] = weakref.WeakKeyDictionary()
