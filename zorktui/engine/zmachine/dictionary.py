"""The game's dictionary: the words its parser knows (Standard 1.1, section 13).

Word flags follow the two families of compilers: Inform (6, and 7 through 6)
and ZIL (Infocom's, and zorkie). Which family made a story is read from the
header, so no particular game is assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from zorktui.engine.zmachine.header import Header, word
from zorktui.engine.zmachine.zstring import ZStringDecoder

# Inform 6 dict_par1 flags.
_I6_VERB = 0x01
_I6_META = 0x02
_I6_PLURAL = 0x04
_I6_PREP = 0x08
_I6_NOUN = 0x80
# ZIL part-of-speech flags.
_ZIL_OBJECT = 0x80
_ZIL_VERB = 0x40
_ZIL_ADJECTIVE = 0x20
_ZIL_DIRECTION = 0x10
_ZIL_PREPOSITION = 0x08
_ZIL_BUZZ = 0x04
#: The low two flag bits name the part of speech the first value byte is for; 2 is the adjective.
_ZIL_FIRST_ADJECTIVE = 2
#: Characters of the default third Z-alphabet (versions 2 on): each takes two Z-characters.
_A2 = "0123456789.,!?_#'\"/\\-:()"


@dataclass(frozen=True)
class DictWord:
    """One dictionary entry.

    Attributes:
        text: The word as stored (truncated to the dictionary's resolution).
        addr: Address of the entry (what parse tables and ``name`` properties hold).
        verb: It can start a command.
        verb_number: Grammar number shared by synonyms, or -1.
        meta: An out-of-world verb (save, score, verbose, ...), where known.
        noun: It names an object, where known.
        preposition: It can join a verb's objects.
        adjective: It qualifies a noun (ZIL only).
        direction: It names a direction (ZIL only).
        plural: It is a plural noun (Inform only).
        adjective_number: The number a ZIL story's v3 objects list this
            adjective by in their ADJECTIVE property (one byte each), or -1.
    """

    text: str
    addr: int
    verb: bool
    verb_number: int
    meta: bool
    noun: bool
    preposition: bool
    adjective: bool
    direction: bool
    plural: bool
    adjective_number: int = -1


class Dictionary:
    """Reads the main dictionary of a story.

    Args:
        memory: The memory image.
        header: The story header.
        decoder: A Z-string decoder over the same memory.
    """

    def __init__(self, memory: bytes | bytearray, header: Header, decoder: ZStringDecoder) -> None:
        base = header.dictionary
        n_sep = memory[base]
        self.separators = "".join(chr(memory[base + 1 + i]) for i in range(n_sep))
        pos = base + 1 + n_sep
        self.entry_length = memory[pos]
        count = word(memory, pos + 1)
        if count >= 0x8000:  # a negative count marks an unsorted dictionary
            count = 0x10000 - count
        self.start = pos + 3
        self.count = count
        self.end = self.start + count * self.entry_length
        self.text_bytes = 4 if header.version <= 3 else 6
        #: How many letters of a word the parser compares.
        self.resolution = 6 if header.version <= 3 else 9
        inform = header.is_inform
        words: list[DictWord] = []
        for i in range(count):
            addr = self.start + i * self.entry_length
            if addr + self.entry_length > len(memory):
                break
            text = decoder.decode(addr, max_bytes=self.text_bytes)[0].rstrip()
            data = addr + self.text_bytes
            extra = self.entry_length - self.text_bytes
            flags = memory[data] if extra >= 1 else 0
            b1 = memory[data + 1] if extra >= 2 else 0
            b2 = memory[data + 2] if extra >= 3 else 0
            words.append(self._classify(text, addr, flags, b1, b2, inform))
        self.words = words
        self._by_addr = {w.addr: w for w in words}
        self._by_text = {w.text: w for w in words}

    @staticmethod
    def _classify(text: str, addr: int, flags: int, b1: int, b2: int, inform: bool) -> DictWord:
        if inform:
            verb = bool(flags & _I6_VERB)
            return DictWord(
                text=text, addr=addr, verb=verb, verb_number=(255 - b1) if verb else -1,
                meta=bool(flags & _I6_META), noun=bool(flags & _I6_NOUN),
                preposition=bool(flags & _I6_PREP), adjective=False, direction=False,
                plural=bool(flags & _I6_PLURAL),
            )
        verb = bool(flags & _ZIL_VERB)
        # The low two bits say which part of speech the first value byte belongs to.
        verb_number = (b1 if (flags & 3) == 1 else b2) if verb else -1
        adjective = bool(flags & _ZIL_ADJECTIVE)
        adjective_number = (b1 if (flags & 3) == _ZIL_FIRST_ADJECTIVE else b2) if adjective else -1
        return DictWord(
            text=text, addr=addr, verb=verb, verb_number=verb_number, meta=False,
            noun=bool(flags & _ZIL_OBJECT), preposition=bool(flags & _ZIL_PREPOSITION),
            adjective=adjective, direction=bool(flags & _ZIL_DIRECTION),
            plural=False, adjective_number=adjective_number,
        )

    def at(self, addr: int) -> DictWord | None:
        """The entry at ``addr``, or None when ``addr`` is not an entry."""
        if self.start <= addr < self.end and (addr - self.start) % self.entry_length == 0:
            return self._by_addr.get(addr)
        return None

    def cut(self, text: str) -> str:
        """``text`` as the dictionary keeps it: lower case, as many letters as its Z-characters hold.

        A letter takes one Z-character, a digit or punctuation mark two (a
        shift and the character), anything else four: "frosted-glass" is
        kept as "frosted-" in a version 5 story, not "frosted-g".
        """
        out = []
        used = 0
        for ch in text.lower():
            cost = 1 if "a" <= ch <= "z" else 2 if ch in _A2 else 4
            if used + cost > self.resolution:
                break
            out.append(ch)
            used += cost
        return "".join(out)

    def lookup(self, text: str) -> DictWord | None:
        """Find a word as the parser would: lower case, truncated to the resolution."""
        lowered = text.lower()
        found = self._by_text.get(lowered[: self.resolution])
        return found if found is not None or lowered.isalpha() else self._by_text.get(self.cut(lowered))

    def __contains__(self, text: str) -> bool:
        return self.lookup(text) is not None

    def __len__(self) -> int:
        return len(self.words)
