"""One-off probes run when a story opens, always from a snapshot that is restored after.

They learn what the Z-machine layout alone cannot say: which object is the
player, which globals are the parser's scratch space, and the maximum score.
Each probe uses conventions shared by Inform and ZIL games (compass words,
a parser error for an unknown word, the ``score`` verb), never facts about a
particular story.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from zorktui.engine.directions import DIRECTIONS
from zorktui.engine.facts import FactReader, moved_object, self_named_object
from zorktui.engine.fingerprint import attributes_of, differing, flicker_counts, globals_of, ticking
from zorktui.engine.interpreter import Interpreter, Snapshot
from zorktui.engine.text import ending_in
from zorktui.engine.zmachine import ZMachine

#: English determiners a parser accepts before any noun; they name no object.
_DETERMINERS = frozenset("all another any both but each either every except other others some that the these this those".split())
#: Words that stand for another noun: they name whatever the last command named, not a thing.
#: (Two-letter names count: a TextWorld "tv" had had no word and no actions.)
_PRONOUNS = frozenset("it me us him her them myself yourself self".split())
#: Words no parser knows: a command of them is a parser error that changes nothing.
_NONSENSE = ("qzxvw", "vwxzq")
_MAX_SCORE = re.compile(
    r"(?:out of(?: a (?:possible|maximum of))?|total of|maximum(?: score)? of|possible)\s+(\d+)", re.I
)


def direction_commands(zm: ZMachine) -> list[str]:
    """One command per direction the story's dictionary knows (full word preferred)."""
    out = []
    for forms in DIRECTIONS:
        for form in forms:
            if form in zm.dictionary:
                out.append(form)
                break
    return out


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


def inform_classes(zm: ZMachine) -> set[int]:
    """Objects that are Inform's metaclasses and classes, never a room nor the player.

    Inform makes Class, Object, Routine and String objects 1 to 4 of every
    story and puts each class (Inform 7's kinds) inside Class. A global that
    holds Class (1) is a parser variable, not the room: with no exit open to
    show which global follows the player, such a global had been taken for
    the room in three TextWorld games of 22.
    """
    objects = zm.objects
    if not zm.header.is_inform or objects.count < 4 or objects.name(1) != "Class":
        return set()
    return {1, 2, 3, 4} | set(objects.children(1))


def find_player(vm: Interpreter, zm: ZMachine) -> tuple[int, int]:
    """Find the player object and the global that holds the current room.

    The room global is global 0 by the Standard in v3. Inform declares
    ``location`` as its first library global, but compilers may put their own
    variables before it (one in Inform 6.4, a dozen in Inform 7); so the probe
    walks each exit of the first room and watches which global is the first to
    change to another room, and which object moved there.

    Args:
        vm: The interpreter, at the opening prompt (restored afterwards).
        zm: The memory reader.

    Returns:
        ``(player object, room global)``; the player is 0 if nothing was found.
    """
    start = vm.snapshot()
    zm.refresh(vm.ram())
    objects = zm.objects
    # Inform 7 puts a dozen compiler globals before ``location``; 96 is ample.
    slots = range(1) if zm.header.version <= 3 else range(96)
    classes = inform_classes(zm)
    rooms = {k: zm.global_var(k) for k in slots if objects.valid(zm.global_var(k)) and zm.global_var(k) not in classes}
    occupied = {k for k, room in rooms.items() if objects.children(room)}
    before = {}
    for room in rooms.values():
        before.update({obj: objects.parent(obj) for obj, _ in objects.descendants(room, max_depth=3)})
    # Every exit is walked: the first exit may lead into the dark, where
    # PunyInform points ``location`` at its darkness object and only a later
    # global (``real_location``) follows the player; a lit room next door
    # shows the earlier one.
    found: list[tuple[int, int]] = []
    for command in direction_commands(zm):
        vm.restore(start)
        vm.step(command)
        zm.refresh(vm.ram())
        for k, room in rooms.items():
            there = zm.global_var(k)
            if k in occupied and there != room and objects.valid(there):
                player = moved_object(zm, before, there)
                if player:
                    found.append((k, player))
                    break
    vm.restore(start)
    zm.refresh(vm.ram())
    if found:
        k, player = min(found)
        return player, k
    for k, room in rooms.items():
        player = self_named_object(zm, room)
        if player and room in objects.ancestors(player):
            return player, k
    found = _player_by_self_reference(vm, zm, rooms, occupied)
    if found:
        return found
    return self_named_object(zm, zm.global_var(0)), 0


