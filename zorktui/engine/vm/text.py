"""Game text: separate the narrative from the status line and the prompt."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The interpreter appends the upper window (status line) after the prompt on
# the same line, padded with spaces: "...\n\n>      Hall    Score: 0 Moves: 0".
_PROMPT_TAIL = re.compile(r"(?:^|\n)>[^\n]*\Z")
# In v3 the interpreter draws the status line itself and it arrives first:
# "> Hall          Score: 0   Moves: 0\n<reply>".
_PROMPT_HEAD = re.compile(r"\A\s*>[^\n]*\n")
# A v3 status line as the interpreter draws it when the game asks (@show_status,
# as PunyInform does before each prompt): the room, then score and moves or the
# time, spread over the width, first in the reply and with no prompt before it.
_V3_STATUS = r"[^\n]*?[ \t]{2,}(?:Score: -?\d+[ \t]+Moves: -?\d+|Time: [ \d]\d:\d\d [ap]m)[ \t]*"
_STATUS_HEAD = re.compile(r"\A[ \t]*" + _V3_STATUS + r"\n")
# A game's own status window drawn after a question that is not the prompt
# ("...RESTORE or QUIT?  Foyer bar      Score: 2      Moves: 7"): jericho
# appends the upper window's text to the last line.
_STATUS_TAIL = re.compile(r"[ \t]{2,}\S[^\n]*?[ \t]{2,}Score:[ \t]*-?\d+[ \t]+(?:Moves|Turns):[ \t]*-?\d+[ \t]*\Z")
# The upper window drawn as text (an Inform quote box): jericho lays its rows
# end to end on one line, each padded to the window's width, the first (the
# status row, blank) included. ASCII art indents less (TextWorld's logo: 23).
_GRID_ROW = re.compile(r"\A {40,}\S")
_GRID_GAP = re.compile(r"[ \t]{20,}")
_BANNER = re.compile(r"^[ \t]*\*{2,}[ \t]*([^*\n]{2,80}?)[ \t]*\*{2,}[ \t]*$", re.MULTILINE)
_RELEASE_LINE = re.compile(r"^\s*Release \d+ / Serial number \d{6}", re.MULTILINE)
# "Would you like to RESTART, RESTORE a saved game, UNDO your last move or QUIT?"
# (Inform), "(Type RESTART, RESTORE, or QUIT):" (Infocom).
_END_QUESTION = re.compile(r"\brestart\b[^?:]{0,120}?\b(?:restore|quit)\b", re.I)
_WON = re.compile(r"\b(won|win|victor|victory|triumph|the end|congratulations|finished)\b", re.I)
_LOST = re.compile(r"\b(died|dead|death|lost|lose|killed|perished|drowned|game over|failed)\b", re.I)


@dataclass(frozen=True)
class Split:
    """A raw interpreter reply taken apart.

    Attributes:
        narrative: The game's text without the trailing prompt and status line.
        status: The status-line text that followed the prompt ("" if none).
        prompted: Whether the reply ended at the main ``>`` prompt.
    """

    narrative: str
    status: str
    prompted: bool


def _prompt_and_status(last: str) -> tuple[str, str]:
    """A reply's last line split into what the game printed and the status window glued after it.

    jericho glues the status window to the line the game waits on, after a
    long run of spaces ("What now?<spaces>Porch Score: 5 Moves: 1").
    """
    gap = _GRID_GAP.search(last)
    if gap is None:
        return last.strip(), ""
    return last[: gap.start()].strip(), " ".join(last[gap.end():].split())


def last_line_prompt(raw: str) -> str:
    """The text before the status window on a reply's last line: the prompt, if the game has its own."""
    return _prompt_and_status(raw.replace("\r", "\n").rsplit("\n", 1)[-1])[0]


def split_reply(raw: str, previous_status: str = "", prompt: str = "") -> Split:
    """Split a raw reply into narrative, status line and prompt.

    Args:
        raw: The text the interpreter produced for one command.
        previous_status: The last status line seen; some interpreters echo it
            at the start of the next reply, and it is removed there too.
        prompt: The game's own prompt where it is not ">" ("What now?"),
            as :func:`last_line_prompt` found it on every reply.

    Returns:
        The parts of the reply.
    """
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    status = ""
    prompted = False
    m = _PROMPT_TAIL.search(text)
    if prompt and not m:
        last = text.rsplit("\n", 1)[-1]
        shown, glued = _prompt_and_status(last)
        if shown.startswith(prompt):
            status = glued
            text = text[: len(text) - len(last)]
            prompted = True
    if m:
        tail = text[m.start():].lstrip("\n")
        status = " ".join(tail[1:].split())
        text = text[: m.start()]
        prompted = True
    head = _PROMPT_HEAD.match(text)
    if head:
        text = text[head.end():]
        prompted = True
    else:
        drawn = _STATUS_HEAD.match(text)
        if drawn:
            text = text[drawn.end():]
    if not prompted:
        status_tail = _STATUS_TAIL.search(text)
        if status_tail:
            status = " ".join(text[status_tail.start():].split())
            text = text[: status_tail.start()]
    if previous_status:
        stripped = text.lstrip()
        squashed = " ".join(stripped.split("\n", 1)[0].split())
        if squashed == previous_status:
            text = stripped.split("\n", 1)[1] if "\n" in stripped else ""
    lines: list[str] = []
    for line in text.split("\n"):
        if _GRID_ROW.match(line):
            lines.extend(row.strip() for row in _GRID_GAP.split(line) if row.strip())
            lines.append("")
        else:
            lines.append(line.rstrip())
    narrative = "\n".join(lines).strip("\n")
    # Collapse runs of blank lines left behind by cursor movement.
    narrative = re.sub(r"\n{3,}", "\n\n", narrative)
    return Split(narrative=narrative, status=status, prompted=prompted)


