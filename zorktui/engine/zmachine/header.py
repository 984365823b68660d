"""The Z-machine story header (Z-machine Standard 1.1, section 11)."""

from __future__ import annotations

from dataclasses import dataclass

#: Versions whose memory layout the engine reads (v6 uses a graphical screen model).
SUPPORTED_VERSIONS = (1, 2, 3, 4, 5, 7, 8)


def word(data: bytes | bytearray | memoryview, addr: int) -> int:
    """Read a big-endian 16-bit word at ``addr``."""
    return (data[addr] << 8) | data[addr + 1]


@dataclass(frozen=True)
class Header:
    """The fields of a story header that the engine uses.

    Attributes:
        version: Z-machine version (byte 0).
        release: Release number.
        serial: Six-character serial code, usually a date YYMMDD.
        high_memory: Start of high memory.
        initial_pc: Where execution begins.
        dictionary: Address of the dictionary.
        object_table: Address of the object table.
        globals: Address of the global variables table.
        static_memory: Start of static memory (end of dynamic memory).
        abbreviations: Address of the abbreviations table.
        file_length: Length of the story as the header states it, in bytes.
        checksum: Header checksum.
        alphabet_table: Custom alphabet table (v5+), or 0.
        header_extension: Header extension table (v5+), or 0.
        compiler: The four bytes at 0x3C that Inform writes its version into
            (for example ``"6.41"``), or ``""`` for other compilers.
        status_is_time: v3 only: the status line shows hours:minutes.
    """

    version: int
    release: int
    serial: str
    high_memory: int
    initial_pc: int
    dictionary: int
    object_table: int
    globals: int
    static_memory: int
    abbreviations: int
    file_length: int
    checksum: int
    alphabet_table: int
    header_extension: int
    compiler: str
    status_is_time: bool

    @property
    def is_inform(self) -> bool:
        """Whether the Inform compiler (6, or 7 through 6) made the story."""
        return len(self.compiler) == 4 and self.compiler[0].isdigit() and self.compiler[1] == "."

    @property
    def packed_scale(self) -> int:
        """Multiplier from a packed address to a byte address (ignoring v6/7 offsets)."""
        if self.version <= 3:
            return 2
        if self.version <= 5:
            return 4
        return 8

    @classmethod
    def parse(cls, data: bytes | bytearray) -> Header:
        """Parse the header at the start of ``data`` (which must hold at least 64 bytes).

        Args:
            data: The story file or a memory image beginning with the header.

        Returns:
            The parsed header.
        """
        version = data[0]
        scale = {1: 2, 2: 2, 3: 2, 4: 4, 5: 4}.get(version, 8)
        serial = bytes(data[0x12:0x18]).decode("ascii", errors="replace")
        compiler_raw = bytes(data[0x3C:0x40])
        compiler = compiler_raw.decode("ascii") if all(32 <= b < 127 for b in compiler_raw) else ""
        return cls(
            version=version,
            release=word(data, 0x02),
            serial=serial,
            high_memory=word(data, 0x04),
            initial_pc=word(data, 0x06),
            dictionary=word(data, 0x08),
            object_table=word(data, 0x0A),
            globals=word(data, 0x0C),
            static_memory=word(data, 0x0E),
            abbreviations=word(data, 0x18),
            file_length=word(data, 0x1A) * scale,
            checksum=word(data, 0x1C),
            alphabet_table=word(data, 0x34) if version >= 5 else 0,
            header_extension=word(data, 0x36) if version >= 5 else 0,
            compiler=compiler.strip("\x00") if compiler else "",
            status_is_time=version <= 3 and bool(data[1] & 0x02),
        )
