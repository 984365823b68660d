"""The order two-object candidates are tried in when a template has too many pairs."""

from __future__ import annotations

from zorktui.engine.pairs import MAX_HELD_PAIRS, order_pairs


def test_pairs_like_ones_that_worked_go_first_then_what_is_in_hand() -> None:
    held = [1, 2]
    kinds = {1: b"veg", 2: b"knife", 3: b"oven", 4: b"door"}
    pairs = [(a, b) for a in (1, 2, 3, 4) for b in (1, 2, 3, 4) if a != b]
    worked = ({b"veg"}, {b"oven"})  # "cook potato with oven" worked before
    order = order_pairs(pairs, held, kinds.__getitem__, worked)
    assert order[0] == (1, 3)  # the vegetable with the oven: alike in both slots
    assert order.index((1, 2)) < order.index((1, 4))  # two things in hand before one out there
    assert order.index((1, 4)) < order.index((4, 2))  # the held thing first, then the reverse
    assert order[-1] in {(3, 4), (4, 3)}  # two things lying about come last


def test_a_full_inventory_does_not_crowd_out_the_door() -> None:
    held = list(range(1, 8))  # seven things in hand: 42 pairs of two held things
    door = 99
    pairs = [(a, b) for a in held + [door] for b in held if a != b]
    order = order_pairs(pairs, held, lambda o: b"thing", (set(), set()))
    assert all(a != door for a, _b in order[:MAX_HELD_PAIRS])
    # Then every "open door with X" before the other pairs of held things: within any cap.
    assert {a for a, _b in order[MAX_HELD_PAIRS:MAX_HELD_PAIRS + len(held)]} == {door}
