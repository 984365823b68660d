"""The candidate commands of one state: every template over the things in scope, pairs capped.

A mixin of :class:`zorktui.engine.actions.valid_actions.ActionFinder`. Two-object
templates make far more pairs than a search can play, so each is capped at
:data:`MAX_PAIRS`; the order they are cut in comes from
:mod:`zorktui.engine.actions.pairs`, except that a pair which already failed
in the context it is in now goes behind every pair that has not: the search
would skip it anyway (see ``ActionFinder.find``), and counted inside the cap
it kept untried pairs out for good (with four vegetables in hand and an oven
that had worked, "cook the oldest with the stove" was never reached).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zorktui.engine.actions.pairs import order_pairs

if TYPE_CHECKING:
    from zorktui.engine.actions.candidate_context import _Surroundings
    from zorktui.engine.actions.dispatch import Dispatcher
    from zorktui.engine.actions.grammar import Templates
    from zorktui.engine.actions.searched import SearchedGame

#: Pairs of a two-object template played at most per state.
MAX_PAIRS = 32
#: Commands that pass time or look around without touching anything: every search plays them as its
#: baseline, so a verb alone that the dictionary makes one of them ("l", "inv", "z") is never a candidate.
IDLE_WORDS = ("wait", "look", "inventory")

Candidate = tuple[str, str, tuple[int, ...]]
#: What a candidate looks like to the library: (template, its things' signatures).
Like = tuple[str, tuple[bytes, ...]]
#: A candidate waiting on another's result: (candidate, its context, what it looks like).
Waiting = tuple[Candidate, bytes, Like]


@dataclass
class FinderStats:
    """What the last search did (for benchmarks and the UI)."""

    candidates: int = 0
    tried: int = 0
    skipped: int = 0
    lookalikes: int = 0
    #: Of those, candidates tried before of a template the parser refuses before any action.
    refused_lookalikes: int = 0
    followed: int = 0
    valid: int = 0
    learned_templates: int = 0
    failures_remembered: int = 0
    #: Candidates dispatched to the story's action routine, and typed (see dispatch.py).
    dispatched: int = 0
    typed: int = 0
    #: Milliseconds of the search's wall time, phase by phase as this thread met them (see ActionFinder.find);
    #: a measurement, not what the search did, so two searches that did the same compare equal.
    phases: dict[str, float] = field(default_factory=dict, compare=False)


@dataclass
class Chosen:
    """The candidates of a state worth playing, and those that wait on another's result.

    Attributes:
        to_try: Candidates to play.
        contexts: Per candidate to play, (its context digest, what it looks like).
        followers: Per leader (template, things), candidates that last time
            had the same effect as it, their contexts unchanged since.
        steady: The (template, things) played whose context has not changed since last time.
        alike: Per candidate to play (template, things), candidates of a
            template the parser refuses that look just like it to the parser
            (see ``CandidateContexts._like``): played only where it is not refused.
    """

    to_try: list[Candidate] = field(default_factory=list)
    contexts: list[tuple[bytes, Like]] = field(default_factory=list)
    followers: dict[tuple[str, tuple[int, ...]], list[Waiting]] = field(default_factory=dict)
    steady: set[tuple[str, tuple[int, ...]]] = field(default_factory=set)
    alike: dict[tuple[str, tuple[int, ...]], list[Waiting]] = field(default_factory=dict)


class CandidateListing:
    """Builds a state's candidates (see :class:`ActionFinder`)."""

    # Held by the host (:class:`ActionFinder`), which sets them all in its ``__init__``.
    game: SearchedGame
    templates: Templates | None
    _directions: list[str]
    _worked_slots: dict[str, tuple[set[bytes], set[bytes]]]
    _failed_in: dict[tuple[str, tuple[int, ...]], list[bytes]]
    _memo: dict[tuple[str, tuple[int, ...]], tuple[bytes, bool, tuple[str, tuple[int, ...]] | None]]
    _failed_like: set[Like]
    _worked_like: set[Like]
    _productive: set[str]
    dispatcher: Dispatcher

    if TYPE_CHECKING:  # CandidateContexts', on the same host
        def _object_word(self, obj: int, scope: list[int]) -> str | None: ...
        def _linked(self, a: int, b: int) -> bool: ...
        def _context(self, template: str, objs: tuple[int, ...], here: _Surroundings) -> bytes: ...
        def _like(self, template: str, objs: tuple[int, ...], here: _Surroundings) -> Like: ...
        def _refused_by_parser(self, template: str) -> bool: ...

    def _chosen(self, candidates: list[Candidate], here: _Surroundings, stats: FinderStats) -> Chosen:
        """Of a state's ``candidates``, those to play, and those that wait on another's result (counted in ``stats``)."""
        chosen = Chosen()
        refusing: dict[Like, tuple[str, tuple[int, ...]]] = {}
        for command, template, objs in candidates:
            stats.candidates += 1
            context = self._context(template, objs, here) if objs else b""
            if objs:
                if self._failed_before(template, objs, context):
                    stats.skipped += 1  # the commonest case: it failed before in the same context
                    continue
                memo = self._memo.get((template, objs))
            # What the candidate looks like to the library (built only for those that get this far).
            like = self._like(template, objs, here)
            if objs:
                if memo is not None and memo[0] == context:
                    chosen.steady.add((template, objs))
                    if memo[2] is not None:
                        chosen.followers.setdefault(memo[2], []).append(((command, template, objs), context, like))
                        continue
                # A lookalike of one that failed is skipped while never tried itself; so is one tried
                # before, where the parser refuses the template's commands before any action: what the
                # parser tests (attributes, what is held) is the same as when it was refused.
                never_parsed = self.dispatcher.never_parsed(template)
                if (
                    (memo is None or never_parsed)
                    and template not in self._productive
                    and like in self._failed_like
                    and like not in self._worked_like
                ):
                    stats.lookalikes += 1
                    stats.refused_lookalikes += memo is not None
                    continue
                # Of a refused template's candidates alike to the parser, one is played for all.
                if self._refused_by_parser(template):
                    if like in refusing:
                        chosen.alike.setdefault(refusing[like], []).append(((command, template, objs), context, like))
                        continue
                    refusing[like] = (template, objs)
            chosen.to_try.append((command, template, objs))
            chosen.contexts.append((context, like))
        return chosen

    def _candidates(self, held: list[int], scope: list[int], here: _Surroundings) -> list[Candidate]:
        """(command, template, objects) triples for the current state.

        Args:
            held: What the player holds, newest first.
            scope: Everything in scope (held first).
            here: The state's digests (signatures per object, own states for contexts).
        """
        assert self.templates is not None
        names = {o: self._object_word(o, scope) for o in scope}
        named = [o for o in scope if names[o]]
        out: list[Candidate] = []
        for d in self._directions:
            out.append((d, d, ()))
        idle = self._idle_verbs()
        for verb in self.templates.intransitive:
            word = self.game.zm.dictionary.lookup(verb) if " " not in verb else None
            if word is None or word.verb_number < 0 or word.verb_number not in idle:
                out.append((verb, verb, ()))
        held_named = [o for o in held if names.get(o)]
        for template in self.templates.single:
            needs_held = self.templates.held.get(template, (False,))[0]
            for o in held_named if needs_held else named:
                out.append((template.format(names[o]), template, (o,)))
        parent = self.game.zm.objects.parent
        place = self.game.facts.place()
        lying = {o for o in named if place is not None and parent(o) == place.room}
        for template in self.templates.double:
            pairs = self._pairs(template, named, held_named, lying, here)
            for a, b in pairs:
                out.append((template.format(names[a], names[b]), template, (a, b)))
        return out

    def _idle_verbs(self) -> set[int]:
        """The dictionary's verb numbers of :data:`IDLE_WORDS` (their synonyms share them)."""
        words = (self.game.zm.dictionary.lookup(w) for w in IDLE_WORDS)
        return {w.verb_number for w in words if w is not None and w.verb and w.verb_number >= 0}

    def _failed_before(self, template: str, objs: tuple[int, ...], context: bytes) -> bool:
        """Whether the candidate changed nothing, last time, in the context it is in now (it is not played)."""
        return context in self._failed_in.get((template, objs), ())

    def _pairs(self, template: str, named: list[int], held_named: list[int], lying: set[int],
               here: _Surroundings) -> list[tuple[int, int]]:
        """The pairs ``template`` is tried with here: at most :data:`MAX_PAIRS`, in order (see the module docstring).

        ``lying``: the things in scope lying directly in the room.
        """
        assert self.templates is not None
        parent = self.game.zm.objects.parent
        slots = self.templates.held.get(template)
        link = template.split()[-2] if template.split()[-2] != "{0}" else ""
        if slots is not None:  # from the grammar: each slot says whether it wants a held object
            firsts = held_named if slots[0] else named
            seconds = held_named if slots[1] else named
        elif link == "from":  # take the coin from the box: both out there
            firsts = seconds = [o for o in named if o not in held_named]
        elif link == "with":  # unlock the door with the key; cook the potato with the stove
            firsts = seconds = named
        else:  # put the key in the box: the thing moved is held
            firsts, seconds = held_named, named
        pairs = [(a, b) for a in firsts for b in seconds if a != b]
        if slots is None and link == "with":
            pairs = [(a, b) for a, b in pairs if a in held_named or b in held_named]
        if link == "from":  # a thing is only taken from what holds it
            pairs = [(a, b) for a, b in pairs if parent(a) == b]
        ordered = order_pairs(pairs, held_named, here.signatures.__getitem__,
                              self._worked_slots.get(template, (set(), set())), self._linked, lying)
        if len(ordered) <= MAX_PAIRS:
            return ordered
        # The first MAX_PAIRS of those not failed here before, then of those that have: asked pair by pair
        # only until the cap is full (a kitchen's templates make about a thousand pairs a search).
        fresh: list[tuple[int, int]] = []
        known: list[tuple[int, int]] = []
        for ab in ordered:
            (known if self._failed_before(template, ab, self._context(template, ab, here)) else fresh).append(ab)
            if len(fresh) == MAX_PAIRS:
                break
        return (fresh + known)[:MAX_PAIRS]
