"""Command line: argument parsing only; every command builds on the engine's factories.

Bad input (a missing or non-Z-machine story, a bad flag) exits with status 2
and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import itertools
import os
import shlex
import shutil
import signal
import sys
from pathlib import Path
from typing import Any, Sequence, TYPE_CHECKING

from zorktui.cli_args import (
    _check_as_of,
    _check_resume_seed,
    _check_run,
    build_parser,
    fail,
)

if TYPE_CHECKING:  # hints only: the factory is imported when a command needs it (a fast --help)
    from zorktui.engine.turn import Turn
    from zorktui.session.factory import Built, SessionOptions

#: The status a shell reports for a program killed by SIGPIPE (128 + 13).
EXIT_PIPE = 128 + getattr(signal, "SIGPIPE", 13)
#: Exit status after ctrl+c, as a shell reports a program ended by SIGINT.
EXIT_INTERRUPTED = 128 + signal.SIGINT


def _cmd_data(args: argparse.Namespace) -> int:
    """``zorktui data summarize DIR...``."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    import json

    from zorktui.record import summary

    summaries, skipped = summary.summarize(args.dirs)
    for note in skipped:
        print(f"zorktui: {note}", file=sys.stderr)
    if not summaries:
        fail("no session folders found (a session folder holds trajectory.jsonl)")
    if args.json:
        print(json.dumps(summary.to_json(summaries), indent=1))
    else:
        print(summary.table(summaries))
        for s in summaries:
            print(f"\n{s.title}: median score by step")
            print(summary.ascii_plot(s.median_curve(), width=shutil.get_terminal_size().columns))
    if args.png:
        try:
            summary.png_plot(summaries, args.png)
        except ImportError:
            fail("--png needs matplotlib: pip install 'zorktui[plot]'")
        except (OSError, ValueError) as exc:  # a folder that is not there, a suffix matplotlib cannot write
            fail(f"{args.png}: cannot write the plot ({getattr(exc, 'strerror', None) or exc})")
    return 0


