"""``GameProcess``: a game whose interpreter runs in a worker process, and survives the worker's death.

Frotz is C: a command that corrupts it ends the process it runs in (a
segfault, an abort in ``free``), which no Python code can catch. Played here,
that process is a worker, and the application only loses an answer:

* every move (a command, undo, restart, a state set or a checkpoint
  restored) is kept in a journal once the worker has answered it;
* a worker that dies is replaced and the journal replayed in the new one,
  in one call, to the turn the session had (the game is deterministic in its
  seed, as ``replay --verify`` relies on); the listener is told in one line;
* the call in flight is asked again once; a command that kills the worker a
  second time is refused, as the valid-action search refuses a candidate
  that killed its worker, and never sent again.

A recorded turn is one the worker answered, so none is lost. Forks
(:meth:`GameProcess.fork`) are workers too, and share with their game what
their valid-action searches found.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zorktui.core.errors import GameError, ZorkTuiError
from zorktui.core.turn import Turn
from zorktui.engine.asking import Outcome
from zorktui.engine.game_api import DEFAULT_UNDO_LEVELS, GameState
from zorktui.engine.vm.checkpoints import list_checkpoints
from zorktui.engine.vm.story import StoryInfo, open_story
from zorktui.engine.worker.channel import Channel, WorkerDied
from zorktui.engine.worker.game_host import GameSpec
from zorktui.engine.worker.words import WorkerWords

_HOST = "zorktui.engine.worker.game_host:GameHost"
#: Attempts to rebuild the game in a new worker before play stops.
REBUILD_TRIES = 3
#: Who failed, in the line a worker's own fault gives.
_WHAT = "the game's worker"


def _said(command: str) -> str:
    return " ".join(command.lower().split())


@dataclass
class SharedFindings:
    """What valid-action searches found, per state hash, shared by a game and its forks."""

    found: dict[str, tuple[tuple[str, ...], dict[str, int], tuple[str, ...]]] = field(default_factory=dict)


class GameProcess:
    """A story in play in a worker process; the same calls as :class:`~zorktui.engine.game.Game`.

    Args:
        story: A story path or an already identified story.
        seed: Seed for the game's random numbers (None: 1).
        undo_levels: How many turns ``undo`` can go back.
        shared: Findings shared with the game this one forks (None: its own).

    Raises:
        StoryError: The story file cannot be played.
        GameError: The interpreter could not start.
    """

    def __init__(self, story: StoryInfo | str | Path, seed: int | None = None,
                 undo_levels: int = DEFAULT_UNDO_LEVELS, shared: SharedFindings | None = None) -> None:
        self.story = story if isinstance(story, StoryInfo) else open_story(story)
        self.seed = seed if seed is not None else 1
        self._spec = GameSpec(str(Path(self.story.zcode_path).resolve()), seed, undo_levels)
        self._lock = threading.RLock()
        self._journal: list[tuple[str, tuple[Any, ...]]] = []
        self._refused: set[str] = set()
        self._shared = shared if shared is not None else SharedFindings()
        self._told: set[str] = set()  # state hashes whose findings this worker has been given
        self._broken = ""
        self._closed = False
        #: Told, in one line, each time the worker died and the game was rebuilt in a new one.
        self.listener: Callable[[str], None] | None = None
        #: How many times the game was rebuilt in a new worker.
        self.rebuilds = 0
        self._channel: Channel | None = None
        opened = self._start()
        self.opening: Turn = opened["opening"]
        self.current: Turn = self.opening
        self._max_score: int | None = opened["max_score"]
        self._prompt_at: tuple[int, int] = opened["prompt_at"]
        self._undo_depth = 0
        if not self.story.title:
            self.story.title = opened["title"]
        self.zm = WorkerWords(self.story.zcode_path, lambda: self._call("ram"))

    # ------------------------------------------------------------------ worker
    def _start(self, replacing: bool = False) -> dict[str, Any]:
        """Start a worker and open the game in it (trying again if the worker is killed as it starts).

        Args:
            replacing: The worker replaces a dead one: it types every valid-action candidate, since a
                candidate dispatched in the worker's own interpreter (engine/actions/dispatch.py) may be
                what killed the last.
        """
        typing_only = {"ZORKTUI_DISPATCH": "0"} if replacing else None
        for attempt in range(REBUILD_TRIES):
            channel = Channel("zorktui.engine.worker", env=typing_only)
            try:
                opened: dict[str, Any] = channel.open_host(_HOST, self._spec, _WHAT)
                self._channel = channel
                return opened
            except WorkerDied as death:
                channel.close()
                if attempt == REBUILD_TRIES - 1:
                    raise GameError(f"the game's interpreter could not start ({death})") from None
            except ZorkTuiError:
                channel.close()
                raise
        raise AssertionError("unreachable")

    @property
    def worker_pid(self) -> int | None:
        """The worker's process id (None once closed)."""
        return self._channel.pid if self._channel is not None else None

    def _call(self, name: str, *args: Any, what: str = "") -> Any:
        """Ask the worker; a worker that dies is replaced and the game rebuilt (see the module docstring).

        Args:
            name: The host's method.
            args: Its arguments.
            what: The command in flight, for a step or a peek ("" for other calls).
        """
        with self._lock:
            deaths = 0  # in this call: a worker killed at random is not the command's doing, one killed twice in a row is
            notice = ""
            while True:
                if self._broken:
                    raise GameError(self._broken)
                if self._channel is None:
                    raise GameError("the game is closed")
                try:
                    answer = self._channel.call(name, *args, what=_WHAT)
                except WorkerDied as death:
                    if self._closed:
                        raise GameError("the game is closed") from None
                    deaths += 1
                    doing = f" during {what!r}" if what else ""
                    self._rebuild()
                    if deaths < 2:
                        # Said once the call has been answered: a second death is said by the refusal alone.
                        notice = (f"The game's interpreter stopped ({death}){doing}; rebuilt from "
                                  f"{len(self._journal)} moves played, and {'the command played' if what else 'asked'} again.")
                        continue
                    if what:
                        self._refused.add(_said(what))
                        raise GameError(f"Not played: {what!r} stopped the game's interpreter twice ({death}); "
                                        "the game is as it was before it.") from None
                    raise GameError(f"the game's interpreter stopped twice ({death}){doing}; "
                                    "the game is as it was before.") from None
                if notice:
                    self._tell(notice)
                return answer

    def _rebuild(self) -> None:
        """Replace the dead worker and replay the journal in the new one (or stop play, saying why)."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        self._told.clear()
        failure = ""
        for _ in range(REBUILD_TRIES):
            try:
                self._start(replacing=True)
                assert self._channel is not None
                moved = self._channel.call("replay", self._journal, self.current, what=_WHAT)
                self.current, self._undo_depth = moved
                self.zm.stale()
                self.rebuilds += 1
                return
            except (WorkerDied, GameError) as exc:
                failure = str(exc)
                if self._channel is not None:
                    self._channel.close()
                    self._channel = None
        self._broken = f"the game's interpreter cannot be rebuilt ({failure}); the recorded turns are kept"
        raise GameError(self._broken)

    def _tell(self, line: str) -> None:
        if self.listener is not None:
            self.listener(line)

    def _move(self, name: str, *args: Any, what: str = "") -> Turn:
        """A call that moves the game: journaled once the worker has answered it."""
        with self._lock:
            self.current, self._undo_depth = self._call(name, *args, what=what)
            if name == "set_state" and self._journal and self._journal[-1][0] == "set_state":
                self._journal.pop()  # a state set straight after another replaces it (a fork's way)
            self._journal.append((name, args))
            self.zm.stale()
            return self.current

    # ------------------------------------------------------------------- play
    @property
    def max_score(self) -> int | None:
        """The maximum score where the story makes it knowable, else None."""
        return self._max_score

    @property
    def prompt_at(self) -> tuple[int, int]:
        """Where the story waits for commands: (program counter, call depth)."""
        return self._prompt_at

    @property
    def undo_depth(self) -> int:
        """How many turns can be undone now."""
        return self._undo_depth

    def step(self, command: str, undoable: bool = True) -> Turn:
        """Play one command (see :meth:`Game.step`); one that killed the worker twice is refused."""
        if _said(command) in self._refused:
            raise GameError(f"Not played: {command.strip()!r} stopped the game's interpreter twice.")
        return self._move("step", command, undoable, what=command.strip())

    def peek(self, command: str) -> Turn:
        """What a command would do, the game left as it was."""
        if _said(command) in self._refused:
            raise GameError(f"Not played: {command.strip()!r} stopped the game's interpreter twice.")
        turn: Turn = self._call("peek", command, what=command.strip())
        return turn

    def undo(self, n: int = 1) -> Turn:
        """Go back ``n`` turns."""
        return self._move("undo", n)

    def restart(self) -> Turn:
        """Start the story again from its opening (undo history is kept)."""
        return self._move("restart")

    def state(self) -> GameState:
        """The current state, to return to with :meth:`set_state` (here or on a fork)."""
        return self._call("state")  # type: ignore[no-any-return]

    def set_state(self, state: GameState) -> None:
        """Jump to a state taken by :meth:`state` (undo history is untouched)."""
        self._move("set_state", state)

    def fork(self) -> GameProcess:
        """An independent copy at the same state, in a worker of its own (it shares what searches find)."""
        other = GameProcess(self.story, seed=self._spec.seed, undo_levels=1, shared=self._shared)
        other.set_state(self.state())
        return other

    # ------------------------------------------------------------ checkpoints
    def save_checkpoint(self, folder: str | Path, name: str, note: str = "") -> Path:
        """Save the current state as a named checkpoint in ``folder``."""
        path: Path = self._call("save_checkpoint", str(Path(folder).resolve()), name, note)
        return path

    def restore_checkpoint(self, folder: str | Path, name: str) -> Turn:
        """Return to a named checkpoint; the move is itself undoable.

        Journaled as the state it gave, so a rebuild does not need the file.
        """
        with self._lock:
            self.current, self._undo_depth, state = self._call("restore_checkpoint", str(Path(folder).resolve()), name)
            self._journal.append(("jump", (state,)))
            self.zm.stale()
            return self.current

    @staticmethod
    def checkpoints(folder: str | Path) -> list[dict[str, Any]]:
        """Describe the checkpoints saved in ``folder``."""
        return list_checkpoints(folder)

    # ---------------------------------------------------------- valid actions
    def answers(self) -> tuple[Outcome, ...]:
        """Where each answer to the question the story asks now leads."""
        if not self.current.question:
            return ()
        return self._call("answers")  # type: ignore[no-any-return]

    def _tell_findings(self) -> None:
        """Give the worker what a fork found for the current state, before asking it something that uses it."""
        key = self.current.state_hash
        known = self._shared.found.get(key)
        if known is not None and key not in self._told:
            self._call("learn", key, *known)
            self._told.add(key)

    def valid_actions(self) -> tuple[str, ...]:
        """Commands that change the world from the current state (found once per state, shared with forks)."""
        cached = self.valid_actions_cached()
        if cached is not None:
            return cached
        with self._lock:
            findings = self._call("findings")
            self._shared.found[self.current.state_hash] = findings
            self._told.add(self.current.state_hash)
            return findings[0]  # type: ignore[no-any-return]

    def valid_actions_cached(self) -> tuple[str, ...] | None:
        """The current state's valid actions if already found (here or by a fork), else None."""
        if self.current.done:
            return ()
        if self.current.question:
            return tuple(a.answer for a in sorted(self.answers(), key=lambda a: a.ends))
        known = self._shared.found.get(self.current.state_hash)
        return known[0] if known is not None else self._call("valid_actions_cached")

    def valid_destinations(self) -> dict[str, int]:
        """Rooms the current state's valid directions lead to, once its valid actions are found."""
        known = self._shared.found.get(self.current.state_hash)
        return dict(known[1]) if known is not None else self._call("valid_destinations")

    def blocked_takes(self) -> tuple[str, ...]:
        """Takes the game refuses here for what the player already carries."""
        with self._lock:
            self._tell_findings()
            return self._call("blocked_takes")  # type: ignore[no-any-return]

    def close(self) -> None:
        """Stop the worker, without waiting for a call in flight (it ends with "the game is closed")."""
        self._closed = True
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.close()
