"""Command line: argument parsing only; every command builds on the engine's factories.

Bad input (a missing or non-Z-machine story, a bad flag) exits with status 2
and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn, Sequence

from zorktui import __version__

EXIT_USAGE = 2
#: Subcommands of the design that later work will fill in.
_PLANNED = {
    "replay": "replay",
    "export": "export",
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:  # noqa: D102 - argparse hook
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see --help)\n")


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit with status 2."""
    print(f"zorktui: {message}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand (kept in one place for --help)."""
    parser = _Parser(prog="zorktui", description="Play Z-machine interactive fiction with an AI partner.")
    parser.add_argument("--version", action="version", version=f"zorktui {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    play = sub.add_parser("play", help="play a story (the default)")
    play.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    play.add_argument("--mode", choices=["human", "coplay", "autopilot"], default="human")
    play.add_argument("--agent", choices=["llm", "explore", "mcts"])
    play.add_argument("--session", type=Path, help="session folder")
    play.add_argument("--theme", help="colour theme (zork-dark, zork-light, zork-green, zork-amber or a user theme)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--model", help="LLM model name (default: $ZORKTUI_MODEL or gpt-4o-mini)")
    play.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")

    run = sub.add_parser("run", help="play commands headless, print a transcript or write JSONL")
    run.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    run.add_argument("--commands", type=Path, help="file of commands, one per line ('-' for stdin)")
    run.add_argument("--agent", choices=["llm", "explore", "mcts"])
    run.add_argument("--steps", type=int)
    run.add_argument("--seed", type=int, default=None)
    run.add_argument("--jsonl", type=Path, help="write the trajectory here ('-' for stdout)")
    run.add_argument("--session", type=Path, help="session folder: trajectory.jsonl, session.json, memory/")
    run.add_argument("--no-memory", action="store_true", help="with --session: keep no AriGraph memory")
    run.add_argument("--llm-extract", action="store_true",
                     help="with --session: LLM triplet extraction into the memory (OPENAI_API_KEY / OPENAI_BASE_URL)")
    run.add_argument("--model", help="LLM model name (default: $ZORKTUI_MODEL or gpt-4o-mini)")
    run.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    run.add_argument("--valid-actions", action="store_true", help="record valid actions after each turn")

    memory = sub.add_parser("memory", help="ask the memory of a session ('where is the lamp')")
    memory.add_argument("session_dir", type=Path)
    memory.add_argument("question", nargs="?", help='e.g. "where am i", "path to the cellar"; "help" lists them')
    memory.add_argument("--as-of", type=int, metavar="TURN", help="answer as of an earlier turn")
    memory.add_argument("--json", action="store_true", help="print JSON")
    memory.add_argument("--cypher", help="run read-only Cypher on the memory graph")
    map_ = sub.add_parser("map", help="draw the map of a session")
    map_.add_argument("session_dir", type=Path)
    map_.add_argument("--as-of", type=int, metavar="TURN", help="the map as of an earlier turn")
    map_.add_argument("--json", action="store_true", help="print the map model as JSON")
    replay = sub.add_parser("replay", help="replay a session")
    replay.add_argument("session_dir", type=Path)
    replay.add_argument("--verify", action="store_true")
    export = sub.add_parser("export", help="export a session")
    export.add_argument("session_dir", type=Path)
    export.add_argument("--format", choices=["transcript", "rec", "csv"], required=True)
    export.add_argument("-o", type=Path)
    return parser


def _open_game(story: str | None, seed: int | None):  # noqa: ANN202 - Game is imported lazily
    from zorktui.engine.errors import StoryError
    from zorktui.engine.game import Game
    from zorktui.locations import bundled_story

    try:
        return Game(story or bundled_story(), seed=seed)
    except StoryError as exc:
        fail(str(exc))


def _cmd_run(args: argparse.Namespace, interactive_default: bool = False) -> int:
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session.headless import RunOptions, read_commands, run

    if args.seed is not None and args.seed < 1:
        fail("--seed must be a positive whole number")
    if args.agent:
        return _cmd_run_agent(args)
    source = None
    if args.commands and str(args.commands) != "-":
        try:
            source = args.commands.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as exc:
            fail(f"{args.commands}: cannot read ({exc.strerror or exc})")
    llm = None
    if getattr(args, "llm_extract", False):
        if not args.session or args.no_memory:
            fail("--llm-extract needs --session (and the memory)")
        from zorktui.agent.llm import LlmClient, LlmConfig

        try:
            llm = LlmClient(LlmConfig.from_env(args.model, args.base_url))
        except ZorkTuiError as exc:
            fail(str(exc))
    game = _open_game(args.story, args.seed)
    to_stdout = args.jsonl is not None and str(args.jsonl) == "-"
    options = RunOptions(
        jsonl=Path("/dev/stdout") if to_stdout else args.jsonl,
        session=args.session,
        valid_actions=args.valid_actions,
        memory=not getattr(args, "no_memory", False),
        llm=llm,
        actor="script" if source is not None or not sys.stdin.isatty() else "human",
    )
    if source is None:
        lines = _prompted_stdin() if sys.stdin.isatty() and not to_stdout else sys.stdin
        commands = read_commands(lines)
    else:
        commands = read_commands(source)
    try:
        last = run(game, commands, options)
    except KeyboardInterrupt:
        return 130
    except ZorkTuiError as exc:
        fail(str(exc))
    finally:
        game.close()
    if not to_stdout and options.jsonl is None:
        if last.done:
            print("\n[The game has ended.]")
    return 0


def _cmd_run_agent(args: argparse.Namespace) -> int:
    """``zorktui run --agent llm|explore --steps N``: the agent plays on its own, headless."""
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.session.headless import run_agent
    from zorktui.session.session import StopRules

    if args.agent == "mcts":
        fail("--agent mcts is not available yet; use llm or explore")
    if args.commands:
        fail("give --commands or --agent, not both")
    if args.steps is None or args.steps < 1:
        fail("--agent needs --steps N (a positive number of commands)")
    to_stdout = args.jsonl is not None and str(args.jsonl) == "-"
    options = SessionOptions(
        story=args.story, mode="autopilot", agent=args.agent, model=args.model, base_url=args.base_url,
        session=args.session, seed=args.seed, memory=not args.no_memory, llm_extract=args.llm_extract,
        stop=StopRules(steps=args.steps, on_loop=False), valid_actions=args.valid_actions,
    )
    try:
        built = build_session(options)
    except (ZorkTuiError, ValueError) as exc:
        fail(str(exc))
    for warning in built.warnings:
        print(f"zorktui: {warning}", file=sys.stderr)
    session = built.session
    try:
        reason = run_agent(session, args.steps, jsonl=Path("/dev/stdout") if to_stdout else args.jsonl)
    except KeyboardInterrupt:
        return 130
    finally:
        session.close()
        session.game.close()
    usage = built.llm.usage if built.llm is not None else None
    spend = f"; {usage.calls} LLM calls, {usage.prompt_tokens + usage.completion_tokens} tokens" if usage else ""
    print(f"zorktui: stopped: {reason} (turn {session.current.turn}, score {session.current.score}){spend}",
          file=sys.stderr)
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    """``zorktui play``: build the session (errors exit 2 before any screen), then run the Textual app."""
    import os
    import time

    from zorktui.engine.errors import ZorkTuiError
    from zorktui.locations import sessions_dir
    from zorktui.session.factory import SessionOptions, build_session

    if args.seed is not None and args.seed < 1:
        fail("--seed must be a positive whole number")
    if args.agent == "mcts":
        fail("--agent mcts is not available yet; use llm or explore")
    # Without --agent: the model when one is configured, else the offline explorer.
    agent = args.agent or ("llm" if os.environ.get("OPENAI_API_KEY") else "explore")
    folder = args.session or sessions_dir() / time.strftime("%Y%m%d-%H%M%S")
    options = SessionOptions(story=args.story, mode=args.mode, agent=agent, model=args.model,
                             base_url=args.base_url, session=folder, seed=args.seed)
    try:
        built = build_session(options)
    except (ZorkTuiError, ValueError) as exc:
        fail(str(exc))
    from zorktui.ui.app import create_app  # the composition root: only here does the CLI reach the UI

    create_app(built, theme=args.theme).run()
    print(f"zorktui: session saved in {folder}", file=sys.stderr)
    return 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    from zorktui.engine.errors import ZorkTuiError
    from zorktui.session import inspect

    if args.as_of is not None and args.as_of < 0:
        fail("--as-of must be a turn number (0 or more)")
    try:
        if args.command == "map":
            return inspect.map_session(args.session_dir, args.as_of, args.json)
        if args.cypher is not None:
            if args.question:
                fail("give a question or --cypher, not both")
            return inspect.cypher_session(args.session_dir, args.cypher, args.json)
        if not args.question:
            fail('ask a question, e.g. zorktui memory DIR "where am i" (or "help")')
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

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    command = args.command or "play"
    if command == "play":
        if args.command is None:
            args = parser.parse_args(["play"])
        return _cmd_play(args)
    if command == "run":
        return _cmd_run(args)
    if command in ("memory", "map"):
        return _cmd_inspect(args)
    fail(f"'zorktui {command}' ({_PLANNED[command]}) is not available yet in this version")
