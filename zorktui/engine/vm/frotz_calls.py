"""Frotz below the command line: single steps, calls traced, a stop at a routine's entry, a run to the next read.

jericho's ``libfrotz`` exports more than its Python wrapper uses: the
opcode loop one instruction at a time (``zstep``), a run to the next read
(``run_free``), the next opcode (``next_opcode``), the call depth
(``frame_count``), the frame pointer (``fp``) and the machine's memory
(``zmp``). They are not a public API, so they are used only with a jericho
version they were checked on (:data:`CHECKED_JERICHO`) and only when every
symbol is there (:func:`missing_symbols`); anything else searches by typing.

A *stop* at a routine's entry is a breakpoint in the story's code: the
routine's first opcode byte is replaced by ``read`` (0xE4), at which
``run_free`` stops by itself, then put back. No instruction is run twice and
none is skipped: the machine holds the fetched opcode in ``next_opcode``,
which gets the original byte back.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zorktui.engine.vm.interpreter import Interpreter, Snapshot

#: jericho versions whose libfrotz was checked to export these symbols with these meanings.
CHECKED_JERICHO = ("3.3.1",)
#: What dispatching needs of libfrotz (functions and variables).
SYMBOLS = ("zstep", "run_free", "dumb_set_next_action", "dumb_clear_screen",
           "next_opcode", "frame_count", "fp", "zmp", "pcp", "stack")
#: The opcodes at which ``run_free`` stops: ``read`` (aread/sread) and ``read_char``.
READ, READ_CHAR = 0xE4, 0xF6
#: A typed command traced further than this many instructions is cut off (a runaway loop).
TRACE_LIMIT = 400_000


def jericho_version() -> str:
    """The installed jericho's version ('' when it cannot be read)."""
    try:
        from jericho.version import __version__
    except ImportError:  # pragma: no cover - an unusual jericho
        return ""
    return str(__version__)


def missing_symbols(lib: ctypes.CDLL) -> list[str]:
    """The symbols of :data:`SYMBOLS` that ``lib`` does not export."""
    missing = []
    for name in SYMBOLS:
        try:
            getattr(lib, name)
        except AttributeError:
            missing.append(name)
    return missing


@dataclass(frozen=True)
class Call:
    """One routine call seen while a command ran."""

    #: Call depth inside the routine (Frotz's frame count).
    depth: int
    #: Byte address of the routine's first instruction (after its locals header).
    entry: int
    #: The arguments it was given.
    args: tuple[int, ...]


