"""What the game's parser can see, asked of the parser rather than read from attributes.

The object tree puts the leaflet in the mailbox whether the mailbox is open
or shut, and which attributes mean "open", "transparent", "invisible" or
"lit" differs from one library (and one ZIL game) to the next. So for a thing
the player does not carry, the parser itself is asked: from a state where "examine" of a thing
surely in sight has put that thing in the parser's noun variable, "examine
WORD" for the thing asked about; if the noun variable then holds it, the
parser can see it. An answer holds while the thing, its holders,
everything in scope and the dark stay as they were (see :func:`situations`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from zorktui.engine.vm.interpreter import Interpreter, Snapshot
from zorktui.engine.world.facts import Place
from zorktui.engine.world.fingerprint import globals_of, object_state
from zorktui.engine.zmachine.zmachine import ZMachine


class Sight:
    """Remembers which things around the player the parser can refer to.

    The parser's noun variable is found the first time two things surely in
    sight (carried, or lying in a lit room) are at hand: the globals that
    hold each of them after "examine" of each. ("examine me" will not do:
    in Zork "me" is an object of its own, not the player.)

    Things lying in the room are judged too where the game's darkness and
    invisibility do not show in the object tree: in ZIL games the room
    global stays the room in the dark, and a flag of the game's own hides a
    thing (Zork II's steel box). Inform's darkness moves ``location`` (see
    :class:`~zorktui.engine.world.facts.FactReader`), and asking about every thing
    in every room cost an Inform game four times its time per turn.

    Args:
        zm: The memory reader.
    """

    def __init__(self, zm: ZMachine) -> None:
        self.zm = zm
        self.judge_lying = not zm.header.is_inform
        self.nouns: list[int] | None = None  # None: not found yet
        self._tries = 0
        # (object, digest of its situation) -> whether the parser could see it
        self._known: dict[tuple[int, bytes], bool] = {}
        self.asked = 0

    def hidden(self, vm: Interpreter, place: Place, held: list[int], scope: list[int],
               word: Callable[[int], str | None], noise_properties: frozenset[int] = frozenset()) -> set[int]:
        """The things of ``scope`` not carried that the parser cannot see.

        Inside others (the leaflet in a shut mailbox), and lying in the room
        where :attr:`judge_lying` says so.

        Args:
            vm: The interpreter, at a prompt (left as it was).
            place: Where the player is.
            held: What the player carries.
            scope: What is around: carried, in the room's tree.
            word: A word naming an object, or None where there is none.
            noise_properties: Inform individual properties that are bookkeeping.
        """
        parent = self.zm.objects.parent
        around = [obj for obj in scope if obj not in held and (self.judge_lying or parent(obj) != place.room)]
        if not around:
            return set()
        keys = situations(self.zm, around, scope, place.dark, noise_properties)
        out = {obj for obj in around if self._known.get((obj, keys[obj])) is False}
        if all((obj, keys[obj]) in self._known for obj in around):
            return out  # the common case: nothing around has changed since it was judged
        # Words are looked for only now: choosing them costs more than the rest.
        judged: dict[int, tuple[str, bytes]] = {}
        sure: list[tuple[int, str]] = []
        likely: list[tuple[int, str]] = []
        for obj in scope:
            name = word(obj)
            if not name:
                continue
            if obj in held:
                sure.append((obj, name))
                continue
            if obj in keys:
                judged[obj] = (name, keys[obj])
            if parent(obj) == place.room and not place.dark:
                likely.append((obj, name))
        return self.unseen(vm, judged, sure, likely) if judged else out

    def unseen(self, vm: Interpreter, things: dict[int, tuple[str, bytes]],
               sure: Sequence[tuple[int, str]], likely: Sequence[tuple[int, str]] = ()) -> set[int]:
        """Of ``things``, those the parser cannot see; ``vm`` is left exactly as it was.

        Args:
            vm: The interpreter, at a prompt.
            things: Object -> (a word that names it, a digest of its own state
                and its holders'), for the things to judge.
            sure: (object, word) of things surely in sight (carried), to find
                the noun variable with and to start each question from.
            likely: (object, word) of things probably in sight (lying in a
                room the game does not call dark), tried after ``sure`` for
                both; being among ``things`` too, they are judged on the way.

        Returns:
            The objects that "examine WORD" did not reach. A thing the parser
            asked about ("Which do you mean...?") counts as seen: something
            there answers to the word. With no noun variable found (yet), or
            no thing to start from that the parser takes, nothing is reported
            unseen.
        """
        if not things or "examine" not in self.zm.dictionary or not (sure or likely):
            return set()
        out: set[int] = set()
        ask: dict[int, tuple[str, bytes]] = {}
        for obj, (word, situation) in things.items():
            known = self._known.get((obj, situation))
            if known is None:
                ask[obj] = (word, situation)
            elif not known:
                out.add(obj)
        if not ask:
            return out
        start = vm.snapshot()
        try:
            if self.nouns is None and not self._find_nouns(vm, start, [*sure, *likely]):
                return set()
            assert self.nouns is not None
            # Point the noun variable at a thing in sight first: a word that
            # reaches nothing leaves it as it was, and a stale value must not
            # pass for a match. A likely thing that does not take is itself
            # out of sight (an invisible box, a ZIL room gone dark).
            base = None
            for anchor, anchor_word in [*sure, *likely]:
                vm.rewind(start)
                reply = vm.step(f"examine {anchor_word}")
                took = bool((globals_of(self.zm, vm.ram())[self.nouns] == anchor).any())
                if anchor in ask:
                    self._record(anchor, ask.pop(anchor)[1], took or "?" in reply, out)
                if took:
                    base = vm.snapshot()
                    break
            if base is None:
                return out
            for obj, (word, situation) in ask.items():
                vm.rewind(base)
                reply = vm.step(f"examine {word}")
                values = globals_of(self.zm, vm.ram())[self.nouns]
                self._record(obj, situation, bool((values == obj).any()) or "?" in reply, out)
            return out
        finally:
            vm.restore(start)

    def _record(self, obj: int, situation: bytes, seen: bool, out: set[int]) -> None:
        self._known[(obj, situation)] = seen
        self.asked += 1
        if not seen:
            out.add(obj)

    def _find_nouns(self, vm: Interpreter, start: Snapshot, sure: list[tuple[int, str]]) -> bool:
        """Find the noun variable from two things surely in sight (a few tries over a game, then give up)."""
        distinct = list({obj: word for obj, word in sure}.items())
        if len(distinct) < 2 or self._tries >= 3:
            return False
        self._tries += 1
        nouns = None
        for obj, word in distinct[:2]:
            vm.rewind(start)
            vm.step(f"examine {word}")
            holding = {int(g) for g in (globals_of(self.zm, vm.ram()) == obj).nonzero()[0]}
            nouns = holding if nouns is None else nouns & holding
        vm.rewind(start)
        if nouns:
            self.nouns = sorted(nouns)
        return bool(nouns)


def situations(zm: ZMachine, inside: list[int], scope: list[int], dark: bool,
               noise_properties: frozenset[int] = frozenset()) -> dict[int, bytes]:
    """Per thing in ``inside``, a digest of what the parser's view of it may depend on.

    The thing and everything holding it (a box opened), the state of
    everything in scope (a lamp lit, even one lying on the floor), and
    whether the game calls the room dark: an answer given in the dark must
    not outlive the dark.
    """
    objects = zm.objects
    states: dict[int, bytes] = {}

    def state(obj: int) -> bytes:
        if obj not in states:
            states[obj] = object_state(zm, obj, noise_properties)
        return states[obj]

    scene = (b"D" if dark else b"L") + b"".join(state(o) for o in sorted(set(scope)))
    return {
        obj: hashlib.blake2b(scene + state(obj) + b"".join(state(a) for a in objects.ancestors(obj)),
                             digest_size=12).digest()
        for obj in inside
    }
