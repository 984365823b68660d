"""How things around the player hold each other: on a surface, in a box, shut away, or in someone's hands.

The object tree says only that the matches' parent is the mantelpiece. Whether
that is "on" or "in", whether a box is shut and opaque, and whether a holder
is a person, are attributes; their numbers are fixed by the library that
compiled the story, not by the story. The Inform libraries declare them in a
fixed order (Inform 6's ``linklpa.h``, Inform 7's template), so a story of
either has them at the same numbers, which are checked on the story's own
player object (a person, see-through, neither box nor surface) before they
are trusted. Stories of other libraries (ZIL games number their flags as
each game declares them) get no answer here: their shut boxes are left to
:mod:`zorktui.engine.world.sight`, and a holder reads "on" once the game's text has
put something on it (:class:`SurfacesFromText`), else "in".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zorktui.core.turn import ObjectRef
from zorktui.engine.zmachine.zmachine import ZMachine

#: How a thing is held (``ObjectRef.relation``): on a supporter, in a container, by another person.
ON, IN, HELD = "on", "in", "held"


@dataclass(frozen=True)
class LibraryAttributes:
    """The attribute numbers a library gives the properties that decide what is in sight."""

    animate: int
    container: int
    supporter: int
    open: int
    transparent: int


#: Inform 6's standard library (animate, absent, clothing, concealed, container, ... in linklpa.h).
INFORM6 = LibraryAttributes(animate=0, container=4, supporter=20, open=14, transparent=23)
#: Inform 7's template (absent, animate, clothing, concealed, container, ...), 6G60 to 6M62.
INFORM7 = LibraryAttributes(animate=1, container=4, supporter=17, open=13, transparent=20)


def library_attributes(zm: ZMachine, player: int) -> LibraryAttributes | None:
    """The layout the story's library uses, or None when no known one fits its player object.

    Args:
        zm: The memory reader (refreshed).
        player: The player object.
    """
    if not zm.header.is_inform or not zm.objects.valid(player):
        return None
    mine = set(zm.objects.attributes(player))
    for layout in (INFORM6, INFORM7):
        if {layout.animate, layout.transparent} <= mine and not {layout.container, layout.supporter} & mine:
            return layout
    return None


class Holders:
    """Places things in the room's tree on or in their holders, and leaves out what cannot be seen.

    Args:
        zm: The memory reader (refreshed by the caller before each use).
        layout: The library's attribute numbers.
        player: The player object (its own holdings are not "held by others").
    """

    def __init__(self, zm: ZMachine, layout: LibraryAttributes, player: int) -> None:
        self.zm = zm
        self.layout = layout
        self.player = player

    def _has(self, obj: int, attribute: int) -> bool:
        return attribute in self.zm.objects.attributes(obj)

    def place(self, visible: tuple[ObjectRef, ...], room: int) -> tuple[ObjectRef, ...]:
        """``visible`` with each nested thing's relation set, less the things shut away.

        A thing is shut away when a holder between it and the room is a
        closed, opaque container, or is neither container, supporter nor person
        (Inform does not show what is inside such an object). A thing with a
        person (other than the player) among its holders is kept, marked
        :data:`HELD`: the parser can refer to it, but it is not lying about.
        """
        out = []
        for ref in visible:
            if not ref.parent or ref.parent == room:
                out.append(ref)
                continue
            relation = self._relation(ref.parent, room)
            if relation is not None:
                out.append(ObjectRef(ref.id, ref.name, ref.parent, relation))
        return tuple(out)

    def _relation(self, parent: int, room: int) -> str | None:
        a = self.layout
        objects = self.zm.objects
        relation = ON if self._has(parent, a.supporter) else IN
        holder, depth = parent, 0
        while holder and holder != room and depth < 8:
            attrs = set(objects.attributes(holder))
            if a.animate in attrs and holder != self.player:
                return HELD
            see_through = a.supporter in attrs or a.transparent in attrs or (
                a.container in attrs and a.open in attrs)
            if not see_through:
                return None
            holder, depth = objects.parent(holder), depth + 1
        return relation


class SurfacesFromText:
    """Holders the game's own text has put things on ("On the table is a brown sack"), where the library is unknown.

    A ZIL game numbers its surface flag as it declares it, so nothing in the
    object table says which holders are surfaces; but the game says so when it
    describes what lies on one. A holder named after "on" in a reply ("on the
    table", for the kitchen table) is a surface from then on.
    """

    def __init__(self) -> None:
        #: Holders the text has shown things on (shared with the game's forks).
        self.surfaces: set[int] = set()

    def place(self, visible: tuple[ObjectRef, ...], room: int, text: str) -> tuple[ObjectRef, ...]:
        """``visible`` with "on" set for things on a holder the text has named as a surface."""
        names = {ref.id: ref.name for ref in visible}
        said = " ".join(text.lower().split())
        out = []
        for ref in visible:
            holder = names.get(ref.parent) if ref.parent and ref.parent != room else None
            if holder is None:
                out.append(ref)
                continue
            if ref.parent not in self.surfaces and _said_on(said, holder):
                self.surfaces.add(ref.parent)
            out.append(ObjectRef(ref.id, ref.name, ref.parent, ON) if ref.parent in self.surfaces else ref)
        return tuple(out)


def _said_on(text: str, holder: str) -> bool:
    """Whether ``text`` (lower case, single spaces) puts something on ``holder`` ("on the table", "on a kitchen table")."""
    words = holder.lower().split()
    if not words:
        return False
    noun = re.escape(words[-1])
    return re.search(rf"\bon (?:the |a |an |top of the )?(?:[a-z-]+ )?{noun}\b", text) is not None