def title_from_banner(opening: str) -> str | None:
    """The story title from an opening banner, where it follows the usual form.

    Inform and Infocom games print the title on the line(s) above
    "Release N / Serial number YYMMDD"; the title is the first of those.

    Args:
        opening: The cleaned opening text.

    Returns:
        The title, or None when the banner has no recognisable form.
    """
    m = _RELEASE_LINE.search(opening)
    if not m:
        return None
    before = [line.strip() for line in opening[: m.start()].split("\n")]
    block: list[str] = []
    for line in reversed(before):
        if not line:
            if block:
                break
            continue
        block.append(line)
    if not block:
        return None
    title = block[-1]
    return title if len(title) <= 80 else None


def ending_in(narrative: str) -> tuple[bool, bool, bool]:
    """Recognise the end of a game: a banner ("*** You have died ***") that closes it.

    A banner of victory ends the game (our ZIL story lets the winner walk on).
    Any other banner ends it only when the game then asks whether to restart,
    restore or quit: Zork's "****  You have died  ****" is followed by a new
    life (a death that does not end the game: ``(False, False, True)``), and
    Zork II's newspaper is headed "** U.S. News and Dungeon Report **".

    Args:
        narrative: Cleaned game text.

    Returns:
        ``(done, victory, dead)``.
    """
    m = next(reversed(list(_BANNER.finditer(narrative))), None)  # the last one
    if m is None:
        return False, False, False
    words = m.group(1)
    lost = bool(_LOST.search(words))
    won = bool(_WON.search(words)) and not lost
    if not won and not _END_QUESTION.search(narrative, m.end()):
        return False, False, lost
    return True, won, lost


def won_banner(narrative: str) -> bool:
    """Whether the reply's last banner announces a win ("*** You have won ***").

    A win is also read from the score (see ``Game``); the banner covers a story
    that keeps no maximum score, or lets the winner walk on.
    """
    m = next(reversed(list(_BANNER.finditer(narrative))), None)  # the last one
    return m is not None and bool(_WON.search(m.group(1))) and not _LOST.search(m.group(1))


def asked_text(narrative: str) -> str:
    """A question's text without the prompt and the status window the interpreter glued after it.

    A question is read away from the story's prompt, so the usual cuts miss
    them: "Will you have it?" + a run of spaces + "DarknessScore: 0Moves: 8",
    or "...yes or no. >".
    """
    head, _, last = narrative.rpartition("\n")
    shown, _status = _prompt_and_status(last)
    shown = re.sub(r"\s*>\s*\Z", "", shown)
    return (head + "\n" + shown if head else shown).rstrip()


_ANNOUNCED = re.compile(
    r"(?:you (?:have )?scored|your (?:final )?score (?:is|was)|you scored a total of)\s+(-?\d+)"
    r"(?:[^.\n]*?\b(?:in|after)\s+(\d+)\s+(?:turns?|moves?))?",
    re.I,
)


def announced_score(narrative: str) -> tuple[int | None, int | None]:
    """The score (and moves) a game announces, as at the end ("you scored 3 out of a possible 3, in 4 turns").

    Status-line globals are refreshed only before a normal prompt, so on the
    final turn the announcement is the fresher source.

    Returns:
        ``(score, moves)``, each None when not stated.
    """
    m = next(reversed(list(_ANNOUNCED.finditer(narrative))), None)  # the last one
    if m is None:
        return None, None
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


#: How stories refuse a thing for the load already carried: ZIL's "Your load is too heavy" and
#: "You're holding too many things already!", the Inform libraries' "You're carrying too many
#: things already", and the like. Not "too heavy to carry": a boulder is that whatever is carried.
_OVER_LOAD = re.compile(
    r"\b(?:load is too heavy|(?:carrying|holding) too (?:many|much)|too many things|"
    r"hands are (?:already )?full|can(?:no|')t carry (?:any ?more|that much|anything more))", re.I)


def refused_for_load(reply: str) -> bool:
    """Whether a reply refuses a thing because of what the player already carries."""
    return bool(_OVER_LOAD.search(reply))
