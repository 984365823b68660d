"""World-state fingerprints: equal for equal worlds, blind to bookkeeping.

A Z-machine game keeps its world in the object table (tree links and
attributes), in property values and in global variables. Its parser also
scribbles into globals on every command (the action, the noun, pronouns,
error codes) and counters tick with time. The fingerprint hashes the world
parts and leaves out the globals that calibration shows to be scratch: those
that differ between commands that cannot change the world (a parser error,
looking, taking inventory, examining), and counters that tick once a turn.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from zorktui.engine.zmachine.zmachine import ZMachine


def _index_for(ranges: list[tuple[int, int]], limit: int) -> np.ndarray:
    mask = np.zeros(limit, dtype=bool)
    for start, end in ranges:
        start = max(0, start)
        end = min(limit, end)
        if start < end:
            mask[start:end] = True
    return np.flatnonzero(mask)


@dataclass(frozen=True)
class ObjectsReading:
    """How a valid-action search reads a command's outcome: objects digest and raw globals.

    Kept apart from :class:`Fingerprinter` so that a worker process can be
    sent it (see :mod:`zorktui.engine.actions.search_workers`).

    Attributes:
        span: From the first object byte to the last.
        index: The object table's and property values' bytes.
        mask: Per byte of ``index``, the bits that count (None: all).
        globals: The 480 bytes of the global variables.
    """

    span: slice
    index: np.ndarray
    mask: np.ndarray | None
    globals: slice

    def objects_only(self, ram: np.ndarray) -> bytes:
        """Fingerprint of the object table and property values alone (8 bytes).

        Taken once per candidate command of a valid-action search, so it
        hashes the gathered bytes in place rather than through a copy.
        """
        data = ram.take(self.index)
        if self.mask is not None:
            data &= self.mask
        # numpy's stubs give ndarray the buffer protocol from Python 3.12 only; it has it on 3.11 too.
        return hashlib.blake2b(data, digest_size=8).digest()  # type: ignore[arg-type]

    def raw_globals(self, ram: np.ndarray) -> bytes:
        """The globals' bytes as they are."""
        return ram[self.globals].tobytes()

    def digester(self, remember: int = 4) -> Callable[[np.ndarray], bytes]:
        """:meth:`objects_only` that remembers the bytes behind the last few digests it made.

        Nearly every command a valid-action search plays leaves the objects as
        one of the last few commands did (a refusal moves nothing): 97-99% on
        Zork I and the bundled game. Comparing the stretch of memory that
        holds them costs a fraction of gathering and hashing it, and bytes
        equal to the letter give the same digest. Not thread-safe: one
        digester per thread.
        """
        span = self.span
        recent: list[tuple[bytes, bytes]] = []

        def digest(ram: np.ndarray) -> bytes:
            raw = ram[span].tobytes()
            for seen, known in recent:
                if seen == raw:
                    return known
            made = self.objects_only(ram)
            recent.insert(0, (raw, made))
            del recent[remember:]
            return made

        return digest


