"""What changes without the world changing, learned when a story opens: parser scratch and turn counters.

A Z-machine game's parser scribbles into globals on every command (the
action, the nouns, pronouns, error codes), counters tick with time, and some
libraries flip attributes or individual properties on whatever they print.
The probes here play commands that cannot change the world (or that change
it alike) from snapshots, and whatever differs among them is left out of the
world-state fingerprint. Deterministic for a story and seed, so hashes replay.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from zorktui.engine.calibrate.object_words import noun_globals, probe_object_words
from zorktui.engine.calibrate.sampling import NONSENSE, IndividualProperties, direction_commands, probe_globals
from zorktui.engine.directions import DIRECTIONS
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.vm.text import ending_in
from zorktui.engine.world.facts import FactReader
from zorktui.engine.world.fingerprint import (
    attributes_of,
    differing,
    flicker_counts,
    globals_of,
    ticking,
)
from zorktui.engine.zmachine.verbs import verb_groups
from zorktui.engine.zmachine.zmachine import ZMachine


def _paraphrases(zm: ZMachine) -> list[list[str]]:
    """Groups of commands that say the same thing in different words."""
    groups = []
    for forms in DIRECTIONS[:4]:
        group = [f for f in forms if f in zm.dictionary]
        if forms[0] in zm.dictionary and "go" in zm.dictionary:
            group.append(f"go {forms[0]}")
        if len(group) >= 2:
            groups.append(group)
    for group in (["look", "l"], ["inventory", "i", "inv"]):
        known = [g for g in group if g in zm.dictionary]
        if len(known) >= 2:
            groups.append(known)
    return groups


def transient_globals(afters: list[np.ndarray], settled: list[np.ndarray | None],
                      once: np.ndarray, twice: np.ndarray) -> set[int]:
    """Globals a probe changes that the turn after it sets back: the parser's notes on the last command.

    A probe followed by an idle turn is compared with the idle turn played
    twice: a global the probe changed (against one idle turn) that the next
    turn returns to what two idle turns give was a note about that command
    only (the direction it named, whether it was a meta verb, whether its
    grammar line swapped the nouns); a puzzle flag stays set.

    Args:
        afters: Globals after each probe (see :func:`_probed_then_idle`).
        settled: Globals after each probe and an idle turn (None where the probe ended the game).
        once: Globals after one idle turn from the same state.
        twice: Globals after two.

    Returns:
        Global numbers found transient.
    """
    found: set[int] = set()
    for after, then in zip(afters, settled, strict=False):
        if then is not None:
            found |= set(np.flatnonzero((after != once) & (then == twice)).tolist())
    return found


def _probed_then_idle(vm: Interpreter, zm: ZMachine, start: Snapshot, probes: list[str], idle: str,
                      props: tuple[IndividualProperties, list[np.ndarray]]) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Each probe played from ``start``: the globals after it (and its individual property values, into
    ``props``), then after an idle turn more (None where the probe ended the game: the turn after
    would answer "restart or quit?"). ``vm`` is left at ``start``."""
    individual, values = props
    afters: list[np.ndarray] = []
    settled: list[np.ndarray | None] = []
    for probe in probes:
        vm.restore(start)
        reply = vm.step(probe)
        ram = vm.ram()
        afters.append(globals_of(zm, ram).copy())
        values.append(individual.values(ram))
        if vm.halted() or ending_in(reply)[0]:
            settled.append(None)
            continue
        vm.step(idle)
        settled.append(globals_of(zm, vm.ram()).copy())
    vm.restore(start)
    return afters, settled


#: How many probes must disturb a global, with different verbs, before it counts as scratch.
SCRATCH_QUORUM = 3


#: How many assorted verb probes calibration plays.
VERB_PROBES = 36


def scratch_globals(results: list[np.ndarray], baseline: np.ndarray, quorum: int = SCRATCH_QUORUM) -> set[int]:
    """Globals that many different commands disturb: the parser's scratch space.

    A flag that records a puzzle changes for one command or two; the parser's
    variables (action, nouns, pronouns, error codes) change for most.

    Args:
        results: Globals after each probe command, all played from one state.
        baseline: Globals after passing a turn from that state.
        quorum: How many probes must disturb a global.

    Returns:
        Global numbers disturbed by at least ``quorum`` probes.
    """
    if not results:
        return set()
    counts = (np.stack(results) != baseline).sum(axis=0)
    return set(np.flatnonzero(counts >= quorum).tolist())