def _player_by_self_reference(
    vm: Interpreter, zm: ZMachine, rooms: dict[int, int], occupied: set[int]
) -> tuple[int, int] | None:
    """When no exit is open and names are private (Inform 7): "examine me" makes
    the parser put the player object in its noun variable; the room global is
    the first candidate that holds the player."""
    probed = _examine_me(vm, zm)
    if probed is None:
        return None
    looked, examined = probed
    fresh = {int(v) for v in examined[examined != looked]}
    objects = zm.objects
    for k in sorted(occupied):
        children = set(objects.children(rooms[k]))
        candidates = sorted(children & fresh)
        if len(candidates) == 1:
            return candidates[0], k
    return None


def _probe_globals(vm: Interpreter, zm: ZMachine, start: object, commands: list[str],
                   attributes: list[np.ndarray] | None = None,
                   props: tuple["_Individual", list[np.ndarray]] | None = None) -> list[np.ndarray]:
    """The globals after each of ``commands`` played from ``start``.

    Also the attribute bytes, and the Inform individual property values, if asked.
    """
    out = []
    for command in commands:
        vm.restore(start)  # type: ignore[arg-type]
        vm.step(command)
        ram = vm.ram()
        out.append(globals_of(zm, ram).copy())
        if attributes is not None:
            attributes.append(attributes_of(zm, ram).copy())
        if props is not None:
            props[1].append(props[0].values(ram))
    return out


class _Individual:
    """The values of every object's Inform individual properties, to see which numbers commands disturb."""

    def __init__(self, zm: ZMachine) -> None:
        objects = zm.objects
        entries = [e for obj in range(1, objects.count + 1) for e in objects.individual_entries(obj)]
        self.index = np.array([i for _n, start, end in entries for i in range(start, end)], dtype=np.intp)
        self.number = np.array([n for n, start, end in entries for _i in range(start, end)], dtype=np.int64)

    def values(self, ram: np.ndarray) -> np.ndarray:
        """The bytes of every individual property value in ``ram``."""
        return np.asarray(ram)[self.index].copy()

    def differing(self, snapshots: list[np.ndarray]) -> set[int]:
        """Property numbers whose value is not the same in every one of ``snapshots``."""
        if len(snapshots) < 2 or not len(self.index):
            return set()
        stack = np.stack(snapshots)
        return set(np.unique(self.number[(stack != stack[0]).any(axis=0)]).tolist())

    def disturbed(self, results: list[np.ndarray], baseline: np.ndarray, quorum: int) -> set[int]:
        """Property numbers that at least ``quorum`` of ``results`` changed from ``baseline``."""
        counts: Counter[int] = Counter()
        for values in results:
            counts.update(np.unique(self.number[values != baseline]).tolist())
        return {n for n, k in counts.items() if k >= quorum}


