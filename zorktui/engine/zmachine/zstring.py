"""Z-string decoding: alphabets, abbreviations and ZSCII (Standard 1.1, section 3)."""

from __future__ import annotations

from zorktui.engine.zmachine.header import Header, word

_A0 = "abcdefghijklmnopqrstuvwxyz"
_A1 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_A2 = " \n0123456789.,!?_#'\"/\\-:()"  # z-chars 6..31 of A2 (6 is the ZSCII escape)
_A2_V1 = " 0123456789.,!?_#'\"/\\<-:()"

# ZSCII 155..223: the default extra characters (Standard 3.8.5.3).
_DEFAULT_EXTRA = (
    "äöüÄÖÜß»«ëïÿËÏáéíóúýÁÉÍÓÚÝàèìòùÀÈÌÒÙâêîôûÂÊÎÔÛåÅøØãñõÃÑÕæÆçÇþðÞÐ£œŒ¡¿"
)


class ZStringDecoder:
    """Decodes Z-encoded text in a memory image.

    Args:
        memory: The full memory image (dynamic memory followed by the rest of
            the story file). Abbreviations and alphabets are read from it once.
        header: The story header.
    """

    def __init__(self, memory: bytes | bytearray, header: Header) -> None:
        self._memory = memory
        self._version = header.version
        self._alphabets = self._read_alphabets(memory, header)
        self._extra = self._read_unicode_table(memory, header)
        self._abbreviations: list[str] | None = None
        self._abbrev_addrs: list[int] = []
        if header.abbreviations and header.version >= 2:
            base = header.abbreviations
            self._abbrev_addrs = [word(memory, base + 2 * i) * 2 for i in range(96)]

    @staticmethod
    def _read_alphabets(memory: bytes | bytearray, header: Header) -> tuple[str, str, str]:
        if header.version >= 5 and header.alphabet_table:
            base = header.alphabet_table
            table = "".join(chr(memory[base + i]) for i in range(78))
            # Entries 6 and 7 of A2 keep their special meanings (escape, newline).
            a2 = " \n" + table[54 + 2 : 78]
            return table[0:26], table[26:52], a2
        if header.version == 1:
            return _A0, _A1, _A2_V1
        return _A0, _A1, _A2

    @staticmethod
    def _read_unicode_table(memory: bytes | bytearray, header: Header) -> str:
        ext = header.header_extension
        if ext and ext + 8 <= len(memory) and word(memory, ext) >= 3:
            table = word(memory, ext + 6)
            if table and table < len(memory):
                count = memory[table]
                chars = []
                for i in range(count):
                    code = word(memory, table + 1 + 2 * i)
                    chars.append(chr(code) if code else "?")
                return "".join(chars)
        return _DEFAULT_EXTRA

    def zscii(self, code: int) -> str:
        """Convert one ZSCII output code to text."""
        if code == 13 or code == 10:
            return "\n"
        if 32 <= code <= 126:
            return chr(code)
        if 155 <= code < 155 + len(self._extra):
            return self._extra[code - 155]
        return ""

    def _abbreviation(self, index: int) -> str:
        if self._abbreviations is None:
            # Decode lazily: most reads never touch abbreviations.
            self._abbreviations = [""] * len(self._abbrev_addrs)
            for i, addr in enumerate(self._abbrev_addrs):
                if 0 < addr < len(self._memory):
                    self._abbreviations[i] = self.decode(addr, allow_abbreviations=False)[0]
        if 0 <= index < len(self._abbreviations):
            return self._abbreviations[index]
        return ""

    def decode(self, addr: int, max_bytes: int | None = None, allow_abbreviations: bool = True) -> tuple[str, int]:
        """Decode the Z-string at ``addr``.

        Args:
            addr: Byte address of the first word.
            max_bytes: Stop after this many bytes even without an end bit
                (dictionary words have a fixed length).
            allow_abbreviations: False inside an abbreviation (they may not nest).

        Returns:
            The decoded text and the number of bytes the string occupied.
        """
        memory = self._memory
        zchars: list[int] = []
        pos = addr
        end = len(memory) - 1
        limit = addr + max_bytes if max_bytes is not None else end + 1
        while pos < end and pos < limit:
            w = (memory[pos] << 8) | memory[pos + 1]
            pos += 2
            zchars.append((w >> 10) & 31)
            zchars.append((w >> 5) & 31)
            zchars.append(w & 31)
            if w & 0x8000:
                break
        return self._zchars_to_text(zchars, allow_abbreviations), pos - addr

    def _zchars_to_text(self, zchars: list[int], allow_abbreviations: bool) -> str:
        out: list[str] = []
        alphabets = self._alphabets
        early = self._version <= 2
        lock = 0  # versions 1 and 2: the alphabet shift-locked to (Standard 3.2.2)
        shift = 0  # the alphabet of the next character only
        i = 0
        n = len(zchars)
        version = self._version
        while i < n:
            z = zchars[i]
            i += 1
            if z == 0:
                out.append(" ")
                shift = lock
            elif z == 1 and version == 1:
                out.append("\n")
                shift = lock
            elif z in (1, 2, 3) and version >= 3 or z == 1 and version == 2:
                if i < n and allow_abbreviations:
                    out.append(self._abbreviation(32 * (z - 1) + zchars[i]))
                i += 1
                shift = lock
            elif z in (2, 3):  # versions 1 and 2: shift for one character
                shift = (lock + z - 1) % 3
            elif z in (4, 5) and early:  # versions 1 and 2: shift lock
                lock = shift = (lock + z - 3) % 3
            elif z in (4, 5):
                shift = z - 3
            elif z == 6 and shift == 2:
                if i + 1 < n:
                    out.append(self.zscii((zchars[i] << 5) | zchars[i + 1]))
                i += 2
                shift = lock
            else:
                out.append(alphabets[shift][z - 6])
                shift = lock
        return "".join(out)
