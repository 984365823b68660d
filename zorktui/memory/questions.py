"""Plain-English questions to the memory: "where is the lamp", "path to the cellar".

:func:`ask` recognises a handful of question shapes, calls the matching
function in :mod:`zorktui.memory.queries`, and returns an :class:`Answer` with
a line or two for people and a JSON form for programs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zorktui.memory import queries as q
from zorktui.memory.graph import Memory

HELP = """Questions the memory answers (add --as-of TURN to ask about an earlier turn):
  where am i                      the room you are in
  what do i have                  your inventory
  where is THING                  e.g. "where is the lamp" (the game's own words work)
  exits from ROOM                 ways out: walked, the likely way back, ones the game accepts ("exits" = here)
  unexplored exits from ROOM      ways nobody has taken, best first ("unexplored" = here)
  path to ROOM                    the commands that walk there over known ways
  what happened with THING        past turns about it, most relevant first
  search WORD                     facts mentioning a word
  rooms                           rooms visited so far"""


@dataclass
class Answer:
    """The memory's answer to one question.

    Attributes:
        question: The question as asked.
        kind: Which question it was understood as ("where_am_i", ..., "help").
        text: The answer for people.
        data: The answer for programs (JSON-serialisable).
        as_of: The turn it was answered at.
        understood: False when the question was not recognised.
    """

    question: str
    kind: str
    text: str
    data: Any
    as_of: int
    understood: bool = True

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"question": self.question, "kind": self.kind, "as_of": self.as_of, "answer": self.data,
                "text": self.text, "understood": self.understood}


def _where_am_i(memory: Memory, _: str, t: int) -> tuple[str, Any]:
    place, dark = q.where_am_i(memory, t)
    if place is None:
        return "Nowhere known yet.", None
    return f"{place.name}{' (dark)' if dark else ''}", {**place.to_json(), "dark": dark}


def _inventory(memory: Memory, _: str, t: int) -> tuple[str, Any]:
    items = q.inventory(memory, t)
    text = ", ".join(i.name for i in items) if items else "Nothing."
    return text, [i.to_json() for i in items]


def _where_is(memory: Memory, what: str, t: int) -> tuple[str, Any]:
    found = q.where_is(memory, what, t)
    if not found:
        return f"Nothing called {what!r} has been seen.", []
    lines = []
    for w in found:
        where = "carried by you" if w.carried else "in " + " in ".join(p.name for p in w.chain)
        when = f"since turn {w.since}" if w.current else f"last seen there at turn {w.until - 1 if w.until else w.since}"
        lines.append(f"{w.thing.name}: {where} ({when})")
    return "\n".join(lines), [w.to_json() for w in found]


def _exits(memory: Memory, room: str, t: int) -> tuple[str, Any]:
    place, found, blocked = q.exits(memory, room or None, t)
    if place is None:
        return f"No room called {room!r} is known.", None
    text = f"{place.name}: " + ("; ".join(e.text() for e in found) if found else "no ways out known yet")
    if blocked:
        text += f"\nblocked: {', '.join(blocked)}"
    return text, {"room": place.to_json(), "exits": [e.to_json() for e in found], "blocked": blocked}


def _unexplored(memory: Memory, room: str, t: int) -> tuple[str, Any]:
    found = q.unexplored(memory, room or None, t)
    if found is None:
        return f"No room called {room!r} is known.", None
    lines = [f"{found.room.name}:"]
    if found.accepted:
        lines.append("  the game accepts, not walked yet: " + ", ".join(found.accepted))
    if found.mentioned:
        lines.append("  the text points to, never tried: " + ", ".join(found.mentioned))
    lines.append("  never tried: " + (", ".join(found.plausible) if found.plausible else "none"))
    for direction, to in found.back:
        lines.append(f"  way back: {direction} (to {to.name}, likely)")
    return "\n".join(lines), found.to_json()


def _path(memory: Memory, room: str, t: int) -> tuple[str, Any]:
    goal, steps = q.path_to(memory, room, None, t)
    if goal is None:
        return f"No room called {room!r} is known.", None
    if steps is None:
        return (f"No way to {goal.name} is known from here yet (ways are learned by walking them).",
                {"room": goal.to_json(), "commands": None})
    if not steps:
        return f"You are in {goal.name}.", {"room": goal.to_json(), "commands": []}
    likely = q.likely_steps(memory, steps, t)
    text = f"To {goal.name}: " + ", ".join(steps)
    if likely:
        numbers = ", ".join(str(i + 1) for i in likely)
        text += (f"\n(likely: step{'s' if len(likely) > 1 else ''} {numbers} go{'' if len(likely) > 1 else 'es'}"
                 " back along a passage walked only the other way)")
    return text, {"room": goal.to_json(), "commands": steps, "likely_steps": likely}


def _history(memory: Memory, what: str, t: int) -> tuple[str, Any]:
    names, hits = q.history(memory, what, t)
    if not hits:
        return f"Nothing has happened with {what!r}.", {"matched": names, "turns": []}
    lines = []
    for h in hits:
        text = " ".join(h.observation.split())
        lines.append(f"turn {h.turn} > {h.command or '(opening)'}: {text[:100]}{'...' if len(text) > 100 else ''}")
    return "\n".join(lines), {"matched": names, "turns": [h.to_json() for h in hits]}


def _search(memory: Memory, word: str, t: int) -> tuple[str, Any]:
    facts = q.search(memory, word, t)
    if not facts:
        return f"No fact mentions {word!r}.", []
    return "\n".join(f.text() for f in facts), [f.to_json() for f in facts]


def _help(memory: Memory, _: str, t: int) -> tuple[str, Any]:
    return HELP, {"help": HELP}


def _rooms(memory: Memory, _: str, t: int) -> tuple[str, Any]:
    found = q.rooms(memory, t)
    return (", ".join(r.name for r in found) or "None yet."), [r.to_json() for r in found]


Handler = Callable[[Memory, str, int], tuple[str, Any]]

#: (pattern, kind, handler): the first pattern that matches wins; group "x" is the argument.
PATTERNS: tuple[tuple[re.Pattern[str], str, Handler], ...] = tuple(
    (re.compile(p, re.I), kind, handler)
    for p, kind, handler in (
        (r"^(where am i|where are we|location|here|what room(?: am i in)?|current room)$", "where_am_i", _where_am_i),
        (r"^(what do i (?:have|carry|hold)|what am i (?:carrying|holding)|inventory|inv|i|what have i got)$",
         "inventory", _inventory),
        (r"^(?:unexplored|untried)(?: exits| directions)?(?: (?:from|in|of|at) (?P<x>.+))?$", "unexplored", _unexplored),
        (r"^(?:(?:known )?exits|ways out)(?: (?:from|in|of|at) (?P<x>.+))?$", "exits", _exits),
        (r"^(?:path to|route to|go to|way to|how (?:do|can) i get (?:back )?to|how to get to) (?P<x>.+)$", "path", _path),
        (r"^(?:where is|where's|where are|find|locate) (?P<x>.+)$", "where_is", _where_is),
        (r"^(?:what happened (?:with|to|at|in)|history of|when did i see|what about) (?P<x>.+)$", "history", _history),
        (r"^(?:search|facts about|facts with|grep) (?P<x>.+)$", "search", _search),
        (r"^(?:rooms|visited rooms|rooms visited|where have i been)$", "rooms", _rooms),
        (r"^(?:help|\?|questions|what can i ask)$", "help", _help),
    )
)


def ask(memory: Memory, question: str, as_of: int | None = None) -> Answer:
    """Answer a plain-English question.

    Args:
        memory: The session memory.
        question: E.g. "where is the lamp", "exits from the kitchen".
        as_of: Ask about an earlier turn (None: now).

    Returns:
        The answer; an unknown question gets the list of what can be asked.
    """
    t = q.turn_of(memory, as_of)
    text = " ".join(question.strip().rstrip("?!.").split())
    for pattern, kind, handler in PATTERNS:
        m = pattern.match(text)
        if m:
            arg = (m.groupdict().get("x") or "").strip()
            answer, data = handler(memory, arg, t)
            return Answer(question, kind, answer, data, t)
    return Answer(question, "help", f"I don't know how to answer {question!r}.\n{HELP}", {"help": HELP}, t, understood=False)
