"""Valid-action candidates by dispatch: the story's own action routine called for each object, the parser run once.

Typing a candidate runs the story's parser, which on an Inform story is
about nine tenths of what the candidate costs. Dispatch takes the other way
round, without knowing the story:

1. **The action routine.** A few commands are typed from the search's state
   and every routine call they make is traced
   (:meth:`zorktui.engine.vm.frotz_calls.FrotzCalls.trace`). The routine
   called with the typed object second and, first, a value fixed for a
   verb but different for most verbs, in most commands and earliest, is the
   story's dispatcher: Inform 6's ``begin_action``, Inform 7's
   ``BeginAction``, ZIL's ``PERFORM``.
2. **Per template**, two commands with different objects are typed and
   stopped at that routine's entry. The words holding one object in one
   and the other in the other, in memory and on the stack, are the *slots*;
   what else the parser wrote is the template's *overlay*.
   A command naming nothing (a direction, a verb alone) is its own
   template: one stop, no slots.
3. **Per candidate**: the state's memory with the overlay written, the
   stack and registers at the entry, the slots set to the candidate's
   object; then the machine runs to where the routine returns (at the
   caller's depth). A candidate whose action changed nothing gets the
   searched state's own outcome there; the others run on to the next read,
   through the end of the turn (daemons, timers) as typing runs them,
   because the story's own callers are on the stack. One stopped there that
   changed the world typed ends the stopping for the story, and all trust.

The candidates run on the search workers where those run (see
:mod:`zorktui.engine.actions.dispatch_run`). What is learned is kept per
story: see :mod:`zorktui.engine.actions.dispatch_cache`.

Dispatch is used where the evidence says it gives what typing gives, per
template: a template's candidates are typed, then dispatched, until
:data:`TRUSTED_AFTER` of them in :data:`TRUSTED_STATES` states agree (same
world, or no change either way); one disagreement and the template is
typed for good. A template whose grammar line tests the object (Inform's
``noun=Routine``), or whose action reads the typed words, shows it here.
Only from the story's normal command read is anything dispatched (never at
a question, a menu or after the end), and a dispatched candidate after
which the machine waits anywhere but there (a question inside the action)
is typed instead. The finder then types the plainest command of every
group of those it lists (see ``ActionFinder.find``), so every listed action
is one a person can type.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from zorktui.engine.actions import dispatch_cache
from zorktui.engine.actions.batch import Outcome
from zorktui.engine.actions.dispatch_cache import Learned
from zorktui.engine.actions.dispatch_learning import Entry, action_routine, entry_from, pairable
from zorktui.engine.actions.dispatch_run import Dispatched, DispatchJob, TemplateRun, run_job
from zorktui.engine.vm.frotz_calls import CHECKED_JERICHO, FrotzCalls, jericho_version, missing_symbols
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.fingerprint import ObjectsReading

#: A template is dispatched without typing after this many of its candidates agreed ...
TRUSTED_AFTER = 8
#: ... in at least this many states; or in this many states, one candidate each.
TRUSTED_STATES = 2
TRUSTED_STATES_ALONE = 4
#: Commands typed and traced to find the action routine, and the states it is looked for in.
TRACED_COMMANDS = 12
LOOKS_FOR_ROUTINE = 4
#: Dispatch is kept where the sample costs it less than this share of typing's.
CHEAPER = 0.7
#: Candidates both dispatched and typed on the game's interpreter to weigh the two (once a story), after this
#: many searches.
TYPED_SAMPLE = 40
SAMPLE_AFTER = 3
#: Commands of a template typed, at most, to find two that reach the routine; states in which to try.
PROBES_PER_TEMPLATE = 6
ENTRY_TRIES = 3

#: A candidate: (command, template, objects).
Candidate = tuple[str, str, tuple[int, ...]]


def available(vm: Interpreter) -> str:
    """'' where this interpreter can dispatch, else why not (one line)."""
    version = jericho_version()
    if version not in CHECKED_JERICHO:
        return f"jericho {version or '(unknown)'} is not a version dispatch was checked on ({', '.join(CHECKED_JERICHO)})"
    missing = missing_symbols(vm._lib)
    if missing:
        return f"jericho's libfrotz lacks {', '.join(missing)}"
    return ""


@dataclass
class _Evidence:
    """What dispatch and typing gave for a template's candidates."""

    agreed: int = 0
    states: set[bytes] = field(default_factory=set)
    refused: bool = False

    def trusted(self) -> bool:
        # A template with one candidate a state (a direction, a verb alone) has its states to show instead.
        enough = self.agreed >= TRUSTED_AFTER or len(self.states) >= TRUSTED_STATES_ALONE
        return not self.refused and enough and len(self.states) >= TRUSTED_STATES


