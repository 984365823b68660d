"""Valid actions for any story: candidates from the game's own words, kept if they change the world.

For each state: build candidates from the learned templates (see
:mod:`zorktui.engine.actions.grammar`) over the objects in scope, named by the words
the game's own properties give them; play each from a snapshot; keep those
whose resulting world fingerprint differs from what merely passing time
gives; group by resulting state and keep one command per group.

Cost control, all game-agnostic:

* Results are cached by world-state hash (in :class:`Game`). Every candidate's last outcome
  is remembered with a digest of what it can plausibly depend on (its *context*, see :meth:`ActionFinder._context`).
  For one object: the own state (parent, attributes, properties) of the
  object and of every object above it in the tree (so the room and any
  container); for templates that have changed the world somewhere, also the
  globals that hold world state (puzzle flags; globals seen holding more than
  a few values, like the previous room or the score, are left out); and for
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
  :mod:`zorktui.engine.world.sight`.
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

On an Inform story nearly all of a typed candidate's time is the story's own
parser: where evidence allows, candidates are dispatched to the story's action
routine instead (:mod:`zorktui.engine.actions.dispatch`). The rest are played by
two worker processes (:mod:`zorktui.engine.actions.search_workers`: a command that
kills an interpreter kills a worker, not the application), or split with a twin
interpreter on a second thread (:meth:`Interpreter.twin`) where those are off.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from zorktui.engine.actions.batch import HALTED
from zorktui.engine.actions.candidate_context import CandidateContexts
from zorktui.engine.actions.candidate_lists import (  # noqa: F401 - MAX_PAIRS: tests read it here
    IDLE_WORDS,
    MAX_PAIRS,
    Candidate,
    CandidateListing,
    Chosen,
    FinderStats,
)
from zorktui.engine.actions.candidate_play import (  # noqa: F401 - PARALLEL_MIN_SECONDS: tests tune searches by it
    PARALLEL_MIN_SECONDS,
    CandidatePlaying,
    _Played,
)
from zorktui.engine.actions.dispatch import Dispatcher
from zorktui.engine.actions.dispatched_play import DispatchedPlaying, _plainness
from zorktui.engine.actions.grammar import (
    Templates,
    learn_double_templates,
    learn_templates,
    templates_from_grammar,
)
from zorktui.engine.actions.search_workers import (
    StorySetup,
)
from zorktui.engine.actions.searched import SearchedGame
from zorktui.engine.calibrate.compass import find_compass
from zorktui.engine.calibrate.noise import SCRATCH_QUORUM, scratch_globals
from zorktui.engine.calibrate.sampling import direction_commands
from zorktui.engine.directions import ORDER, direction_of
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.naming import Namer
from zorktui.engine.zmachine.local_globals import local_globals, local_globals_property
from zorktui.engine.zmachine.story_family import made_by_textworld

if TYPE_CHECKING:
    from zorktui.engine.actions.candidate_context import _Surroundings

_NONSENSE = "qzxvw"
#: Commands that pass time or look around without touching anything.
_IDLE = (*IDLE_WORDS, _NONSENSE)
#: Scope caps keep a cluttered room from exploding the candidate count.
MAX_OBJECTS = 24
#: How a take is said, plainest first: the takes that moved nothing are asked why.
TAKE_TEMPLATES = ("take {0}", "get {0}", "pick up {0}", "pick {0} up")
#: How many contexts a candidate is remembered to have failed in (the latest kept).
FAILED_CONTEXTS = 8


def _told_apart(key: bytes, objects_hash: bytes, kept_globals: np.ndarray) -> bytes:
    """The key that groups a changed outcome with the commands that have the same effect.

    Usually the search's key (scratch globals left out, so "drop lamp" and
    "throw lamp at case" are one action). An outcome after which the story
    asks a question (an ending's RESTART/RESTORE/QUIT, a yes or no) is told
    apart by every global the fingerprint keeps: no later turn will tell a
    scratch global from the world there, and two endings the fingerprint
    tells apart ("cook banana with oven", "... with stove") are two states.
    """
    return key + kept_globals.tobytes() if objects_hash.endswith(b"?") else key


class ActionFinder(CandidateListing, CandidateContexts, CandidatePlaying, DispatchedPlaying):
    """Finds the commands that change the world from a game's current state.

    Args:
        game: The game to search (its interpreter is used and restored).
        parallel: Play candidates on a second interpreter in a second thread
            too (None: when the machine has more than one core).
        workers: In parallel, play them on the search worker processes
            instead where those run (see :mod:`zorktui.engine.actions.search_workers`).
        dispatch: Call the story's own action routine for candidates where
            evidence allows instead of typing them (see :mod:`zorktui.engine.actions.dispatch`;
            None: unless ``ZORKTUI_DISPATCH=0``).
    """

    def __init__(self, game: SearchedGame, parallel: bool | None = None, workers: bool = True,
                 dispatch: bool | None = None) -> None:
        self.game = game
        if parallel is None:
            parallel = (os.cpu_count() or 1) > 1
        self.parallel = parallel
        # In parallel, the process's search workers where they run; else the twin thread.
        self.workers = workers
        self._twin: Interpreter | None = None
        self._per_command: float | None = None  # seconds of one core per command played (None: not measured)
        self._pool: ThreadPoolExecutor | None = None
        # Typed candidates go to the search workers from this thread while dispatch runs here (the lock: see _play).
        self._typist: ThreadPoolExecutor | None = None
        self._vm_lock = threading.RLock()
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
        self._action_books: set[int] = set()  # see dispatched_play.py
        self._confirmed: set[bytes] = set()  # see dispatched_play.py
        self._timed: set[str] = set()  # see CandidateContexts._refused_by_parser
        # (template, objects) -> (context digest, changed the world?, the candidate it had the same effect as)
        self._memo: dict[tuple[str, tuple[int, ...]], tuple[bytes, bool, tuple[str, tuple[int, ...]] | None]] = {}
        # (template, objects) -> the last few contexts it changed nothing in. A thing carried, or scenery the
        # library moves along with the player (Inform's sky and sea), is in another context in every room.
        self._failed_in: dict[tuple[str, tuple[int, ...]], list[bytes]] = {}
        self._failed_like: set[tuple[str, tuple[bytes, ...]]] = set()  # (template, signatures): lookalikes skipped
        self._worked_like: set[tuple[str, tuple[bytes, ...]]] = set()
        # Per two-object template, what the things in each slot looked like when it worked.
        self._worked_slots: dict[str, tuple[set[bytes], set[bytes]]] = {}
        # The values each world global was seen holding, and those that turned out bookkeeping.
        self._global_values: dict[int, set[int]] = {}
        self._volatile = np.zeros(240, dtype=bool)
        self._last_globals: np.ndarray | None = None
        self.stats = FinderStats()
        #: Takes of things out here that the last search found moving nothing (see ``find``).
        self.untaken: tuple[str, ...] = ()
        #: The room each direction of the last search leads to (see ``find``).
        self.destinations: dict[str, int] = {}
        # Words the parser took for each privately named object, per set in scope (with those it could not name).
        self._names_by_scope: dict[bytes, list[tuple[dict[int, bytes], dict[int, list[str]]]]] = {}
        self._names_here: dict[int, list[str]] = {}
        self._named_before: dict[int, tuple[list[str], bytes]] = {}
        self._nouns: list[int] | None = None
        self._inferring_cache: tuple[int, set[str]] | None = None
        # The property ZIL rooms list their shared scenery in (0: none; None: not looked for yet).
        self._local_globals: int | None = None
        # TextWorld writes a move "go east" (see story_family): its players, and its own tools, expect it.
        self._go_moves = made_by_textworld(game.zm)
        self.namer = Namer(game.zm, game.facts.name, self._vocabulary, self._private)
        on = os.environ.get("ZORKTUI_DISPATCH") != "0" if dispatch is None else dispatch
        self.dispatcher = Dispatcher(game.vm, lambda: game.prompt_at, on, getattr(game.story, "md5", None))

    def _named(self, command: str) -> str:
        """A found command as it is listed: a move written "go east" where the story's family writes it so."""
        if self._go_moves and command in ORDER:
            return f"go {command}"
        return command

    def forget(self) -> None:
        """Drop what earlier searches learned about candidates: the next search plays every one."""
        self._memo.clear()
        self._failed_in.clear()
        self._failed_like.clear()
        self._worked_like.clear()
        self._confirmed.clear()

    def close(self) -> None:
        """Stop the worker thread and release the twin interpreter (the finder can still search after)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._typist is not None:
            self._typist.shutdown(wait=True)
            self._typist = None
        if self._twin is not None:
            self._twin.close()
            self._twin = None

    def _scope(self) -> tuple[list[int], list[int]]:
        """(held, in scope): from the object tree, named or not (names may be private).

        In a ZIL story, also the room's local globals (Zork I's kitchen window
        behind the house): see :mod:`zorktui.engine.zmachine.local_globals`.
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

    def _listed(self, start: Snapshot) -> tuple[list[int], list[int], _Surroundings, list[Candidate], Chosen,
                                              tuple[bytes, np.ndarray], int | None, FinderStats]:
        """The state's candidates and what they are judged by: the part of :meth:`find` that reads the room.

        Returns:
            (held, scope, surroundings, candidates, those chosen to play, the
            state's own (objects hash, kept globals), its move count, the new
            search's stats).
        """
        game = self.game
        vm, zm = game.vm, game.zm
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
        vm.restore(start)
        zm.refresh(vm.ram())
        unplayed = (fingerprint.objects_only(vm.ram()), fingerprint.kept_globals(vm.ram()))
        moves_global = self._moves_global()
        start_moves = None if moves_global is None else zm.global_var(moves_global)
        stats = FinderStats()
        candidates = self._candidates(held, scope, here)
        chosen = self._chosen(candidates, here, stats)
        return held, scope, here, candidates, chosen, unplayed, start_moves, stats

    def find(self) -> tuple[str, ...]:
        """Search the current state; the game is left exactly as it was."""
        game = self.game
        vm, zm = game.vm, game.zm
        start = vm.snapshot()
        clock = time.perf_counter()

        def lap(phase: str) -> None:
            """Book the wall time since the last lap to ``phase`` (for benchmarks: ``FinderStats.phases``)."""
            nonlocal clock
            now = time.perf_counter()
            stats.phases[phase] = stats.phases.get(phase, 0.0) + (now - clock) * 1000
            clock = now

        idle = [i for i in _IDLE if i == _NONSENSE or i in zm.dictionary]
        with self._vm_lock:  # the idle baseline, typed meanwhile, falls back to this interpreter if need be
            ahead = self._typing_ahead(start, idle, until_sent=True)
            held, scope, here, candidates, chosen, unplayed, start_moves, stats = self._listed(start)
        lap("reading the room")
        to_try, contexts, followers, steady = chosen.to_try, chosen.contexts, chosen.followers, chosen.steady
        # Dispatched where evidence allows (dispatch.py), the rest typed; both on the workers. On trial, both ways.
        self.dispatcher.new_search()
        deadly = self._deadly_ones()
        trusted = {i for i, (c, template, _o) in enumerate(to_try) if self.dispatcher.trusted(template) and c not in deadly}
        first = [i for i in range(len(to_try)) if i not in trusted]
        typing = self._typing(start, ([] if ahead else idle) + [to_try[i][0] for i in first])
        dispatched = self._dispatched(start, to_try, trusted)
        outcomes = (ahead.result() if ahead else []) + typing.result()
        deadly = self._deadly_ones()  # with those the typing just found
        dispatched |= self._dispatched(start, to_try, {i for i in first if to_try[i][0] not in deadly})  # once typed
        lap("dispatched and typed")
        idle_after, typed_outcomes = outcomes[: len(idle)], outcomes[len(idle) :]
        # Trusted candidates dispatch could not tell (a question inside the action) are typed after all.
        late_typed = [i for i in sorted(trusted) if i not in dispatched]
        typed_outcomes += self._play(start, [to_try[i][0] for i in late_typed])
        lap("typed after dispatch")
        typed = first + late_typed
        stats.dispatched, stats.typed = len(dispatched), len(typed)
        outcomes = [dispatched[i] if i in dispatched else None for i in range(len(to_try))]  # type: ignore[misc]
        for i, outcome in zip(typed, typed_outcomes, strict=True):
            outcomes[i] = outcome
        baselines = [*((h, g) for h, g, _m, _at in idle_after), unplayed]
        results = [(*candidate, h, g) for candidate, (h, g, _m, _at) in zip(to_try, outcomes, strict=False)]
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
        timeless = self._timeless(start_moves, idle_after, outcomes)
        keys = [unplayed_key if t else state_key(h, g) for (*_c, h, g), t in zip(results, timeless, strict=False)]
        # Templates a typed command of took time: not all refused by the parser (an order to someone, say).
        self._timed |= {to_try[i][1] for i in typed if not timeless[i]}
        # A typed command after which the parser asked which thing it meant, the world as it was, did nothing.
        looking = next((i for i in idle if i != _NONSENSE), None)
        for i in typed:
            h = results[i][3]
            if looking and h.endswith(b"?") and h[:-1] == unplayed[0] and self._parser_asked(start, to_try[i][0], looking):
                keys[i] = unplayed_key
        lap("judged")
        if dispatched and self._disagrees(start, to_try, dispatched, typed, keys, state_key, idle_keys, unplayed_key,
                                          lambda i: self._parse_key(to_try[i][0], to_try[i][2], here)):
            vm.restore(start)
            return self.find()  # with the templates that disagreed typed (each time one fewer)
        lap("confirmed")
        # A follower joins its leader's group when the leader, unchanged in
        # context, still has an effect; otherwise it is played after all.
        landed = {(t, o): _told_apart(k, h, g) for (_c, t, o, h, g), k in zip(results, keys, strict=False)
                  if k not in idle_keys and not k.startswith(HALTED)}
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
        # Candidates alike to the parser wait on one of theirs: played after all where it was not refused.
        for leader, waiting in chosen.alike.items():
            if leader in landed or not self._refused_by_parser(leader[0]):
                late += [candidate for candidate, _context, _like in waiting]
                late_contexts += [(context, like) for _candidate, context, like in waiting]
            else:
                stats.lookalikes += len(waiting)
        if late:
            outcomes = self._play(start, [command for command, _t, _o in late])
            results += [(*candidate, h, g) for candidate, (h, g, _m, _at) in zip(late, outcomes, strict=False)]
            timeless = self._timeless(start_moves, idle_after, outcomes)
            keys += [unplayed_key if t else state_key(h, g) for (h, g, _m, _at), t in zip(outcomes, timeless, strict=False)]
            self._timed |= {template for (_c, template, _o), t in zip(late, timeless, strict=False) if not t}
            contexts += late_contexts
        stats.tried = len(results)
        vm.restore(start)
        zm.refresh(vm.ram())

        groups: dict[bytes, list[tuple[str, str, tuple[int, ...]]]] = {}
        for (command, template, objs, h, g), k, (context, like) in zip(results, keys, contexts, strict=False):
            changed = k not in idle_keys and not k.startswith(HALTED)
            fine = _told_apart(k, h, g)
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
                groups.setdefault(fine, []).append((command, template, objs))
        for follower, (_context, _like), k in joined:
            groups[k].append(follower)
        for members in groups.values():
            leaders = [m for m in members if m[2]]
            if len(leaders) < 2:
                continue
            plainest = min(leaders, key=lambda m: _plainness(m[0], m[1]))
            for _command, template, objs in leaders:
                if (template, objs) != (plainest[1], plainest[2]):
                    remembered = self._memo[(template, objs)][0] if (template, objs) in self._memo else None
                    if remembered is not None:
                        self._memo[(template, objs)] = (remembered, True, (plainest[1], plainest[2]))
        found = tuple(sorted(self._named(min(members, key=lambda m: _plainness(m[0], m[1]))[0])
                             for members in groups.values()))
        # Where each direction that changed the world leaves the player: the room global after it
        # (read from the same play, so knowing it costs nothing). An explorer need not walk a way
        # to learn that it leads back to a room already seen.
        room_global = game.facts.room_global
        changed_commands = {m[0] for members in groups.values() for m in members}
        self.destinations = {self._named(command): int(g[room_global]) for command, _t, objs, _h, g in results
                             if not objs and command in changed_commands and direction_of(command)
                             and len(g) > room_global}
        # Things out here that no take moved (scenery, or too much carried already): the game
        # can say which (see Game.blocked_takes), at a command each.
        takes: dict[int, str] = {}
        for command, _template, objs in sorted((c for c in candidates if c[1] in TAKE_TEMPLATES),
                                              key=lambda c: TAKE_TEMPLATES.index(c[1])):
            if objs[0] not in held:
                takes.setdefault(objs[0], command)
        self.untaken = tuple(c for c in takes.values() if c not in changed_commands)
        lap("followers and groups")
        stats.valid = len(found)
        stats.learned_templates = len(self.templates) if self.templates is not None else 0
        # Counted as kept, not by walking the memo: that grows with every state searched.
        stats.failures_remembered = len(self._failed_in)
        self.stats = stats
        return found
