"""What dispatch learned about a story, kept per story (MD5) between runs: a later load starts trusted.

One small JSON file a story under the cache folder: the action routine, where
its caller goes on, which templates dispatch agreed with typing on and which
it did not, and whether dispatch was turned off for the story (typing as
cheap). Entries (snapshots) are learned again each run: two typed commands a
template. A file of another jericho or format, or one that cannot be read, is
ignored (and written over).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from zorktui.locations import cache_dir

#: Files of another format (an older vote, which could pick the wrong routine) are learned again.
FORMAT = 2


@dataclass
class Learned:
    """What dispatch knows about one story."""

    routine: int | None = None
    returns_at: tuple[int, int] | None = None
    trusted: set[str] = field(default_factory=set)
    refused: set[str] = field(default_factory=set)
    #: Why dispatch was turned off for this story ('' where it was not).
    off: str = ""
    #: Whether quiet candidates stop at the action's return (see Dispatcher.missed_effect).
    early_stop: bool = True


def _path(md5: str) -> Path:
    return cache_dir() / "dispatch" / f"{md5}.json"


def load(md5: str, jericho: str) -> Learned:
    """What was learned about the story ``md5`` under this jericho (nothing, if the file is missing or broken)."""
    try:
        data = json.loads(_path(md5).read_text())
        if data.get("jericho") != jericho or data.get("format") != FORMAT:
            return Learned()
        returns = data.get("returns_at")
        return Learned(int(data["routine"]) if data.get("routine") is not None else None,
                       (int(returns[0]), int(returns[1])) if returns else None,
                       set(map(str, data.get("trusted", ()))), set(map(str, data.get("refused", ()))),
                       str(data.get("off", "")), bool(data.get("early_stop", True)))
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return Learned()


def save(md5: str, jericho: str, learned: Learned) -> None:
    """Keep ``learned`` for the story ``md5`` (written whole and renamed into place; a failure is left silent)."""
    path = _path(md5)
    data = {"format": FORMAT, "jericho": jericho, "routine": learned.routine,
            "returns_at": list(learned.returns_at) if learned.returns_at else None,
            "trusted": sorted(learned.trusted), "refused": sorted(learned.refused), "off": learned.off,
            "early_stop": learned.early_stop}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".dispatch-")
        with os.fdopen(fd, "w") as out:
            json.dump(data, out)
        os.replace(temporary, path)
    except OSError:
        pass  # a cache: the next run learns again