@dataclass(frozen=True)
class Noise:
    """What changes without the world changing.

    Attributes:
        globals: Global variable numbers: parser scratch and turn counters.
        attributes: Attribute numbers the library flips on whatever it
            prints (Inform 7's "mentioned"), left out on every object.
        properties: Inform individual property numbers the library rewrites
            on whatever a command names (Inform 7's record of what was
            touched, smelled, examined), left out on every object.
        object_attributes: (object, attribute) pairs left out on that object
            alone: a flag commands that only look flip on the player (a ZIL
            parser's, set and cleared as it resolves a noun).
    """

    globals: set[int]
    attributes: set[int]
    properties: set[int] = field(default_factory=set)
    object_attributes: set[tuple[int, int]] = field(default_factory=set)


#: Rooms near the opening that calibration also probes (their things, doors and containers).
NEARBY_ROOMS = 3
#: How many moves from the opening those rooms may lie.
NEARBY_MOVES = 2


def _nearby_rooms(vm: Interpreter, zm: ZMachine, facts: FactReader, start: Snapshot) -> list[Snapshot]:
    """States in other rooms within :data:`NEARBY_MOVES` moves of ``start``, the richest first (at most :data:`NEARBY_ROOMS`).

    Richest means most things inside the things lying there, then most
    things: a parser's scratch shows where it has the most to sort through
    (a TextWorld parser keeps the last thing it looked inside, which only a
    kitchen with laden tables and counters showed; the rooms next to the
    opening were empty). Nearer rooms win ties.
    """
    zm.refresh(vm.ram())
    place = facts.place()
    if place is None:
        return []
    found: list[tuple[tuple[int, int, int, int], Snapshot]] = []
    seen = {place.room}
    frontier = [start]
    for moves in range(NEARBY_MOVES):
        reached: list[Snapshot] = []
        for here in frontier:
            for command in direction_commands(zm):
                vm.restore(here)
                reply = vm.step(command)
                zm.refresh(vm.ram())
                there = facts.place()
                # Not a dark room: every command there may touch the world alike (a message
                # trampled by each move in Cloak of Darkness's bar), which is no sign of bookkeeping.
                if there is None or there.room in seen or there.dark or vm.halted() or ending_in(reply)[0]:
                    continue
                seen.add(there.room)
                things = facts.room_objects(there.room)
                inside = sum(len(zm.objects.children(o)) for o in things)
                snapshot = vm.snapshot()
                found.append(((-inside, -len(things), moves, len(found)), snapshot))
                reached.append(snapshot)
        frontier = reached
    vm.restore(start)
    zm.refresh(vm.ram())
    found.sort(key=lambda item: item[0])
    return [snapshot for _rank, snapshot in found[:NEARBY_ROOMS]]


@dataclass
class _Probed:
    """What probing from one state found.

    Attributes:
        globals: Globals the parser disturbed.
        flickers: Per attribute, on how many objects it flickered under commands that only look.
    """

    globals: set[int]
    flickers: Counter[int]
    properties: set[int] = field(default_factory=set)
    #: Attributes that commands which only look flipped on the player.
    player_attributes: set[int] = field(default_factory=set)


#: Things calibration tries to take, for probes with something in hand (scenery refuses, at 0.3 ms each).
MAX_TAKE_PROBES = 16


def _holding_something(vm: Interpreter, zm: ZMachine, facts: FactReader, start: Snapshot,
                       names: list[str]) -> Snapshot | None:
    """A state one "take" from ``start`` with one more thing in hand (trying up to :data:`MAX_TAKE_PROBES` names), or None."""
    if "take" not in zm.dictionary or not zm.objects.valid(facts.player):
        return None
    held = len(zm.objects.children(facts.player))
    found = None
    for name in names[:MAX_TAKE_PROBES]:
        vm.restore(start)
        reply = vm.step(f"take {name}")
        zm.refresh(vm.ram())
        if len(zm.objects.children(facts.player)) > held and not vm.halted() and not ending_in(reply)[0]:
            found = vm.snapshot()
            break
    vm.restore(start)
    zm.refresh(vm.ram())
    return found