@dataclass
class DispatchStats:
    """What the last search dispatched (for benchmarks)."""

    dispatched: int = 0
    #: Of those, stopped where the action returned (it changed nothing).
    stopped_early: int = 0
    fell_back: int = 0
    confirmed: int = 0
    confirmed_before: int = 0


class Dispatcher:
    """Dispatches a game's candidates where evidence allows (see the module's docstring).

    Args:
        vm: The game's interpreter (dispatch runs on it; the state is restored by the caller).
        prompt_at: Where the story waits for a command (program counter, call depth).
        enabled: False: type every candidate.
        story_md5: The story's MD5: what is learned is kept for the next run (see dispatch_cache.py).
    """

    def __init__(self, vm: Interpreter, prompt_at: Callable[[], tuple[int, int]], enabled: bool = True,
                 story_md5: str | None = None) -> None:
        self.vm = vm
        self.prompt_at = prompt_at
        self.why_not = available(vm) if enabled else "dispatch is off"
        self.calls = FrotzCalls(vm) if not self.why_not else None
        #: The action routine's entry (None: not found yet).
        self.routine: int | None = None
        #: Where the routine's caller goes on after it, and at what call depth (the same for every template).
        self.returns_at: tuple[int, int] | None = None
        #: Whether a quiet candidate is stopped there (see :meth:`missed_effect`).
        self.early_stop = True
        self._looked = 0
        self._entries: dict[str, Entry | None] = {}
        # Per template, the states in which none of its commands reached the routine (a creature token, no creature).
        self._no_entry: dict[str, int] = defaultdict(int)
        # Of those, the states in which the parser refused every command tried (none reached the routine).
        self._unparsed: dict[str, int] = defaultdict(int)
        self._evidence: dict[str, _Evidence] = defaultdict(_Evidence)
        self._md5 = story_md5 if self.calls is not None else None
        self._kept = Learned()
        if self._md5:
            self._recall(dispatch_cache.load(self._md5, jericho_version()))
        self.stats = DispatchStats()
        # Seconds the sample took dispatched and typed (see weigh), and candidates dispatched so far.
        self._seconds = 0.0
        self._count = 0
        self._typed_seconds = 0.0
        self._typed_count = 0
        self._searches = 0
        #: Per candidate of the last search that an action's bookkeeping kept running: the globals that differed.
        self.went_on: dict[int, frozenset[int]] = {}
        #: The candidates of the last search given the searched state's outcome at the action's return.
        self.stopped: set[int] = set()
        # Seconds the last run of each (template, objects), and of each template, took (see DispatchJob.chunks).
        self._costs: dict[str | tuple[str, tuple[int, ...]], float] = {}

    def weigh(self) -> None:
        """Stop dispatching where it costs as much as typing (a ZIL parser is quick).

        Both are timed here on the game's interpreter, on the same sample of
        candidates, each typed right after it was dispatched (see
        :meth:`_time_typing`), in this thread's own processor time: no
        hand-over to the search workers counts on either side, nor the time
        this thread waits for the interpreter lock while the thread handing
        typed candidates to the workers holds it, and a machine busy with
        other work slows both alike.
        """
        if self.calls is None or self._typed_count < TYPED_SAMPLE:
            return
        if self._seconds > CHEAPER * self._typed_seconds:
            self._turn_off("typing costs this story no more than dispatch")
            self._remember()

    def _turn_off(self, why: str) -> None:
        self.why_not = why
        self.calls = None

    def _time_typing(self, start: Snapshot, commands: list[str]) -> None:
        """Time a few of the commands typed here, until :data:`TYPED_SAMPLE` have been (for :meth:`weigh`)."""
        for command in commands[: TYPED_SAMPLE - self._typed_count]:
            began = time.thread_time()
            self.vm.rewind(start)
            self.vm.play(command)
            self._typed_seconds += time.thread_time() - began
            self._typed_count += 1

    def _recall(self, learned: Learned) -> None:
        """Start from what an earlier run learned about this story."""
        self._kept = learned
        self.routine, self.returns_at = learned.routine, learned.returns_at
        self.early_stop = learned.early_stop
        if learned.off:
            self._turn_off(f"{learned.off} (as an earlier run found)")
        for template in learned.trusted:
            self._evidence[template] = _Evidence(TRUSTED_AFTER, {b"earlier", b"run"})
        for template in learned.refused:
            self._evidence[template].refused = True

    def _remember(self) -> None:
        """Keep what this run learned for the next (when it changed)."""
        if not self._md5:
            return
        learned = Learned(self.routine, self.returns_at,
                          {t for t, e in self._evidence.items() if e.trusted()},
                          {t for t, e in self._evidence.items() if e.refused},
                          self.why_not if self.calls is None else "", self.early_stop)
        if learned != self._kept:
            dispatch_cache.save(self._md5, jericho_version(), learned)
            self._kept = learned

    @property
    def active(self) -> bool:
        """Whether dispatch can still be used on this story (``why_not`` says why not)."""
        return self.calls is not None and (self.routine is not None or self._looked < LOOKS_FOR_ROUTINE)

    def new_search(self) -> None:
        """Start the counts of a search (its candidates may be dispatched in more than one call of :meth:`play`)."""
        self._searches += 1
        self.stats = DispatchStats()
        self.went_on = {}
        self.stopped = set()

    def trusted(self, template: str) -> bool:
        """Whether ``template``'s candidates are dispatched without typing them too."""
        return self._evidence[template].trusted()

    def never_parsed(self, template: str) -> bool:
        """Whether the parser refused every command of ``template`` tried, in each of :data:`ENTRY_TRIES` states.

        A grammar token tests each object before any action: "ask X for Y"
        wants a creature, "push X Y" a direction, where none is in reach.
        """
        return self._unparsed[template] >= ENTRY_TRIES and template not in self._entries

    def refuse(self, template: str) -> None:
        """Type ``template`` from now on (dispatch and typing disagreed)."""
        self._evidence[template].refused = True

    def missed_effect(self) -> None:
        """A candidate stopped at the action's return as quiet changed the world typed: stop there no more.

        The stop rests on the action's effects being done when the routine
        returns. Where they are not (a routine voted wrongly, a library that
        acts after its action routine), every agreement on a refusal so far
        may be the stop's mistake twice over: all evidence is dropped, and
        from now on every candidate runs to the next read.
        """
        self.early_stop = False
        self._evidence.clear()
        self._remember()

    def judge(self, template: str, state: bytes, agreed: bool) -> None:
        """Record whether a candidate of ``template`` gave the same when dispatched and typed."""
        evidence = self._evidence[template]
        if not agreed:
            evidence.refused = True
        else:
            evidence.agreed += 1
            evidence.states.add(state)

    def play(self, start: Snapshot, candidates: list[Candidate], reading: ObjectsReading,
             world_globals: np.ndarray | None = None, among: set[int] | None = None,
             farm: Callable[[DispatchJob], list[Dispatched]] | None = None) -> dict[int, Outcome]:
        """Dispatch what can be of ``candidates`` from ``start``: {index: outcome}; the interpreter is left anywhere.

        Args:
            start: The state searched.
            candidates: The search's candidates.
            reading: How an outcome is read.
            world_globals: Per global, the bits that count as world state
                where an action returns (the caller leaves out the globals it
                knows the library's actions keep books in). Given, a
                candidate is stopped where the action routine returns, and
                one whose action changed nothing is given ``start``'s own
                outcome without running the turn's end (about two thirds of a
                refusal's instructions): the end of a turn in which nothing
                happened is the same whatever was refused. The others run on
                to the next read, and the globals that stopped them are kept
                in :attr:`went_on` for the caller to judge.
            among: Only the candidates at these indices (None: all).
            farm: Runs a job elsewhere (the search workers), else it runs on
                this interpreter. A few candidates are run here all the same,
                to weigh dispatch against typing (see :meth:`weigh`).
        """
        if self.calls is None or start.position() != self.prompt_at():
            return {}
        by_template: dict[str, list[int]] = defaultdict(list)
        for i, (_command, template, _objs) in enumerate(candidates):
            if (among is None or i in among) and not self._evidence[template].refused:
                by_template[template].append(i)
        if self.routine is None:
            self._find_routine(start, candidates, by_template)
            if self.routine is None:
                return {}
        runs: list[TemplateRun] = []
        sample: list[int] = []
        for template, indices in by_template.items():
            entry = self._entry(start, template, [candidates[i] for i in indices])
            if entry is not None:
                runs.append(entry.run(tuple((i, candidates[i][2]) for i in indices)))
                # Sampled once the first searches have learned the books a refusal leaves (see dispatched_play.py).
                if self._searches > SAMPLE_AFTER and len(sample) < TYPED_SAMPLE - self._typed_count:
                    sample += indices[:4]
        # A stop that is not where a template's action returns is never met at its depth: it costs no more.
        stop = self.returns_at if world_globals is not None and self.early_stop else None
        world = world_globals if world_globals is not None else np.zeros(240, dtype=np.uint16)
        # Seconds each took when last dispatched, else the last of its template's (None: never run).
        costs = {i: self._costs.get(candidates[i][1:], self._costs.get(candidates[i][1]))
                 for run in runs for i, _objs in run.candidates}
        job = DispatchJob(start, self.prompt_at(), stop, world, tuple(runs),
                          {i: c for i, c in costs.items() if c is not None})
        results, job = self._weighed(job, {i: candidates[i][0] for i in sample}, reading)
        if farm is not None and len(job):
            results += farm(job)
        elif len(job):
            results += run_job(self.calls, job, reading)
        out: dict[int, Outcome] = {}
        for index, outcome, went_on, stopped, seconds in results:
            self._costs[candidates[index][1:]] = self._costs[candidates[index][1]] = seconds
            if went_on:
                self.went_on[index] = went_on
            if stopped:
                self.stopped.add(index)
                self.stats.stopped_early += 1
            if outcome is None:
                self.stats.fell_back += 1
            else:
                out[index] = outcome
        self.stats.dispatched += len(out)
        self._count += len(out)
        self._remember()
        return out

    def _weighed(self, job: DispatchJob, sample: dict[int, str], reading: ObjectsReading
                 ) -> tuple[list[Dispatched], DispatchJob]:
        """Run the ``sample`` of ``job``'s candidates ({index: command}) here, timed, and type them after.

        Both times are for :meth:`weigh`; typed at once after, so what a
        machine busy with other work slows, it slows alike. Returns their
        results and the job of the other candidates.
        """
        if not sample:
            return [], job
        assert self.calls is not None
        mine, rest = job.parted(set(sample))
        began = time.thread_time()
        results = run_job(self.calls, mine, reading)
        self._seconds += time.thread_time() - began
        self._time_typing(job.start, [sample[i] for i in mine.indices()])
        return results, rest

    def instructions(self, start: Snapshot, candidate: Candidate) -> tuple[int, int, int] | None:
        """Instructions the candidate runs typed, dispatched to the routine's return, and to the next read.

        None where its template has no entry. For benchmarks.
        """
        command, template, objs = candidate
        entry = self._entries.get(template)
        if self.calls is None or entry is None:
            return None
        self.calls.type_command(start, command)
        typed = 1 + self.calls.steps_to_read()
        vm = self.vm
        run = entry.run()
        vm.rewind(run.named(run.base(start), objs))
        depth, returned = self.calls.depth(), 0
        while self.calls.depth() >= depth and not self.calls.reading():
            self.calls.step()
            returned += 1
        dispatched = returned + self.calls.steps_to_read()
        vm.restore(start)
        return typed, returned, dispatched

    def _find_routine(self, start: Snapshot, candidates: list[Candidate], by_template: dict[str, list[int]]) -> None:
        """Trace a few typed commands from ``start`` and vote for the action routine."""
        if self._looked >= LOOKS_FOR_ROUTINE or len(by_template) < 2:
            return
        self._looked += 1
        assert self.calls is not None
        traced = []
        # Two objects per verb, as many verbs as fit: the vote needs the action to tell verbs apart.
        for template, indices in by_template.items():
            if len(candidates[indices[0]][2]) != 1:
                continue
            for i in indices[:2]:
                command, _template, objs = candidates[i]
                traced.append((template, objs[0], self.calls.trace(start, command)))
            if len(traced) >= TRACED_COMMANDS:
                break
        self.routine = action_routine(traced)

    def _entry(self, start: Snapshot, template: str, candidates: list[Candidate]) -> Entry | None:
        """The template's entry, learned from two of ``candidates`` the first time (None: it cannot be had).

        The two must name different things in every slot (and no thing twice),
        so each word that differs between them belongs to one slot. A command
        that names nothing (a direction, a verb alone) is its own template:
        one stop, no slots, and from then on it is dispatched in every state
        without its parse.
        """
        if template in self._entries:
            return self._entries[template]
        if self._no_entry[template] >= ENTRY_TRIES:
            return None  # its commands never got past the parser here: typing them is cheaper than asking again
        assert self.calls is not None and self.routine is not None
        if not pairable(candidates, [e for e in self._entries.values() if e is not None]):
            return None  # one thing in reach: no evidence against the template either way
        stops: list[tuple[tuple[int, ...], Snapshot]] = []
        tried = 0
        for command, _template, objs in candidates:
            if stops and not set(objs).isdisjoint(stops[0][0]):
                continue
            tried += 1
            stop = self.calls.stop_at(start, command, self.routine)
            if stop is not None:
                stops.append((objs, stop))
            if len(stops) == (2 if objs else 1) or tried >= PROBES_PER_TEMPLATE:
                break
        if not stops:
            self._no_entry[template] += 1
            self._unparsed[template] += 1
            return None  # not this time: maybe in another state
        entry, for_good = entry_from(start, stops, [e for e in self._entries.values() if e is not None])
        if entry is None:
            if for_good:
                self._entries[template] = None
            else:
                self._no_entry[template] += 1
            return None
        if self.returns_at is None:  # the routine's caller is the same for every template
            self.vm.rewind(entry.run().base(start))
            self.returns_at = self.calls.step_out()
        self._entries[template] = entry
        return entry
