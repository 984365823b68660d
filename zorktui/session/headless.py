"""The headless loop behind ``zorktui run``: commands in, transcript or trajectory out."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from zorktui.engine.errors import GameError
from zorktui.engine.game import Game
from zorktui.engine.turn import Turn
from zorktui.record.trajectory import TrajectoryWriter, session_header, turn_record
from zorktui.session.recorder import SessionRecorder


def read_commands(lines: Iterable[str]) -> Iterator[str]:
    """Commands from a script: one per line; blank lines and ``#`` comments skipped."""
    for line in lines:
        command = line.strip()
        if command and not command.startswith("#"):
            yield command


@dataclass
class RunOptions:
    """Settings of a headless run.

    Attributes:
        jsonl: Write the trajectory here (else print a transcript).
        session: A session folder: session.json, trajectory.jsonl and the memory go there.
        valid_actions: Record the valid actions after each turn.
        actor: Who the commands come from ("script" for files, "human" for a terminal).
        memory: Keep the AriGraph memory in the session folder.
        llm: An LLM client for memory extraction (None: off).
    """

    jsonl: Path | None = None
    session: Path | None = None
    valid_actions: bool = False
    actor: str = "script"
    memory: bool = True
    llm: Any = None


def _status(turn: Turn, max_score: int | None) -> str:
    where = turn.location.name if turn.location else "?"
    score = "-" if turn.score is None else (f"{turn.score}/{max_score}" if max_score else str(turn.score))
    return f"[{where} | score {score} | moves {turn.moves if turn.moves is not None else '-'}]"


def _extra(game: Game, options: RunOptions) -> dict[str, object]:
    if not options.valid_actions:
        return {}
    start = time.perf_counter()
    actions = list(game.valid_actions())
    return {"valid_actions": actions, "valid_actions_ms": round((time.perf_counter() - start) * 1000, 2)}


def run(game: Game, commands: Iterable[str], options: RunOptions, out: IO[str] = sys.stdout) -> Turn:
    """Play commands on a game, recording as the options say.

    Args:
        game: An opened game at its opening turn.
        commands: The commands to play.
        options: Where and what to record.
        out: Where the readable transcript goes (when not writing JSONL to stdout).

    Returns:
        The last turn played.
    """
    # The recorder checks the folder before anything is written anywhere.
    recorder = SessionRecorder(options.session, game, mode="script", memory=options.memory, llm=options.llm) if options.session else None
    writers: list[TrajectoryWriter] = []
    if options.jsonl:
        writers.append(TrajectoryWriter(options.jsonl))
    transcript = not options.jsonl
    header = recorder.header if recorder else session_header(game.story, mode="script", agent=None, seed=game.seed)
    extra = _extra(game, options)
    opening = recorder.opening(game.opening, extra=extra) if recorder else turn_record(game.opening, actor="game", extra=extra)
    for w in writers:
        w.write(header)
        w.write(opening)
    if transcript:
        print(game.opening.observation, file=out)
        print(_status(game.opening, game.max_score), file=out)
    turn = game.current
    try:
        for command in commands:
            if turn.done:
                break
            try:
                turn = game.step(command)
            except GameError as exc:
                print(f"zorktui: {exc}", file=sys.stderr)
                continue
            extra = _extra(game, options)
            if recorder:
                record = recorder.turn(turn, actor=options.actor, extra=extra)
            else:
                record = turn_record(turn, actor=options.actor, extra=extra)
            for w in writers:
                w.write(record)
            if transcript:
                # At a terminal the player's own line is already on screen.
                echo = "" if options.actor == "human" else f"\n> {command}"
                print(f"{echo}\n{turn.observation}", file=out)
                print(_status(turn, game.max_score), file=out)
    finally:
        for w in writers:
            w.close()
        if recorder:
            recorder.close()
    return turn


def run_agent(session: Any, steps: int, out: IO[str] = sys.stdout, jsonl: Path | None = None) -> str:
    """Let a session's agent play up to ``steps`` commands headless (``zorktui run --agent``).

    Prints a transcript with the agent's reflection and the critic's verdict
    for each command, or writes the trajectory as JSONL.

    Returns:
        The stop rule that ended the run.
    """
    from zorktui.agent.safety import clean_text
    from zorktui.session import events as ev

    writer = TrajectoryWriter(jsonl) if jsonl else None
    game = session.game
    if writer:
        header = session.recorder.header if session.recorder else session_header(
            game.story, mode="autopilot", agent={"name": getattr(session.agent, "name", None)}, seed=game.seed)
        writer.write(header)
        writer.write(turn_record(game.opening, actor="game"))
    else:
        print(clean_text(game.opening.observation), file=out)
        print(_status(game.opening, game.max_score), file=out)

    def show(event: Any) -> None:
        if isinstance(event, ev.TurnDone) and event.record is not None:
            if writer:
                writer.write(event.record)
                return
            proposal = event.record.get("proposal") or {}
            why = proposal.get("reflection") or ""
            critic = (proposal.get("critic") or {}).get("score")
            tag = f"  [{proposal.get('source', event.actor)}{f' {critic:+.2f}' if critic is not None else ''}]"
            if why:
                print(f"\n# {clean_text(why)}", file=out)
            print(f"> {event.turn.command}{tag}\n{clean_text(event.turn.observation)}", file=out)
            print(_status(event.turn, game.max_score), file=out)
        elif isinstance(event, ev.Notes) and event.kind == "error" and not writer:
            print(f"# {event.lines[0]}", file=out)

    unsubscribe = session.subscribe(show)
    try:
        return session.run_autopilot(steps)
    finally:
        unsubscribe()
        if writer:
            writer.close()
