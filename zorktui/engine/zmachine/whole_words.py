"""Whole words for dictionary words the story's resolution cuts short ("mailbo", "activa").

A parser compares only the first letters of a word (6 in version 3 stories,
9 from version 4), so its dictionary keeps no more. Commands are played and
shown with the whole word where one is known: from the object's printed
name, from the text the game has printed so far, or, for verbs, from a short
list of common English verbs of interactive fiction. The parser reads no
further than the cut, so the command means the same to the game.
"""

from __future__ import annotations

import re

#: Common English verbs of interactive fiction longer than a version 3 dictionary keeps (not any game's).
COMMON_VERBS = (
    "activate", "approach", "advance", "assault", "attach", "brandish", "collect", "command", "connect",
    "consume", "deactivate", "deflate", "descend", "describe", "destroy", "detach", "disconnect",
    "discard", "disembark", "dispatch", "display", "embrace", "examine", "exorcise", "extinguish",
    "fasten", "flourish", "frighten", "ignite", "illuminate", "inflate", "insert", "inspect",
    "inventory", "investigate", "knock", "levitate", "loosen", "operate", "persuade", "polish",
    "proceed", "puncture", "release", "remove", "replace", "retrieve", "scratch", "search", "squeeze",
    "strangle", "struggle", "swallow", "tighten", "transfer", "traverse", "unattach", "unbuckle",
    "uncover", "unfasten", "unlock", "unscrew", "untangle", "unwrap", "whisper", "wriggle",
)
_WORD = re.compile(r"[a-z]+")


def spelled_out(word: str, whole_words: list[str] | tuple[str, ...], resolution: int) -> str:
    """The whole word for a dictionary word cut to the story's resolution, where ``whole_words`` has it.

    The dictionary keeps only the first few letters ("mailbo" in a v3 story);
    the parser reads no further, so "open mailbox" means the same to the game
    and reads better to a person or a language model.
    """
    if len(word) == resolution:
        for whole in whole_words:
            if len(whole) > resolution and whole[:resolution] == word and whole.isalpha():
                return whole
    return word


class WholeWords:
    """Whole words learned from the game's text, by the cut a dictionary keeps of them.

    Args:
        resolution: How many letters the story's parser compares.
    """

    def __init__(self, resolution: int) -> None:
        self.resolution = resolution
        self._by_cut: dict[str, str] = {}
        self._read: set[int] = set()

    def learn(self, text: str) -> None:
        """Remember the long words of a text the game printed (each text read once)."""
        key = hash(text)
        if key in self._read:
            return
        self._read.add(key)
        for word in _WORD.findall(text.lower()):
            if len(word) > self.resolution:
                self._by_cut.setdefault(word[: self.resolution], word)

    def whole(self, word: str, names: list[str] | tuple[str, ...] = ()) -> str:
        """``word`` spelled out from ``names`` first (an object's printed name), else from the game's text."""
        if len(word) != self.resolution:
            return word
        spelled = spelled_out(word, names, self.resolution)
        return spelled if spelled != word else self._by_cut.get(word, word)

    def known(self, word: str, names: list[str] | tuple[str, ...] = ()) -> bool:
        """Whether ``word`` is whole as it stands or can be spelled out."""
        return len(word) < self.resolution or self.whole(word, names) != word


def whole_verb(word: str, resolution: int) -> str:
    """A verb spelled out from :data:`COMMON_VERBS` where the dictionary cut it ("activa" -> "activate")."""
    return spelled_out(word, COMMON_VERBS, resolution)