def _noise_here(vm: Interpreter, zm: ZMachine, facts: FactReader, start: Snapshot,
                idle: str, individual: IndividualProperties) -> _Probed:
    """What the parser disturbs when commands that change nothing, or the same thing, are played from ``start``."""
    vm.restore(start)
    zm.refresh(vm.ram())
    noise: set[int] = set()
    # Commands that look without touching: whatever differs among them is the parser's.
    looking = list(dict.fromkeys(["look", "inventory", idle]))
    passing = len(looking)  # commands that only pass a turn
    place = facts.place()
    names: list[str] = []
    vocabularies: list[list[str]] = []
    scope: list[int] = []
    if place is not None:
        scope = [o.id for o in facts.inventory()] + facts.room_objects(place.room)
        vocabularies = [zm.object_vocabulary(o) for o in scope]
        if not any(vocabularies):  # private names (Inform 7): ask the parser which words mean what
            named = probe_object_words(vm, zm, scope, noun_globals(vm, zm, facts.player), {o: facts.name(o) for o in scope})
            vocabularies = [named.get(o, []) for o in scope]
        names = [words[0] for words in vocabularies if words]
    if "examine" in zm.dictionary:
        looking += [f"examine {w}" for w in names[:3]]
        # A thing not here: the parser's "You can't see any such thing" keeps an error code.
        here_words = {w for words in vocabularies for w in words}
        elsewhere = next((w.text for w in zm.dictionary.words if w.noun and not (w.verb or w.preposition or w.direction)
                          and w.text.isalpha() and w.text not in here_words), None)
        if elsewhere:
            looking.append(f"examine {elsewhere}")
    seen: list[np.ndarray] = [attributes_of(zm, vm.ram()).copy()]
    looked: list[np.ndarray] = []
    noise |= differing(probe_globals(vm, zm, start, looking, seen, (individual, looked)))
    properties = individual.differing(looked)
    flickers = flicker_counts(seen)
    # Look, take stock and wait each pass one turn (the same daemons run): a flag one of them
    # sets and another does not is the library's bookkeeping, on however few objects.
    for attribute in flicker_counts(seen[1 : 1 + passing]):
        flickers[attribute] += FLICKER_OBJECTS
    # The same with a thing in hand: the library's list-style global is set by the first list it
    # prints, and empty hands list nothing ("inventory" after "take flask" had counted as a change).
    holding = _holding_something(vm, zm, facts, start, names)
    if holding is not None:
        # And "put X in X" with X in hand: refused, but the parser notes its second noun
        # (ZIL's PRSI, which only a thing held reaches: "turn lamp", completed with the
        # player's hands, had counted as a valid action).
        vm.restore(holding)
        zm.refresh(vm.ram())
        held = zm.objects.children(facts.player)
        words = zm.object_vocabulary(held[0]) if held else []
        itself = [f"put {words[0]} in {words[0]}"] if words and "put" in zm.dictionary and "in" in zm.dictionary else []
        noise |= differing(probe_globals(vm, zm, holding, looking[:passing] + itself))
    # Assorted verbs on assorted objects: what most of them disturb is scratch.
    verbs = verb_groups(zm)
    probes: list[str] = []
    if verbs:
        step = max(1, len(verbs) // VERB_PROBES)
        for i, verb in enumerate(verbs[::step][:VERB_PROBES]):
            probes.append(f"{verb} {names[i % len(names)]}" if names and i % 3 else verb)
    # One command with two objects: the parser's second noun is set by no other probe, and a
    # sample of verbs may hold none ("north" after "take key from box" had counted as a change).
    # With one thing about, "put X in X" (refused, but its second noun is noted all the same).
    if names and "put" in zm.dictionary and "in" in zm.dictionary:
        probes.append(f"put {names[0]} in {names[1 if len(names) > 1 else 0]}")
    idle_props: list[np.ndarray] = []
    once = probe_globals(vm, zm, start, [idle], props=(individual, idle_props))[0]
    vm.restore(start)
    vm.step(idle)
    vm.step(idle)
    twice = globals_of(zm, vm.ram()).copy()
    # Every way out, and a meta verb, go with them: a global any of these sets that the next
    # turn sets back (PunyInform's selected_direction, its meta flag) is the parser's.
    ways = direction_commands(zm) + [verb for verb in ("score",) if verb in zm.dictionary]
    probed: list[np.ndarray] = []
    afters, settled = _probed_then_idle(vm, zm, start, probes + ways, idle, (individual, probed))
    if probes:
        noise |= scratch_globals(afters[: len(probes)], once)
        properties |= individual.disturbed(probed[: len(probes)], idle_props[0], SCRATCH_QUORUM)
    noise |= transient_globals(afters, settled, once, twice)
    # Paraphrases reach the same world by different parses: what differs is the parser's.
    groups = _paraphrases(zm)
    # Taking a thing, or taking it from what holds it: the parser notes the holder.
    if "take" in zm.dictionary and "from" in zm.dictionary:
        word = {o: words[0] for o, words in zip(scope, vocabularies, strict=False) if words}
        parent = zm.objects.parent
        for o in scope:
            holder = parent(o)
            if o in word and holder in word and place is not None and holder != place.room:
                groups.append([f"take {word[o]}", f"take {word[o]} from {word[holder]}"])
                break
    for group in groups:
        noise |= differing(probe_globals(vm, zm, start, group))
    # One object named by one word or by two: the parser counts the words it matched.
    if "examine" in zm.dictionary:
        for words in vocabularies:
            if len(words) >= 2:
                noise |= differing(probe_globals(vm, zm, start, [f"examine {words[0]}", f"examine {words[1]} {words[0]}"]))
                break
    # A ZIL parser sets and clears a flag on the player as it resolves a noun ("examine lamp"
    # had counted as a change in Zork I and III): on the player alone, that is the parser's.
    player_bits: set[int] = set()
    if zm.objects.valid(facts.player) and len(seen) >= 2:
        rows = np.stack([snapshot[facts.player - 1] for snapshot in seen])
        changed = np.bitwise_or.reduce(rows ^ rows[0], axis=0)
        player_bits = {8 * byte + bit for byte in range(changed.shape[0]) for bit in range(8)
                       if (int(changed[byte]) >> (7 - bit)) & 1}
    return _Probed(noise, flickers, properties, player_bits)


#: An attribute is bookkeeping once it has flickered on this many objects (counted per room probed).
FLICKER_OBJECTS = 2


def noise_globals(vm: Interpreter, zm: ZMachine, facts: FactReader) -> Noise:
    """Globals (and attributes) that change without the world changing: parser scratch and turn counters.

    Probed in the opening room and in the richest rooms two moves away at
    most: what the parser keeps (the door a "go" went through, the holder a
    thing was taken from, what it has printed) only shows where there are
    doors, holders and things.
    Deterministic for a story and seed, so state hashes can be replayed.

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.
        facts: Fact reader (for the player and what is in scope).

    Returns:
        What to leave out of world-state fingerprints.
    """
    start = vm.snapshot()
    base = globals_of(zm, vm.ram()).copy()
    zm.refresh(vm.ram())
    noise: set[int] = set()
    flickers: Counter[int] = Counter()
    # A parser error must leave the world as it was.
    errors = probe_globals(vm, zm, start, list(NONSENSE))
    noise |= differing([base, *errors])
    idle = next((verb for verb in ("wait", "z") if verb in zm.dictionary), "look")
    individual = IndividualProperties(zm)
    properties: set[int] = set()
    player_bits: set[int] = set()
    look = "look" if "look" in zm.dictionary else idle
    for here in [start, *_nearby_rooms(vm, zm, facts, start)]:
        if here is not start:
            # A look changes nothing; what the first look after a move changes is the
            # library's note of where the last command began (Inform's actors_location).
            vm.restore(here)
            arrived = globals_of(zm, vm.ram()).copy()
            noise |= differing([arrived, *probe_globals(vm, zm, here, [look])])
        found = _noise_here(vm, zm, facts, here, idle, individual)
        noise |= found.globals
        properties |= found.properties
        # One object's flag changing under a look may be real (a clue marked read); the same flag
        # flickering on several objects, or on the player in two rooms, is the library's bookkeeping.
        flickers.update(found.flickers)
        player_bits |= found.player_attributes
    # Counters that tick once a turn (moves, turns, the time).
    vm.restore(start)
    vm.step(idle)
    once = globals_of(zm, vm.ram()).copy()
    vm.step(idle)
    twice = globals_of(zm, vm.ram()).copy()
    noise |= ticking(base, once, twice)
    if facts.status_globals:
        noise.add(facts.moves_global)
    # The room and score globals are the world's, whatever the probes did.
    noise -= facts.world_globals
    vm.restore(start)
    zm.refresh(vm.ram())
    attributes = {a for a, n in flickers.items() if n >= FLICKER_OBJECTS}
    return Noise(noise, attributes, properties, {(facts.player, a) for a in player_bits - attributes})