class Fingerprinter:
    """Hashes the world-state bytes of dynamic memory.

    Args:
        zm: The memory reader (only its fixed layout is used).
        noise_globals: Global variable numbers to leave out.
        noise_attributes: Attribute numbers to leave out on every object
            (the library's bookkeeping: "mentioned", "workflag").
        noise_properties: Inform individual property numbers to leave out on
            every object (Inform 7's record of what a command touched).
        noise_object_attributes: (object, attribute) pairs to leave out on
            that object alone (a ZIL parser's flag on the player).
    """

    def __init__(self, zm: ZMachine, noise_globals: set[int] | None = None,
                 noise_attributes: set[int] | None = None, noise_properties: set[int] | None = None,
                 noise_object_attributes: set[tuple[int, int]] | None = None) -> None:
        self.zm = zm
        self.noise_globals: set[int] = set(noise_globals or ())
        self.noise_attributes: set[int] = set(noise_attributes or ())
        self.noise_object_attributes: set[tuple[int, int]] = set(noise_object_attributes or ())
        self.noise_properties: frozenset[int] = frozenset(noise_properties or ())
        self._layout = zm.objects.layout_ranges(self.noise_properties)
        self._rebuild()

    def _rebuild(self) -> None:
        start, _end = self.zm.globals_range()
        ranges = list(self._layout)
        size = self.zm.dynamic_size
        self._objects_index = _index_for(ranges, size)
        # The bytes from the first object byte to the last: other data lies
        # between, but a stretch equal byte for byte holds equal objects.
        if len(self._objects_index):
            self._objects_span = slice(int(self._objects_index[0]), int(self._objects_index[-1]) + 1)
        else:
            self._objects_span = slice(0, 0)
        self._kept_mask = np.array([0 if g in self.noise_globals else 0xFFFF for g in range(240)], dtype=np.uint16)
        self._globals = slice(start, start + 480)
        for g in range(240):
            if g not in self.noise_globals:
                ranges.append((start + 2 * g, start + 2 * g + 2))
        self._index = _index_for(ranges, size)
        mask = np.full(size, 0xFF, dtype=np.uint8)
        objects = self.zm.objects
        for attribute in self.noise_attributes:
            byte, bit = divmod(attribute, 8)
            addrs = objects.entries_addr + np.arange(objects.count) * objects.entry_size + byte
            mask[addrs[addrs < size]] &= 0xFF ^ (0x80 >> bit)
        for obj, attribute in self.noise_object_attributes:
            byte, bit = divmod(attribute, 8)
            addr = objects.entry(obj) + byte
            if objects.valid(obj) and addr < size:
                mask[addr] &= 0xFF ^ (0x80 >> bit)
        masked = bool(self.noise_attributes or self.noise_object_attributes)
        self._memory_mask = mask if masked else None
        self._objects_mask = mask[self._objects_index] if masked else None
        self._mask = mask[self._index] if masked else None
        self._reading = ObjectsReading(self._objects_span, self._objects_index, self._objects_mask, self._globals)

    def objects_only(self, ram: np.ndarray) -> bytes:
        """Fingerprint of the object table and property values alone (8 bytes)."""
        return self._reading.objects_only(ram)

    def reading(self) -> ObjectsReading:
        """What a command's outcome is read by, in a form a worker process can be sent."""
        return self._reading

    def objects_digester(self, remember: int = 4) -> Callable[[np.ndarray], bytes]:
        """:meth:`objects_only` that remembers the bytes behind the last few digests it made.

        See :meth:`ObjectsReading.digester`.
        """
        return self._reading.digester(remember)

    def kept_globals(self, ram: np.ndarray) -> np.ndarray:
        """The globals that count as world state (a copy, 240 entries; noise zeroed)."""
        return self.kept_globals_of([self.raw_globals(ram)])[0]

    def attributes(self, obj: int) -> bytes:
        """The object's attribute bytes as the hash reads them: the library's bookkeeping bits cleared."""
        objects = self.zm.objects
        entry = objects.entry(obj)
        end = entry + objects.attribute_bytes
        raw = bytes(self.zm.memory[entry:end])
        if self._memory_mask is None or end > len(self._memory_mask):
            return raw
        return bytes(np.frombuffer(raw, dtype=np.uint8) & self._memory_mask[entry:end])

    def object_state(self, obj: int) -> bytes:
        """One object's own state as this fingerprint reads it (see :func:`object_state`): its bookkeeping left out."""
        return object_state(self.zm, obj, self.noise_properties, self.attributes(obj))

    def kept_mask(self) -> np.ndarray:
        """Per global, the bits :meth:`kept_globals` keeps (a copy: 0 for noise, 0xFFFF for the rest)."""
        return self._kept_mask.copy()

    def raw_globals(self, ram: np.ndarray) -> bytes:
        """The globals' bytes as they are, for :meth:`kept_globals_of` to read many at once."""
        return ram[self._globals].tobytes()

    def kept_globals_of(self, raws: list[bytes]) -> np.ndarray:
        """:meth:`kept_globals` of many :meth:`raw_globals`, one row each, in one go."""
        return np.bitwise_and(globals_table(raws), self._kept_mask, dtype=np.uint16)

    def __call__(self, ram: np.ndarray) -> str:
        """Fingerprint of the world in ``ram`` (16 hex digits)."""
        data = ram[self._index]
        if self._mask is not None:
            data = data & self._mask
        return hashlib.blake2b(data.tobytes(), digest_size=8).hexdigest()


