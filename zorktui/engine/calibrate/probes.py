"""One-off probes run when a story opens, always from a snapshot that is restored after.

They learn what the Z-machine layout alone cannot say: which object is the
player and which global holds the room, and the maximum score. What changes
without the world changing is learned in :mod:`zorktui.engine.calibrate.noise`, the
words that name privately named objects in :mod:`zorktui.engine.calibrate.object_words`.
Each probe uses conventions shared by Inform and ZIL games (compass words,
a parser error for an unknown word, the ``score`` verb), never facts about a
particular story.
"""

from __future__ import annotations

import re

from zorktui.engine.calibrate.sampling import direction_commands, examine_me
from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.vm.text import announced_score
from zorktui.engine.world.facts import moved_object, self_named_object
from zorktui.engine.zmachine.zmachine import ZMachine

_MAX_SCORE = re.compile(
    r"(?:out of(?: a (?:possible|maximum of))?|total of|maximum(?: score)? of|possible)\s+(\d+)", re.I
)


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
    # Every exit is walked: the first exit may lead into the dark, where
    # PunyInform points ``location`` at its darkness object and only a later
    # global (``real_location``) follows the player; a lit room next door
    # shows the earlier one. A story that opens in the dark shows it only
    # from a room next door, so the exits of one of those are walked too;
    # a global found there counts only if it held an empty object (the
    # darkness) at the opening: Inform 7 compiler globals that hold 0 at the
    # opening follow the player from the second room on.
    found, next_door = _walk_exits(vm, zm, start, classes, slots)
    if found and next_door is not None and len(slots) > 1:
        empty = {k for k in rooms if k not in occupied}
        found += [(k, p) for k, p in _walk_exits(vm, zm, next_door, classes, slots)[0] if k in empty]
    vm.restore(start)
    zm.refresh(vm.ram())
    if found:
        k, player = min(found)
        return player, k
    for k, room in rooms.items():
        player = self_named_object(zm, room)
        if player and room in objects.ancestors(player):
            return player, k
    referred = _player_by_self_reference(vm, zm, rooms, occupied)
    if referred:
        return referred
    return self_named_object(zm, zm.global_var(0)), 0


def _walk_exits(vm: Interpreter, zm: ZMachine, start: Snapshot, classes: set[int],
                slots: range) -> tuple[list[tuple[int, int]], Snapshot | None]:
    """Each exit walked from ``start``: (global, object) where a global that held an occupied
    room took a room the object moved into; and a state in another room, if any exit led to one."""
    vm.restore(start)
    zm.refresh(vm.ram())
    objects = zm.objects
    rooms = {k: zm.global_var(k) for k in slots if objects.valid(zm.global_var(k)) and zm.global_var(k) not in classes}
    occupied = {k for k, room in rooms.items() if objects.children(room)}
    before = {}
    for room in rooms.values():
        before.update({obj: objects.parent(obj) for obj, _ in objects.descendants(room, max_depth=3)})
    found: list[tuple[int, int]] = []
    next_door = None
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
                    if next_door is None and not vm.halted():
                        next_door = vm.snapshot()
                    break
    return found, next_door


def _player_by_self_reference(
    vm: Interpreter, zm: ZMachine, rooms: dict[int, int], occupied: set[int]
) -> tuple[int, int] | None:
    """When no exit is open and names are private (Inform 7): "examine me" makes
    the parser put the player object in its noun variable; the room global is
    the first candidate that holds the player."""
    probed = examine_me(vm, zm)
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


#: A value no score or move count holds at the opening, poked into a global to see if "score" prints it.
_POKED = 4321


def find_status_globals(vm: Interpreter, zm: ZMachine, room_global: int) -> tuple[int, int] | None:
    """(score global, moves global) of a story whose status line the interpreter does not draw, or None.

    Version 3 fixes them after the room and Inform keeps them there in every
    version; a ZIL story for version 4 or later draws its own status line and
    need not (zorkie's v4 and v5 builds of Zork I keep the room in global 3,
    moves in 5, score in 6). So the game's own "score" is asked, after two
    looks (a moves counter then shows 2 where every other global is still 0):
    the two globals after the room are used when they hold what it states;
    else each global holding the stated score or moves is set in turn to a
    value no other holds, and "score" played again: the global whose value
    it then states is the one.

    Args:
        vm: The interpreter at a prompt (restored afterwards).
        zm: The memory reader.
        room_global: The global holding the room.
    """
    if "score" not in zm.dictionary or "look" not in zm.dictionary:
        return None
    snap = vm.snapshot()
    try:
        vm.step("look")
        vm.step("look")
        looked = vm.snapshot()
        ram = looked.ram()
        score, moves = announced_score(vm.step("score"))
        if score is None or not moves:
            return None
        zm.refresh(ram)
        before = (zm.signed_global(room_global + 1), zm.global_var(room_global + 2))
        zm.refresh(vm.ram())
        after = (zm.signed_global(room_global + 1), zm.global_var(room_global + 2))
        if (score, moves) in (before, after):
            return room_global + 1, room_global + 2
        base = zm.header.globals
        values = [(int(ram[base + 2 * k]) << 8) | int(ram[base + 2 * k + 1]) for k in range(240)]
        signed = [v - 0x10000 if v >= 0x8000 else v for v in values]
        found: dict[str, int] = {}
        for k in range(240):
            wanted = [name for name, n, v in (("score", score, signed[k]), ("moves", moves, values[k]))
                      if v == n and name not in found]
            if not wanted:
                continue
            poked = ram.copy()
            poked[base + 2 * k], poked[base + 2 * k + 1] = _POKED >> 8, _POKED & 0xFF
            vm.restore(Snapshot((poked, *looked.state[1:])))
            said = announced_score(vm.step("score"))
            for name, n in zip(("score", "moves"), said, strict=False):
                if name in wanted and n == _POKED:
                    found[name] = k
            if len(found) == 2:
                return found["score"], found["moves"]
        return None
    finally:
        vm.restore(snap)
        zm.refresh(vm.ram())