def transient_globals(vm: Interpreter, zm: ZMachine, start: Snapshot, probes: list[str], idle: str) -> set[int]:
    """Globals a probe changes that the turn after it sets back: the parser's notes on the last command.

    A probe followed by ``idle`` is compared with ``idle`` twice: a global the
    probe changed (against ``idle`` once) that the next command returns to
    what two idle turns give was a note about that command only (the
    direction it named, whether it was a meta verb, whether its grammar line
    swapped the nouns); a puzzle flag stays set.

    Args:
        vm: The interpreter (restored to ``start`` afterwards).
        zm: The memory reader.
        start: The state every probe is played from.
        probes: Commands to play.
        idle: A command that only passes a turn.

    Returns:
        Global numbers found transient.
    """
    if not probes:
        return set()
    once = _probe_globals(vm, zm, start, [idle])[0]
    vm.restore(start)
    vm.step(idle)
    vm.step(idle)
    twice = globals_of(zm, vm.ram()).copy()
    found: set[int] = set()
    for probe in probes:
        vm.restore(start)
        reply = vm.step(probe)
        after = globals_of(zm, vm.ram()).copy()
        if vm.halted() or ending_in(reply)[0]:
            continue  # the game is over: the turn after is an answer to "restart or quit?"
        vm.step(idle)
        settled = globals_of(zm, vm.ram())
        found |= set(np.flatnonzero((after != once) & (settled == twice)).tolist())
    vm.restore(start)
    return found


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
    """

    globals: set[int]
    attributes: set[int]
    properties: set[int] = field(default_factory=set)


#: Rooms next to the opening that calibration also probes (their things, doors and containers).
NEARBY_ROOMS = 3


def _rooms_next_door(vm: Interpreter, zm: ZMachine, facts: FactReader, start: Snapshot) -> list[Snapshot]:
    """States one move from ``start`` in another room, the game still going (at most :data:`NEARBY_ROOMS`).

    Rooms two moves away were tried too: they taught TextWorld games nothing more and doubled the cost.
    """
    zm.refresh(vm.ram())
    place = facts.place()
    if place is None:
        return []
    out: list[Snapshot] = []
    seen = {place.room}
    for command in direction_commands(zm):
        if len(out) >= NEARBY_ROOMS:
            break
        vm.restore(start)
        reply = vm.step(command)
        zm.refresh(vm.ram())
        there = facts.place()
        # Not a dark room: every command there may touch the world alike (a message
        # trampled by each move in Cloak of Darkness's bar), which is no sign of bookkeeping.
        if there is None or there.room in seen or there.dark or vm.halted() or ending_in(reply)[0]:
            continue
        seen.add(there.room)
        out.append(vm.snapshot())
    vm.restore(start)
    zm.refresh(vm.ram())
    return out


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
                idle: str, individual: _Individual) -> _Probed:
    """What the parser disturbs when commands that change nothing, or the same thing, are played from ``start``."""
    from zorktui.engine.grammar import verb_groups

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
            probed = probe_object_words(vm, zm, scope, noun_globals(vm, zm, facts.player))
            vocabularies = [probed.get(o, []) for o in scope]
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
    noise |= differing(_probe_globals(vm, zm, start, looking, seen, (individual, looked)))
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
        noise |= differing(_probe_globals(vm, zm, holding, looking[:passing]))
    # Assorted verbs on assorted objects: what most of them disturb is scratch.
    verbs = verb_groups(zm)
    if verbs:
        step = max(1, len(verbs) // VERB_PROBES)
        probes = []
        for i, verb in enumerate(verbs[::step][:VERB_PROBES]):
            probes.append(f"{verb} {names[i % len(names)]}" if names and i % 3 else verb)
        idle_props: list[np.ndarray] = []
        idle_globals = _probe_globals(vm, zm, start, [idle], props=(individual, idle_props))[0]
        probed: list[np.ndarray] = []
        noise |= scratch_globals(_probe_globals(vm, zm, start, probes, props=(individual, probed)), idle_globals)
        properties |= individual.disturbed(probed, idle_props[0], SCRATCH_QUORUM)
        noise |= transient_globals(vm, zm, start, probes, idle)
    # Every way out, and a meta verb: a global they set that the next turn sets back
    # (PunyInform's selected_direction, its meta flag) is the parser's.
    meta = [verb for verb in ("score",) if verb in zm.dictionary]
    noise |= transient_globals(vm, zm, start, direction_commands(zm) + meta, idle)
    # Paraphrases reach the same world by different parses: what differs is the parser's.
    groups = _paraphrases(zm)
    # Taking a thing, or taking it from what holds it: the parser notes the holder.
    if "take" in zm.dictionary and "from" in zm.dictionary:
        word = {o: words[0] for o, words in zip(scope, vocabularies) if words}
        parent = zm.objects.parent
        for o in scope:
            holder = parent(o)
            if o in word and holder in word and place is not None and holder != place.room:
                groups.append([f"take {word[o]}", f"take {word[o]} from {word[holder]}"])
                break
    for group in groups:
        noise |= differing(_probe_globals(vm, zm, start, group))
    # One object named by one word or by two: the parser counts the words it matched.
    if "examine" in zm.dictionary:
        for words in vocabularies:
            if len(words) >= 2:
                noise |= differing(_probe_globals(vm, zm, start, [f"examine {words[0]}", f"examine {words[1]} {words[0]}"]))
                break
    return _Probed(noise, flickers, properties)


#: An attribute is bookkeeping once it has flickered on this many objects (counted per room probed).
FLICKER_OBJECTS = 2


def noise_globals(vm: Interpreter, zm: ZMachine, facts: FactReader) -> Noise:
    """Globals (and attributes) that change without the world changing: parser scratch and turn counters.

    Probed in the opening room and in the rooms one move away: what the parser
    keeps (the door a "go" went through, the holder a thing was taken from,
    what it has printed) only shows where there are doors, holders and things.
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
    errors = _probe_globals(vm, zm, start, list(_NONSENSE))
    noise |= differing([base, *errors])
    idle = next((verb for verb in ("wait", "z") if verb in zm.dictionary), "look")
    individual = _Individual(zm)
    properties: set[int] = set()
    look = "look" if "look" in zm.dictionary else idle
    for here in [start, *_rooms_next_door(vm, zm, facts, start)]:
        if here is not start:
            # A look changes nothing; what the first look after a move changes is the
            # library's note of where the last command began (Inform's actors_location).
            vm.restore(here)
            arrived = globals_of(zm, vm.ram()).copy()
            noise |= differing([arrived, *_probe_globals(vm, zm, here, [look])])
        found = _noise_here(vm, zm, facts, here, idle, individual)
        noise |= found.globals
        properties |= found.properties
        # One object's flag changing under a look may be real (a clue marked read); the same flag
        # flickering on several objects, or on the player in two rooms, is the library's bookkeeping.
        flickers.update(found.flickers)
    # Counters that tick once a turn (moves, turns, the time).
    vm.restore(start)
    vm.step(idle)
    once = globals_of(zm, vm.ram()).copy()
    vm.step(idle)
    twice = globals_of(zm, vm.ram()).copy()
    noise |= ticking(base, once, twice)
    if facts.status_globals:
        noise.add(facts.room_global + 2)
    # The room and score globals are the world's, whatever the probes did.
    noise -= facts.world_globals
    vm.restore(start)
    zm.refresh(vm.ram())
    return Noise(noise, {a for a, n in flickers.items() if n >= FLICKER_OBJECTS}, properties)


