"""The headless front behind ``zorktui run``: a Session driven by a command script or by its agent.

Either way the turns go through the same :class:`~zorktui.session.session.Session`
the app uses; this module only prints the transcript or writes a JSONL copy
of the trajectory.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator

from zorktui.agent.safety import clean_text
from zorktui.engine.errors import GameError
from zorktui.engine.turn import Turn
from zorktui.record.trajectory import TrajectoryWriter, session_header, turn_record
from zorktui.session import events as ev
from zorktui.session.session import Session


def read_commands(lines: Iterable[str]) -> Iterator[str]:
    """Commands from a script: one per line; blank lines and ``#`` comments skipped."""
    for line in lines:
        command = line.strip()
        if command and not command.startswith("#"):
            yield command


def status_line(turn: Turn, max_score: int | None) -> str:
    """``[room | score s/max | moves m]`` after a turn."""
    where = turn.location.name if turn.location else "?"
    score = "-" if turn.score is None else (f"{turn.score}/{max_score}" if max_score else str(turn.score))
    return f"[{where} | score {score} | moves {turn.moves if turn.moves is not None else '-'}]"


class Output:
    """Prints the transcript of a session, or copies its trajectory records to a JSONL file.

    Args:
        session: The session to follow.
        out: Where the transcript goes.
        jsonl: Write records here instead of printing a transcript.
        echo: Print each command (off at a terminal, where the person's own line is on screen).
    """

    def __init__(self, session: Session, out: IO[str] = sys.stdout, jsonl: Path | None = None, echo: bool = True) -> None:
        self.session = session
        self.out = out
        self.echo = echo
        self.writer = TrajectoryWriter(jsonl, fresh=True) if jsonl else None
        #: The reader of the output went away (``zorktui run ... | head``): nothing more is written.
        self.broken = False
        game = session.game
        if self.writer is not None:
            recorder = session.recorder
            header = recorder.header if recorder is not None else session_header(
                game.story, mode=session.mode, agent=session.agent_info or (
                    {"name": getattr(session.agent, "name", None)} if session.agent else None),
                seed=game.seed)
            self._guarded(self.writer.write, header)
            self._guarded(self.writer.write, turn_record(game.current, actor="game", extra=session.valid_extra()))
        else:
            self._guarded(self._print, clean_text(game.current.observation), status_line(game.current, game.max_score))
        self._unsubscribe = session.subscribe(self._show)

    def _print(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def _guarded(self, write: Callable[..., None], *args: Any) -> None:
        """Write unless the reader has gone; when it goes, stop the agent too (no one reads its moves)."""
        if self.broken:
            return
        try:
            write(*args)
        except BrokenPipeError:
            self.broken = True
            # Events reach this class through the session, which keeps a subscriber's error to itself:
            # a budget of no more commands is what ends run_autopilot after the step in hand.
            self.session.stop.steps = 0

    def _show(self, event: ev.Event) -> None:
        if not isinstance(event, ev.TurnDone) or event.record is None:
            return
        if self.writer is not None:
            self._guarded(self.writer.write, event.record)
            return
        lines: list[str] = []
        proposal = event.record.get("proposal") or {}
        if event.actor == "agent":
            why = proposal.get("reflection") or ""
            critic = (proposal.get("critic") or {}).get("score")
            tag = f"  [{proposal.get('source', event.actor)}{f' {critic:+.2f}' if critic is not None else ''}]"
            for note in proposal.get("notes") or []:
                lines.append(f"\n# ({clean_text(note)})")
            if why:
                lines.append(f"\n# {clean_text(why)}")
            lines.append(f"> {event.turn.command}{tag}")
        elif self.echo:
            lines.append(f"\n> {event.turn.command}")
        lines += [clean_text(event.turn.observation), status_line(event.turn, self.session.game.max_score)]
        self._guarded(self._print, *lines)

    def close(self) -> None:
        """Stop following the session and close the JSONL file."""
        self._unsubscribe()
        if self.writer is not None:
            try:
                self.writer.close()
            except BrokenPipeError:  # the last lines could not reach a reader that has gone
                self.broken = True


def play_script(session: Session, commands: Iterable[str], actor: str = "script") -> Turn:
    """Play commands until they run out or the game ends; a refused command is reported and skipped.

    Returns:
        The last turn.
    """
    turn = session.current
    for command in commands:
        if turn.done:
            break
        try:
            turn = session.play(command, actor=actor)
        except GameError as exc:
            print(f"zorktui: {exc}", file=sys.stderr)
    return turn


def run_agent(session: Session, steps: int) -> str:
    """Let the session's agent play up to ``steps`` commands; returns the stop rule that fired."""
    return session.run_autopilot(steps)


def output_for(session: Session, jsonl: Path | None, echo: bool = True, out: IO[str] | None = None) -> Output:
    """An :class:`Output` for a session (transcript to ``out`` or stdout, or JSONL)."""
    return Output(session, out or sys.stdout, jsonl, echo)

