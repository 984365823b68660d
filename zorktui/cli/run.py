"""``zorktui run``: commands from a file or stdin, or an agent playing ``--steps`` commands, headless."""

from __future__ import annotations

import argparse
import errno
import itertools
import shlex
import sys
from pathlib import Path
from typing import Any

from zorktui.cli.args import check_run, fail
from zorktui.cli.common import EXIT_INTERRUPTED, build, prompted_stdin, session_options


def cmd_run(args: argparse.Namespace) -> int:
    """``zorktui run``: commands from a file or stdin, or ``--agent`` playing ``--steps`` commands."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.core.errors import ZorkTuiError
    from zorktui.session.headless import output_for, play_script, read_commands

    check_run(args)
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
    built = build(session_options(args, "autopilot" if args.agent else "script", args.agent))
    session = built.session
    output = None
    reason = ""
    failure: str | None = None
    interrupted = False
    try:
        output = output_for(session, Path("/dev/stdout") if to_stdout else args.jsonl, echo=not interactive)
        if args.agent:
            if not output.stopped:
                reason = session.autopilot.run(args.steps)
        else:
            lines = source if source is not None else (prompted_stdin() if interactive else sys.stdin)
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
    """Close the output and the session (and with it the game), whatever fails; the first failure's line, if any."""
    from zorktui.core.errors import ZorkTuiError, one_line

    failures: list[str] = []
    for close in ((output.close if output is not None else None), session.close):
        if close is None:
            continue
        try:
            close()
        except ZorkTuiError as exc:
            failures.append(str(exc))
        except (OSError, RuntimeError) as exc:  # the memory's database on a full disk
            failures.append(f"closing the session: {one_line(exc)}")
    return failures[0] if failures else None
