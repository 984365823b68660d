"""Story files: identify a Z-machine story and refuse anything else with one clear line."""

from __future__ import annotations

import hashlib
import struct
from dataclasses import asdict, dataclass, field
from pathlib import Path

from zorktui.core.errors import StoryError
from zorktui.engine.zmachine.header import SUPPORTED_VERSIONS, Header
from zorktui.locations import cache_dir as default_cache


@dataclass
class StoryInfo:
    """What identifies a story file.

    Attributes:
        path: Where the story was read from.
        md5: MD5 of the Z-code (for a Blorb, of the Z-code chunk inside it).
        version: Z-machine version.
        release: Release number from the header.
        serial: Serial code from the header.
        title: The game's title where knowable (filled in once the game has
            printed its banner), else None.
        zcode_path: The file holding the bare Z-code (differs from ``path``
            for a Blorb, whose Z-code is extracted to a cache file).
    """

    path: str
    md5: str
    version: int
    release: int
    serial: str
    title: str | None = None
    zcode_path: str = field(default="", repr=False)

    def to_record(self) -> dict[str, object]:
        """The story identity as written into trajectories (schema v1)."""
        data = asdict(self)
        data.pop("zcode_path")
        return data


def _blorb_zcode(data: bytes, path: Path) -> bytes:
    """Return the Z-code chunk of a Blorb file, or raise StoryError."""
    pos = 12
    end = min(len(data), 8 + struct.unpack(">I", data[4:8])[0])
    while pos + 8 <= end:
        kind = data[pos : pos + 4]
        size = struct.unpack(">I", data[pos + 4 : pos + 8])[0]
        if kind == b"ZCOD":
            return data[pos + 8 : pos + 8 + size]
        if kind == b"GLUL":
            raise StoryError(f"{path}: a Glulx game in a Blorb, not a Z-machine story")
        pos += 8 + size + (size & 1)
    raise StoryError(f"{path}: a Blorb file with no Z-code in it")


def check_zcode(data: bytes, where: str) -> Header:
    """Check that ``data`` is a plausible Z-machine story and return its header.

    Args:
        data: The bytes of the story.
        where: How to name the file in an error message.

    Returns:
        The parsed header.

    Raises:
        StoryError: With a one-line reason when the data is not a playable story.
    """
    if len(data) == 0:
        raise StoryError(f"{where}: the file is empty")
    if data[:4] == b"Glul":
        raise StoryError(f"{where}: a Glulx game, not a Z-machine story (zorktui plays Z-code, versions 1-5, 7 and 8)")
    if len(data) < 64:
        raise StoryError(f"{where}: too short to be a Z-machine story ({len(data)} bytes)")
    header = Header.parse(data)
    if header.version not in SUPPORTED_VERSIONS:
        if header.version == 6:
            raise StoryError(f"{where}: a version 6 (graphical) story, which zorktui cannot play")
        raise StoryError(f"{where}: not a Z-machine story (byte 0 is {header.version}, not a version number)")
    size = len(data)
    if header.file_length and header.file_length > size:
        raise StoryError(
            f"{where}: truncated Z-machine story ({size} bytes, header says {header.file_length})"
        )
    problems = []
    if not 64 <= header.static_memory <= size:
        problems.append("static memory")
    if not 64 <= header.dictionary < size:
        problems.append("dictionary")
    if not 64 <= header.object_table < size:
        problems.append("object table")
    if not 64 <= header.globals < size:
        problems.append("globals")
    if not 0 < header.initial_pc < size:
        problems.append("start address")
    if header.high_memory > size:
        problems.append("high memory")
    if header.globals + 480 > header.static_memory or header.object_table >= header.static_memory:
        problems.append("dynamic memory")
    if problems:
        raise StoryError(f"{where}: not a Z-machine story (header {', '.join(problems)} out of range)")
    if header.file_length and header.checksum:
        total = sum(data[0x40 : header.file_length]) & 0xFFFF
        if total != header.checksum:
            raise StoryError(f"{where}: corrupt Z-machine story (checksum {total:04x}, header says {header.checksum:04x})")
    return header


def open_story(path: str | Path, cache_dir: Path | None = None) -> StoryInfo:
    """Identify a story file.

    Blorb files (.zblorb) are accepted: their Z-code is extracted to
    ``cache_dir`` (by MD5) so the interpreter can load it.

    Args:
        path: The story file.
        cache_dir: Where to put extracted Z-code; defaults to the user cache dir.

    Returns:
        The story's identity.

    Raises:
        StoryError: A missing, unreadable or non-Z-machine file, with a one-line reason.
    """
    p = Path(path)
    if not p.exists():
        raise StoryError(f"{p}: no such file")
    if p.is_dir():
        raise StoryError(f"{p}: is a directory, not a story file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise StoryError(f"{p}: cannot read ({exc.strerror or exc})") from None
    zcode_path = p
    if data[:4] == b"FORM" and data[8:12] == b"IFRS":
        data = _blorb_zcode(data, p)
        md5 = hashlib.md5(data).hexdigest()
        if cache_dir is None:
            cache_dir = default_cache()
        cache_dir.mkdir(parents=True, exist_ok=True)
        zcode_path = cache_dir / f"{md5}.z{data[0] if data else 0}"
        if not zcode_path.exists():
            zcode_path.write_bytes(data)
    header = check_zcode(data, str(p))
    return StoryInfo(
        path=str(p),
        md5=hashlib.md5(data).hexdigest(),
        version=header.version,
        release=header.release,
        serial=header.serial,
        zcode_path=str(zcode_path),
    )
