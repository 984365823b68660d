"""The story's words as a game in a worker has them: its dictionary, and the words listed for each object.

The dictionary is in static memory and read from the story file here. An
object's words sit in dynamic memory, so a copy of the worker's is fetched
the first time they are asked after a move (the memory asks only for things
it meets for the first time).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from zorktui.engine.zmachine.dictionary import Dictionary
from zorktui.engine.zmachine.zmachine import ZMachine


class WorkerWords:
    """A memory image of a story in a worker, refreshed from it on demand.

    Args:
        story_path: The story file.
        fetch: Returns the worker's dynamic memory now.
    """

    def __init__(self, story_path: str, fetch: Callable[[], bytes]) -> None:
        self._zm = ZMachine(Path(story_path).read_bytes())
        self._fetch = fetch
        self._fresh = False
        self._lock = threading.Lock()

    def stale(self) -> None:
        """The game moved: refresh before the next object is read."""
        self._fresh = False

    @property
    def dictionary(self) -> Dictionary:
        """The story's main dictionary."""
        return self._zm.dictionary

    def object_vocabulary(self, obj: int) -> list[str]:
        """The dictionary words the game's own properties list for an object, as the world is now."""
        with self._lock:
            if not self._fresh:
                self._zm.refresh(self._fetch())
                self._fresh = True
            return self._zm.object_vocabulary(obj)
