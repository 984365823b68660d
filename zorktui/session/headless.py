"""The headless front behind ``zorktui run``: a Session driven by a command script or by its agent.

Either way the turns go through the same :class:`~zorktui.session.session.Session`
the app uses; this module only prints the transcript or writes a JSONL copy
of the trajectory.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from zorktui.agent.safety import clean_text
from zorktui.core.errors import RecordError, ZorkTuiError
from zorktui.core.turn import Turn
from zorktui.record.trajectory import TrajectoryWriter, session_header, turn_record
from zorktui.session import events as ev
from zorktui.session.commands.slash import AppCommand, CommandError, help_lines, parse
from zorktui.session.session import Session

#: App commands that make sense without the app's screen.
LINE_COMMANDS = ("undo", "save", "restore", "saves", "restart", "help", "quit")


def read_commands(lines: Iterable[str]) -> Iterator[str]:
    """Commands from a script: one per line; blank lines and ``#`` comments skipped."""
    for line in lines:
        command = line.strip()
        if command and not command.startswith("#"):
            yield command


def status_line(turn: Turn, max_score: int | None) -> str:
    """``[room | score s/max | moves m]`` after a turn, ``| a question`` while the story waits for an answer."""
    where = turn.location.name if turn.location else "?"
    score = "-" if turn.score is None else (f"{turn.score}/{max_score}" if max_score else str(turn.score))
    asked = " | a question" if turn.question and not turn.done else ""
    return f"[{where} | score {score} | moves {turn.moves if turn.moves is not None else '-'}{asked}]"


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
        #: Why the output could not be written (a full disk, a closed file): play stops, and the run says so.
        self.failed: str | None = None
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
        self.out.flush()  # a program reading the turns through a pipe gets each as it is played

    def _guarded(self, write: Callable[..., None], *args: Any) -> None:
        """Write unless the reader has gone; when it goes, stop the agent too (no one reads its moves)."""
        if self.broken or self.failed:
            return
        try:
            write(*args)
        except BrokenPipeError:
            self.broken = True
        except RecordError as exc:
            self.failed = str(exc)
        except OSError as exc:  # the transcript's own stream
            self.failed = f"the transcript cannot be written ({exc.strerror or exc}); play stops here"
        else:
            return
        # Events reach this class through the session, which keeps a subscriber's error to itself:
        # a budget of no more commands is what ends run_autopilot after the step in hand.
        self.session.stop.steps = 0

    @property
    def stopped(self) -> bool:
        """Nothing more can be written: the reader has gone or a write failed."""
        return self.broken or self.failed is not None

    def _show(self, event: ev.Event) -> None:
        if isinstance(event, ev.GameRebuilt):
            print(f"zorktui: {event.message}", file=sys.stderr)
            return
        if isinstance(event, ev.NotPlayed):
            if self.writer is not None:
                print(f"zorktui: {event.command}: {event.message}", file=sys.stderr)
                return
            if self.echo:
                print(f"\n> {event.command}", file=self.out)
            print(event.message, file=self.out)
            return
        if not isinstance(event, ev.TurnDone):
            return
        if event.jump is not None:
            if self.writer is None:
                where = event.turn.location.name if event.turn.location else "?"
                print(f"[{event.jump}: back to turn {event.turn.turn} ({clean_text(where)})]", file=self.out)
                print(status_line(event.turn, self.session.game.max_score), file=self.out)
            return
        if event.record is None:
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
            except RecordError as exc:
                self.failed = self.failed or str(exc)


def play_script(session: Session, commands: Iterable[str], actor: str = "script", out: IO[str] | None = None,
                echo: bool | None = None) -> Turn:
    """Play commands until they run out, the game ends or ``/quit``; a refused command is reported and skipped.

    Lines starting with ``/`` are app commands, as in the app (``/undo``,
    ``/save NAME``, ``/restore NAME``, ``/saves``, ``/restart``, ``/help``,
    ``/quit``; ``//look`` sends ``/look`` to the game); they never reach the
    game. After the game has ended only app commands are read: ``/undo`` or
    ``/restore`` plays on, anything else ends the script.

    Args:
        session: The session to play in.
        commands: The lines, one command each.
        actor: Who the game commands are recorded as.
        out: Where app commands' answers go (default: stdout).
        echo: Print each app command before its answer (default: unless a person types them).

    Returns:
        The last turn.

    Raises:
        RecordError: A turn could not be recorded (a full disk): nothing after it is played.
    """
    out = out or sys.stdout
    echo = actor != "human" if echo is None else echo
    for line in commands:
        try:
            command = parse(line)
        except CommandError as exc:
            print(f"zorktui: {exc}", file=sys.stderr)
            continue
        if command is not None and echo:
            print(f"\n> {line}", file=out)
        if command is None:
            if session.current.done:
                break
            try:
                session.play(line[1:] if line.startswith("//") else line, actor=actor)
            except RecordError:
                raise  # nothing more can be recorded: the script stops here
            except ZorkTuiError as exc:
                print(f"zorktui: {exc}", file=sys.stderr)
            continue
        if command.name == "quit":
            break
        try:
            answer = line_command(session, command)
        except CommandError as exc:
            print(f"zorktui: /{command.name}: {exc}", file=sys.stderr)
            continue
        if answer:
            print(answer, file=out)
    return session.current


def line_command(session: Session, command: AppCommand) -> str:
    """Run an app command in line mode; returns a line to show ("" when the transcript shows what happened).

    Raises:
        CommandError: A command the line mode has no use for, a bad argument, or the session's refusal.
        RecordError: A jump could not be recorded (play stops).
    """
    if command.name not in LINE_COMMANDS:
        raise CommandError(f"/{command.name} needs the app's screen "
                           f"(line mode has {', '.join('/' + c for c in LINE_COMMANDS)})")
    if command.name == "help":
        return "\n".join(f"{usage:<14} {text}" for usage, text in help_lines()
                         if usage.split()[0][1:] in LINE_COMMANDS)
    if command.name == "quit":
        return ""
    return session.commands.run(command).shown


def output_for(session: Session, jsonl: Path | None, echo: bool = True, out: IO[str] | None = None) -> Output:
    """An :class:`Output` for a session (transcript to ``out`` or stdout, or JSONL)."""
    return Output(session, out or sys.stdout, jsonl, echo)

