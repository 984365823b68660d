"""Deaths, wins and endings, read from what a story does (see :mod:`zorktui.engine.asking` for its questions).

Nothing here reads a story's words for a death: the story halts, or asks a
question one of whose answers stops it (the end) or leads to that end (an
offer after a death), or sets the player down elsewhere poorer (a death it
gave a new life after). Only a win may also be told by its banner, for the
stories that keep no maximum score.
"""

from __future__ import annotations

from dataclasses import dataclass

from zorktui.core.turn import ObjectRef, Turn
from zorktui.engine.asking import Outcome
from zorktui.engine.vm.text import won_banner


@dataclass(frozen=True)
class Ending:
    """How a turn stands: ended, won, died."""

    done: bool
    victory: bool
    dead: bool


def ended(halted: bool, answers: tuple[Outcome, ...], narrative: str) -> bool:
    """Whether the story has ended: it halted, asks the question after the end, or announced a win.

    A banner of victory ends a story that lets the winner walk on, too.
    """
    return halted or any(a.stops for a in answers) or won_banner(narrative)


def won(max_score: int | None, score: int | None, reward: int, narrative: str) -> bool:
    """Whether a story that ended was won.

    Its maximum score reached; where it keeps none, points gained by the move
    that ended it (a death gains nothing) or a banner of victory.
    """
    if max_score:
        return score is not None and score >= max_score
    return reward > 0 or won_banner(narrative)


def new_life(previous: Turn | None, location: ObjectRef | None, inventory: tuple[ObjectRef, ...],
             score: int | None, question: bool) -> bool:
    """A death the story gave a new life after: the player set down elsewhere, and points or possessions gone.

    Walking never takes points or what the player carries; a death does, and
    the story puts the player somewhere to go on. Taking up an offer of a new
    life (the answer to a question) is not a second death.
    """
    if previous is None or previous.question or question or previous.location is None or location is None:
        return False
    if location.id == previous.location.id:
        return False
    fell = score is not None and previous.score is not None and score < previous.score
    held = {o.id for o in inventory}
    return fell or any(o.id not in held for o in previous.inventory)


def settle(done: bool, victory: bool, answers: tuple[Outcome, ...], gave_new_life: bool,
           previous: Turn | None, state_hash: str) -> Ending:
    """The turn's ending from what was found.

    Args:
        done: The story has ended (:func:`ended`).
        victory: It was won (:func:`won`).
        answers: Where the answers to the question it asks lead (none when it is not asking).
        gave_new_life: :func:`new_life` holds.
        previous: The turn before.
        state_hash: The world's fingerprint now.
    """
    if previous is not None and previous.done and previous.question and not done and state_hash == previous.state_hash:
        # The question after the end answered with neither a restart nor an undo: the story quit
        # (jericho's Frotz runs on after some quits rather than halting).
        return Ending(True, previous.victory, previous.dead)
    victory = done and victory
    offer = not done and any(a.ends for a in answers)
    return Ending(done, victory, (done and not victory) or offer or (not done and gave_new_life))
