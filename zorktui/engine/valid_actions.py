"""Valid actions for any story: candidates from the game's own words, kept if they change the world.

For each state: build candidates from the learned templates (see
:mod:`zorktui.engine.grammar`) over the objects in scope, named by the words
the game's own properties give them; play each from a snapshot; keep those
whose resulting world fingerprint differs from what merely passing time
gives; group by resulting state and keep one command per group.

Cost control, all game-agnostic:

* Results are cached by world-state hash (in :class:`Game`).
* Every candidate's last outcome is remembered with a digest of what its
  outcome can plausibly depend on (its *context*, see :meth:`ActionFinder._context`).
  For one object: the own state (parent, attributes, properties) of the
  object and of every object above it in the tree (so the room and any
  container); for templates that have changed the world somewhere, also the
  globals that hold world state (puzzle flags; globals seen changing between
  most searches, like the previous room or the score, are left out); and for
  verbs whose grammar can also take a second object ("light X" when "light X
  with Y" exists: the game may pick the instrument itself), the objects held
  and in scope. For two objects: the own states of both. A candidate that
  changed nothing is tried again only once its context differs; one that
  changed the world is always tried again (its result is needed to group it
  with the others). A state near one searched before (same room, one thing
  taken or opened) then costs only the candidates the change can affect.
  The last few contexts a candidate failed in are kept, not only the last:
  back in a room, what is carried (and the scenery the library moves along
  with the player) is in a context it has already failed in.
* Things inside others that the parser cannot see (a shut mailbox's
  leaflet) are named in no candidate; the parser itself is asked, see
  :mod:`zorktui.engine.sight`.
* Of candidates that last had the same effect ("take lamp", "wave lamp"
  when waving first takes it), only the one kept is played again while the
  others' contexts are unchanged; they join its group if it still has an
  effect, and are played after all if it has not.
* A template that has never changed the world anywhere is not tried on an
  object (or pair) it has never been tried on when it already failed on one
  that looks the same to the game's library: same attributes, same set of
  properties (with the value of those that hold another object), held or
  not; for a pair, also whether one names the other in a property (a door
  and its own key). Objects with behaviour of their own carry
  properties (routines) that plain ones lack, so they are still tried; and
  once a template has worked somewhere it is tried on everything.

On an Inform story nearly all of a search's time is the game's own parser
running inside the interpreter (0.1 ms for a bare verb, 0.3 ms with one
object, about 1 ms with two), not restoring snapshots or fingerprinting; on
a ZIL story a command costs a tenth of that and the Python around it was
nearly half, so that is kept lean (see :mod:`zorktui.engine.batch`). The
candidates are played by two worker processes (see
:mod:`zorktui.engine.search_workers`: a command that kills an interpreter
kills a worker, not the application); where those are off, they are split
between the game's interpreter and a twin one driven from a second thread
(see :meth:`Interpreter.twin`) when a batch is worth it: on two cores a
search takes a little over half as long.
"""

from __future__ import annotations

import hashlib
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.batch import HALTED, Outcome, play_batch
from zorktui.engine.calibrate import direction_commands
from zorktui.engine.compass import find_compass
from zorktui.engine.directions import ORDER, direction_of
from zorktui.engine.fingerprint import globals_table, object_state
from zorktui.engine.grammar import (
    PREFERRED,
    Templates,
    shape_rank,
    learn_double_templates,
    learn_templates,
    templates_from_grammar,
)
from zorktui.engine.interpreter import Interpreter, Snapshot
from zorktui.engine.local_globals import local_globals, local_globals_property
from zorktui.engine.naming import Namer
from zorktui.engine.noise import SCRATCH_QUORUM, scratch_globals
from zorktui.engine.object_words import noun_globals, probe_object_words
from zorktui.engine.pairs import order_pairs
from zorktui.engine.search_workers import (
    DIED,
    SearchWorkers,
    StorySetup,
    WorkerError,
    shared_workers,
    story_setup,
)

if TYPE_CHECKING:
    from zorktui.engine.game import Game

