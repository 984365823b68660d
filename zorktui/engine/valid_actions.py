"""Valid actions for any story: candidates from the game's own words, kept if they change the world.

For each state: build candidates from the learned templates (see
:mod:`zorktui.engine.grammar`) over the objects in scope, named by the words
the game's own properties give them; play each from a snapshot; keep those
whose resulting world fingerprint differs from what merely passing time
gives; group by resulting state and keep one command per group.

Cost control, all game-agnostic:

* A candidate whose verb has never changed anything anywhere is not retried
  on an object while nothing in reach (the objects in scope and the room) has
  changed since it failed there. Verbs that have worked once are always tried.
* Results are cached by world-state hash (in :class:`Game`).

Nearly all of a search's time is the game's own parser running inside the
interpreter (0.1 ms for a bare verb, 0.3 ms with one object, about 1 ms with
two), not restoring snapshots or fingerprinting. So the candidates are split
between the game's interpreter and a twin one driven from a second thread
(see :meth:`Interpreter.twin`): on two cores a search takes a little over
half as long.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.calibrate import (
    SCRATCH_QUORUM,
    direction_commands,
    noun_globals,
    probe_object_words,
    scratch_globals,
)
from zorktui.engine.grammar import (
    PREFERRED,
    Templates,
    learn_double_templates,
    learn_templates,
    templates_from_grammar,
)

from zorktui.engine.interpreter import Interpreter, Snapshot

if TYPE_CHECKING:
    from zorktui.engine.game import Game

_NONSENSE = "qzxvw"
#: Commands that pass time or look around without touching anything.
_IDLE = ("wait", "look", "inventory", _NONSENSE)
#: Scope caps keep a cluttered room from exploding the candidate count.
MAX_OBJECTS = 24
MAX_PAIRS = 16
#: Below this many candidates a second thread costs more than it saves.
PARALLEL_MIN = 48


@dataclass
class FinderStats:
    """What the last search did (for benchmarks and the UI)."""

    candidates: int = 0
    tried: int = 0
    skipped: int = 0
    valid: int = 0
    learned_templates: int = 0
    failures_remembered: int = 0


def _plainness(command: str) -> tuple[int, int, int]:
    """Sort key choosing the plainest of commands with the same effect ("take flask" over "eat flask")."""
    words = command.split()
    rank = PREFERRED.index(words[0]) if words[0] in PREFERRED else len(PREFERRED)
    return (len(words), rank, len(command))


class ActionFinder:
    """Finds the commands that change the world from a game's current state.

    Args:
        game: The game to search (its interpreter is used and restored).
        parallel: Play candidates on a second interpreter in a second thread
            too (None: when the machine has more than one core).
    """

    def __init__(self, game: "Game", parallel: bool | None = None) -> None:
        self.game = game
        if parallel is None:
            parallel = (os.cpu_count() or 1) > 1
        self.parallel = parallel
        self._twin: Interpreter | None = None
        self._pool: ThreadPoolExecutor | None = None
        self.templates: Templates | None = None
        self._directions = direction_commands(game.zm)
        self._productive: set[str] = set()
        # Globals seen disturbed by many candidates in some state: parser scratch.
        self._scratch: set[int] = set()
        # (template, object id) -> object-state digest when it last failed
        self._failed: dict[tuple[str, tuple[int, ...]], bytes] = {}
        self.stats = FinderStats()
        self._probed: dict[int, list[str]] = {}
        self._probed_scopes: set[frozenset[int]] = set()
        self._nouns: list[int] | None = None

    # --------------------------------------------------------------- naming
    def _object_word(self, obj: int, scope: list[int]) -> str | None:
        """A word (or two) that names ``obj`` unambiguously among ``scope`` where possible."""
        zm = self.game.zm
        vocab = self._vocabulary(obj)
        if not vocab:
            return None
        others: dict[str, int] = {}
        for o in scope:
            if o != obj:
                for w in self._vocabulary(o):
                    others[w] = others.get(w, 0) + 1
        name_words = [w.lower() for w in zm.objects.name(obj).split()]
        resolution = zm.dictionary.resolution

        def rank(w: str) -> tuple[int, int, int]:
            last = 0 if name_words and name_words[-1][:resolution] == w else 1
            return (others.get(w, 0), last, -len(w))

        best = min(vocab, key=rank)
        if others.get(best, 0):
            unique = [w for w in vocab if not others.get(w, 0)]
            if unique:
                return f"{unique[0]} {best}"
        return best

    def _vocabulary(self, obj: int) -> list[str]:
        return self.game.zm.object_vocabulary(obj) or self._probed.get(obj, [])

    def _probe_names(self, scope: list[int]) -> None:
        """Learn words for objects whose properties name none (Inform 7), once per scope."""
        zm = self.game.zm
        missing = [o for o in scope if not zm.object_vocabulary(o) and o not in self._probed]
        key = frozenset(missing)
        if not missing or key in self._probed_scopes:
            return
        self._probed_scopes.add(key)
        if self._nouns is None:
            self._nouns = noun_globals(self.game.vm, zm, self.game.facts.player)
        found = probe_object_words(self.game.vm, zm, missing, self._nouns)
        for o in missing:
            self._probed[o] = found.get(o, [])

    def _object_state(self, obj: int) -> bytes:
        # Parent, attributes and property values; not sibling/child, which
        # change whenever a neighbour moves.
        zm = self.game.zm
        objects = zm.objects
        entry = objects.entry(obj)
        parts = [bytes(zm.memory[entry : entry + objects.attribute_bytes]), objects.parent(obj).to_bytes(2, "big")]
        for prop in objects.properties(obj):
            if prop.addr < zm.dynamic_size:
                parts.append(bytes(zm.memory[prop.addr : prop.addr + prop.length]))
        return hashlib.blake2b(b"".join(parts), digest_size=8).digest()

    # -------------------------------------------------------------- search
    def _play_on(self, vm: Interpreter, start: Snapshot, commands: list[str]) -> list[tuple[str, np.ndarray]]:
        """Play each command from ``start`` on ``vm``: (objects hash, kept globals) after each."""
        fingerprint = self.game.fingerprint
        out = []
        for command in commands:
            vm.restore(start)
            vm.step(command)
            ram = vm.ram()
            out.append((fingerprint.objects_only(ram), fingerprint.kept_globals(ram)))
        return out

    def _play(self, start: Snapshot, commands: list[str]) -> list[tuple[str, np.ndarray]]:
        """Play each command from ``start``; results in the order of ``commands``.

        With ``parallel``, every other command goes to the twin interpreter in
        the worker thread. Interleaving (rather than halves) keeps the two
        shares even: two-object commands, the dearest, come last.
        """
        if not self.parallel or len(commands) < PARALLEL_MIN:
            return self._play_on(self.game.vm, start, commands)
        if self._twin is None:
            self._twin = self.game.vm.twin()
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="valid-actions")
        assert self._pool is not None
        theirs = self._pool.submit(self._play_on, self._twin, start, commands[1::2])
        mine = self._play_on(self.game.vm, start, commands[0::2])
        out: list[tuple[str, np.ndarray]] = [("", np.empty(0))] * len(commands)
        out[0::2] = mine
        out[1::2] = theirs.result()
        return out

    def close(self) -> None:
        """Stop the worker thread and release the twin interpreter (the finder can still search after)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._twin is not None:
            self._twin.close()
            self._twin = None

    def _scope(self) -> tuple[list[int], list[int]]:
        """(held, in scope): from the object tree, named or not (names may be private)."""
        facts = self.game.facts
        objects = self.game.zm.objects
        held = objects.children(facts.player) if objects.valid(facts.player) else []
        place = facts.place()
        around = facts.room_objects(place.room) if place is not None else []
        scope = list(dict.fromkeys(held + around))
        return held, scope[:MAX_OBJECTS]

    def _candidates(self, held: list[int], scope: list[int]) -> list[tuple[str, str, tuple[int, ...]]]:
        """(command, template, objects) triples for the current state."""
        assert self.templates is not None
        names = {o: self._object_word(o, scope) for o in scope}
        named = [o for o in scope if names[o]]
        out: list[tuple[str, str, tuple[int, ...]]] = []
        for d in self._directions:
            out.append((d, d, ()))
        for verb in self.templates.intransitive:
            out.append((verb, verb, ()))
        held_named = [o for o in held if names.get(o)]
        loose = [o for o in named if o not in held_named]
        for template in self.templates.single:
            needs_held = self.templates.held.get(template, (False,))[0]
            for o in held_named if needs_held else named:
                out.append((template.format(names[o]), template, (o,)))
        for template in self.templates.double:
            slots = self.templates.held.get(template)
            if slots is not None:  # from the grammar: each slot says whether it wants a held object
                firsts = held_named if slots[0] else loose + held_named
                seconds = held_named if slots[1] else loose + held_named
                # Mixed pairs first: one thing held, one out there (unlock the door with the key).
                pairs = sorted(
                    ((a, b) for a in firsts for b in seconds if a != b),
                    key=lambda ab: (ab[0] in held_named) == (ab[1] in held_named),
                )
            else:
                link = template.split()[2]
                if link == "with":  # unlock the door with the key; cook the potato with the stove
                    pairs = [(a, b) for a in named for b in named if a != b and (a in held_named or b in held_named)]
                elif link == "from":  # take the coin from the box: both out there
                    pairs = [(a, b) for a in loose for b in loose if a != b]
                else:  # put the key in the box: the thing moved is held
                    pairs = [(a, b) for a in held_named for b in named if a != b]
            for a, b in pairs[:MAX_PAIRS]:
                out.append((template.format(names[a], names[b]), template, (a, b)))
        return out

    def find(self) -> tuple[str, ...]:
        """Search the current state; the game is left exactly as it was."""
        game = self.game
        vm, zm = game.vm, game.zm
        start = vm.snapshot()
        held, scope = self._scope()
        self._probe_names(scope)
        vm.restore(start)
        held_word = next((w for w in (self._object_word(o, scope) for o in held) if w), None)
        if self.templates is None:
            self.templates = templates_from_grammar(zm) or learn_templates(vm, zm, held_word)
            vm.restore(start)
        elif not self.templates.double_learned and held_word:
            learn_double_templates(vm, zm, self.templates, held_word)
            vm.restore(start)
        zm.refresh(vm.ram())
        fingerprint = game.fingerprint
        object_states = {o: self._object_state(o) for o in scope}
        # A verb that failed on an object is retried once anything in reach
        # has changed (the clockwork may wind only once the burner is fitted).
        surroundings = hashlib.blake2b(b"".join(object_states[o] for o in sorted(scope)), digest_size=8).digest()
        surroundings += game.current.location.id.to_bytes(2, "big") if game.current.location else b""

        idle = [i for i in _IDLE if i == _NONSENSE or i in zm.dictionary]
        baselines = self._play(start, idle)
        vm.restore(start)
        zm.refresh(vm.ram())
        baselines.append((fingerprint.objects_only(vm.ram()), fingerprint.kept_globals(vm.ram())))
        stats = FinderStats()
        to_try: list[tuple[str, str, tuple[int, ...]]] = []
        for command, template, objs in self._candidates(held, scope):
            stats.candidates += 1
            key = (template, objs)
            memo = surroundings if len(objs) == 1 else b"".join(object_states[o] for o in objs)
            if objs and template not in self._productive and self._failed.get(key) == memo:
                stats.skipped += 1
                continue
            to_try.append((command, template, objs))
        stats.tried = len(to_try)
        outcomes = self._play(start, [command for command, _t, _o in to_try])
        results = [(*candidate, objects_hash, globals_) for candidate, (objects_hash, globals_) in zip(to_try, outcomes)]
        vm.restore(start)
        zm.refresh(vm.ram())
        # Globals that many of this state's candidates disturb are scratch too.
        idle_globals = baselines[0][1]
        self._scratch |= scratch_globals([r[4] for r in results], idle_globals, quorum=SCRATCH_QUORUM)
        keep = np.ones(len(idle_globals), dtype=bool)
        keep[list(self._scratch)] = False

        def state_key(objects_hash: str, globals_: np.ndarray) -> bytes:
            return objects_hash.encode() + globals_[keep].tobytes()

        idle_keys = {state_key(h, g) for h, g in baselines}
        groups: dict[bytes, list[str]] = {}
        for command, template, objs, objects_hash, globals_ in results:
            k = state_key(objects_hash, globals_)
            if k in idle_keys:
                if objs:
                    self._failed[(template, objs)] = surroundings if len(objs) == 1 else b"".join(object_states[o] for o in objs)
                continue
            self._productive.add(template)
            groups.setdefault(k, []).append(command)
        found = tuple(sorted(min(cmds, key=_plainness) for cmds in groups.values()))
        stats.valid = len(found)
        stats.learned_templates = len(self.templates)
        stats.failures_remembered = len(self._failed)
        self.stats = stats
        return found