def globals_table(raws: list[bytes]) -> np.ndarray:
    """Many :meth:`Fingerprinter.raw_globals` as one table of 240 unsigned words a row, noise and all."""
    # The globals are big-endian words: read them as such, no shifting.
    return np.frombuffer(b"".join(raws), dtype=">u2").reshape(len(raws), 240)


def globals_of(zm: ZMachine, ram: np.ndarray) -> np.ndarray:
    """The 240 globals in ``ram`` as unsigned 16-bit numbers."""
    start, end = zm.globals_range()
    raw = ram[start:end].astype(np.uint16)
    return (raw[0::2] << 8) | raw[1::2]


def attributes_of(zm: ZMachine, ram: np.ndarray) -> np.ndarray:
    """Every object's attribute bytes in ``ram``, one row per object."""
    objects = zm.objects
    rows = objects.entries_addr + np.arange(objects.count)[:, None] * objects.entry_size
    return ram[rows + np.arange(objects.attribute_bytes)[None, :]]


def flicker_counts(snapshots: list[np.ndarray]) -> Counter[int]:
    """For each attribute, on how many objects its bit differs among ``snapshots`` (from :func:`attributes_of`)."""
    counts: Counter[int] = Counter()
    if len(snapshots) < 2:
        return counts
    stack = np.stack(snapshots)
    changed = np.bitwise_or.reduce(stack ^ stack[0], axis=0)  # objects x bytes
    for byte in range(changed.shape[1]):
        for bit in range(8):
            n = int(((changed[:, byte] >> (7 - bit)) & 1).sum())
            if n:
                counts[8 * byte + bit] = n
    return counts


def flickering_attributes(snapshots: list[np.ndarray], min_objects: int = 2) -> set[int]:
    """Attributes whose bit differs among ``snapshots`` (from :func:`attributes_of`) on several objects.

    One object's attribute changing may be a real effect (a clue marked read);
    the same attribute flickering on several objects under commands that only
    look is the library's bookkeeping of what it has printed.
    """
    return {a for a, n in flicker_counts(snapshots).items() if n >= min_objects}


def differing(snapshots: list[np.ndarray]) -> set[int]:
    """Globals whose values are not the same in every one of ``snapshots``."""
    if len(snapshots) < 2:
        return set()
    stack = np.stack(snapshots)
    return set(np.flatnonzero((stack != stack[0]).any(axis=0)).tolist())


def ticking(before: np.ndarray, after1: np.ndarray, after2: np.ndarray) -> set[int]:
    """Globals that went up by exactly one on each of two consecutive turns."""
    a = before.astype(np.int32)
    b = after1.astype(np.int32)
    c = after2.astype(np.int32)
    return set(np.flatnonzero((b - a == 1) & (c - b == 1)).tolist())


def object_state(zm: ZMachine, obj: int, noise_properties: frozenset[int] = frozenset(),
                 attributes: bytes | None = None) -> bytes:
    """Digest of one object's own state: parent, attributes and property values (8 bytes).

    Not its sibling and child links, which change whenever a neighbour
    moves; with Inform's individual properties (a vegetable's cut state),
    less those in ``noise_properties`` (the library's bookkeeping).

    Args:
        zm: The memory reader.
        obj: The object.
        noise_properties: Individual properties left out.
        attributes: The attribute bytes to count (None: as in memory), such
            as :meth:`Fingerprinter.attributes`' with the bookkeeping bits cleared.
    """
    objects = zm.objects
    entry = objects.entry(obj)
    if attributes is None:
        attributes = bytes(zm.memory[entry : entry + objects.attribute_bytes])
    parts = [attributes, objects.parent(obj).to_bytes(2, "big")]
    for prop in objects.properties(obj):
        if prop.addr < zm.dynamic_size:
            parts.append(bytes(zm.memory[prop.addr : prop.addr + prop.length]))
    for start, end in objects.individual_ranges(obj, noise_properties):
        parts.append(bytes(zm.memory[start:end]))
    return hashlib.blake2b(b"".join(parts), digest_size=8).digest()
