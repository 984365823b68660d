"""Which two-object candidates to try first when there are too many ("cook the potato with the stove").

Every pair of objects in scope times every two-object verb is far more than a
search can play, so candidates are capped per template; this decides which
pairs come first. Nothing here knows any story: what the player holds, and
which kinds of things a template has worked with before (the caller keeps
"take X from Y" to the Y that holds X).
"""

from __future__ import annotations

from collections.abc import Callable

#: Pairs of two held things that may go before the others (at least; see :func:`held_quota`).
MAX_HELD_PAIRS = 8
#: ... and at most (the key in hand, among twenty things carried, must still meet the door in the room).
HELD_PAIRS_LIMIT = 10


def held_quota(n_held: int) -> int:
    """How many pairs of two held things go before the others.

    Enough for every pair with the newest thing in hand, both ways round
    (the knife just taken, with each thing already carried), within
    :data:`MAX_HELD_PAIRS` .. :data:`HELD_PAIRS_LIMIT`.
    """
    return min(max(MAX_HELD_PAIRS, 2 * (n_held - 1)), HELD_PAIRS_LIMIT)

Pair = tuple[int, int]


def _pair_rank(a: int, b: int, held: set[int]) -> int:
    """Where a pair stands by what the player holds (lower first).

    What is put somewhere or used on something else is usually in the
    player's hands; two things lying about rarely go together.
    """
    a_held, b_held = a in held, b in held
    if a_held and b_held:  # chop the potato with the knife; put the coin in the bag
        return 0
    if a_held:  # cook the potato (held) with the stove; put the coin in the box
        return 1
    if b_held:  # unlock the door with the key (held)
        return 2
    return 3


def order_pairs(
    pairs: list[Pair],
    held: list[int],
    signature: Callable[[int], bytes],
    worked: tuple[set[bytes], set[bytes]],
    linked: Callable[[int, int], bool] = lambda a, b: False,
    lying: set[int] | frozenset[int] = frozenset(),
) -> list[Pair]:
    """``pairs`` in the order to try them.

    Args:
        pairs: (first, second) object numbers for one template.
        held: The objects the player holds.
        signature: What an object looks like to the game's library (attributes,
            properties, held or not).
        worked: For this template, the signatures of the things that were in
            each slot when it worked before.
        linked: Whether one of two objects names the other in a property (a
            door and its own key, whatever else is carried).
        lying: The objects lying directly in the room (not on or in another
            thing), where a thing in hand is put, cooked or used: the stove
            and the counter before the apple and the cookbook on the counter.

    Returns:
        A thing out there with one in hand that its properties name first (the
        door and its key), then pairs like those that worked before (a vegetable with the oven,
        anything with the knife), then by :func:`_pair_rank`, things lying in
        the room before things on or in others (with four vegetables in hand,
        the pairs of the first three with everything in a kitchen had filled
        the cap and "cook carrot with stove" was never tried); two held
        things newest first (a Z-machine puts what is taken first among the
        player's children, so ``held`` is newest first: the knife just taken
        meets each thing carried before two older things meet); past
        :func:`held_quota`, pairs of two held things go last.
    """

    held_set = set(held)
    newest = {o: i for i, o in enumerate(held)}
    # Read once per thing, not once per pair: a kitchen makes about a thousand pairs a search.
    things = {o for ab in pairs for o in ab}
    firsts = {o: signature(o) in worked[0] for o in things}
    seconds = {o: signature(o) in worked[1] for o in things}
    away = {o: o not in held_set and o not in lying for o in things} if lying else dict.fromkeys(things, False)

    def rank(ab: Pair) -> tuple[bool, int, int, int, int, int, bool]:
        a, b = ab
        i, j = newest.get(a, 0), newest.get(b, 0)
        # A thing out there and one in hand that its properties name (the door and its key);
        # Inform 7's property values name objects by coincidence too often to trust more.
        lock_and_key = (a in held_set) != (b in held_set) and linked(a, b)
        return (not lock_and_key, -(firsts[a] + seconds[b]), _pair_rank(a, b, held_set), away[a] + away[b],
                min(i, j), max(i, j), i > j)

    ordered = sorted(pairs, key=rank)
    # Two things in hand fit together now and then (chop the potato with the knife), but
    # a full inventory makes dozens of such pairs: past a few they wait for the rest
    # (the key in hand must still meet the door in the room).
    both_held = [ab for ab in ordered if ab[0] in held_set and ab[1] in held_set]
    quota = held_quota(len(held))
    if len(both_held) <= quota:
        return ordered
    late = set(both_held[quota:])
    return [ab for ab in ordered if ab not in late] + both_held[quota:]
