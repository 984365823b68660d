"""The Z-machine interpreter: a thin wrapper over jericho's Frotz.

Everything jericho-specific lives here, so the rest of the engine speaks in
memory images and snapshots.
"""

from __future__ import annotations

import ctypes
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.ctypeslib import as_ctypes

from zorktui.core.errors import GameError

#: jericho truncates longer commands; we refuse them instead of sending half a command.
MAX_COMMAND_BYTES = 198

#: The quick calls of a restore and a memory read, with their C signatures.
_QUICK_CALLS: dict[str, list[Any]] = {
    "setRng": [ctypes.c_long, ctypes.c_int, ctypes.c_int],
    "setRAM": [ctypes.c_void_p],
    "setStack": [ctypes.c_void_p],
    "setPC": [ctypes.c_int],
    "setSP": [ctypes.c_int],
    "setFP": [ctypes.c_int],
    "set_opcode": [ctypes.c_int],
    "setFrameCount": [ctypes.c_int],
    "set_narrative_text": [ctypes.c_char_p],
    "getRAM": [ctypes.c_void_p],
}


def _holding_the_gil(lib: Any) -> Any:
    """The same loaded library, with its quick calls made without releasing the GIL.

    ctypes releases the GIL around every call into a plain ``CDLL``. For a
    call of a microsecond that only costs: with a second interpreter in
    another thread, the two threads hand the GIL back and forth on every one
    of a restore's nine calls. Only :meth:`Interpreter.step`, which runs the
    game, needs to let the other thread run.
    """
    quick = ctypes.PyDLL("libfrotz (quick calls)", handle=lib._handle)
    for name, argtypes in _QUICK_CALLS.items():
        function = getattr(quick, name)
        function.argtypes = argtypes
        function.restype = None
    return quick


def _encoded(command: str) -> bytes:
    """A command as Frotz reads it: cp1252, cut to what jericho takes, ended by a newline."""
    return command.encode("cp1252", errors="replace")[:MAX_COMMAND_BYTES] + b"\n"


@dataclass(frozen=True)
class Snapshot:
    """The complete interpreter state at a prompt (memory, stack, registers, RNG)."""

    state: tuple[Any, ...]
    #: Whether the machine had stopped (jericho keeps this flag apart from the state).
    halted: bool = False

    def ram(self) -> np.ndarray:
        """The dynamic memory in this snapshot."""
        return self.state[0]

    def position(self) -> tuple[int, int]:
        """Where the machine waits in this snapshot, as :meth:`Interpreter.position` reads it live."""
        return int(self.state[2]), int(self.state[5])


