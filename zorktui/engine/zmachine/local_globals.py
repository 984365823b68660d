"""ZIL's room-local scenery: the things a room shares with others (a window, a lake, stairs).

Infocom's ZIL keeps such things under one object (LOCAL-GLOBALS), not in any
room, and gives each room a property listing the ones it has: Zork I's
kitchen window is listed by the kitchen and by Behind House. They are not in
the room's part of the object tree, so without this "open window" behind the
house was never a candidate. Which property it is differs from story to
story, so the rooms vote.
"""

from __future__ import annotations

from collections import Counter

from zorktui.engine.zmachine.zmachine import ZMachine

#: A property wins when this many rooms list objects under one holder in it (or a quarter of the rooms).
MIN_VOTES = 3


def local_globals_property(zm: ZMachine, room: int) -> int | None:
    """The number of the property in which a ZIL story's rooms list their shared scenery, or None.

    The property is the one whose bytes, in most rooms, are all objects
    under one and the same holder that is neither a room nor the rooms'
    parent (an exit holds a room).

    Args:
        zm: The memory reader.
        room: Any room (its parent holds the others).
    """
    objects = zm.objects
    root = objects.parent(room)
    rooms = set(objects.children(root)) if root else set()
    votes: Counter[int] = Counter()
    for r in rooms:
        for prop in objects.properties(r):
            values = list(zm.memory[prop.addr : prop.addr + prop.length])
            if values and all(objects.valid(v) for v in values):
                holders = {objects.parent(v) for v in values}
                if len(holders) == 1 and not holders & rooms and root not in holders:
                    votes[prop.number] += 1
    if not votes:
        return None
    number, count = votes.most_common(1)[0]
    return number if count >= max(MIN_VOTES, len(rooms) // 4) else None


def local_globals(zm: ZMachine, room: int, number: int) -> list[int]:
    """The named objects ``room`` lists in property ``number``."""
    objects = zm.objects
    prop = next((p for p in objects.properties(room) if p.number == number), None)
    if prop is None:
        return []
    return [o for o in zm.memory[prop.addr : prop.addr + prop.length] if objects.valid(o) and objects.name(o)]
