"""What a game learns once per story when it opens, shared by the game and every fork of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from zorktui.core.turn import Turn
from zorktui.engine.asking import Asking, Outcome
from zorktui.engine.vm.interpreter import Snapshot
from zorktui.engine.vm.story import StoryInfo
from zorktui.engine.world.fingerprint import Fingerprinter
from zorktui.engine.world.holders import LibraryAttributes, SurfacesFromText


@dataclass
class StoryModel:
    """A story as measured when it opened: a fork is built from it, nothing is measured again.

    Attributes:
        story: The story file.
        seed: The seed of the game's random numbers.
        start: The interpreter at the first prompt (``restart`` goes back to it).
        prompt: The story's own prompt, cut from replies.
        player: The player object.
        fingerprint: How states are hashed (the globals and properties that only
            the parser disturbs are left out).
        max_score: The maximum score where the story makes it knowable.
        layout: Where the story's library keeps on, in, held and shut (None: not known).
        asking: Tells the story's questions from its prompt and plays their answers.
        surfaces: What the text has said stands on what.
        opening: The turn before any command.
        valid_cache: Valid actions per state hash (found by the game or any fork).
        destinations: Per state hash, the room each valid direction leads to.
        deadly: Commands that killed a search's interpreter: never played.
        untaken: Per state hash, the takes of things out there that its valid-action search found moving nothing.
        blocked: Per state hash, those of them the game refuses for the load carried.
        answers: Per question (the world's hash, and where the story asks it from), where each answer leads.
    """

    story: StoryInfo
    seed: int
    start: Snapshot
    prompt: str
    player: int
    fingerprint: Fingerprinter
    max_score: int | None
    layout: LibraryAttributes | None
    asking: Asking
    surfaces: SurfacesFromText = field(default_factory=SurfacesFromText)
    opening: Turn | None = None
    valid_cache: dict[str, tuple[str, ...]] = field(default_factory=dict)
    destinations: dict[str, dict[str, int]] = field(default_factory=dict)
    deadly: set[str] = field(default_factory=set)
    untaken: dict[str, tuple[str, ...]] = field(default_factory=dict)
    blocked: dict[str, tuple[str, ...]] = field(default_factory=dict)
    answers: dict[tuple[str, tuple[int, int]], tuple[Outcome, ...]] = field(default_factory=dict)
    #: Per line read away from the prompt (the world's hash, and where), whether it is a command loop.
    command_loops: dict[tuple[str, tuple[int, int]], bool] = field(default_factory=dict)
