"""Records a session as it is played: the trajectory line first, then the memory.

The trajectory line is flushed before the memory hears of the event, so the
trajectory is always at least as new as the memory; reopening the folder
replays whatever the memory missed (see :func:`open_memory`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from zorktui.engine.game import Game
from zorktui.engine.turn import Turn
from zorktui.record.trajectory import TrajectoryWriter, now_iso, session_header, turn_record
from zorktui.session.folder import SessionError, SessionFolder


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

    Raises:
        SessionError: The folder already holds a session.
    """

    def __init__(
        self,
        root: Path | str,
        game: Game,
        mode: str = "script",
        agent: dict[str, Any] | None = None,
        memory: bool = True,
        participant: str | None = None,
        llm: Any = None,
    ) -> None:
        self.folder = SessionFolder(Path(root))
        if self.folder.trajectory.exists() and self.folder.trajectory.stat().st_size > 0:
            raise SessionError(f"{self.folder.root}: already holds a session; choose a new folder")
        self.folder.root.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.folder.settings.write_text(
            json.dumps({"story": game.story.to_record(), "seed": game.seed, "mode": mode, "agent": agent,
                        "participant": participant}, indent=1),
            encoding="utf-8",
        )
        self.writer = TrajectoryWriter(self.folder.trajectory)
        self.memory = None
        if memory:
            from zorktui.memory.graph import Memory

            self.memory = Memory(self.folder.memory, vocabulary=game.zm.object_vocabulary)
        self.extractor = None
        if self.memory is not None and llm is not None:
            from zorktui.memory.extract import Extractor

            self.extractor = Extractor(self.memory, llm)
        self.writer.write(session_header(game.story, mode=mode, agent=agent, seed=game.seed, participant=participant))

    def opening(self, turn: Turn, extra: dict[str, Any] | None = None) -> None:
        """Record turn 0 (the opening text)."""
        self.turn(turn, actor="game", extra=extra)

    def turn(self, turn: Turn, actor: str, extra: dict[str, Any] | None = None) -> None:
        """Record a played turn."""
        self.writer.write(turn_record(turn, actor=actor, extra=extra))
        if self.memory is not None:
            self.memory.ingest(turn, actor=actor)
        if self.extractor is not None:
            self.extractor.submit(turn)

    def undo(self, turn: Turn) -> None:
        """Record that play went back to ``turn`` (undo)."""
        self._rewound("undo", turn)

    def restart(self, turn: Turn) -> None:
        """Record a restart (back to the opening)."""
        self._rewound("restart", turn)

    def _rewound(self, kind: str, turn: Turn) -> None:
        self.writer.write({"type": kind, "turn": turn.turn, "time": now_iso()})
        if self.memory is not None:
            self.memory.rewind(turn.turn)
            self.memory.position += 1

    def restore(self, name: str, turn: Turn) -> None:
        """Record that a named checkpoint was restored, landing on ``turn``."""
        record = {"type": "restore", "name": name, "turn": turn.turn, "time": now_iso(),
                  "record": turn_record(turn, actor="game")}
        self.writer.write(record)
        if self.memory is not None:
            self.memory.apply(record)

    def close(self, wait_for_llm: float = 30.0) -> None:
        """Flush and close the trajectory and the memory.

        Args:
            wait_for_llm: Seconds to let queued LLM extractions finish first.
        """
        self.writer.close()
        if self.extractor is not None:
            try:
                self.extractor.wait(wait_for_llm)
            except TimeoutError:
                pass
            self.extractor.close()
        if self.memory is not None:
            self.memory.close()
