"""Questions a story asks away from its command prompt, and where each answer leads.

A story reads every command at one place in its code: its prompt's line read.
When it waits for a line anywhere else it is asking a question (yes or no, a
new life after a fall, what now that the story has ended), whatever the
words. What the answers do is learned the way a player would learn it,
by playing each on a snapshot and looking at the machine afterwards:

- an answer *stops* the story when the interpreter halts (quit) or the world
  is back as it was before the first command (restart);
- a question one of whose answers stops the story is the question after the
  end: the story has ended;
- a question one of whose answers leads to that end question is an offer
  made after a death (a new life, or the end).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from zorktui.engine.directions import ORDER
from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.text import split_reply

#: Answers tried at every question, before the words the question itself offers.
USUAL_ANSWERS = ("yes", "no")
#: At most this many answers are tried at one question.
MAX_ANSWERS = 8
#: The story's own file verbs open files, and a transcript writes one: never typed as answers.
_NEVER = frozenset({"save", "restore", "script", "unscript", "transcript", "noscript"})
#: Words that join the offered answers ("aye or nay"), not answers themselves.
_JOINERS = frozenset({"or", "and", "to", "the", "a", "an", "of", "type", "press", "enter", "then"})
#: Answers a question offers in brackets: "(aye or nay)", "[Y/N]".
_BRACKETED = re.compile(r"[\[(]([^\])\n]{1,40})[\])]")
#: Words a question shouts: "RESTART, RESTORE or QUIT", "Type AGAIN".
_SHOUTED = re.compile(r"\b[A-Z][A-Z]+\b")


def offered_answers(question: str) -> list[str]:
    """The answers worth trying at a question: yes and no, then the words it offers in brackets or capitals.

    Nothing else is tried (a compass direction is an answer only where the
    question offers it), and never the story's file verbs.

    Args:
        question: The question's text (the reply that asked it).
    """
    last = question.strip().rsplit("\n\n", 1)[-1]
    words: list[str] = list(USUAL_ANSWERS)
    for offered in _BRACKETED.finditer(last):
        words += re.findall(r"[A-Za-z]+", offered.group(1))
    words += _SHOUTED.findall(last)
    answers: list[str] = []
    for word in (w.lower() for w in words):
        if word in answers or word in _NEVER or word in _JOINERS:
            continue
        answers.append(word)
    return answers[:MAX_ANSWERS]


@dataclass(frozen=True)
class Outcome:
    """What one answer to a question led to.

    Attributes:
        answer: What was typed.
        stops: The story halted or started over.
        ends: It stops, or it leads to the question after the end (one answer of which stops).
        world: The world's fingerprint after the answer.
    """

    answer: str
    stops: bool
    ends: bool
    world: str


class Asking:
    """Tells a question from a prompt in one story, and plays a question's answers.

    Args:
        prompt_at: Where the machine waits for commands: (program counter, call depth).
        opening_worlds: Fingerprints of the world before the first command (a restart comes back to one).
        fingerprint: Hashes the memory as the game's turns do.
    """

    def __init__(self, prompt_at: tuple[int, int], opening_worlds: set[str],
                 fingerprint: Callable[[np.ndarray], str]) -> None:
        self.prompt_at = prompt_at
        self.opening_worlds = opening_worlds
        self._fingerprint = fingerprint

    def asks(self, vm: Interpreter) -> bool:
        """Whether the story waits for a line away from its command prompt."""
        return not vm.halted() and vm.position() != self.prompt_at

    def takes_commands(self, vm: Interpreter) -> bool:
        """Whether a line read away from the prompt is a second command loop, not a question.

        Some stories read commands in a loop of their own for a while (a room
        too loud for the parser, a conversation mode): there a direction is
        played as a command and the story is back at its prompt with the
        world changed. At a question a direction is refused or taken as a
        no, and the story stays away from its prompt or the world as it was.
        The game is left as it was.
        """
        before = vm.snapshot()
        world = self._fingerprint(vm.ram())
        try:
            for word in ORDER:
                vm.step(word)
                moved = not vm.halted() and vm.position() == self.prompt_at and self._fingerprint(vm.ram()) != world
                vm.restore(before)
                if moved:
                    return True
        finally:
            vm.restore(before)
        return False

    def outcomes(self, vm: Interpreter, question: str, depth: int = 1) -> list[Outcome]:
        """Play each answer worth trying on a snapshot and say where each led (the game is left as it was).

        Answers the story refuses (it asks again from the same place, the world
        unchanged) are left out, and of answers that lead to the same world
        and place with the same reply only the first is kept ("yes" before "y").

        Args:
            vm: The interpreter, waiting at the question.
            question: The question's text.
            depth: How many questions deep to follow an answer (one: an answer
                that leads to the question after the end is seen to).
        """
        before = vm.snapshot()
        where = vm.position()
        world = self._fingerprint(vm.ram())
        found: list[Outcome] = []
        seen: set[tuple[str, tuple[int, int], bool, str]] = set()
        try:
            for answer in offered_answers(question):
                reply = vm.step(answer)
                halted = vm.halted()
                after = self._fingerprint(vm.ram())
                place = vm.position()
                if not halted and place == where and after == world:
                    vm.restore(before)
                    continue  # asked again: not an answer
                # The same world, place and reply is the same answer ("y" after "yes"); the reply
                # tells answers apart where the world's hash cannot see what they changed.
                key = (after, place, halted, split_reply(reply).narrative)
                if key in seen:
                    vm.restore(before)
                    continue
                seen.add(key)
                stops = halted or (after in self.opening_worlds and place != where)
                ends = stops
                if not ends and depth > 0 and self.asks(vm):
                    ends = any(o.stops for o in self.outcomes(vm, split_reply(reply).narrative, depth - 1))
                found.append(Outcome(answer, stops, ends, after))
                vm.restore(before)
        finally:
            vm.restore(before)
        return found
