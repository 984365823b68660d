"""The word a command uses to name an object: the game's own, unambiguous where it can be."""

from __future__ import annotations

from collections.abc import Callable

from zorktui.engine.zmachine import ZMachine


def spelled_out(word: str, name_words: list[str], resolution: int) -> str:
    """The whole word for a dictionary word cut to the story's resolution, where the object's name has it.

    The dictionary keeps only the first few letters ("mailbo" in a v3 story);
    the parser reads no further, so "open mailbox" means the same to the game
    and reads better to a person or a language model.
    """
    if len(word) == resolution:
        for whole in name_words:
            if len(whole) > resolution and whole[:resolution] == word and whole.isalpha():
                return whole
    return word


def object_word(zm: ZMachine, obj: int, scope: list[int], vocabulary: Callable[[int], list[str]]) -> str | None:
    """A word (or two) that names ``obj`` unambiguously among ``scope`` where possible.

    Args:
        zm: The memory reader.
        obj: The object to name.
        scope: The objects around, which the word should not also name.
        vocabulary: The words (or phrases) each object answers to: its own
            properties' words, or those the parser was asked about.

    Returns:
        The word, or None when the object answers to none.
    """
    vocab = vocabulary(obj)
    if not vocab:
        return None
    others: dict[str, int] = {}
    for o in scope:
        if o != obj:
            for w in vocabulary(o):
                others[w] = others.get(w, 0) + 1
    name_words = [w.lower() for w in zm.objects.name(obj).split()]
    resolution = zm.dictionary.resolution
    # Of names the parser gave as phrases ("red potato", "uncut potato"),
    # those made of the words found in most of them name the thing itself;
    # the rest say its state, which may change before the name is used.
    common: dict[str, int] = {}
    for phrase in vocab:
        for w in phrase.split():
            common[w] = common.get(w, 0) + 1

    def rank(w: str) -> tuple[int, int, int, int]:
        last = 0 if name_words and name_words[-1][:resolution] == w else 1
        return (others.get(w, 0), last, -sum(common[x] for x in w.split()), -len(w))

    best = min(vocab, key=rank)
    if others.get(best, 0):
        unique = [w for w in vocab if not others.get(w, 0)]
        if unique:
            best = f"{unique[0]} {best}"
    return " ".join(spelled_out(w, name_words, resolution) for w in best.split())
