"""Story files: identity, and bad files refused with one clear line."""

import struct
from pathlib import Path

import pytest
from paths import BUNDLED, ZIL

from zorktui.engine import StoryError, open_story


def test_bundled_identity() -> None:
    info = open_story(BUNDLED)
    assert (info.version, info.release, info.serial) == (5, 1, "261122")
    assert len(info.md5) == 32


def test_v3_identity() -> None:
    info = open_story(ZIL)
    assert info.version == 3 and info.serial == "261122"


def _blorb(chunk: bytes, kind: bytes = b"ZCOD") -> bytes:
    body = b"IFRS" + kind + struct.pack(">I", len(chunk)) + chunk + (b"\0" if len(chunk) % 2 else b"")
    return b"FORM" + struct.pack(">I", len(body)) + body


def test_blorb_is_unwrapped(tmp_path: Path) -> None:
    story = tmp_path / "game.zblorb"
    story.write_bytes(_blorb(BUNDLED.read_bytes()))
    info = open_story(story, cache_dir=tmp_path / "cache")
    assert info.md5 == open_story(BUNDLED).md5
    assert Path(info.zcode_path).read_bytes() == BUNDLED.read_bytes()


def _bad_files(tmp: Path) -> dict[str, Path]:
    data = BUNDLED.read_bytes()
    files = {
        "missing": tmp / "nope.z5",
        "directory": tmp,
        "empty": tmp / "empty.z5",
        "truncated": tmp / "trunc.z5",
        "random": tmp / "random.z5",
        "glulx": tmp / "game.ulx",
        "corrupt": tmp / "corrupt.z5",
        "text": tmp / "notes.z5",
        "glulx blorb": tmp / "game.gblorb",
        "v6": tmp / "v6.z6",
    }
    files["empty"].write_bytes(b"")
    files["truncated"].write_bytes(data[:4000])
    files["random"].write_bytes(bytes((i * 7919 + 13) % 251 for i in range(50000)))
    files["glulx"].write_bytes(b"Glul" + bytes(200))
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    files["corrupt"].write_bytes(bytes(flipped))
    files["text"].write_text("West of House\nYou are standing in an open field.\n" * 20)
    files["glulx blorb"].write_bytes(_blorb(b"Glul" + bytes(100), b"GLUL"))
    files["v6"].write_bytes(b"\x06" + data[1:])
    return files


@pytest.mark.parametrize("kind", ["missing", "directory", "empty", "truncated", "random", "glulx", "corrupt", "text",
                                  "glulx blorb", "v6"])
def test_bad_file_refused_with_one_line(tmp_path: Path, kind: str) -> None:
    path = _bad_files(tmp_path)[kind]
    with pytest.raises(StoryError) as err:
        open_story(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message
