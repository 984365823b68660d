"""The words a command uses to name an object: as the game prints its name, unambiguous where it can be.

An object is named by its printed name where the parser takes it: every
word of it is one the object answers to (its own dictionary words, its
adjectives, or for a privately named Inform 7 object the dictionary's), in
the printed order, adjectives before the noun ("open trap door", "take red
hot pepper"). Words the object does not answer to are dropped from the front
("pair of candles" -> "candles"). Where that name would also fit another
thing in scope, or the printed name gives nothing, the object's own words
are ranked as before: unambiguous, the noun the printed name ends in, whole
words over ones the dictionary cut short, and a second word where one alone
is ambiguous, ordered as the printed name orders them.
"""

from __future__ import annotations

from collections.abc import Callable

from zorktui.engine.zmachine.adjectives import Adjectives
from zorktui.engine.zmachine.whole_words import WholeWords, spelled_out
from zorktui.engine.zmachine.zmachine import ZMachine

__all__ = ["Namer", "object_word", "spelled_out"]


class Namer:
    """Names objects for commands, remembering what it learned of the story.

    Args:
        zm: The memory reader.
        name_of: An object's printed name (short name, or Inform 7's printed name).
        vocabulary: The words (or phrases) each object answers to: its own
            properties' words, or those the parser was asked about.
        private: Whether an object keeps its words out of its properties
            (Inform 7): then any dictionary word of its printed name counts.
    """

    def __init__(self, zm: ZMachine, name_of: Callable[[int], str], vocabulary: Callable[[int], list[str]],
                 private: Callable[[int], bool] | None = None) -> None:
        self.zm = zm
        self.name_of = name_of
        self.vocabulary = vocabulary
        self.private = private or (lambda obj: False)
        self.adjectives = Adjectives.of(zm)
        self.whole = WholeWords(zm.dictionary.resolution)
        self._answers: dict[int, set[str]] = {}
        self._names: dict[tuple[int, tuple[int, ...]], str | None] = {}

    def reset(self) -> None:
        """Forget this search's answers (what objects answer to may have changed since)."""
        self._answers.clear()
        self._names.clear()

    def learn(self, text: str) -> None:
        """Remember the whole words of a text the game printed (to spell out cut ones)."""
        self.whole.learn(text)

    def _tokens(self, obj: int) -> list[str]:
        return self.name_of(obj).lower().split()

    def answers_to(self, obj: int) -> set[str]:
        """The dictionary texts an object answers to (nouns and adjectives)."""
        known = self._answers.get(obj)
        if known is not None:
            return known
        words = {w for phrase in self.vocabulary(obj) for w in phrase.split()}
        words.update(self.adjectives.words(obj))
        if self.private(obj):
            dictionary = self.zm.dictionary
            for token in self._tokens(obj):
                entry = dictionary.lookup(token)
                if entry is not None:
                    words.add(entry.text)
        self._answers[obj] = words
        return words

    def printed(self, obj: int, scope: list[int]) -> str | None:
        """The object's printed name as far as the parser takes it, if it names nothing else in scope."""
        tokens = self._tokens(obj)
        if not tokens:
            return None
        dictionary = self.zm.dictionary
        accepted = self.answers_to(obj)
        nouns = {w for phrase in self.vocabulary(obj) for w in phrase.split()} if not self.private(obj) else accepted
        run: list[str] = []
        cut: set[str] = set()
        for token in reversed(tokens):
            entry = dictionary.lookup(token)
            if entry is None or entry.text not in accepted or (not run and entry.text not in nouns):
                break
            run.insert(0, token)
            cut.add(entry.text)
        if not run or any(cut <= self.answers_to(o) for o in scope if o != obj):
            return None
        return " ".join(run)

    def name(self, obj: int, scope: list[int]) -> str | None:
        """A name for ``obj`` that fits nothing else in ``scope`` where possible (None: it answers to none)."""
        key = (obj, tuple(scope))
        if key in self._names:
            return self._names[key]
        vocab = self.vocabulary(obj)
        name = None
        if vocab:
            name = self.printed(obj, scope) or self._from_vocabulary(obj, scope, vocab)
        self._names[key] = name
        return name

    def _from_vocabulary(self, obj: int, scope: list[int], vocab: list[str]) -> str:
        """The object's own words, ranked (see the module docstring)."""
        others: dict[str, int] = {}
        for o in scope:
            if o != obj:
                for w in self.vocabulary(o):
                    others[w] = others.get(w, 0) + 1
        name_words = self._tokens(obj)
        cuts = [self.zm.dictionary.cut(w) for w in name_words]
        # Of names the parser gave as phrases ("red potato", "uncut potato"),
        # those made of the words found in most of them name the thing itself;
        # the rest say its state, which may change before the name is used.
        common: dict[str, int] = {}
        for phrase in vocab:
            for w in phrase.split():
                common[w] = common.get(w, 0) + 1

        def whole(w: str) -> bool:
            return all(self.whole.known(x, name_words) for x in w.split())

        def rank(w: str) -> tuple[int, int, int, int, int]:
            last = 0 if cuts and cuts[-1] == w else 1
            return (others.get(w, 0), last, -sum(common[x] for x in w.split()), not whole(w), -len(w))

        best = min(vocab, key=rank)
        words = best.split()
        if others.get(best, 0):
            unique = sorted((w for w in vocab if not others.get(w, 0)), key=lambda w: (w not in cuts, not whole(w)))
            if unique:
                words = [unique[0], *words]
        words = self._in_printed_order(list(dict.fromkeys(" ".join(words).split())), cuts)
        return " ".join(self.whole.whole(w, name_words) for w in words)

    def _in_printed_order(self, words: list[str], cuts: list[str]) -> list[str]:
        """Words ordered as the printed name orders them; adjectives before nouns where it says nothing."""
        dictionary = self.zm.dictionary

        def place(item: tuple[int, str]) -> tuple[int, int, int]:
            index, w = item
            if w in cuts:
                return (0, cuts.index(w), index)
            entry = dictionary.lookup(w)
            noun_only = entry is not None and entry.noun and not entry.adjective
            return (1, 1 if noun_only else 0, index)

        return [w for _i, w in sorted(enumerate(words), key=place)]


def object_word(zm: ZMachine, obj: int, scope: list[int], vocabulary: Callable[[int], list[str]],
                name_of: Callable[[int], str] | None = None) -> str | None:
    """A word (or two) that names ``obj`` unambiguously among ``scope`` where possible.

    A one-off :class:`Namer` (the search keeps one for the whole game).

    Args:
        zm: The memory reader.
        obj: The object to name.
        scope: The objects around, which the word should not also name.
        vocabulary: The words (or phrases) each object answers to.
        name_of: An object's printed name (default: its short name).

    Returns:
        The name, or None when the object answers to none.
    """
    return Namer(zm, name_of or zm.objects.name, vocabulary).name(obj, scope)
