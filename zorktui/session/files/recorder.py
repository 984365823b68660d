"""Records a session as it is played: the trajectory line first, then the memory.

The trajectory line is flushed before the memory hears of the event, so the
trajectory is always at least as new as the memory; reopening the folder
replays whatever the memory missed (see :func:`open_memory`).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.core.errors import RecordError
from zorktui.core.turn import Turn
from zorktui.engine.game_api import GameApi
from zorktui.record.export import LineOfPlay
from zorktui.record.trajectory import TrajectoryWriter, now_iso, session_header, turn_record
from zorktui.session.files.folder import SessionError, SessionFolder

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import LlmClient


class SessionRecorder:
    """Writes one session folder: session.json, trajectory.jsonl and the memory.

    Args:
        root: The session folder (created if missing; must not hold a trajectory yet).
        game: The game being played, at its opening.
        mode: "human", "coplay", "autopilot" or "script".
        agent: Agent settings for the header (never secrets).
        memory: Keep the AriGraph memory in ``memory/``.
        participant: A pseudonym for human-baseline data.
        llm: An LLM client for AriGraph triplet extraction after each turn
            (None: extraction off).

        resume: The header of the session being resumed: its trajectory is
            appended to (the game must already be replayed to its end; see
            :func:`zorktui.session.files.resume.resume_game`).

    Raises:
        SessionError: The folder already holds a session (and ``resume`` is not given).
    """

    def __init__(
        self,
        root: Path | str,
        game: GameApi,
        mode: str = "script",
        agent: dict[str, Any] | None = None,
        memory: bool = True,
        participant: str | None = None,
        llm: LlmClient | None = None,
        resume: dict[str, Any] | None = None,
    ) -> None:
        self.folder = SessionFolder(Path(root))
        self.game = game
        self.resumed = resume is not None
        if resume is None:
            if self.folder.trajectory.exists() and self.folder.trajectory.stat().st_size > 0:
                raise SessionError(f"{self.folder.root}: already holds a session; choose a new folder")
            self.folder.root.mkdir(parents=True, exist_ok=True)
            self.folder.settings.write_text(
                json.dumps({"story": game.story.to_record(), "seed": game.seed, "mode": mode, "agent": agent,
                            "participant": participant}, indent=1),
                encoding="utf-8",
            )
        else:
            _cut_torn_line(self.folder.trajectory)
        #: The commands leading to the current state (for the lines saved with checkpoints).
        self.line = LineOfPlay()
        if resume is not None:
            for record in self.folder.records():
                self.line.apply(record)
        self.writer = TrajectoryWriter(self.folder.trajectory)
        self.memory = None
        if memory and resume is not None:
            # deferred: loaded already with the recorder's package; kept beside its one use
            from zorktui.session.files.folder import open_memory

            self.memory = open_memory(self.folder.root, vocabulary=game.zm.object_vocabulary)
        elif memory:
            # deferred: the memory (15 ms, kuzu behind it) loads only for a session that keeps one
            from zorktui.memory.graph import Memory

            self.memory = Memory(self.folder.memory, vocabulary=game.zm.object_vocabulary)
        self.extractor = None
        if self.memory is not None and llm is not None:
            # deferred: the extractor (15 ms) loads only when a model extracts facts
            from zorktui.memory.extract import Extractor

            self.extractor = Extractor(self.memory, llm)
        #: The session header, as written (the first trajectory line).
        if resume is None:
            self.header = session_header(game.story, mode=mode, agent=agent, seed=game.seed, participant=participant)
            self.writer.write(self.header)
        else:
            self.header = resume

    def opening(self, turn: Turn, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Record turn 0 (the opening text); returns the record written."""
        return self.turn(turn, actor="game", extra=extra)

    def turn(self, turn: Turn, actor: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Record a played turn; returns the record written (for other writers to reuse)."""
        record = turn_record(turn, actor=actor, extra=extra)
        self._write(record)
        if self.memory is not None:
            self.memory.ingest(turn, actor=actor)
        if self.extractor is not None:
            self.extractor.submit(turn)
        return record

    def undo(self, turn: Turn, levels: int = 1) -> None:
        """Record that play went back ``levels`` steps to ``turn`` (undo)."""
        self._event({"type": "undo", "turn": turn.turn, "levels": levels, "time": now_iso()})

    def restart(self, turn: Turn) -> None:
        """Record a restart (back to the opening)."""
        self._event({"type": "restart", "turn": turn.turn, "time": now_iso()})

    def save(self, name: str, turn: Turn) -> None:
        """Record that a named checkpoint was saved at ``turn``, with the commands that led there."""
        self._write({"type": "save", "name": name, "turn": turn.turn, "time": now_iso(), "line": list(self.line.commands)})

    def restore(self, name: str, turn: Turn) -> None:
        """Record that a named checkpoint was restored, landing on ``turn``."""
        record = {"type": "restore", "name": name, "turn": turn.turn, "time": now_iso(),
                  "record": turn_record(turn, actor="game")}
        self._event(record)

    def consent(self, answer: str, text: str, settings: dict[str, Any] | None = None) -> None:
        """Record a participant's answer to the consent question, with the exact text they saw.

        Args:
            answer: "agreed" or "declined".
            text: The consent text shown.
            settings: The study's rules in force (e.g. ``allow_undo``).
        """
        if answer not in ("agreed", "declined"):
            raise ValueError("consent answer must be 'agreed' or 'declined'")
        self._write({"type": "consent", "answer": answer, "turn": self.game.current.turn, "time": now_iso(),
                     "text": text, **(settings or {})})

    def _write(self, record: dict[str, Any]) -> None:
        _check_room(self.folder.root)
        self.writer.write(record)
        self.line.apply(record)

    def _event(self, record: dict[str, Any]) -> None:
        # The same path a reopened folder replays, so live and replayed memories agree.
        self._write(record)
        if self.memory is not None:
            self.memory.apply(record)

    def close(self, wait_for_llm: float = 30.0) -> None:
        """Flush and close the trajectory and the memory.

        Args:
            wait_for_llm: Seconds to let queued LLM extractions finish first.
        """
        try:
            self.writer.close()
        finally:  # a trajectory that cannot take its last line still lets the memory close
            if self.extractor is not None:
                try:
                    self.extractor.wait(wait_for_llm)
                except TimeoutError:
                    pass
                if self.memory is not None:
                    self.memory.flush()  # applies the finished extractions before the extractor lets go
                self.extractor.close()
            if self.memory is not None:
                self.memory.close()


#: Free space below which a session stops recording (MB; ``ZORKTUI_MIN_FREE_MB`` sets it).
MIN_FREE_MB = 64


def _check_room(folder: Path) -> None:
    """Refuse to record on a disk about to fill.

    Kuzu, under the memory, does not survive a write that fails for want of
    space (the process aborts with its heap damaged), so a session stops
    while there is room still, with every turn before this one on disk.

    Raises:
        RecordError: The disk holding ``folder`` has less than the minimum free.
    """
    least = int(os.environ.get("ZORKTUI_MIN_FREE_MB", MIN_FREE_MB))
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # a folder that cannot be measured is left to the writes themselves to report
    if free < least * 2**20:
        raise RecordError(f"{folder}: {free // 2**20} MB free on its disk, under the {least} MB a session needs; "
                          "play stops here, every turn before it is kept")


def _cut_torn_line(path: Path) -> None:
    """Drop an incomplete last line (a write cut short by a crash) so appending starts clean."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])