_NONSENSE = "qzxvw"
#: Commands that pass time or look around without touching anything.
_IDLE = ("wait", "look", "inventory", _NONSENSE)
#: Scope caps keep a cluttered room from exploding the candidate count.
MAX_OBJECTS = 24
MAX_PAIRS = 32
#: Below this many candidates a second thread costs more than it saves (handing
#: a batch to the worker costs well under one command's time).
PARALLEL_MIN = 4
#: Nor below this much work (seconds) in a batch: on a small ZIL story a
#: command costs a few microseconds, and handing half a batch to the twin
#: (a thread switch, the GIL passed back and forth) cost more than it saved.
PARALLEL_MIN_SECONDS = 0.002
#: How many contexts a candidate is remembered to have failed in (the latest kept).
FAILED_CONTEXTS = 8
#: A world global that changed between this many pairs of searched states is
#: bookkeeping (previous room, score, a clock), not a flag a verb may wait on.
VOLATILE_AFTER = 2


#: What a search reads of one command played: objects digest, kept globals, move counter
#: (None: the story keeps none) and where the machine then waits (see ``_timeless``).
_Played = tuple[bytes, np.ndarray, int | None, tuple[int, int]]


@dataclass
class FinderStats:
    """What the last search did (for benchmarks and the UI)."""

    candidates: int = 0
    tried: int = 0
    skipped: int = 0
    lookalikes: int = 0
    followed: int = 0
    valid: int = 0
    learned_templates: int = 0
    failures_remembered: int = 0


@dataclass
class _Surroundings:
    """What candidates' outcomes may depend on in one state (see the module docstring).

    Attributes:
        states: Own state digest per object (in scope, and their holders).
        chains: Per object in scope, its own state and its holders' states.
        signatures: Per object in scope, what it looks like to the library.
        around: The objects held (with their states) and the objects in scope.
        world: The world globals that change rarely (flags).
        contexts: One-object contexts made so far in this state, per (object, productive, inferring).
    """

    states: dict[int, bytes]
    chains: dict[int, bytes]
    signatures: dict[int, bytes]
    around: bytes
    world: bytes
    contexts: dict[tuple[int, bool, bool], bytes] = field(default_factory=dict)


def _plainness(command: str, template: str) -> tuple[int, int, int, int, int, int]:
    """Sort key choosing the plainest of commands with the same effect.

    A direction comes first, compass points before up, down, in and out
    ("west" over "in" and "enter" where all three lead through a window: a
    player moves by directions, and maps are drawn from them); then fewer
    things named ("wave mantle" over "insert mantle into key" where both
    only pick it up; what a thing is taken from does not count: it says
    where the thing is); then the command shape people write (see
    :data:`zorktui.engine.grammar.SHAPES`: "put orange on chair" over "drop
    orange on chair", "take knife from table" over "take knife", "turn on
    lamp" over "switch lamp"); then fewer words (an object counts as one,
    however long its name), then the plainer verb ("take flask" over "eat
    flask").
    """
    words = command.split()
    direction = direction_of(command)
    way = ORDER.index(direction) if direction else len(ORDER)
    shape = template.split()
    things = sum(w.startswith("{") for w in shape) - (shape[-2:] == ["from", "{1}"])
    rank = PREFERRED.index(words[0]) if words[0] in PREFERRED else len(PREFERRED)
    return (way, things, shape_rank(template), len(shape), rank, len(command))