class FrotzCalls:
    """The low-level calls on one interpreter (see the module's docstring).

    Args:
        vm: The interpreter; its library must export :data:`SYMBOLS`.
    """

    def __init__(self, vm: Interpreter) -> None:
        self.vm = vm
        self._bind()

    def _fresh(self) -> None:
        """Bind again where the interpreter was replaced (a restore after a halt loads a new library)."""
        if self.vm._lib is not self.lib:
            self._bind()

    def _bind(self) -> None:
        #: The library these calls are bound to.
        self.lib = lib = self.vm._lib
        quick = ctypes.PyDLL("libfrotz (stepping)", handle=lib._handle)
        self._zstep = quick.zstep
        self._zstep.restype = None
        self._set_action = quick.dumb_set_next_action
        self._set_action.argtypes = [ctypes.c_char_p]
        self._set_action.restype = None
        self._clear = quick.dumb_clear_screen
        self._clear.restype = None
        # run_free releases the GIL (a plain CDLL call): a second interpreter's thread runs meanwhile.
        self._run_free = lib.run_free
        self._run_free.restype = None
        self._next_opcode = ctypes.c_ubyte.in_dll(lib, "next_opcode")
        self._frames = ctypes.c_int.in_dll(lib, "frame_count")
        self._fp = ctypes.c_void_p.in_dll(lib, "fp")
        self._zmp = ctypes.c_void_p.in_dll(lib, "zmp")
        self._pcp = ctypes.c_void_p.in_dll(lib, "pcp")

    def trace(self, start: Snapshot, command: str, limit: int = TRACE_LIMIT) -> list[Call]:
        """The routine calls made while ``command`` runs from ``start``, in order (the interpreter is left anywhere)."""
        self.type_command(start, command)
        # Bound to locals: this loop runs every instruction of a command from Python.
        frames, fp, pcp, zmp, next_opcode = self._frames, self._fp, self._pcp, self._zmp, self._next_opcode
        zstep, halted = self._zstep, self.vm.halted
        calls: list[Call] = []
        depth = frames.value
        for _ in range(limit):
            zstep()
            now = frames.value
            if now > depth:
                frame = fp.value or 0
                argc = ctypes.c_uint16.from_address(frame).value & 0xFF
                args = tuple(ctypes.c_uint16.from_address(frame - 2 * (i + 1)).value for i in range(argc))
                calls.append(Call(now, (pcp.value or 0) - (zmp.value or 0) - 1, args))
            depth = now
            if next_opcode.value in (READ, READ_CHAR) or halted():
                break
        self._clear()
        return calls

    def stop_at(self, start: Snapshot, command: str, entry: int) -> Snapshot | None:
        """Type ``command`` from ``start`` and stop at the first entry to the routine at ``entry``.

        Returns:
            The machine at that entry (parsing done, the routine not begun),
            or None when the command never got there (the parser refused it,
            or it asked a question first).
        """
        vm = self.vm
        vm.rewind(start)
        original = self.arm(entry)  # (bound afresh there, after a restore that may have replaced the library)
        try:
            vm.play(command)
        finally:
            self.disarm(entry, original)
        self._clear()
        if not self.stopped_at(entry):
            return None
        self._next_opcode.value = original
        return vm.snapshot()

    def arm(self, address: int) -> int:
        """Put a breakpoint at the instruction at ``address``: the byte it replaced (give it to :meth:`disarm`)."""
        self._fresh()
        byte = ctypes.c_ubyte.from_address((self._zmp.value or 0) + address)
        original = byte.value
        byte.value = READ
        return original

    def disarm(self, address: int, original: int) -> None:
        """Take the breakpoint at ``address`` away."""
        self._fresh()
        ctypes.c_ubyte.from_address((self._zmp.value or 0) + address).value = original

    def stopped_at(self, address: int) -> bool:
        """Whether the machine stopped at the breakpoint at ``address`` (not at a read of the story's own)."""
        self._fresh()
        pc = (self._pcp.value or 0) - (self._zmp.value or 0)
        return not self.vm.halted() and self._next_opcode.value == READ and pc == address + 1

    def go_on(self, address: int, original: int) -> None:
        """From the breakpoint at ``address``, run to the next read with the instruction there run as written.

        The breakpoint stays armed after (the caller arms once for many runs).
        """
        self._fresh()
        self.disarm(address, original)
        self._next_opcode.value = original
        self._run_free()
        self._clear()
        self.arm(address)

    def run_past(self, address: int, original: int, depth: int) -> None:
        """Run to the next read or to the breakpoint at ``address`` met at call ``depth``, stepping over it elsewhere.

        A routine shared by many callers (Inform's veneer calls every message
        through one) returns to the same instruction at other depths too.
        """
        self._fresh()
        self._run_free()
        while self.stopped_at(address) and self._frames.value != depth:
            self.disarm(address, original)
            self._next_opcode.value = original
            self._zstep()
            self.arm(address)
            self._run_free()
        self._clear()

    def step_out(self, limit: int = TRACE_LIMIT) -> tuple[int, int] | None:
        """Step until the current routine returns: (the address of the caller's next instruction, the call depth there).

        None when the machine reads first (the routine asked something) or stops.
        """
        self._fresh()
        depth = self._frames.value
        for _ in range(limit):
            if self.reading():
                return None
            self._zstep()
            if self._frames.value < depth:
                return (self._pcp.value or 0) - (self._zmp.value or 0) - 1, self._frames.value
        return None

    def step(self) -> None:
        """Run one instruction."""
        self._fresh()
        self._zstep()

    def depth(self) -> int:
        """The call depth (Frotz's frame count)."""
        self._fresh()
        return self._frames.value

    def reading(self) -> bool:
        """Whether the machine waits at a read (or has stopped)."""
        self._fresh()
        return self._next_opcode.value in (READ, READ_CHAR) or self.vm.halted()

    def steps_to_read(self, limit: int = TRACE_LIMIT) -> int:
        """Run to the next read one instruction at a time: how many there were (for benchmarks)."""
        for n in range(limit):
            if self.reading():
                self._clear()
                return n
            self._zstep()
        self._clear()
        return limit

    def type_command(self, start: Snapshot, command: str) -> None:
        """Give ``command`` to the read ``start`` waits in and run its first instruction (then step on)."""
        self.vm.rewind(start)
        self._fresh()
        self._set_action(command.encode("cp1252", errors="replace") + b"\n")
        self._zstep()  # the pending read takes the command

    def run_to_read(self) -> None:
        """Run from where the machine is to its next read (what a command does after the parser)."""
        self._fresh()
        self._run_free()
        self._clear()
