"""A reader over the live memory of a running Z-machine.

The interpreter (jericho's Frotz) owns dynamic memory; static and high memory
never change, so they come from the story file. ``refresh`` copies the
current dynamic memory into one image that every reader shares.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from zorktui.engine.zmachine.dictionary import Dictionary
from zorktui.engine.zmachine.header import Header, word
from zorktui.engine.zmachine.objects import ObjectTable
from zorktui.engine.zmachine.zstring import ZStringDecoder

if TYPE_CHECKING:
    import numpy as np


class ZMachine:
    """Header, objects, globals and dictionary of a story, over its current memory.

    Args:
        story: The bytes of the story file (Z-code).
    """

    def __init__(self, story: bytes) -> None:
        self.header = Header.parse(story)
        self.memory = bytearray(story)
        self.dynamic_size = self.header.static_memory
        self.decoder = ZStringDecoder(self.memory, self.header)
        self.objects = ObjectTable(self.memory, self.header, self.decoder)

    @cached_property
    def dictionary(self) -> Dictionary:
        """The main dictionary (in static memory: read once, on first use)."""
        return Dictionary(self.memory, self.header, self.decoder)

    def refresh(self, ram: bytes | bytearray | memoryview | np.ndarray) -> None:
        """Replace dynamic memory with the interpreter's current copy (jericho hands it over as an array)."""
        n = min(len(ram), self.dynamic_size)
        # numpy's stubs give ndarray the buffer protocol from Python 3.12 only; it has it on 3.11 too.
        self.memory[:n] = memoryview(ram)[:n]  # type: ignore[arg-type]

    def global_var(self, index: int) -> int:
        """Global variable ``index`` (0 = the Z-machine's variable 16), unsigned."""
        return word(self.memory, self.header.globals + 2 * index)

    def signed_global(self, index: int) -> int:
        """Global variable ``index`` as a signed 16-bit number."""
        v = self.global_var(index)
        return v - 0x10000 if v >= 0x8000 else v

    def object_vocabulary(self, obj: int) -> list[str]:
        """The dictionary words the game's own properties list for an object.

        Inform's ``name`` property and ZIL's ``SYNONYM`` hold dictionary
        addresses; any property word that is an entry address counts.
        """
        words = []
        dictionary = self.dictionary
        for value in self.objects.property_words(obj):
            entry = dictionary.at(value)
            if entry is not None and entry.text not in words:
                words.append(entry.text)
        return words

    def globals_range(self) -> tuple[int, int]:
        """Byte range of the 240 global variables."""
        start = self.header.globals
        return start, start + 480
