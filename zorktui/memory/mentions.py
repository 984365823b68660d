"""Ways out a piece of game text points to, read strictly.

A compass word is a way out only where English uses it as one: after a verb
of going ("a path leads south", "passages run north and east", "try going
west"), after "to the" ("a door to the north"), after "is" or "lies" ("the
yard lies northwest"), in an exits list ("Exits: north, south"), as a
"-ward" form ("northward it opens into a cave"), or opening a sentence with a
comma ("North, the tower rises"). A compass word that names a side or a
place never counts: a room called "West of Hall", "a field west of the
barn", "the north wall", "the south side of the tower". Up and down count only
right after a verb of going ("stairs lead down", "leading upward"): they are
everyday words ("pick up").

English conventions shared by every Z-machine story, not knowledge of any
particular game.
"""

from __future__ import annotations

import re

_COMPASS = r"(?:north-?east|north-?west|south-?east|south-?west|north|south|east|west)"
#: Verbs of a way going somewhere, in their usual forms.
_GOING = (
    r"(?:lead|leads|leading|led|go|goes|going|run|runs|running|wind|winds|winding|head|heads|heading"
    r"|continue|continues|continuing|extend|extends|extending|stretch|stretches|stretching|climb|climbs|climbing"
    r"|descend|descends|descending|ascend|ascends|ascending|bend|bends|turn|turns|curve|curves|twist|twists"
    r"|meander|meanders|slope|slopes|sloping|rise|rises|rising|drop|drops|dropping|open|opens|exit|exits"
    r"|travel|travels|proceed|proceeds|walk|walking)"
)
#: A word that may stand between the verb and the direction ("leads back down", "runs off north").
_ADVERB = r"(?:(?:back|off|away|on|out|steeply|gently|sharply|further|farther|onward|onwards|only|due)\s+)?"
_LIST_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*/\s*|-)(?:the\s+)?"
_NOT_OF = r"(?![-\w]|\s+of\b|\s+side\b|\s+wall\b|\s+end\b|\s+bank\b|\s+edge\b|\s+face\b|\s+corner\b)"

_AFTER_GOING = re.compile(
    rf"\b{_GOING}\s+{_ADVERB}(?:to\s+the\s+|towards?\s+the\s+)?(?P<dirs>{_COMPASS}(?:{_LIST_JOIN}{_COMPASS})*){_NOT_OF}",
    re.I,
)
_TO_THE = re.compile(
    rf"\b(?:to|towards?|toward)\s+the\s+(?P<dirs>{_COMPASS}(?:{_LIST_JOIN}{_COMPASS})*){_NOT_OF}", re.I,
)
_IS = re.compile(rf"\b(?:is|are|lies|lie)\s+(?:due\s+)?(?P<dirs>{_COMPASS}(?:{_LIST_JOIN}{_COMPASS})*){_NOT_OF}", re.I)
_EXITS = re.compile(
    rf"\b(?:exits?|ways? out|you can go|you could go|can go)\s*(?:are|is|:)?\s*(?:only\s+)?"
    rf"(?P<dirs>{_COMPASS}(?:{_LIST_JOIN}{_COMPASS})*){_NOT_OF}",
    re.I,
)
_WARD = re.compile(rf"\b(?P<dirs>{_COMPASS})wards?\b", re.I)
_OPENING = re.compile(rf"^\s*(?P<dirs>{_COMPASS})\s*,", re.I)
#: Verbs after which "up" and "down" are a way (not "turn up the wick", "the weights run down").
_VERT_GOING = (
    r"(?:lead|leads|leading|go|goes|going|climb|climbs|climbing|descend|descends|descending|ascend|ascends"
    r"|wind|winds|winding|spiral|spirals|spiralling|spiraling|corkscrew|corkscrews|slope|slopes|sloping|continue|continues)"
)
_VERTICAL = re.compile(rf"\b{_VERT_GOING}\s+{_ADVERB}(?P<dirs>up|down|upward|upwards|downward|downwards)\b", re.I)
_ONE = re.compile(_COMPASS, re.I)
_SENTENCE = re.compile(r"[^.!?\n;]+")


def _compass(words: str) -> list[str]:
    return [m.group(0).lower().replace("-", "") for m in _ONE.finditer(words)]


def mentioned_directions(text: str) -> list[str]:
    """Directions a piece of game text points to as ways out, in the order first named.

    Args:
        text: Game text (a room description or any reply).

    Returns:
        Canonical direction words ("north", "up"); names and sides of things
        ("West of House", "the north wall") are not ways out.
    """
    found: list[str] = []

    def add(direction: str) -> None:
        if direction not in found:
            found.append(direction)

    for sentence in _SENTENCE.findall(text):
        hits: list[tuple[int, int, str]] = []
        for pattern in (_AFTER_GOING, _TO_THE, _IS, _EXITS, _WARD, _OPENING):
            for m in pattern.finditer(sentence):
                hits += [(m.start("dirs"), i, d) for i, d in enumerate(_compass(m.group("dirs")))]
        for m in _VERTICAL.finditer(sentence):
            hits.append((m.start("dirs"), 0, "up" if m.group("dirs").lower().startswith("up") else "down"))
        for _, _, direction in sorted(hits):
            add(direction)
    return found