def probe_max_score(vm: Interpreter, zm: ZMachine) -> int | None:
    """Ask the game for its score and read the maximum from the reply ("out of a possible 60").

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.

    Returns:
        The maximum score, or None when the reply does not state one.
    """
    if "score" not in zm.dictionary:
        return None
    snap = vm.snapshot()
    reply = vm.step("score")
    vm.restore(snap)
    zm.refresh(vm.ram())
    m = _MAX_SCORE.search(reply)
    return int(m.group(1)) if m else None


def _examine_me(vm: Interpreter, zm: ZMachine) -> tuple[np.ndarray, np.ndarray] | None:
    """Globals after "look" and after "examine me" from the current state (restored after)."""
    if "me" not in zm.dictionary or "examine" not in zm.dictionary:
        return None
    start = vm.snapshot()
    looked, examined = _probe_globals(vm, zm, start, ["look", "examine me"])
    vm.restore(start)
    zm.refresh(vm.ram())
    return looked, examined


def noun_globals(vm: Interpreter, zm: ZMachine, player: int) -> list[int]:
    """Globals where the parser keeps the object a command is about.

    "examine me" puts the player object there; "look" does not.

    Returns:
        Global numbers, possibly empty.
    """
    probed = _examine_me(vm, zm) if player else None
    if probed is None:
        return []
    looked, examined = probed
    return [int(k) for k in np.flatnonzero((examined == player) & (looked != player))]


#: Words that fit several objects are tried in pairs only up to this many (pairs grow as its square).
MAX_AMBIGUOUS = 16


def probe_object_words(vm: Interpreter, zm: ZMachine, scope: list[int], nouns: list[int]) -> dict[int, list[str]]:
    """Which dictionary words name which objects in scope, asked of the parser itself.

    For stories whose objects keep their names private (Inform 7 parses
    names with routines), each noun word is tried as "examine WORD" from a
    snapshot and the parser's noun variable says which object it meant.

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.
        scope: Object numbers to find words for.
        nouns: The parser's noun globals (see :func:`noun_globals`).

    Returns:
        Words per object, in dictionary order: those the parser took for the
        object without hesitation, or, for an object that has none, those
        it chose it for among several ("(the yellow pepper)").
    """
    if not nouns or "examine" not in zm.dictionary:
        return {}
    wanted = set(scope)
    start = vm.snapshot()
    # A word that matches nothing leaves the noun variable as it was, so first
    # point it at the player: a stale value then cannot pass for a match.
    vm.step("examine me")
    base = vm.snapshot()
    found: dict[int, list[str]] = {}
    guesses: dict[int, list[str]] = {}
    ambiguous: list[str] = []
    for w in zm.dictionary.words:
        if not (w.noun or w.adjective) or w.verb or w.preposition or len(w.text) < 2 or not w.text.isalpha():
            continue
        if w.text in _DETERMINERS or w.text in _PRONOUNS:
            continue
        if not _name_probe(vm, zm, base, w.text, nouns, wanted, found, guesses):
            ambiguous.append(w.text)
    # "examine potato" may ask which potato: a second word may settle it ("red potato").
    if len(ambiguous) <= MAX_AMBIGUOUS:
        for first in ambiguous:
            for second in ambiguous:
                if first != second:
                    _name_probe(vm, zm, base, f"{first} {second}", nouns, wanted, found, guesses)
    vm.restore(start)
    zm.refresh(vm.ram())
    for obj, words in guesses.items():
        found.setdefault(obj, words)
    return found


def _name_probe(
    vm: Interpreter, zm: ZMachine, base: Snapshot, words: str, nouns: list[int], wanted: set[int],
    found: dict[int, list[str]], guesses: dict[int, list[str]],
) -> bool:
    """Examine ``words``; record the object the parser took them for.

    Returns:
        False if the words fit more than one thing: the parser asked which,
        or chose one itself and said so ("(the yellow pepper)").
    """
    vm.restore(base)
    reply = vm.step(f"examine {words}")
    guessed = reply.lstrip().startswith("(")
    values = globals_of(zm, vm.ram())
    for k in nouns:
        obj = int(values[k])
        if obj in wanted:
            (guesses if guessed else found).setdefault(obj, []).append(words)
            return not guessed
    return "which do you mean" not in reply.lower()
