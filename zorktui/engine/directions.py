"""Compass and relative directions: the words players type and how they relate.

English parser conventions shared by every Z-machine story (Infocom, Inform,
TextWorld), not knowledge of any particular game.
"""

from __future__ import annotations

#: Each direction's full word first, then its abbreviations.
DIRECTIONS: tuple[tuple[str, ...], ...] = (
    ("north", "n"), ("south", "s"), ("east", "e"), ("west", "w"),
    ("northeast", "ne"), ("northwest", "nw"), ("southeast", "se"), ("southwest", "sw"),
    ("up", "u"), ("down", "d"), ("in", "inside"), ("out", "outside"),
    ("fore",), ("aft",), ("port",), ("starboard",),
)

_CANONICAL: dict[str, str] = {form: forms[0] for forms in DIRECTIONS for form in forms}

OPPOSITE: dict[str, str] = {
    "north": "south", "south": "north", "east": "west", "west": "east",
    "northeast": "southwest", "southwest": "northeast",
    "northwest": "southeast", "southeast": "northwest",
    "up": "down", "down": "up", "in": "out", "out": "in",
    "fore": "aft", "aft": "fore", "port": "starboard", "starboard": "port",
}

#: Grid offsets (column, row) for drawing a map; row grows southwards.
#: Up, down, in and out have no place on the compass grid.
GRID_OFFSET: dict[str, tuple[int, int]] = {
    "north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0),
    "northeast": (1, -1), "northwest": (-1, -1), "southeast": (1, 1), "southwest": (-1, 1),
    "fore": (0, -1), "aft": (0, 1), "starboard": (1, 0), "port": (-1, 0),
}

#: The order directions are listed in for people (compass first).
ORDER: tuple[str, ...] = tuple(forms[0] for forms in DIRECTIONS)

#: The directions most rooms could plausibly have; unexplored-exit guesses start here.
COMMON: tuple[str, ...] = ORDER[:10]

_GO_VERBS = ("go ", "walk ", "run ", "head ", "move ")

#: Verbs that move the player without naming a compass direction.
MOVEMENT_VERBS: frozenset[str] = frozenset(
    {"enter", "exit", "leave", "climb", "go", "walk", "run", "crawl", "swim", "jump", "board",
     "disembark", "descend", "ascend", "cross", "follow", "squeeze", "slide", "stand", "out", "in"}
)


def canonical(word: str) -> str | None:
    """The full name of a direction word ("n" -> "north"), or None if it is not one."""
    return _CANONICAL.get(word.strip().lower())


def direction_of(command: str) -> str | None:
    """The direction a command walks in ("n", "go north", "walk n" -> "north"), else None."""
    text = " ".join(command.lower().split())
    for verb in _GO_VERBS:
        if text.startswith(verb):
            text = text[len(verb):]
            break
    return _CANONICAL.get(text)


def is_movement(command: str) -> bool:
    """Whether a command reads as moving the player (a direction or a movement verb)."""
    if direction_of(command):
        return True
    words = command.lower().split()
    return bool(words) and words[0] in MOVEMENT_VERBS
