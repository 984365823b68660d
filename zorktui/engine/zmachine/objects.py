"""The object table: tree links, attributes, properties and short names (Standard 1.1, section 12).

The layout (addresses, property positions, short names) is fixed when the
story is compiled, so it is read once; the tree links, attributes and
property values live in dynamic memory and are read from the current memory
image on every call.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from zorktui.engine.zmachine.header import Header, word
from zorktui.engine.zmachine.zstring import ZStringDecoder

#: Entries read at most in one individual property table.
_MAX_INDIVIDUAL = 64
#: Longest value an individual property entry may hold (Inform caps them at 64 words).
_MAX_INDIVIDUAL_BYTES = 128


@dataclass(frozen=True)
class Property:
    """One property of an object: its number and where its data lies."""

    number: int
    addr: int
    length: int


class ObjectTable:
    """Reads objects from a memory image for v1-3 (9-byte) and v4+ (14-byte) layouts.

    Args:
        memory: The memory image. The caller may update its dynamic part in
            place between calls; this reader keeps a reference, not a copy.
        header: The story header.
        decoder: A Z-string decoder over the same memory.
    """

    def __init__(self, memory: bytearray, header: Header, decoder: ZStringDecoder) -> None:
        self._memory = memory
        small = header.version <= 3
        self.entry_size = 9 if small else 14
        self.attribute_bytes = 4 if small else 6
        self._small = small
        defaults_words = 31 if small else 63
        self.defaults_addr = header.object_table
        self.entries_addr = header.object_table + 2 * defaults_words
        self.count = self._count_objects(header)
        self._names: dict[int, str] = {}
        self._decoder = decoder
        self._prop_cache: dict[int, tuple[Property, ...]] = {}
        self._header = header
        self._individual: dict[int, tuple[tuple[int, int, int], ...]] = {}

    def _count_objects(self, header: Header) -> int:
        # The first property table normally follows the last object entry, so
        # the lowest property address bounds the table (the usual method).
        memory = self._memory
        lowest = len(memory)
        n = 0
        addr = self.entries_addr
        while addr + self.entry_size <= lowest and addr + self.entry_size <= len(memory):
            prop = word(memory, addr + self.entry_size - 2)
            if prop < self.entries_addr or prop >= len(memory):
                break
            lowest = min(lowest, prop)
            n += 1
            addr += self.entry_size
            if n >= 65535:
                break
        return n

    @property
    def link_bytes(self) -> int:
        """Bytes per parent, sibling and child link: 1 in versions 1-3, 2 from version 4."""
        return 1 if self._small else 2

    def entry(self, obj: int) -> int:
        """Byte address of object ``obj``'s entry."""
        return self.entries_addr + (obj - 1) * self.entry_size

    def valid(self, obj: int) -> bool:
        """Whether ``obj`` is an object number in the table."""
        return 1 <= obj <= self.count

    def _link(self, obj: int, slot: int) -> int:
        # slot 0, 1, 2 = parent, sibling, child: bytes in v1-3, words in v4+.
        e = self.entry(obj) + self.attribute_bytes
        if self._small:
            return self._memory[e + slot]
        return word(self._memory, e + 2 * slot)

    def parent(self, obj: int) -> int:
        """The object's parent (0 for none)."""
        return self._link(obj, 0)

    def sibling(self, obj: int) -> int:
        """The object's next sibling (0 for none)."""
        return self._link(obj, 1)

    def child(self, obj: int) -> int:
        """The object's first child (0 for none)."""
        return self._link(obj, 2)

    def _walk(self, obj: int, first: int, then: int) -> list[int]:
        # Follow one tree link, then another, stopping at 0, a bad number or a
        # corrupt cycle (more steps than there are objects).
        out: list[int] = []
        o = self._link(obj, first) if self.valid(obj) else 0
        while o and self.valid(o) and len(out) <= self.count:
            out.append(o)
            o = self._link(o, then)
        return out

    def children(self, obj: int) -> list[int]:
        """The object's children in tree order (guarded against corrupt cycles)."""
        return self._walk(obj, 2, 1)

    def ancestors(self, obj: int) -> list[int]:
        """Parent, grandparent, ... up to the root (nearest first)."""
        return self._walk(obj, 0, 0)

    def descendants(self, obj: int, max_depth: int = 8) -> Iterator[tuple[int, int]]:
        """Yield ``(object, depth)`` below ``obj`` in depth-first tree order."""
        stack = [(c, 1) for c in reversed(self.children(obj))]
        seen = 0
        while stack and seen <= self.count:
            o, d = stack.pop()
            seen += 1
            yield o, d
            if d < max_depth:
                stack.extend((c, d + 1) for c in reversed(self.children(o)))

    def attributes(self, obj: int) -> list[int]:
        """The numbers of the attributes the object has set."""
        e = self.entry(obj)
        out = []
        for i in range(self.attribute_bytes):
            b = self._memory[e + i]
            if b:
                for bit in range(8):
                    if b & (0x80 >> bit):
                        out.append(8 * i + bit)
        return out

    def property_table(self, obj: int) -> int:
        """Address of the object's property table."""
        return word(self._memory, self.entry(obj) + self.entry_size - 2)

    def name(self, obj: int) -> str:
        """The object's short name (cached: short names live in the fixed layout)."""
        cached = self._names.get(obj)
        if cached is not None:
            return cached
        name = ""
        if self.valid(obj):
            table = self.property_table(obj)
            if 0 < table < len(self._memory) and self._memory[table]:
                name = self._decoder.decode(table + 1, max_bytes=2 * self._memory[table])[0]
        self._names[obj] = name
        return name

    def properties(self, obj: int) -> tuple[Property, ...]:
        """The object's properties, highest number first (positions are cached)."""
        cached = self._prop_cache.get(obj)
        if cached is not None:
            return cached
        props: list[Property] = []
        memory = self._memory
        table = self.property_table(obj)
        if not (0 < table < len(memory)):
            return ()
        addr = table + 1 + 2 * memory[table]
        while addr < len(memory):
            size = memory[addr]
            if size == 0:
                break
            if self._small:
                number = size & 31
                length = (size >> 5) + 1
                data = addr + 1
            elif size & 0x80:
                number = size & 63
                length = memory[addr + 1] & 63 or 64
                data = addr + 2
            else:
                number = size & 63
                length = 2 if size & 0x40 else 1
                data = addr + 1
            props.append(Property(number, data, length))
            addr = data + length
            if len(props) > 64:
                break
        result = tuple(props)
        self._prop_cache[obj] = result
        return result

    def word_property(self, obj: int, number: int) -> Property | None:
        """The object's property ``number`` if it holds one word (an object, an address), else None."""
        return next((p for p in self.properties(obj) if p.number == number and p.length == 2), None)

    def property_words(self, obj: int) -> list[int]:
        """Every 16-bit value held in the object's properties (for vocabulary lookups)."""
        memory = self._memory
        out = []
        for prop in self.properties(obj):
            for a in range(prop.addr, prop.addr + prop.length - 1, 2):
                out.append((memory[a] << 8) | memory[a + 1])
        return out

    def individual_entries(self, obj: int) -> tuple[tuple[int, int, int], ...]:
        """The object's Inform individual properties: (number, data start, data end) each.

        Inform 6 (and so Inform 7) keeps properties numbered 64 and up out of
        the Z-machine's property table: common property 3 holds the address
        of a table of (number: word, length: byte, data) entries ended by a
        zero word, in dynamic memory. Inform 7 keeps much of an object's state
        there (a TextWorld vegetable's cooked and cut state). Empty for other
        compilers, or where property 3 does not point at such a table.
        """
        if not self._header.is_inform:
            return ()
        cached = self._individual.get(obj)
        if cached is not None:
            return cached
        entries: list[tuple[int, int, int]] = []
        prop = self.word_property(obj, 3)
        memory, limit = self._memory, self._header.static_memory
        complete = False
        if prop is not None:
            pos = (memory[prop.addr] << 8) | memory[prop.addr + 1]
            if self.entries_addr < pos < limit:
                for _entry in range(_MAX_INDIVIDUAL):
                    if pos + 2 > limit:
                        break
                    number = (memory[pos] << 8) | memory[pos + 1]
                    if number == 0:
                        complete = True
                        break
                    if pos + 3 > limit or (number & 0x7FFF) < 64 or memory[pos + 2] > _MAX_INDIVIDUAL_BYTES:
                        break
                    entries.append((number & 0x7FFF, pos + 3, pos + 3 + memory[pos + 2]))
                    pos += 3 + memory[pos + 2]
        found = tuple(entries) if complete else ()
        self._individual[obj] = found  # tables never move (values change in place)
        return found

    def individual_ranges(self, obj: int, leave_out: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, int]]:
        """Byte ranges of the object's individual property values, but for the numbers in ``leave_out``."""
        return [(start, end) for number, start, end in self.individual_entries(obj) if number not in leave_out]

    def layout_ranges(self, leave_out: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, int]]:
        """Byte ranges ``(start, end)`` of object entries and property data.

        These are the parts of dynamic memory that hold the world model of an
        Inform or ZIL game, used for world-state fingerprints: entries, the
        property tables' data, and Inform's individual property values (but
        for the numbers in ``leave_out``: the library's bookkeeping).
        """
        ranges = [(self.entries_addr, self.entries_addr + self.count * self.entry_size)]
        for obj in range(1, self.count + 1):
            for prop in self.properties(obj):
                ranges.append((prop.addr, prop.addr + prop.length))
            ranges.extend(self.individual_ranges(obj, leave_out))
        return ranges
