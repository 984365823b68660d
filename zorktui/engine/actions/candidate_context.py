"""What a valid-action candidate's outcome can depend on: the names of things, what is in sight, and
the digests (own state, holders, world flags, lookalikes) that say when a candidate need not be played again.

A mixin of :class:`zorktui.engine.actions.valid_actions.ActionFinder`, which holds the
memo and the story's knowledge these read (see that module's docstring for
the rules they serve).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.calibrate.object_words import noun_globals, probe_object_words

if TYPE_CHECKING:
    from zorktui.engine.actions.dispatch import Dispatcher
    from zorktui.engine.actions.grammar import Templates
    from zorktui.engine.actions.searched import SearchedGame
    from zorktui.engine.world.naming import Namer

#: A world global seen holding more than this many values is bookkeeping (previous
#: room, score, a clock), not a flag a verb may wait on. How often it changes says
#: nothing: the planner's fork searches states on both sides of a puzzle in turn
#: (the rug moved, then not), and a flag that toggles is still a flag.
VOLATILE_VALUES = 4
#: In a lookalike key, a slot whose thing does not count (see ``CandidateContexts._like``).
_ANY = b"*"


@dataclass
class _Surroundings:
    """What candidates' outcomes may depend on in one state (see the module docstring).

    Attributes:
        states: Own state digest per object (in scope, and their holders).
        chains: Per object in scope, its own state and its holders' states.
        signatures: Per object in scope, what it looks like to the library.
        around: The objects held (with their states) and the objects in scope.
        in_scope: The objects in scope (which of them the player holds left out).
        world: The world globals that change rarely (flags).
        held: The objects held.
        contexts: One-object contexts made so far in this state, per (object, productive, inferring).
    """

    states: dict[int, bytes]
    chains: dict[int, bytes]
    signatures: dict[int, bytes]
    around: bytes
    in_scope: bytes
    world: bytes
    held: frozenset[int]
    contexts: dict[tuple[int, bool, bool], bytes] = field(default_factory=dict)


class CandidateContexts:
    """Names, sight and context digests for candidates (see :class:`ActionFinder`)."""

    # Held by the host (:class:`ActionFinder`), which sets them all in its ``__init__``.
    game: SearchedGame
    namer: Namer
    templates: Templates | None
    dispatcher: Dispatcher
    #: Templates a typed command of took time (see _refused_by_parser).
    _timed: set[str]
    _names_here: dict[int, list[str]]
    _names_by_scope: dict[bytes, list[tuple[dict[int, bytes], dict[int, list[str]]]]]
    #: Per thing, its words when last asked (or none, and its situation then, where it went unnamed).
    _named_before: dict[int, tuple[list[str], bytes]]
    _nouns: list[int] | None
    _last_globals: np.ndarray | None
    _global_values: dict[int, set[int]]
    _volatile: np.ndarray
    _refs: dict[int, frozenset[int]]
    _productive: set[str]
    _inferring_cache: tuple[int, set[str]] | None

    def _object_word(self, obj: int, scope: list[int]) -> str | None:
        """A name for ``obj`` that fits nothing else in ``scope`` where possible (see :mod:`zorktui.engine.world.naming`)."""
        return self.namer.name(obj, scope)

    def _private(self, obj: int) -> bool:
        return not self.game.zm.object_vocabulary(obj)

    def _vocabulary(self, obj: int) -> list[str]:
        return self.game.zm.object_vocabulary(obj) or self._names_here.get(obj, [])

    def _probe_names(self, scope: list[int], chains: dict[int, bytes]) -> None:
        """Learn words for objects whose properties name none (Inform 7), per set of such objects in scope.

        Which words name an object depends on what else is there ("pepper"
        alone, but "yellow pepper" beside a red one), so the parser is asked
        again whenever that set changes. An object it could not name (in a
        closed fridge, say) is asked about again once it or something holding
        it has changed (the fridge opened, the thing taken out), never twice in
        the same situation (``chains``: each object's own state and its
        holders', from :meth:`_surroundings`). Keyed on the first situation
        alone, a key unnamed in a trunk shut once had stayed unnamed after it
        was taken.
        """
        zm = self.game.zm
        private = sorted(o for o in scope if not zm.object_vocabulary(o))
        if not private:
            self._names_here = {}
            return
        key = hashlib.blake2b(b"|".join(o.to_bytes(2, "big") for o in private), digest_size=12).digest()
        answers = self._names_by_scope.setdefault(key, [])
        # An answer holds while everything it could not name is where and as it was:
        # a key unnamed in a shut trunk is asked about again once it is taken.
        names = next((names for unnamed, names in answers
                      if all(chains[o] == chain for o, chain in unnamed.items())), None)
        if names is None:
            called = {o: self.game.facts.name(o) for o in private}
            names = self._names_as_before(private, chains, called)
            if names is None:
                names = self._asked_names(private, chains, called)
            answers.append(({o: chains[o] for o in private if not names.get(o)}, names))
        self._names_here = names

    def _asked_names(self, private: list[int], chains: dict[int, bytes], called: dict[int, str]
                     ) -> dict[int, list[str]]:
        """Words for ``private`` things asked of the parser (see :func:`probe_object_words`), remembered per thing."""
        zm = self.game.zm
        if self._nouns is None:
            self._nouns = noun_globals(self.game.vm, zm, self.game.facts.player)
        guessed: set[int] = set()
        names = probe_object_words(self.game.vm, zm, private, self._nouns, called, guessed)
        for o in private:
            self._named_before[o] = (names.get(o, []), chains[o]) if o not in guessed else ([], b"")
        return names

    def _names_as_before(self, private: list[int], chains: dict[int, bytes], called: dict[int, str]
                         ) -> dict[int, list[str]] | None:
        """Words for a new set of things from earlier answers, where no two of them can be taken for each other.

        Each thing was named without hesitation before (or left unnamed in
        the same situation: a shut fridge's contents), and no word of one
        thing's printed name or of its words is another's: then what else is
        in reach cannot make the parser hesitate. Asked again at each new
        set, carrying three things from room to room had cost a probe of
        the dictionary's names at every step. None: the parser is asked.
        """
        words: dict[int, list[str]] = {}
        taken: set[str] = set()
        for o in private:
            known, chain = self._named_before.get(o, ([], None))
            if not known and chain != chains[o]:
                return None
            own = set(known) | set(called[o].lower().split())
            if own & taken:
                return None
            taken |= own
            if known:
                words[o] = known
        return words

    def _in_sight(self, held: list[int], scope: list[int]) -> list[int]:
        """``scope`` less the things inside others that the parser cannot see (a shut mailbox's leaflet).

        Every command naming such a thing ends in "You can't see any such
        thing", so none of them need playing (see :class:`zorktui.engine.world.sight.Sight`).
        """
        game = self.game
        place = game.facts.place()
        if place is None:
            return scope
        unseen = game.sight.hidden(game.vm, place, held, scope, lambda obj: self._object_word(obj, scope),
                                   game.fingerprint.noise_properties)
        return [obj for obj in scope if obj not in unseen] if unseen else scope

    def _object_state(self, obj: int) -> bytes:
        # As the fingerprint reads it: not the library's bookkeeping bits ("mentioned"), which most
        # commands flip, and with them every context in the room.
        return self.game.fingerprint.object_state(obj)

    def _world_globals(self, ram: np.ndarray) -> bytes:
        """Digest of the world globals that are flags, learning which ones are bookkeeping."""
        # Not minus the scratch learned from candidates: a flag that several
        # commands set ("wind", "turn", "push" the clockwork) looks like scratch
        # there, yet other commands wait on it. Real scratch takes many values
        # over the searches and so turns volatile.
        kept = self.game.fingerprint.kept_globals(ram)
        last = self._last_globals
        if last is not None:
            for i in np.flatnonzero(kept != last).tolist():
                if self._volatile[i]:
                    continue
                seen = self._global_values.setdefault(i, {int(last[i])})
                seen.add(int(kept[i]))
                if len(seen) > VOLATILE_VALUES:
                    self._volatile[i] = True
        self._last_globals = kept.copy()
        kept[self._volatile] = 0
        return kept.tobytes()

    def _surroundings(self, held: list[int], scope: list[int], ram: np.ndarray) -> _Surroundings:
        """What candidates' outcomes may depend on in this state (see the module docstring)."""
        objects = self.game.zm.objects
        states: dict[int, bytes] = {}

        def state(o: int) -> bytes:
            if o not in states:
                states[o] = self._object_state(o)
            return states[o]

        # An object's outcome depends on its holders too: the chest must be
        # open to take the mantle, the room decides what a held thing can do.
        # Scenery a ZIL room shares with others (Zork III's lake) hangs under a
        # holder of its own, not the room: the room it is seen from counts too
        # (the lake boarded from the shore, not from the middle of the lake).
        place = self.game.facts.place()
        room = place.room if place is not None else 0

        def chain(o: int) -> bytes:
            above = objects.ancestors(o)
            return state(o) + b"".join(state(a) for a in above) + (state(room) if room and room not in above else b"")

        chains = {o: chain(o) for o in scope}
        signatures = {o: self._signature(o, o in held) for o in scope}
        in_scope = b"".join(o.to_bytes(2, "big") for o in sorted(scope))
        around = b"".join(o.to_bytes(2, "big") + state(o) for o in sorted(held)) + in_scope
        return _Surroundings(states, chains, signatures, around, in_scope, self._world_globals(ram), frozenset(held))

    def _signature(self, obj: int, held: bool) -> bytes:
        """What an object looks like to the game's library: attributes, which properties, held or not.

        A property holding another object (the key a door wants, where a
        door leads) counts with its value: two doors alike but for their keys
        are not alike.
        """
        zm = self.game.zm
        objects = zm.objects
        # Not the library's bookkeeping ("mentioned", "workflag"): looking flips it.
        parts = [self.game.fingerprint.attributes(obj), b"H" if held else b""]
        for prop in objects.properties(obj):
            parts.append(prop.number.to_bytes(1, "big"))
            if prop.length == 2:
                value = int.from_bytes(zm.memory[prop.addr : prop.addr + 2], "big")
                if objects.valid(value):
                    parts.append(value.to_bytes(2, "big"))
        return b"".join(parts)

    def _like(self, template: str, objs: tuple[int, ...], here: _Surroundings) -> tuple[str, tuple[bytes, ...]]:
        """What a candidate looks like to the library: its things' signatures, and whether they name each other.

        Where the parser has refused every command of a pair template before
        any action, and in each grammar line written so only one slot's
        thing can fail what the parser asks of it ("ask [someone] for X",
        "push X [direction]", "give [held thing] to [someone]" with the
        thing held), the refusal is that thing's: the pair looks like any
        other with the same thing there, whatever the other is. Keyed on
        both, each new thing had had a pair typed with every thing in reach.
        """
        signatures = tuple(here.signatures[o] for o in objs)
        lines = self.templates.tokens.get(template, ()) if self.templates is not None else ()
        if len(objs) == 2 and lines and self._refused_by_parser(template):
            failing = {frozenset(i for i, (kind, o) in enumerate(zip(line, objs, strict=True))
                                 if kind == "t" or (kind == "h" and o not in here.held)) for line in lines}
            if len(failing) == 1 and len(slots := next(iter(failing))) == 1:
                return (template, tuple(s if i in slots else _ANY for i, s in enumerate(signatures)))
        return (template, signatures + self._link(objs))

    def _refused_by_parser(self, template: str) -> bool:
        """Whether the parser has refused every command of ``template`` typed, as far as the evidence goes.

        None reached the action routine in several states, none changed the
        world, and none took time: a refusal by the parser takes none, but
        an order to someone does ("ask nessa for tea" in an Inform 6 story
        goes to her, not to the action routine, and a turn passes).
        """
        return (self.dispatcher.never_parsed(template) and template not in self._productive
                and template not in self._timed)

    def _parse_key(self, command: str, objs: tuple[int, ...], here: _Surroundings) -> bytes:
        """What the parser's reading of ``command`` depends on: its words and, where it names things, theirs.

        A thing named is read by its own and its holders' states (seen, in
        reach, held: a slot that wants a held thing takes it first) and by
        what else is in scope (a name that fits two). Not by what else is
        held: that only ranks things one name fits, where the parser
        guesses rather than asks. Keyed on it, taking one thing had every
        confirmation in the room typed again.
        A command naming nothing (a direction, a verb alone) reads the same anywhere.
        """
        if not objs:
            return command.encode()
        named = b"".join(here.chains[o] for o in objs)
        return hashlib.blake2b(b"|".join((command.encode(), named, here.in_scope)), digest_size=12).digest()

    def _link(self, objs: tuple[int, ...]) -> tuple[bytes, ...]:
        """For a pair, whether either names the other in a property (the door's key, where it leads).

        Two pairs alike object by object are not alike when only one of them
        is a door and its own key: "open door with matches" failing says
        nothing about "open door with key".
        """
        if len(objs) != 2:
            return ()
        return (b"L" if self._linked(*objs) else b"",)

    def _linked(self, a: int, b: int) -> bool:
        """Whether either object names the other in a property (read once per search)."""
        refs = self._refs
        for o in (a, b):
            if o not in refs:
                refs[o] = frozenset(self.game.zm.objects.property_words(o))
        return b in refs[a] or a in refs[b]

    def _context(self, template: str, objs: tuple[int, ...], here: _Surroundings) -> bytes:
        """Digest of what the outcome of ``template`` on ``objs`` may depend on here."""
        if len(objs) == 2:  # the pair's own states: each is named, so is whatever it needs
            return b"".join(here.states[o] for o in objs)
        # One object: the same for every template alike in the two flags, so
        # made once per object and flags rather than once per candidate.
        key = (objs[0], template in self._productive, template.split()[0] in self._inferring)
        known = here.contexts.get(key)
        if known is None:
            parts = [here.chains[objs[0]]]
            if key[1]:
                parts.append(here.world)
            if key[2]:
                parts.append(here.around)
            known = here.contexts[key] = hashlib.blake2b(b"|".join(parts), digest_size=12).digest()
        return known

    @property
    def _inferring(self) -> set[str]:
        """Verbs that also take a second object: alone, the game may choose it from what is around."""
        assert self.templates is not None
        if self._inferring_cache is None or self._inferring_cache[0] != len(self.templates.double):
            self._inferring_cache = (len(self.templates.double), {t.split()[0] for t in self.templates.double})
        return self._inferring_cache[1]