class Interpreter:
    """One running story.

    Args:
        zcode_path: The Z-code file.
        seed: Seed for the interpreter's random number generator (>= 1).
    """

    def __init__(self, zcode_path: str, seed: int) -> None:
        self.zcode_path = zcode_path
        self.seed = seed
        self._load()
        self._ram = np.zeros(self._lib.getRAMSize(), dtype=np.uint8)
        self._ram_c = as_ctypes(self._ram)
        #: How many times a halted Frotz was replaced to restore a snapshot (see :meth:`_revive`).
        self.revivals = 0

    def _load(self) -> None:
        """Load a fresh Frotz for this story (its own copy of jericho's library)."""
        import jericho  # heavy import, paid only when a game opens

        # Every story jericho has no bindings for warns so; we read those facts ourselves. A
        # filter for good rather than catch_warnings, which a second thread (the twin, reloaded
        # after a crash) can undo under the first: the warning had reached the terminal.
        warnings.filterwarnings("ignore", message=r"Game .* is not fully supported")
        try:
            self._env = jericho.FrotzEnv(self.zcode_path, seed=max(1, self.seed))
        except OSError as exc:  # jericho copies its library into the temporary folder first: a full disk stops it
            raise GameError(f"cannot start the interpreter ({exc.strerror or exc}; is the temporary folder full?)") from None
        self._lib = self._env.frotz_lib
        self._quick = _holding_the_gil(self._lib)
        self._run = self._lib["step"]
        self._run.argtypes = [ctypes.c_char_p]
        self._run.restype = None
        # Frotz sets this on a runtime error (or a quit) and jericho's set_state leaves it as it is:
        # a state restored after a command that halted the machine refused every command after.
        # A restore puts back the flag the snapshot was taken with.
        self._halted_flag = ctypes.c_int.in_dll(self._lib, "emulator_halted")
        # Where the machine waits, read in place as the flag above (see :meth:`position`).
        self._pc_pointer = ctypes.c_void_p.in_dll(self._lib, "pcp")
        self._memory_pointer = ctypes.c_void_p.in_dll(self._lib, "zmp")
        self._frame_count = ctypes.c_int.in_dll(self._lib, "frame_count")
        self._restoring: tuple[tuple[Any, ...], Any, Any] | None = None

    def _revive(self) -> None:
        """Replace a halted Frotz before a snapshot is restored into it.

        Putting the halted flag back alone can leave Frotz's own state broken
        after a runtime error: in Zork III built from its source (seed 1),
        after "climb with waybread" crashed at the Cliff, every later command
        there halted again and "down" answered "@Attempt to address illegal
        object 9779". Snapshots are portable between interpreters of one
        story, so a fresh one (about 4 ms) takes the snapshot as well.
        """
        self._env.close()
        self._load()
        self._env.reset()
        self.revivals += 1

    def twin(self) -> Interpreter:
        """A second, independent interpreter of the same story, started and at its opening.

        jericho loads a private copy of its C library per interpreter, so two
        interpreters share no state, and ctypes releases the GIL while a
        command runs: a twin driven from another thread runs on another core.
        Bring it to a state with :meth:`restore` (snapshots are portable between
        interpreters of the same story).
        """
        other = Interpreter(self.zcode_path, self.seed)
        other.reset()
        return other

    def reset(self) -> str:
        """Start the story from the beginning and return the raw opening text."""
        obs, _info = self._env.reset()
        return obs

    def step(self, command: str) -> str:
        """Send one command and return the raw text up to the next input request."""
        return self._lib.step(_encoded(command)).decode("cp1252", errors="replace")

    def play(self, command: str) -> None:
        """Send one command and run to the next input request, leaving its text unread.

        For the valid-action search, which looks only at the memory after a
        command: reading back and decoding the screen would be wasted.
        """
        self._run(_encoded(command))

    def ram(self) -> np.ndarray:
        """The current dynamic memory (a buffer reused between calls: copy to keep)."""
        self._quick.getRAM(self._ram_c)
        return self._ram

    def snapshot(self) -> Snapshot:
        """Capture the full state."""
        return Snapshot(self._env.get_state(), self.halted())

    def restore(self, snap: Snapshot) -> None:
        """Return to a captured state.

        Does what jericho's ``set_state`` does, but converts the memory and
        stack arrays to ctypes once per snapshot rather than on every call:
        the valid-action search restores the same snapshot hundreds of times.
        """
        if self._halted_flag.value:
            self._revive()
        self._halted_flag.value = int(snap.halted)
        if len(snap.state) != 9:  # not the layout this was written against: let jericho do it
            self._env.set_state(snap.state)
            return
        narrative = snap.state[-1]
        self._set_machine(snap)
        self._quick.set_narrative_text(narrative)

    def rewind(self, snap: Snapshot) -> None:
        """:meth:`restore` for a command to follow at once: the last reply's text is left as it is.

        The text of the reply before a snapshot is kept only for jericho's
        own reading of it, and the next command overwrites it; the
        valid-action search rewinds hundreds of times per state.
        """
        if len(snap.state) != 9 or self._halted_flag.value:
            self.restore(snap)
            return
        self._halted_flag.value = int(snap.halted)
        self._set_machine(snap)

    def _set_machine(self, snap: Snapshot) -> None:
        ram, stack, pc, sp, fp, frame_count, opcode, rng, _narrative = snap.state
        if self._restoring is None or self._restoring[0] is not snap.state:
            # Holding the state keeps its arrays alive, so the pointers stay valid.
            self._restoring = (snap.state, as_ctypes(ram), as_ctypes(stack))
        _state, ram_c, stack_c = self._restoring
        lib = self._quick
        lib.setRng(*rng)
        lib.setRAM(ram_c)
        lib.setStack(stack_c)
        lib.setPC(pc)
        lib.setSP(sp)
        lib.setFP(fp)
        lib.set_opcode(opcode)
        lib.setFrameCount(frame_count)

    def waiting(self) -> tuple[int, tuple[int, ...]] | None:
        """What the machine waits in: (opcode, (pc, sp, fp, frames)), or None where jericho's layout is unknown.

        The opcode tells a line read (228, ``read``/``aread``) from a key
        read (246, ``read_char``); the position tells one line read from another.
        """
        state = self._env.get_state()
        if len(state) != 9:
            return None
        _ram, _stack, pc, sp, fp, frame_count, opcode, _rng, _narrative = state
        return int(opcode), (int(pc), int(sp), int(fp), int(frame_count))

    def position(self) -> tuple[int, int]:
        """(program counter, call depth) where the machine stopped, read in place: cheap enough for every candidate.

        Back at a story's prompt after an ordinary turn, both are the same
        whatever the command was; a game that has ended asks its last
        question from elsewhere (Inform 7 from the same read, deeper in calls).
        """
        return (self._pc_pointer.value or 0) - (self._memory_pointer.value or 0), self._frame_count.value

    def halted(self) -> bool:
        """The story has stopped running (it quit, or the interpreter failed).

        Read from Frotz's flag in place: the valid-action search asks after
        every candidate, and a call into the library would hand the GIL to
        the twin's thread and back each time.
        """
        return self._halted_flag.value > 0

    def close(self) -> None:
        """Release the interpreter."""
        self._env.close()
