"""Names a story keeps out of the object table: Inform 7's "printed name" property.

Inform 7 compiles every object with an empty short name (Standard 1.1,
section 12.3) and prints names from a property instead (I6's ``short_name``,
whose number depends on the compile). The property holds either a packed
string or the address of a small text block: a header word, then the packed
string (or a routine, for names with substitutions, which cannot be read
without running it).

Which property it is, is learned from the game itself: the one whose text on
the current room matches the room the status line shows. No per-game tables.
"""

from __future__ import annotations

from zorktui.engine.zmachine.zmachine import ZMachine

#: Decorations around a name on a status line ("-= Kitchen =-" in TextWorld).
_DECORATION = " -=*:|[]"
#: Longest name believed (a longer text is a description, not a name).
MAX_NAME = 60


def plain_name(text: str) -> str:
    """A name without the decorations status lines put around it."""
    return text.strip(_DECORATION)


class PrintedNames:
    """Reads objects' printed names from the property that holds them, once learned.

    Args:
        zm: The memory reader (refreshed by the caller).
    """

    def __init__(self, zm: ZMachine) -> None:
        self.zm = zm
        #: The property that holds printed names (None until learned).
        self.prop: int | None = None
        #: Its values are text blocks (Inform 7) rather than packed strings.
        self.block = True
        self._tried: set[tuple[int, str]] = set()
        self._addr: dict[int, int] = {}
        self._texts: dict[tuple[int, bool], str] = {}

    def copy_for(self, zm: ZMachine) -> PrintedNames:
        """The same knowledge over another memory image."""
        other = PrintedNames(zm)
        other.prop, other.block, other._tried = self.prop, self.block, set(self._tried)
        other._addr, other._texts = dict(self._addr), dict(self._texts)
        return other

    def _word(self, addr: int) -> int:
        mem = self.zm.memory
        return mem[addr] << 8 | mem[addr + 1]

    def _string(self, packed: int) -> str | None:
        """The packed string at ``packed``, if it is one in high memory and reads as a name."""
        header = self.zm.header
        addr = packed * header.packed_scale
        if not header.high_memory <= addr < len(self.zm.memory) - 2:
            return None
        try:
            text = self.zm.decoder.decode(addr, max_bytes=2 * MAX_NAME)[0]
        except (IndexError, ValueError, KeyError):
            return None
        if not text or len(text) > MAX_NAME or not text.isprintable():
            return None
        return text

    def text(self, value: int, block: bool | None = None) -> str | None:
        """The text a property value stands for: a packed string, or a text block holding one.

        Args:
            value: The property's value.
            block: Read it as a text block (True), a packed string (False), or
                as the form learned (None).
        """
        block = self.block if block is None else block
        key = (value, block)
        cached = self._texts.get(key)
        if cached is not None:
            return cached or None
        text = None
        if not block:
            text = self._string(value)
        elif 0 < value < len(self.zm.memory) - 4 and self._word(value) < 0x100:
            text = self._string(self._word(value + 2))
        self._texts[key] = text or ""  # strings live in static memory: a value always means the same
        return text

    def learn(self, room: int, status_name: str) -> bool:
        """Find the property whose text on ``room`` is the name the status line shows (once per room).

        Returns:
            Whether the property is known now.
        """
        if self.prop is not None:
            return True
        wanted = plain_name(status_name).lower()
        if not wanted or (room, wanted) in self._tried:
            return False
        self._tried.add((room, wanted))
        for prop in self.zm.objects.properties(room):
            if prop.length != 2:
                continue
            for block in (True, False):
                text = self.text(self._word(prop.addr), block)
                if text is not None and plain_name(text).lower() == wanted:
                    self.prop, self.block = prop.number, block
                    return True
        return False

    def name(self, obj: int) -> str:
        """The object's printed name ("" when unknown or computed by a routine)."""
        if self.prop is None:
            return ""
        addr = self._addr.get(obj)
        if addr is None:
            prop = self.zm.objects.word_property(obj, self.prop)
            addr = prop.addr if prop is not None else 0
            self._addr[obj] = addr  # property tables never move: only the value can change
        if not addr:
            return ""
        text = self.text(self._word(addr))
        return plain_name(text) if text else ""