def _options(args: argparse.Namespace, mode: str, agent: str | None) -> SessionOptions:
    """Session options from parsed arguments (shared by run, play and the tests' factory)."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.session.factory import SessionOptions
    from zorktui.session.session import StopRules

    return SessionOptions(
        story=args.story, mode=mode, agent=agent, model=getattr(args, "model", None),
        base_url=getattr(args, "base_url", None), session=args.session, seed=args.seed,
        memory=not getattr(args, "no_memory", False), llm_extract=getattr(args, "llm_extract", False),
        critic_llm=getattr(args, "critic_llm", False), stop=StopRules(steps=getattr(args, "steps", None), on_loop=False),
        valid_actions=getattr(args, "valid_actions", False),
        sims=getattr(args, "sims", None), time_per_move=getattr(args, "time_per_move", None),
        **_lessons(args),
    )


def _lessons(args: argparse.Namespace) -> dict[str, Any]:
    """Lessons from earlier games stay out of a reproducible run (``--seed``) and out when asked (``--no-lessons``)."""
    why = "--no-lessons" if getattr(args, "no_lessons", False) else ("--seed" if args.seed is not None else "")
    if not why:
        return {}
    return {"knowledge": False,
            "knowledge_note": f"lessons from earlier games are left out ({why}): the agent plays from the story alone"}


def _build(options: SessionOptions, quiet: bool = False) -> Built:
    """Build a session or exit 2 with one line (bad story, unusable session folder).

    Args:
        options: The session options.
        quiet: Leave the warnings to the caller (the app shows them on screen).
    """
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session.factory import build_session

    try:
        built = build_session(options)
    except (ZorkTuiError, ValueError) as exc:
        fail(str(exc))
    if not quiet:
        for warning in built.warnings:
            print(f"zorktui: {warning}", file=sys.stderr)
    return built


def _cmd_run(args: argparse.Namespace) -> int:
    """``zorktui run``: commands from a file or stdin, or ``--agent`` playing ``--steps`` commands."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session.headless import output_for, play_script, read_commands

    _check_run(args)
    if args.llm_extract and not args.agent:
        # Asked for by name, extraction without a model is an error, not a silent fallback.
        from zorktui.agent.llm import LlmConfig, LlmUnavailable, require_endpoint

        try:
            require_endpoint(LlmConfig.from_env(args.model, args.base_url))
        except LlmUnavailable as exc:
            fail(str(exc))
    source = None
    if args.commands and str(args.commands) != "-":
        try:
            source = args.commands.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as exc:
            fail(f"{args.commands}: cannot read ({exc.strerror or exc})")
    to_stdout = args.jsonl is not None and str(args.jsonl) == "-"
    interactive = source is None and not args.agent and sys.stdin.isatty() and not to_stdout
    built = _build(_options(args, "autopilot" if args.agent else "script", args.agent))
    session = built.session
    output = None
    reason = ""
    failure: str | None = None
    interrupted = False
    try:
        output = output_for(session, Path("/dev/stdout") if to_stdout else args.jsonl, echo=not interactive)
        if args.agent:
            if not output.stopped:
                reason = session.run_autopilot(args.steps)
        else:
            lines = source if source is not None else (_prompted_stdin() if interactive else sys.stdin)
            # A reader that has gone (| head), or a file that takes no more, plays no more turns.
            commands = itertools.takewhile(lambda _: not output.stopped, read_commands(lines))
            play_script(session, commands, actor="human" if interactive else "script")
    except KeyboardInterrupt:
        interrupted = True
    except ZorkTuiError as exc:
        failure = str(exc)
    finally:
        failure = _close_run(session, output) or failure
    if interrupted:
        print(f"zorktui: interrupted at turn {session.current.turn}; {_where_kept(args, to_stdout)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if failure is not None or (output is not None and output.failed):
        fail(failure or str(output.failed if output else ""))
    assert output is not None
    if output.broken:
        raise BrokenPipeError(errno.EPIPE, "the reader of the output has gone")  # main ends quietly
    last = session.current
    if args.agent:
        usage = built.llm.usage if built.llm is not None else None
        spend = f"; {usage.calls} LLM calls, {usage.prompt_tokens + usage.completion_tokens} tokens" if usage else ""
        scores = [t.score for t in session.log.turns if t.score is not None]
        best = f"; best score {max(scores)}" + (f"/{session.game.max_score}" if session.game.max_score else "") if scores else ""
        print(f"zorktui: stopped: {reason} (turn {last.turn}, score {last.score}){spend}{best}", file=sys.stderr)
    elif not to_stdout and args.jsonl is None and last.done:
        print("\n[The game has ended.]")
    return 0


def _where_kept(args: argparse.Namespace, to_stdout: bool) -> str:
    """Where a run's turns are, for the line that ends an interrupted run."""
    if args.session is not None:
        return (f"every turn so far is in {args.session} "
                f"(zorktui run --session {shlex.quote(str(args.session))} resumes it)")
    if args.jsonl is not None and not to_stdout:
        return f"{args.jsonl} holds every turn so far"
    return "nothing was recorded (--session DIR keeps a session to resume)"


def _close_run(session: Any, output: Any) -> str | None:
    """Close the output, the session and the game, whatever fails; the first failure's line, if any."""
    from zorktui.engine.errors import ZorkTuiError, one_line

    failures: list[str] = []
    for close in ((output.close if output is not None else None), session.close, session.game.close):
        if close is None:
            continue
        try:
            close()
        except ZorkTuiError as exc:
            failures.append(str(exc))
        except (OSError, RuntimeError) as exc:  # the memory's database on a full disk
            failures.append(f"closing the session: {one_line(exc)}")
    return failures[0] if failures else None


def _cmd_replay(args: argparse.Namespace) -> int:
    """``zorktui replay DIR [--verify | --print]``: watch a session in the app, or re-execute and check it."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.agent.safety import clean_text
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.record.replay import replay
    from zorktui.session.files.folder import SessionFolder
    from zorktui.session.files.resume import open_recorded_game

    watch = not args.verify and not args.print and sys.stdin.isatty() and sys.stdout.isatty()
    if watch and args.story is not None:
        fail("--story is for --verify and --print (watching shows the turns as recorded, without the story)")
    if not watch and args.theme is not None:
        fail("--theme is for watching in the app" + ("" if args.verify or args.print else ", and this is not a terminal"))
    if watch:
        # In a terminal: watch it in the app (play, pause, step, jump to a turn).
        from zorktui.ui.replay_app import open_replay  # the composition root reaches the UI only here

        try:
            app = open_replay(args.session_dir, theme=args.theme)
        except ZorkTuiError as exc:
            fail(str(exc))
        app.run()
        return 0
    try:
        game, _, records = open_recorded_game(args.session_dir, args.story)
    except ZorkTuiError as exc:
        fail(str(exc))

    def show(turn: Turn, record: dict[str, Any]) -> None:
        if record.get("type") != "turn":
            print(f"[{record.get('type')}: back to turn {turn.turn}]")
        elif record.get("command") is None:
            print(clean_text(turn.observation))
        else:
            print(f"\n> {turn.command}   [turn {turn.turn}, {record.get('actor')}]\n{clean_text(turn.observation)}")

    try:
        result = replay(game, records, saves=SessionFolder(args.session_dir).saves, on_turn=None if args.verify else show)
    finally:
        game.close()
    d = result.divergence
    if d is not None:
        what = f"'{d.command}'" if d.command else "a jump"
        print(f"zorktui: diverged at turn {d.turn} (trajectory line {d.line}, {what}): {d.why}"
              + (f"; recorded {d.expected}, replayed {d.got}" if d.expected and d.got else ""), file=sys.stderr)
        return 1
    print(f"verified: {result.turns} turns and {result.jumps} jumps replay with identical world states",
          file=sys.stderr if not args.verify else sys.stdout)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    """``zorktui export DIR --format transcript|rec|csv [-o FILE]``."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.record.export import export
    from zorktui.session.files.folder import SessionFolder

    try:
        text = export(SessionFolder(args.session_dir).records(), args.format)
    except ZorkTuiError as exc:
        fail(str(exc))
    if args.o is None:
        sys.stdout.write(text)
        return 0
    try:
        args.o.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{args.o}: cannot write ({exc.strerror or exc})")
    return 0


def _cmd_mcp(args: argparse.Namespace) -> int:
    """``zorktui mcp``: the session's tools to an outside agent over MCP (stdio, or HTTP with --http)."""
    import time

    from zorktui.locations import sessions_dir

    if args.http is not None and args.http > 65535:
        fail(f"--http {args.http}: a port number is 1 to 65535")
    if args.host is not None and args.http is None:
        fail("--host is for --http (stdio has no address)")
    try:
        from zorktui.mcp_server.server import serve
    except ImportError as exc:
        fail(f"zorktui mcp needs the MCP SDK ({exc.name} is missing): pip install 'mcp>=2.3'")
    from zorktui.mcp_server.tools import GameTools
    from zorktui.session.factory import SessionOptions

    _check_resume_seed(args)
    if args.session is None:
        args.session = sessions_dir() / time.strftime("%Y%m%d-%H%M%S-mcp")
    built = _build(SessionOptions(story=args.story, mode="mcp", session=args.session, seed=args.seed))
    where = "stdio" if args.http is None else f"http://{args.host or '127.0.0.1'}:{args.http}/mcp"
    print(f"zorktui: MCP server on {where}; session {args.session}", file=sys.stderr)
    # Stopped by a client or a service manager: close the session as ctrl+c would (the memory, the recorder).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        serve(GameTools(built.session), args.http, args.host or "127.0.0.1")
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # the port is taken, the address is not this machine's
        fail(f"{where}: cannot serve ({exc.strerror or exc})")
    finally:
        built.session.close()
        built.session.game.close()
    print(f"zorktui: session saved in {args.session}", file=sys.stderr)
    return 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session.files import inspect

    if args.command == "memory":
        if args.cypher is not None and args.question:
            fail("give a question or --cypher, not both")
        if args.cypher is not None and args.as_of is not None:
            fail("--as-of is for questions and the map; a --cypher query reads the graph as it is")
        if args.cypher is None and not args.question:
            fail('ask a question, e.g. zorktui memory DIR "where am i" (or "help")')
    if args.as_of is not None:
        _check_as_of(args.session_dir, args.as_of)
    try:
        if args.command == "map":
            return inspect.map_session(args.session_dir, args.as_of, args.json)
        if args.cypher is not None:
            return inspect.cypher_session(args.session_dir, args.cypher, args.json)
        return inspect.ask_session(args.session_dir, args.question, args.as_of, args.json)
    except ZorkTuiError as exc:
        fail(str(exc))


def _prompted_stdin():  # noqa: ANN202 - a generator of lines
    while True:
        try:
            yield input("> ")
        except EOFError:
            return


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zorktui`` command.

    A reader that goes away early (``zorktui run ... | head -1``) ends the
    command quietly with status 141, as a program killed by SIGPIPE would in
    a shell: no traceback, and no "Exception ignored" at shutdown.

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    try:
        try:
            return _dispatch(list(sys.argv[1:] if argv is None else argv))
        finally:
            # Output still buffered would otherwise meet the closed pipe at interpreter shutdown.
            sys.stdout.flush()
            sys.stderr.flush()
    except BrokenPipeError:
        _silence_closed_streams()
        return EXIT_PIPE
    except KeyboardInterrupt:  # a command with no word of its own for ctrl+c: one line, no traceback
        print("zorktui: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _silence_closed_streams() -> None:
    """Point each standard stream whose reader has gone at devnull.

    Python's documentation, "Note on SIGPIPE": the interpreter flushes the
    standard streams once more at exit, and a closed pipe would raise there.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
            except (OSError, ValueError):  # a stream with no file descriptor (a test's StringIO)
                pass


def _dispatch(argv: list[str]) -> int:
    """Parse the arguments and run the subcommand."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "play"
    if command == "play":
        if args.command is None:
            args = parser.parse_args(["play"])
        from zorktui.cli_play import cmd_play  # deferred: the play command's module loads when it runs

        return cmd_play(args)
    if command in ("serve", "watch"):
        from zorktui.cli_web import cmd_serve, cmd_watch  # deferred: the web commands load when they run

        return cmd_serve(args) if command == "serve" else cmd_watch(args)
    if command == "run":
        return _cmd_run(args)
    if command in ("memory", "map"):
        return _cmd_inspect(args)
    if command == "replay":
        return _cmd_replay(args)
    if command == "data":
        return _cmd_data(args)
    if command == "mcp":
        return _cmd_mcp(args)
    if command == "sweep":
        from zorktui.sweep.command import main as sweep  # deferred: the sweep (and Ray behind it) only when asked for

        return sweep(args)
    return _cmd_export(args)
