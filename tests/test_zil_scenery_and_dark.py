"""ZIL's shared scenery and darkness, judged by rules that must not fire where they do not apply.

The positive cases were measured on Zork I and III built from Microsoft's
source (outside the repository): "open window" behind the house (the window
is listed by the room, under LOCAL-GLOBALS), the dark attic reported dark.
Our ZIL story has neither, so here the rules must find nothing and change
nothing, and the darkness rule is shown on a room that is not the one the
"look" describes.
"""

from __future__ import annotations

from paths import BUNDLED, ZIL

from zorktui.engine.world.darkness import DarknessByLook
from zorktui.engine.zmachine.local_globals import local_globals_property


def test_a_story_without_shared_scenery_has_no_local_globals_property(game_of) -> None:
    game = game_of(ZIL)
    place = game.facts.place()
    assert place is not None and local_globals_property(game.zm, place.room) is None


def test_darkness_by_look_is_used_only_where_a_look_begins_with_the_room(game_of) -> None:
    zil, inform = game_of(ZIL), game_of(BUNDLED)
    assert zil._darkness.usable and not inform._darkness.usable  # Inform says so itself
    judge: DarknessByLook = zil._darkness
    here = zil.facts.place()
    assert here is not None and not judge.dark(here.room, "")
    walked = [zil.step(c) for c in ["take wick", "north", "east", "west"]]
    assert not any(t.dark for t in walked)
    # Asked about a room the "look" does not describe, the rule says the player cannot see it.
    objects = zil.zm.objects
    lamp_room = next(o for o in range(1, objects.count + 1) if objects.name(o) == "Lamp Room")
    assert zil.current.location.id != lamp_room and judge.dark(lamp_room, "")
