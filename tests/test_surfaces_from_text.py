"""Surfaces a story's own text names, for libraries whose surface flag is not known (ZIL)."""

from __future__ import annotations

from zorktui.core.turn import ObjectRef
from zorktui.engine.world.holders import ON, SurfacesFromText

ROOM = 10
TABLE, SACK, BOTTLE, WATER = 11, 12, 13, 14
SEEN = (ObjectRef(TABLE, "kitchen table", ROOM), ObjectRef(SACK, "brown sack", TABLE),
        ObjectRef(BOTTLE, "glass bottle", TABLE), ObjectRef(WATER, "quantity of water", BOTTLE))


def test_a_holder_the_text_puts_things_on_is_a_surface_from_then_on() -> None:
    surfaces = SurfacesFromText()
    placed = surfaces.place(SEEN, ROOM, "On the table is an elongated brown sack.\nThe glass bottle contains:\n  water")
    relations = {ref.id: ref.relation for ref in placed}
    assert relations[SACK] == ON and relations[BOTTLE] == ON
    assert relations[WATER] == ""  # "contains": in, as every holder not shown as a surface
    # Later replies need not say it again.
    again = surfaces.place(SEEN, ROOM, "Taken.")
    assert {ref.id: ref.relation for ref in again}[SACK] == ON


def test_text_that_puts_nothing_on_a_holder_leaves_it_a_container() -> None:
    surfaces = SurfacesFromText()
    placed = surfaces.place(SEEN, ROOM, "You turn on the lamp. The table is old.")
    assert all(ref.relation == "" for ref in placed)
