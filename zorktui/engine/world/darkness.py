"""Darkness in stories that keep the room global on the room in the dark (Infocom's ZIL).

Inform moves ``location`` to a darkness object, which :class:`FactReader`
sees. A ZIL game keeps the room in global 0 and only its reply says so: a
lit room's "look" begins with the room's name ("Cliff Ledge", "Hall, in the
boat"), a dark one's with "It is pitch black." The rule is used only where
the opening room's own "look" begins with its name, so a story that words
its rooms otherwise is never taken for dark everywhere.
"""

from __future__ import annotations

import hashlib

from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.text import split_reply
from zorktui.engine.world.facts import FactReader
from zorktui.engine.world.fingerprint import object_state
from zorktui.engine.zmachine.zmachine import ZMachine


def _first_line(vm: Interpreter, status: str) -> str:
    """The first line of a "look" played from the current state (taken back)."""
    before = vm.snapshot()
    try:
        reply = split_reply(vm.step("look"), status).narrative
    finally:
        vm.restore(before)
    return next((line.strip() for line in reply.split("\n") if line.strip()), "")


class DarknessByLook:
    """Asks a "look" whether the player can see, once per situation.

    Args:
        vm: The interpreter, at the opening.
        zm: The memory reader.
        facts: The fact reader (room, player, names).
        noise_properties: Property numbers left out of an object's state.
    """

    def __init__(self, vm: Interpreter, zm: ZMachine, facts: FactReader, noise_properties: frozenset[int]) -> None:
        self.vm, self.zm, self.facts = vm, zm, facts
        self.noise_properties = noise_properties
        self._known: dict[bytes, bool] = {}
        self.usable = False
        if zm.header.is_inform or "look" not in zm.dictionary:
            return
        zm.refresh(vm.ram())
        place = facts.place()
        name = facts.name(place.room) if place is not None else ""
        self.usable = bool(name) and _first_line(vm, "").lower().startswith(name.lower())
        zm.refresh(vm.ram())

    def copy_for(self, vm: Interpreter, zm: ZMachine, facts: FactReader) -> DarknessByLook:
        """The same judge over another interpreter (a forked game), sharing the answers so far."""
        other = DarknessByLook.__new__(DarknessByLook)
        other.vm, other.zm, other.facts = vm, zm, facts
        other.noise_properties = self.noise_properties
        other._known = self._known
        other.usable = self.usable
        return other

    def dark(self, room: int, status: str) -> bool:
        """Whether the game says the player cannot see in ``room`` (the interpreter at the state asked about).

        The answer is kept per room and state of everything there and
        carried (a lamp switched off, a box opened), so a "look" is played
        only when something there changed.
        """
        if not self.usable or self.vm.halted():
            return False
        name = self.facts.name(room)
        if not name:
            return False
        zm = self.zm
        around = [room, *zm.objects.children(self.facts.player), *self.facts.room_objects(room)]
        key = hashlib.blake2b(b"".join(o.to_bytes(2, "big") + object_state(zm, o, self.noise_properties)
                                       for o in around), digest_size=12).digest()
        known = self._known.get(key)
        if known is None:
            first = _first_line(self.vm, status)
            zm.refresh(self.vm.ram())
            known = self._known[key] = bool(first) and not first.lower().startswith(name.lower())
        return known
