"""What the app shows of a session, read in one place: the read model the panels draw from.

The UI asks a :class:`SessionView` for the room's facts, the map, the game's
words and the valid actions, and never reaches into the game or the memory
itself. Call it off the UI thread: the memory answers from its database.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from zorktui.core.turn import ObjectRef, Turn
from zorktui.memory import queries
from zorktui.session.memory_view import MemoryView

if TYPE_CHECKING:  # the session imports this module
    from zorktui.agent.llm import Usage
    from zorktui.agent.proposal import Verdict
    from zorktui.session.session import Session


@dataclass
class RoomInfo:
    """The facts the Room panel shows.

    Attributes:
        room: The room's name ("" when unknown).
        dark: The room is dark.
        exits: Known ways out as (direction, what is known of it: "→ Kitchen",
            "(back to Hall, likely)", "(not walked yet)", one-way proven).
        unexplored: Ways nobody has taken that the game's text points to
            (those the game accepts are among the exits).
        blocked: Directions tried that went nowhere.
        objects: Things here (nested ones as "x (in y)" or "x (on y)").
        inventory: Things carried.
        tried: Commands already typed here, oldest first.
        question: The answers the game waits for when it asks a question away from its prompt (None: it is not asking).
    """

    room: str = ""
    dark: bool = False
    exits: list[tuple[str, str, bool]] = field(default_factory=list)
    unexplored: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    inventory: list[str] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)
    question: tuple[str, ...] | None = None


def objects_here(visible: Iterable[ObjectRef]) -> list[str]:
    """What the player can see lying about: "matches (on mantelpiece)", "leaflet (in mailbox)".

    Things in someone else's hands are left out (the engine keeps them for the
    parser's sake, but nobody has shown them), and so is anything whose holder
    is not listed.
    """
    visible = list(visible)
    names = {o.id: o.name for o in visible if o.relation != "held"}
    out = []
    for o in visible:
        if o.relation == "held" or (o.parent and o.parent not in names and o.relation):
            continue
        out.append(f"{o.name} ({o.relation or 'in'} {names[o.parent]})" if o.parent in names else o.name)
    return out


def refusal_line(verdict: Verdict) -> str:
    """A refusal for people: "'north' (-0.40): no known way that direction"."""
    why = "; ".join(r for r in verdict.reasons if r) or "scored too low"
    return f"'{verdict.command}' ({verdict.score:+.2f}): {why}"


def ending_word(turn: Turn) -> str:
    """How a finished story ended: "won", "died" or "ended"."""
    return "won" if turn.victory else ("died" if turn.dead else "ended")


def ending_line(turn: Turn, max_score: int | None = None) -> str:
    """The transcript's line when the story ends, with the score where there is one."""
    how = {"won": "You have won", "died": "You have died", "ended": "The story has ended"}[ending_word(turn)]
    score = ""
    if turn.score is not None:
        score = f" with {turn.score}" + (f" of {max_score}" if max_score else "") + " points"
    took = f"{turn.moves} moves" if turn.moves is not None else f"{turn.turn} turns"
    return f"{how}{score}, in {took}. /undo, /restore NAME or /restart to play on."


def llm_line(u: Usage) -> str:
    """The model's line: how replies are asked for, what a turn costs, and the totals."""
    # deferred: the labels' module is loaded already wherever a model is in use
    from zorktui.agent.llm_endpoint import LABELS

    replies = f"replies as {LABELS[u.replies]}. " if u.replies in LABELS else ""
    each = f"{u.per_turn()}; " if u.per_turn() else ""
    return (f"LLM: {replies}{each}{u.calls} calls, {u.prompt_tokens + u.completion_tokens:,} tokens, "
            f"${u.cost:.4f} in all")


class SessionView:
    """The session as the app reads it.

    Args:
        session: The session shown.
    """

    def __init__(self, session: Session) -> None:
        self._session = session

    @property
    def current(self) -> Turn:
        """The turn on screen."""
        return self._session.current

    @property
    def title(self) -> str:
        """The story's title (its file's name when the story has none)."""
        story = self._session.game.story
        return story.title or Path(str(story.path)).stem

    @property
    def max_score(self) -> int | None:
        """The story's maximum score where it is knowable."""
        return self._session.game.max_score

    def vocabulary(self) -> list[str]:
        """The words of the game's dictionary (for completion)."""
        words = getattr(self._session.game.zm.dictionary, "words", [])
        return [w.text if hasattr(w, "text") else str(w) for w in words]

    def room(self, arrow: str = "→") -> RoomInfo:
        """The Room panel's facts: the current turn's, and the memory's ways out.

        Args:
            arrow: What joins a way to where it leads ("→" on screen; words where it is read aloud).
        """
        session = self._session
        turn = session.current
        info = RoomInfo(room=turn.location.name if turn.location else "", dark=turn.dark)
        info.objects = objects_here(turn.visible)
        info.inventory = [o.name for o in turn.inventory]
        info.tried = session.log.tried_here()
        if turn.question and not turn.done:
            info.question = session.valid_actions()
        memory = session.memory
        if memory is not None:
            _, found, blocked = queries.exits(memory)
            info.exits = [(e.direction, e.note(arrow=arrow), e.one_way) for e in found]
            info.blocked = list(blocked)
            open_ways = queries.unexplored(memory)
            if open_ways is not None:
                info.unexplored = list(open_ways.mentioned)
        return info

    def memory_view(self, reading: threading.Lock | None = None) -> MemoryView | None:
        """The memory as the inspector reads it, as of any turn (None: this session keeps none).

        Args:
            reading: The front's reading lock, held by every read (closing the memory takes it too).
        """
        memory = self._session.memory
        return MemoryView(memory, reading) if memory is not None else None

    def map_text(self) -> str | None:
        """The map drawn from the memory (None without a memory)."""
        memory = self._session.memory
        return MemoryView(memory).map_text() if memory is not None else None

    def valid_actions(self) -> tuple[str, ...]:
        """The current state's valid actions (searched beside the game when not known yet)."""
        return self._session.valid_actions()
