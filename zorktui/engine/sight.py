"""What the game's parser can see, asked of the parser rather than read from attributes.

The object tree puts the leaflet in the mailbox whether the mailbox is open
or shut, and which attributes mean "open" or "transparent" differs from one
library (and one ZIL game) to the next. So for a thing inside or on another
thing, the parser itself is asked: from a state where "examine me" has put
the player in its noun variable, "examine WORD" for the thing; if the noun
variable then holds the thing, the parser can see it. An answer holds while
neither the thing nor anything holding it changes.
"""

from __future__ import annotations

from zorktui.engine.fingerprint import globals_of
from zorktui.engine.interpreter import Interpreter
from zorktui.engine.zmachine import ZMachine


class Sight:
    """Remembers which things held inside others the parser can refer to.

    The parser's noun variable is found the first time two things surely in
    sight (carried, or lying in a lit room) are at hand: the globals that
    hold each of them after "examine" of each. ("examine me" will not do:
    in Zork "me" is an object of its own, not the player.)

    Args:
        zm: The memory reader.
    """

    def __init__(self, zm: ZMachine) -> None:
        self.zm = zm
        self.nouns: list[int] | None = None  # None: not found yet
        self._tries = 0
        # (object, digest of it and its holders) -> whether the parser could see it
        self._known: dict[tuple[int, bytes], bool] = {}
        self.asked = 0

    def unseen(self, vm: Interpreter, things: dict[int, tuple[str, bytes]],
               sure: list[tuple[int, str]]) -> set[int]:
        """Of ``things``, those the parser cannot see; ``vm`` is left exactly as it was.

        Args:
            vm: The interpreter, at a prompt.
            things: Object -> (a word that names it, a digest of its own state
                and its holders'), for the things to judge.
            sure: (object, word) of things surely in sight, to find the noun
                variable with and to start each question from.

        Returns:
            The objects that "examine WORD" did not reach. A thing the parser
            asked about ("Which do you mean...?") counts as seen: something
            there answers to the word. With no noun variable found (yet),
            nothing is reported unseen.
        """
        if not things or "examine" not in self.zm.dictionary or not sure:
            return set()
        out: set[int] = set()
        ask: list[tuple[int, str, bytes]] = []
        for obj, (word, situation) in things.items():
            known = self._known.get((obj, situation))
            if known is None:
                ask.append((obj, word, situation))
            elif not known:
                out.add(obj)
        if not ask:
            return out
        start = vm.snapshot()
        try:
            if self.nouns is None and not self._find_nouns(vm, start, sure):
                return set()
            assert self.nouns is not None
            # Point the noun variable at a thing in sight first: a word that
            # reaches nothing leaves it as it was, and a stale value must not
            # pass for a match.
            anchor, anchor_word = sure[0]
            vm.step(f"examine {anchor_word}")
            base = vm.snapshot()
            if not (globals_of(self.zm, vm.ram())[self.nouns] == anchor).all():
                return out  # the anchor did not take: ask nothing now
            for obj, word, situation in ask:
                vm.rewind(base)
                reply = vm.step(f"examine {word}")
                values = globals_of(self.zm, vm.ram())[self.nouns]
                seen = bool((values == obj).any()) or "?" in reply
                self._known[(obj, situation)] = seen
                self.asked += 1
                if not seen:
                    out.add(obj)
            return out
        finally:
            vm.restore(start)

    def _find_nouns(self, vm: Interpreter, start: object, sure: list[tuple[int, str]]) -> bool:
        """Find the noun variable from two things surely in sight (a few tries over a game, then give up)."""
        distinct = list({obj: word for obj, word in sure}.items())
        if len(distinct) < 2 or self._tries >= 3:
            return False
        self._tries += 1
        nouns = None
        for obj, word in distinct[:2]:
            vm.rewind(start)  # type: ignore[arg-type]
            vm.step(f"examine {word}")
            holding = {int(g) for g in (globals_of(self.zm, vm.ram()) == obj).nonzero()[0]}
            nouns = holding if nouns is None else nouns & holding
        vm.rewind(start)  # type: ignore[arg-type]
        if nouns:
            self.nouns = sorted(nouns)
        return bool(nouns)
