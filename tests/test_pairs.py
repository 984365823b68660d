"""The order two-object candidates are tried in when a template has too many pairs."""

from __future__ import annotations

from zorktui.engine.actions.pairs import held_quota, order_pairs
from zorktui.engine.actions.valid_actions import MAX_PAIRS


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
    quota = held_quota(len(held))
    assert all(a != door for a, _b in order[:quota])
    # Then every "open door with X" before the other pairs of held things: within any cap.
    assert {a for a, _b in order[quota:quota + len(held)]} == {door}
    assert held_quota(20) + 20 <= MAX_PAIRS  # a key among twenty things still meets the door


def test_the_thing_just_taken_meets_everything_carried_before_older_things_meet() -> None:
    knife, book, pepper, onion, apple, potato = 1, 2, 3, 4, 5, 6
    held = [knife, book, pepper, onion, apple, potato]  # newest first, as the object tree keeps them
    stove = 99
    pairs = [(a, b) for a in held + [stove] for b in held + [stove] if a != b]
    order = order_pairs(pairs, held, lambda o: b"thing", (set(), set()))
    first = order[:held_quota(len(held))]
    assert (potato, knife) in first  # "chop potato with knife", the knife just taken
    assert all(knife in ab for ab in first)


def test_a_door_meets_its_own_key_first_whatever_else_is_carried() -> None:
    held = list(range(1, 8))  # the key (7) is the oldest thing carried
    key, door, crate, barrel = 7, 90, 91, 92
    pairs = [(a, b) for a in held + [crate, barrel, door] for b in held if a != b]
    order = order_pairs(pairs, held, lambda o: b"thing", (set(), set()), lambda a, b: {a, b} == {door, key})
    assert order[0] == (door, key)


def test_things_lying_in_the_room_meet_what_is_in_hand_before_things_on_them() -> None:
    # A TextWorld kitchen: four vegetables in hand; stove, oven, counter, table, fridge and door
    # lying there; an apple, a cookbook, a knife and a pepper on the counter. With the pairs of
    # the newest vegetables and everything in the kitchen first, the carrot (held longest) had
    # never met the stove within the cap.
    potato, pepper, chili, carrot = 1, 2, 3, 4
    held = [potato, pepper, chili, carrot]
    lying = {10, 11, 12, 13, 14, 15}            # stove, oven, counter, table, fridge, door
    on_counter = [20, 21, 22, 23]                 # apple, cookbook, knife, red pepper
    stove = 10
    pairs = [(a, b) for a in held for b in held + sorted(lying) + on_counter if a != b]
    order = order_pairs(pairs, held, lambda o: b"thing", (set(), set()), lying=lying)
    assert (carrot, stove) in order[:MAX_PAIRS]
    assert all(b not in on_counter for _a, b in order[:MAX_PAIRS])