class ActionFinder:
    """Finds the commands that change the world from a game's current state.

    Args:
        game: The game to search (its interpreter is used and restored).
        parallel: Play candidates on a second interpreter in a second thread
            too (None: when the machine has more than one core).
        workers: In parallel, play them on the search worker processes
            instead where those run (see :mod:`zorktui.engine.search_workers`).
    """

    def __init__(self, game: "Game", parallel: bool | None = None, workers: bool = True) -> None:
        self.game = game
        if parallel is None:
            parallel = (os.cpu_count() or 1) > 1
        self.parallel = parallel
        # In parallel, the process's search workers where they run; else the twin thread.
        self.workers = workers
        self._twin: Interpreter | None = None
        # Seconds of one core per command played, as measured (None: not yet).
        self._per_command: float | None = None
        self._pool: ThreadPoolExecutor | None = None
        self.templates: Templates | None = None
        self._directions = direction_commands(game.zm)
        # Inform's compass, out of scope for commands that name no direction (a quarter of a search's time).
        self._compass = find_compass(game.zm)
        self._reading = game.fingerprint.reading()
        # This game's story as the search workers know it (made on first use).
        self._setup: StorySetup | None = None
        # Commands that killed a worker's interpreter: never played again, by anyone (the game and its forks share them).
        self._deadly: set[str] = game._deadly
        self._lifted: tuple[Snapshot, Snapshot] | None = None
        self._productive: set[str] = set()
        self._refs: dict[int, frozenset[int]] = {}
        # Globals seen disturbed by many candidates in some state: parser scratch.
        self._scratch: set[int] = set()
        # (template, objects) -> (context digest, changed the world?, the
        # candidate it had the same effect as, if not itself the one kept)
        self._memo: dict[tuple[str, tuple[int, ...]], tuple[bytes, bool, tuple[str, tuple[int, ...]] | None]] = {}
        # (template, objects) -> the last few contexts it changed nothing in. A
        # thing carried, or scenery the library moves along with the player
        # (Inform's sky and sea), is in another context in every room; back in
        # a room, its context is one it already failed in.
        self._failed_in: dict[tuple[str, tuple[int, ...]], list[bytes]] = {}
        # (template, object signatures) that failed / worked: lookalikes of a failure are skipped
        self._failed_like: set[tuple[str, tuple[bytes, ...]]] = set()
        self._worked_like: set[tuple[str, tuple[bytes, ...]]] = set()
        # Per two-object template, what the things in each slot looked like when it worked.
        self._worked_slots: dict[str, tuple[set[bytes], set[bytes]]] = {}
        # How often each world global differed between consecutive searches.
        self._global_changes = np.zeros(240, dtype=np.int32)
        self._last_globals: np.ndarray | None = None
        self.stats = FinderStats()
        # Words the parser took for each privately named object, per set of them in scope:
        # a list of answers, each with the situations of the objects it could not name.
        self._names_by_scope: dict[bytes, list[tuple[dict[int, bytes], dict[int, list[str]]]]] = {}
        self._names_here: dict[int, list[str]] = {}
        self._nouns: list[int] | None = None
        self._inferring_cache: tuple[int, set[str]] | None = None
        # The property ZIL rooms list their shared scenery in (0: none; None: not looked for yet).
        self._local_globals: int | None = None
        self.namer = Namer(game.zm, game.facts.name, self._vocabulary, self._private)

    # --------------------------------------------------------------- naming
    def _object_word(self, obj: int, scope: list[int]) -> str | None:
        """A name for ``obj`` that fits nothing else in ``scope`` where possible (see :mod:`zorktui.engine.naming`)."""
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
            if self._nouns is None:
                self._nouns = noun_globals(self.game.vm, zm, self.game.facts.player)
            names = probe_object_words(self.game.vm, zm, private, self._nouns)
            answers.append(({o: chains[o] for o in private if not names.get(o)}, names))
        self._names_here = names

    def _in_sight(self, held: list[int], scope: list[int]) -> list[int]:
        """``scope`` less the things inside others that the parser cannot see (a shut mailbox's leaflet).

        Every command naming such a thing ends in "You can't see any such
        thing", so none of them need playing (see :class:`zorktui.engine.sight.Sight`).
        """
        game = self.game
        place = game.facts.place()
        if place is None:
            return scope
        unseen = game.sight.hidden(game.vm, place, held, scope, lambda obj: self._object_word(obj, scope),
                                   game.fingerprint.noise_properties)
        return [obj for obj in scope if obj not in unseen] if unseen else scope

    def _object_state(self, obj: int) -> bytes:
        return object_state(self.game.zm, obj, self.game.fingerprint.noise_properties)

    def _world_globals(self, ram: np.ndarray) -> bytes:
        """Digest of the world globals that change rarely (flags), learning which change often."""
        # Not minus the scratch learned from candidates: a flag that several
        # commands set ("wind", "turn", "push" the clockwork) looks like scratch
        # there, yet other commands wait on it. Real scratch changes between
        # most searches and so turns volatile.
        kept = self.game.fingerprint.kept_globals(ram)
        if self._last_globals is not None:
            self._global_changes += kept != self._last_globals
        self._last_globals = kept.copy()
        kept[self._global_changes >= VOLATILE_AFTER] = 0
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
        chains = {o: state(o) + b"".join(state(a) for a in objects.ancestors(o)) for o in scope}
        signatures = {o: self._signature(o, o in held) for o in scope}
        around = b"".join(o.to_bytes(2, "big") + state(o) for o in sorted(held))
        around += b"".join(o.to_bytes(2, "big") for o in sorted(scope))
        return _Surroundings(states, chains, signatures, around, self._world_globals(ram))

    def _signature(self, obj: int, held: bool) -> bytes:
        """What an object looks like to the game's library: attributes, which properties, held or not.

        A property holding another object (the key a door wants, where a
        door leads) counts with its value: two doors alike but for their keys
        are not alike.
        """
        zm = self.game.zm
        objects = zm.objects
        entry = objects.entry(obj)
        parts = [bytes(zm.memory[entry : entry + objects.attribute_bytes]), b"H" if held else b""]
        for prop in objects.properties(obj):
            parts.append(prop.number.to_bytes(1, "big"))
            if prop.length == 2:
                value = int.from_bytes(zm.memory[prop.addr : prop.addr + 2], "big")
                if objects.valid(value):
                    parts.append(value.to_bytes(2, "big"))
        return b"".join(parts)

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

    # -------------------------------------------------------------- search
    def _play_on(self, vm: Interpreter, start: Snapshot, commands: list[str],
                 lifted: Snapshot | None = None) -> list[Outcome]:
        """Play each command from ``start`` on ``vm``: (objects hash, raw globals, where it waits) after each.

        With ``lifted`` (``start`` with Inform's compass out of scope), a
        command that names no direction is played from it, and the compass
        put back in the memory read after it (see :mod:`zorktui.engine.compass`).
        """
        return play_batch(vm, start, commands, self._reading, self._compass, lifted)

    def _play(self, start: Snapshot, commands: list[str]) -> list[_Played]:
        """Play each command from ``start``; results in the order of ``commands``.

        With ``parallel``, every other command goes to the twin interpreter in
        the worker thread. Interleaving (rather than halves) keeps the two
        shares even: two-object commands, the dearest, come last.
        """
        if not commands:
            return []
        deadly = self._deadly_ones()
        if deadly and not deadly.isdisjoint(commands):
            # Known to kill an interpreter: never played again, here least of all.
            played_ones = iter(self._play(start, [c for c in commands if c not in deadly]))
            dead: _Played = (HALTED, self.game.fingerprint.kept_globals(start.ram()), None, DIED)
            return [dead if c in deadly else next(played_ones) for c in commands]
        lifted = None
        if self._compass is not None:
            if self._lifted is None or self._lifted[0] is not start:
                self._lifted = (start, self._compass.lifted(start))
            lifted = self._lifted[1]
        began = time.perf_counter()
        worth_twin = self._per_command is None or len(commands) * self._per_command >= PARALLEL_MIN_SECONDS
        split = len(commands) >= PARALLEL_MIN and worth_twin
        workers = self._search_workers() if self.parallel and self.workers else None
        if workers is not None:
            # Every batch, however small: a command that kills an interpreter kills a worker, not us.
            # A small one goes to one worker alone (one hand-over instead of two).
            if self._setup is None:
                self._setup = story_setup(self.game.vm.zcode_path, self.game.vm.seed, self._reading, self._compass)
            try:
                played = workers.play(self._setup, start, lifted, commands, split=split)
            except WorkerError:
                self.workers = False  # this game searches on its own from now on
            else:
                self._deadly.update(c for c, outcome in zip(commands, played) if outcome[2] == DIED)
                self._measured((2 if split else 1) * (time.perf_counter() - began), len(commands))
                return self._read(played)
        if not self.parallel or not split:
            played = self._play_on(self.game.vm, start, commands, lifted)
            self._measured(time.perf_counter() - began, len(commands))
            return self._read(played)
        if self._twin is None:
            self._twin = self.game.vm.twin()
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="valid-actions")
            began = time.perf_counter()  # loading the twin is not what a command costs
        assert self._pool is not None
        theirs = self._pool.submit(self._play_on, self._twin, start, commands[1::2], lifted)
        mine = self._play_on(self.game.vm, start, commands[0::2], lifted)
        played: list[Outcome] = [(b"", b"", (0, 0))] * len(commands)
        played[0::2] = mine
        played[1::2] = theirs.result()
        self._measured(2 * (time.perf_counter() - began), len(commands))
        return self._read(played)

    def deadly(self, command: str) -> bool:
        """Whether ``command`` killed a search worker's interpreter in some state of this game (or a fork of it)."""
        return command in self._deadly_ones()

    def _deadly_ones(self) -> frozenset[str] | set[str]:
        """The commands known to kill an interpreter: this finder's, and the workers' for this game's forks."""
        if self._setup is None:
            return self._deadly
        workers = shared_workers()
        killed = workers.killed_by(self._setup) if workers is not None else frozenset()
        return self._deadly | killed if killed else self._deadly

    def _search_workers(self) -> SearchWorkers | None:
        """The process's search workers, loaded (the first search waits for them, about 0.2 s), or None where they are off."""
        workers = shared_workers()
        return workers if workers is not None and workers.wait_ready() else None

    def _read(self, played: list[Outcome]) -> list[_Played]:
        """Per command: objects hash, kept globals (all read in one go), move counter and where it waits."""
        raws = [raw for _digest, raw, _at in played]
        table = globals_table(raws)
        kept = self.game.fingerprint.kept_globals_of(raws)
        moves_global = self._moves_global()
        moves = table[:, moves_global].tolist() if moves_global is not None else [None] * len(played)
        return [(digest, row, m, at) for (digest, _raw, at), row, m in zip(played, kept, moves)]

    def _moves_global(self) -> int | None:
        """The global counting moves, where the story keeps one (not a clock)."""
        facts = self.game.facts
        if not facts.status_globals or facts.time_game or not 0 <= facts.moves_global < 240:
            return None
        return facts.moves_global

    @staticmethod
    def _timeless(start_moves: int | None, idle: list[_Played], played: list[_Played]) -> list[bool]:
        """Per command, whether it took no time where passing time does: a command outside the world.

        Inform's meta verbs and ZIL's game verbs (Zork's VERBOSE, SCORE,
        SAVE) leave the move counter as it was, and so do settings a library
        or a story adds of its own (TextWorld's "restrict commands"): they
        change a flag, not the world, and are no action. The word lists of
        :func:`zorktui.engine.grammar.is_meta` catch the usual ones by name;
        this catches them by what they do. Applies only where an idle command
        ("wait", "look") moves the counter on, and only to a command after
        which the machine waits where it does after that idle command: an
        ending takes no time either (TextWorld's winning "take coin"), but
        the game then asks its last question from elsewhere.

        Args:
            start_moves: The move counter before any command (None: the story keeps none).
            idle: What the idle commands gave.
            played: What each command judged gave.
        """
        ticked = [at for _h, _g, m, at in idle if m != start_moves]
        if start_moves is None or not ticked:
            return [False] * len(played)
        return [m == start_moves and at == ticked[0] for _h, _g, m, at in played]

    def _measured(self, seconds: float, commands: int) -> None:
        """Update the running cost of one command (seconds of one core)."""
        if commands:
            cost = seconds / commands
            self._per_command = cost if self._per_command is None else 0.7 * self._per_command + 0.3 * cost

    def forget(self) -> None:
        """Drop what earlier searches learned about candidates: the next search plays every one."""
        self._memo.clear()
        self._failed_in.clear()
        self._failed_like.clear()
        self._worked_like.clear()

    def close(self) -> None:
        """Stop the worker thread and release the twin interpreter (the finder can still search after)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._twin is not None:
            self._twin.close()
            self._twin = None

    def _scope(self) -> tuple[list[int], list[int]]:
        """(held, in scope): from the object tree, named or not (names may be private).

        In a ZIL story, also the room's local globals (Zork I's kitchen window
        behind the house): see :mod:`zorktui.engine.local_globals`.
        """
        facts = self.game.facts
        zm = self.game.zm
        objects = zm.objects
        held = objects.children(facts.player) if objects.valid(facts.player) else []
        place = facts.place()
        around = facts.room_objects(place.room) if place is not None else []
        if place is not None and not zm.header.is_inform and not place.dark:
            if self._local_globals is None:
                self._local_globals = local_globals_property(zm, place.room) or 0
            if self._local_globals:
                around = around + local_globals(zm, place.room, self._local_globals)
        scope = list(dict.fromkeys(held + around))
        return held, scope[:MAX_OBJECTS]

    def _candidates(self, held: list[int], scope: list[int],
                    signatures: dict[int, bytes]) -> list[tuple[str, str, tuple[int, ...]]]:
        """(command, template, objects) triples for the current state (``signatures``: per object in scope)."""
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
        parent = self.game.zm.objects.parent
        place = self.game.facts.place()
        lying = {o for o in named if place is not None and parent(o) == place.room}
        for template in self.templates.double:
            slots = self.templates.held.get(template)
            link = template.split()[-2] if template.split()[-2] != "{0}" else ""
            if slots is not None:  # from the grammar: each slot says whether it wants a held object
                firsts = held_named if slots[0] else named
                seconds = held_named if slots[1] else named
            elif link == "from":  # take the coin from the box: both out there
                firsts = seconds = loose
            elif link == "with":  # unlock the door with the key; cook the potato with the stove
                firsts = seconds = named
            else:  # put the key in the box: the thing moved is held
                firsts, seconds = held_named, named
            pairs = [(a, b) for a in firsts for b in seconds if a != b]
            if slots is None and link == "with":
                pairs = [(a, b) for a, b in pairs if a in held_named or b in held_named]
            if link == "from":  # a thing is only taken from what holds it
                pairs = [(a, b) for a, b in pairs if parent(a) == b]
            pairs = order_pairs(pairs, held_named, signatures.__getitem__,
                                self._worked_slots.get(template, (set(), set())), self._linked, lying)
            for a, b in pairs[:MAX_PAIRS]:
                out.append((template.format(names[a], names[b]), template, (a, b)))
        return out

    def find(self) -> tuple[str, ...]:
        """Search the current state; the game is left exactly as it was."""
        game = self.game
        vm, zm = game.vm, game.zm
        start = vm.snapshot()
        self._refs = {}  # objects named in each object's properties, read as needed this search
        held, scope = self._scope()
        zm.refresh(vm.ram())
        here = self._surroundings(held, scope, vm.ram())
        self._probe_names(scope, here.chains)
        vm.restore(start)
        self.namer.reset()  # what the parser was asked may have changed what things answer to
        self.namer.learn(game.current.observation)
        scope = self._in_sight(held, scope)
        held_word = next((w for w in (self._object_word(o, scope) for o in held) if w), None)
        if self.templates is None:
            self.templates = templates_from_grammar(zm) or learn_templates(vm, zm, held_word)
            vm.restore(start)
        elif not self.templates.double_learned and held_word:
            learn_double_templates(vm, zm, self.templates, held_word)
            vm.restore(start)
        fingerprint = game.fingerprint
        idle = [i for i in _IDLE if i == _NONSENSE or i in zm.dictionary]
        vm.restore(start)
        zm.refresh(vm.ram())
        unplayed = (fingerprint.objects_only(vm.ram()), fingerprint.kept_globals(vm.ram()))
        moves_global = self._moves_global()
        start_moves = None if moves_global is None else zm.global_var(moves_global)
        stats = FinderStats()
        to_try: list[tuple[str, str, tuple[int, ...]]] = []
        contexts: list[tuple[bytes, tuple[str, tuple[bytes, ...]]]] = []
        # Candidates that last time had the same effect as another (their
        # leader) and whose context has not changed since: they wait for the
        # leader's result instead of being played.
        followers: dict[tuple[str, tuple[int, ...]], list[tuple[tuple[str, str, tuple[int, ...]], bytes, tuple]]] = {}
        steady: set[tuple[str, tuple[int, ...]]] = set()
        for command, template, objs in self._candidates(held, scope, here.signatures):
            stats.candidates += 1
            context = self._context(template, objs, here) if objs else b""
            if objs:
                if context in self._failed_in.get((template, objs), ()):
                    stats.skipped += 1  # the commonest case: it failed before in the same context
                    continue
                memo = self._memo.get((template, objs))
            # What the candidate looks like to the library (built only for those that get this far).
            like = (template, tuple(here.signatures[o] for o in objs) + self._link(objs))
            if objs:
                if memo is not None and memo[0] == context:
                    steady.add((template, objs))
                    if memo[2] is not None:
                        followers.setdefault(memo[2], []).append(((command, template, objs), context, like))
                        continue
                if (
                    memo is None
                    and template not in self._productive
                    and like in self._failed_like
                    and like not in self._worked_like
                ):
                    stats.lookalikes += 1
                    continue
            to_try.append((command, template, objs))
            contexts.append((context, like))
        # The idle commands go in the same batch: one hand-over to the twin, shares kept even.
        outcomes = self._play(start, idle + [command for command, _t, _o in to_try])
        idle_after, outcomes = outcomes[: len(idle)], outcomes[len(idle) :]
        baselines = [*((h, g) for h, g, _m, _at in idle_after), unplayed]
        results = [(*candidate, h, g) for candidate, (h, g, _m, _at) in zip(to_try, outcomes)]
        # Globals that many of this state's candidates disturb are scratch too.
        idle_globals = baselines[0][1]
        # (Never the room or the score: a kitchen where three things each score a point.)
        self._scratch |= scratch_globals([r[4] for r in results], idle_globals, quorum=SCRATCH_QUORUM)
        self._scratch -= game.facts.world_globals
        keep = np.ones(len(idle_globals), dtype=bool)
        keep[list(self._scratch)] = False

        def state_key(objects_hash: bytes, globals_: np.ndarray) -> bytes:
            return objects_hash + globals_[keep].tobytes()

        idle_keys = {state_key(h, g) for h, g in baselines}
        unplayed_key = state_key(*unplayed)
        # A command outside the world (it took no time) counts as no change.
        keys = [unplayed_key if timeless else state_key(h, g)
                for (*_c, h, g), timeless in zip(results, self._timeless(start_moves, idle_after, outcomes))]
        # A follower joins its leader's group when the leader, unchanged in
        # context, still has an effect; otherwise it is played after all.
        landed = {(t, o): k for (_c, t, o, _h, _g), k in zip(results, keys) if k not in idle_keys and not k.startswith(HALTED)}
        joined: list[tuple[tuple[str, str, tuple[int, ...]], tuple[bytes, tuple], bytes]] = []
        late: list[tuple[str, str, tuple[int, ...]]] = []
        late_contexts: list[tuple[bytes, tuple]] = []
        for leader, waiting in followers.items():
            k = landed.get(leader)
            for candidate, context, like in waiting:
                if k is not None and leader in steady:
                    joined.append((candidate, (context, like), k))
                else:
                    late.append(candidate)
                    late_contexts.append((context, like))
        stats.followed = len(joined)
        if late:
            outcomes = self._play(start, [command for command, _t, _o in late])
            results += [(*candidate, h, g) for candidate, (h, g, _m, _at) in zip(late, outcomes)]
            keys += [unplayed_key if timeless else state_key(h, g)
                     for (h, g, _m, _at), timeless in zip(outcomes, self._timeless(start_moves, idle_after, outcomes))]
            contexts += late_contexts
        stats.tried = len(results)
        vm.restore(start)
        zm.refresh(vm.ram())

        groups: dict[bytes, list[tuple[str, str, tuple[int, ...]]]] = {}
        for (command, template, objs, _h, _g), k, (context, like) in zip(results, keys, contexts):
            changed = k not in idle_keys and not k.startswith(HALTED)
            if objs:
                self._memo[(template, objs)] = (context, changed, None)
                if not changed:
                    failed = self._failed_in.setdefault((template, objs), [])
                    failed.insert(0, context)
                    del failed[FAILED_CONTEXTS:]
                (self._worked_like if changed else self._failed_like).add(like)
                if changed and len(objs) == 2:
                    slots = self._worked_slots.setdefault(template, (set(), set()))
                    slots[0].add(like[1][0])
                    slots[1].add(like[1][1])
            if changed:
                self._productive.add(template)
                groups.setdefault(k, []).append((command, template, objs))
        for candidate, (context, _like), k in joined:
            groups[k].append(candidate)
        for members in groups.values():
            leaders = [m for m in members if m[2]]
            if len(leaders) < 2:
                continue
            leader = min(leaders, key=lambda m: _plainness(m[0], m[1]))
            for _command, template, objs in leaders:
                if (template, objs) != (leader[1], leader[2]):
                    context = self._memo[(template, objs)][0] if (template, objs) in self._memo else None
                    if context is not None:
                        self._memo[(template, objs)] = (context, True, (leader[1], leader[2]))
        found = tuple(sorted(min(members, key=lambda m: _plainness(m[0], m[1]))[0] for members in groups.values()))
        stats.valid = len(found)
        stats.learned_templates = len(self.templates)
        # Counted as kept, not by walking the memo: that grows with every state searched.
        stats.failures_remembered = len(self._failed_in)
        self.stats = stats
        return found
