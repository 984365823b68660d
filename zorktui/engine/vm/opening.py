"""Past what a story asks before play begins: "[Press a key]", "Have you played before?".

Calibration and every fact need the game at its command prompt. Some stories
open on a key press (a title card) or a question asked with a line read of
its own; both are answered here, the way a player would pass them, and
their text is kept for the opening turn.
"""

from __future__ import annotations

from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.text import ending_in, last_line_prompt, split_reply

#: The opcode of ``read_char``: the story waits for one key.
READ_CHAR = 246
#: How many key presses and questions are passed before giving up (a title card, a question or two).
MAX_OPENING_STOPS = 4
#: Answers tried on a question, in order: refusing help or instructions is the usual way on.
ANSWERS = ("no", "yes")


def to_first_prompt(vm: Interpreter, raw: str) -> str:
    """Bring a story from its first input request to its command prompt.

    A key read is answered with a key. A line read that did not end at the
    ``>`` prompt may be a question: an answer is kept when the machine then
    waits somewhere else (at the prompt, the same read takes every command,
    so a command there leaves the position as it was and is taken back) and
    the game goes on.

    Args:
        vm: The interpreter, at its first input request.
        raw: The text printed so far.

    Returns:
        All the text up to the command prompt, with each answer given shown
        as a command line ("> no").
    """
    texts = [raw]
    for _ in range(MAX_OPENING_STOPS):
        where = vm.waiting()
        if where is None:
            break
        opcode, position = where
        if opcode == READ_CHAR:
            texts.append(vm.step(""))
            continue
        if split_reply(texts[-1]).prompted:
            break
        before = vm.snapshot()
        answered = None
        for answer in ANSWERS:
            reply = vm.step(answer)
            after = vm.waiting()
            moved = after is not None and after[1] != position
            if moved and not vm.halted() and not ending_in(reply)[0]:
                answered = f"\n> {answer}\n{reply}"
                break
            vm.restore(before)
            if not moved:
                break  # the read takes anything: the command prompt, however it looks
        if answered is None:
            break
        texts.append(answered)
    return "".join(texts)


#: Longer than this, a last line is a question or a sentence, not a prompt.
MAX_PROMPT_CHARS = 40


def own_prompt(vm: Interpreter, raw: str) -> str:
    """The game's own prompt where it is not ">" ("What now?"), else "".

    It is the last line of every reply: the opening's and that of "look"
    played from it (and taken back) must agree. Without it, the status
    window glued after it stayed in the text ("What now?  Porch Score: 5
    Moves: 1") and Inform 7 rooms, named from the status line, had no name.

    Args:
        vm: The interpreter at the command prompt (restored afterwards).
        raw: The opening text.
    """
    if split_reply(raw).prompted:
        return ""
    first = last_line_prompt(raw)
    if not first or len(first) > MAX_PROMPT_CHARS:
        return ""
    snap = vm.snapshot()
    reply = vm.step("look")
    vm.restore(snap)
    return first if last_line_prompt(reply) == first else ""
