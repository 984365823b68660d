"""Inform's compass, lifted out of scope while a candidate that names no direction is tried.

Inform 6 and 7 keep one object per direction (north, up, inside ...) inside
an object called "compass", and their parsers search the compass along with
the room for every noun a command names: twelve more objects to match
"lantern" against in "eat lantern". A valid-action search plays hundreds of
such commands per state, and the parser's noun search is where their time
goes (see docs/engine.md). For a command none of whose words names a
direction, the compass cannot be what the parser matches, and the libraries'
actions test "in compass" by an object's parent, which stays as it is; so
the compass's child link is cut in a copy of the state before the command
and put back in the memory read after it. If the link is not empty after
the command, something moved into the compass and the command is played
again from the state as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zorktui.engine.directions import DIRECTIONS
from zorktui.engine.vm.interpreter import Snapshot
from zorktui.engine.zmachine.zmachine import ZMachine

#: The name both Inform libraries give the object holding the directions.
COMPASS_NAME = "compass"
#: A compass holds a dozen directions; fewer than this is something else of that name.
MIN_DIRECTIONS = 4


@dataclass(frozen=True)
class Compass:
    """Where the compass's child link lies, and the words that name a direction.

    Attributes:
        link: Byte range of the compass object's child link in dynamic memory.
        words: Every dictionary word of every direction object; a command
            with one of them is played with the compass in place.
        resolution: How many letters of a word the parser compares.
    """

    link: tuple[int, int]
    words: frozenset[str]
    resolution: int

    def names_a_direction(self, command: str) -> bool:
        """Whether a word of ``command`` may name a direction object (as the parser reads it: cut to the resolution)."""
        return any(word[: self.resolution] in self.words for word in command.lower().split())

    def lifted(self, start: Snapshot) -> Snapshot:
        """A copy of ``start`` whose compass holds nothing."""
        state = list(start.state)
        ram = np.array(state[0], copy=True)
        ram[self.link[0] : self.link[1]] = 0
        state[0] = ram
        return Snapshot(tuple(state))

    def put_back(self, ram: np.ndarray, start: Snapshot) -> bool:
        """Restore the link in ``ram`` (memory read after a command played lifted) from ``start``.

        Returns:
            False when the link is no longer empty: the command moved something
            into the compass, and must be played again with the compass in place.
        """
        a, b = self.link
        if ram[a:b].any():
            return False
        ram[a:b] = start.ram()[a:b]
        return True


def find_compass(zm: ZMachine) -> Compass | None:
    """The story's compass, or None (not Inform, or no object of that name holding directions)."""
    if not zm.header.is_inform:
        return None
    objects = zm.objects
    for obj in range(1, objects.count + 1):
        if objects.name(obj).lower() != COMPASS_NAME:
            continue
        directions = objects.children(obj)
        if len(directions) < MIN_DIRECTIONS:
            return None
        words: set[str] = set()
        for direction in directions:
            vocabulary = zm.object_vocabulary(direction)
            if not vocabulary:
                # Inform 6's inside and outside have no words: the parser cannot match
                # them by a noun, but to be safe every direction word keeps the compass.
                vocabulary = [form for forms in DIRECTIONS for form in forms]
            words.update(w.lower()[: zm.dictionary.resolution] for w in vocabulary)
        start = objects.entry(obj) + objects.attribute_bytes
        link = (start + 2, start + 3) if objects.link_bytes == 1 else (start + 4, start + 6)
        return Compass(link, frozenset(words), zm.dictionary.resolution)
    return None
