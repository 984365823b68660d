"""The command line's arguments: the parser with help for every flag, and the checks that turn
ignored or contradictory flags into one-line errors (exit status 2)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from zorktui import __version__
from zorktui.session.modes import Mode

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see --help)\n")


class _VersionAction(argparse.Action):
    """``--version``: the version, then the folders a player looks for (settings, sessions, cache)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> NoReturn:
        from zorktui.locations import cache_dir, config_dir, data_dir

        print(f"zorktui {__version__}\nconfig: {config_dir()}\ndata:   {data_dir()}\ncache:  {cache_dir()}")
        parser.exit()


#: The help of ``--seed``, the same for play and run.
SEED_HELP = ("seed of the game's random numbers (the same seed and commands replay the same game; lessons from "
             "earlier games are left out)")


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit with status 2."""
    print(f"zorktui: {message}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand (kept in one place for --help)."""
    parser = _Parser(prog="zorktui", description="Play Z-machine interactive fiction with an AI partner.")
    parser.add_argument("--version", action=_VersionAction, nargs=0,
                        help="print the version and where the config, data and cache live, then exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND",
                                help="play (the default), run, serve, watch, mcp, memory, map, replay, export, data or sweep")

    play = sub.add_parser("play", help="play a story (the default)",
                          description="Play a story in the app; line by line when not in a terminal.")
    play.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    play.add_argument("--mode", choices=[m.value for m in Mode],
                      help="who plays (default: coplay, the agent proposes and you decide)")
    play.add_argument("--agent", choices=["llm", "explore", "mcts"],
                      help="who proposes (default: llm when OPENAI_API_KEY or --model is given, else explore)")
    play.add_argument("--session", type=Path, metavar="DIR",
                      help="session folder (default: a new one under the data dir); an existing one resumes")
    play.add_argument("--theme", help="colour theme (zork-dark, zork-light, zork-green, zork-amber or a user theme)")
    play.add_argument("--seed", type=_positive_int, metavar="N", help=SEED_HELP)
    _lessons_argument(play)
    _model_arguments(play)
    play.add_argument("--baseline", action="store_true",
                      help="human-baseline study: consent screen, no agent or hints, rules from [baseline] in config.toml")
    play.add_argument("--participant", metavar="ID",
                      help="with --baseline: the participant's pseudonym (e.g. P-017), stored as given")
    play.add_argument("--mcp-port", type=_port, metavar="N",
                      help="serve this session to an outside agent over MCP at http://127.0.0.1:N/mcp (a token is printed)")
    play.add_argument("--session-root", type=Path, metavar="DIR",
                      help="make the new session folder under DIR (default: the data dir's sessions/)")
    # Given by zorktui serve: stdin and stdout are textual-serve's pipes, not a terminal, yet the app runs.
    play.add_argument("--web", action="store_true",
                      help="draw the app into a browser tab (zorktui serve gives this to each tab's process)")
    play.add_argument("--plain", action="store_true",
                      help="play as a plain stream of lines, for screen readers and braille displays "
                           "(also [ui] plain = true in config.toml, and when TERM is dumb)")
    _planner_arguments(play)
    _web_parsers(sub)

    run = sub.add_parser("run", help="play commands headless, print a transcript or write JSONL",
                         description="Play commands from a file or stdin, or let an agent play --steps commands.")
    run.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    run.add_argument("--commands", type=Path, metavar="FILE", help="file of commands, one per line ('-' for stdin)")
    run.add_argument("--agent", choices=["llm", "explore", "mcts"], help="let an agent play (needs --steps)")
    run.add_argument("--steps", type=_positive_int, metavar="N", help="with --agent: commands the agent plays")
    run.add_argument("--seed", type=_positive_int, metavar="N", help=SEED_HELP)
    _lessons_argument(run)
    run.add_argument("--jsonl", type=Path, metavar="FILE", help="write the trajectory here ('-' for stdout)")
    run.add_argument("--session", type=Path, metavar="DIR",
                     help="session folder: trajectory.jsonl, session.json, memory/ (an existing one resumes)")
    run.add_argument("--no-memory", action="store_true",
                     help="with --session or --agent: keep no AriGraph memory")
    run.add_argument("--llm-extract", action="store_true",
                     help="with --session: LLM triplet extraction into the memory (OPENAI_API_KEY / OPENAI_BASE_URL)")
    _model_arguments(run)
    run.add_argument("--valid-actions", action="store_true",
                     help="with --jsonl or --session: record the valid actions after each turn")
    run.add_argument("--critic-llm", action="store_true",
                     help="with --agent llm or mcts: the model judges proposals too")
    _planner_arguments(run)

    mcp = sub.add_parser("mcp", help="serve the game to an outside agent as MCP tools (stdio or HTTP)",
                         description="An MCP server over one recorded session: play_action, room_state, valid_actions, "
                                     "map, memory_query, undo, save_checkpoint, restore_checkpoint (see docs/mcp.md).")
    mcp.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    mcp.add_argument("--session", type=Path, metavar="DIR",
                     help="session folder (default: a new one under the data dir); an existing one resumes")
    mcp.add_argument("--http", type=_port, metavar="PORT", help="serve streamable HTTP at http://HOST:PORT/mcp (default: stdio)")
    mcp.add_argument("--host", metavar="HOST", help="with --http: the address to listen on (default 127.0.0.1)")
    mcp.add_argument("--seed", type=_positive_int, metavar="N", help="seed of the game's random numbers")

    memory = sub.add_parser("memory", help="ask the memory of a session ('where is the lamp')",
                            description="Ask the memory of a session folder a question, or run read-only Cypher on it.")
    memory.add_argument("session_dir", type=Path, metavar="SESSION_DIR", help="a session folder")
    memory.add_argument("question", nargs="?", help='e.g. "where am i", "path to the cellar"; "help" lists them')
    memory.add_argument("--as-of", type=_turn, metavar="TURN", help="answer as of an earlier turn")
    memory.add_argument("--json", action="store_true", help="print JSON")
    memory.add_argument("--cypher", metavar="QUERY", help="run read-only Cypher on the memory graph (instead of a question)")
    map_ = sub.add_parser("map", help="draw the map of a session", description="Draw the map of a session folder.")
    map_.add_argument("session_dir", type=Path, metavar="SESSION_DIR", help="a session folder")
    map_.add_argument("--as-of", type=_turn, metavar="TURN", help="the map as of an earlier turn")
    map_.add_argument("--json", action="store_true", help="print the map model as JSON")
    replay = sub.add_parser("replay", help="replay a session on its story (--verify checks every state)",
                            description="Watch a session in the app, or replay it on its story (--print, --verify).")
    replay.add_argument("session_dir", type=Path, metavar="SESSION_DIR", help="a session folder")
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--verify", action="store_true", help="only check each turn's state hash; report the first divergence")
    how.add_argument("--print", action="store_true", help="print the replayed transcript instead of watching it in the app")
    replay.add_argument("--story", type=Path, metavar="FILE",
                        help="with --verify or --print: the story file, if it moved since the session was recorded")
    replay.add_argument("--theme", help="colour theme of the watch app")
    export = sub.add_parser("export", help="export a session as a transcript, a .rec command file or CSV",
                            description="Export a session as a transcript, a .rec command file or CSV.")
    export.add_argument("session_dir", type=Path, metavar="SESSION_DIR", help="a session folder")
    export.add_argument("--format", choices=["transcript", "rec", "csv"], required=True, help="what to write")
    export.add_argument("-o", type=Path, metavar="FILE", help="write here (default: stdout)")
    data = sub.add_parser("data", help="datasets of sessions: summarize many sessions per story",
                          description="Datasets of sessions.")
    data_sub = data.add_subparsers(dest="data_command", parser_class=_Parser, required=True, metavar="COMMAND",
                                   help="summarize")
    summarize = data_sub.add_parser("summarize", help="per-story table and score-vs-step plot over sessions",
                                    description="Per-story table and score-vs-step plot over sessions.")
    summarize.add_argument("dirs", type=Path, nargs="+", metavar="DIR",
                           help="session folders, or folders of session folders")
    summarize.add_argument("--png", type=Path, metavar="FILE", help="also draw the curves as PNG (needs matplotlib)")
    summarize.add_argument("--json", action="store_true", help="print JSON instead of the table")
    _sweep_parser(sub)
    return parser


def _sweep_parser(sub: Any) -> None:
    """``zorktui sweep``: stories x agents x seeds, each run a Ray task."""
    sweep = sub.add_parser("sweep", help="play stories x agents x seeds as Ray tasks, here or on a cluster",
                           description="Play every (story, agent, seed) as a Ray task; each run is a session folder "
                                       "under DIR/runs/, one row of DIR/results.jsonl (see docs/sweep.md).")
    sweep.add_argument("stories", nargs="+", metavar="STORY", help="story files")
    sweep.add_argument("--agents", type=_agent_list, default=["explore", "mcts"], metavar="A,B",
                       help="comma-separated agents: explore, mcts, llm (default explore,mcts)")
    sweep.add_argument("--seeds", type=_seed_list, default=[1, 2, 3], metavar="1,2,3",
                       help="comma-separated game seeds (default 1,2,3)")
    sweep.add_argument("--steps", type=_positive_int, default=100, metavar="N",
                       help="commands each run plays at most (default 100)")
    _planner_arguments(sweep)
    sweep.add_argument("--out", type=Path, required=True, metavar="DIR",
                       help="output folder: results.jsonl and runs/ (run again with the same DIR to skip finished runs)")
    sweep.add_argument("--address", metavar="ADDR",
                       help="a running Ray cluster: auto (on a cluster's machine) or ray://HEAD:10001 (default: start Ray here)")
    sweep.add_argument("--cpus-per-run", type=_positive_float, default=1.0, metavar="C",
                       help="CPUs each run reserves (default 1)")
    sweep.add_argument("--local-cpus", type=_positive_int, metavar="N", help="CPUs of the Ray started here (default: all)")
    sweep.add_argument("--run-timeout", type=_positive_float, default=3600.0, metavar="S",
                       help="seconds a run may take before it is stopped, counted failed and retried once (default 3600)")


def _agent_list(text: str) -> list[str]:
    """An argparse type: comma-separated agent names."""
    agents = [a.strip() for a in text.split(",") if a.strip()]
    unknown = [a for a in agents if a not in ("explore", "mcts", "llm")]
    if unknown or not agents:
        raise argparse.ArgumentTypeError(f"{text!r}: agents are explore, mcts and llm, comma-separated")
    return list(dict.fromkeys(agents))


def _lessons_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-lessons", action="store_true",
                        help="leave the lessons of earlier games (deaths, endings) out of the agent's play")


def _seed_list(text: str) -> list[int]:
    """An argparse type: comma-separated positive seeds."""
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        seeds = []
    if not seeds or min(seeds) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: seeds are positive whole numbers, comma-separated (1,2,3)")
    return list(dict.fromkeys(seeds))


def _web_parsers(sub: Any) -> None:
    """``serve`` (the app in browser tabs) and ``watch`` (a live view of sessions played elsewhere)."""
    serve = sub.add_parser("serve", help="serve the app to web browsers (each tab its own session)",
                           description="Serve the full app to web browsers with textual-serve: each tab plays its own "
                                       "session; --watch serves a read-only live view of sessions instead (docs/web.md).")
    serve.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--mode", choices=[m.value for m in Mode], help="who plays in each tab (default: coplay)")
    serve.add_argument("--agent", choices=["llm", "explore", "mcts"],
                       help="who proposes (default: llm when OPENAI_API_KEY or --model is given, else explore)")
    serve.add_argument("--theme", help="colour theme of the app in each tab")
    _model_arguments(serve)
    serve.add_argument("--baseline", action="store_true",
                       help="human-baseline study: each tab asks a pseudonym, shows the consent screen, plays alone")
    serve.add_argument("--session-root", type=Path, metavar="DIR",
                       help="make each tab's session folder under DIR (default: the data dir's sessions/)")
    serve.add_argument("--watch", type=Path, nargs="+", metavar="SESSION_DIR",
                       help="serve a read-only live view of these session folders instead of the game")
    watch = sub.add_parser("watch", help="a live, read-only view of sessions being played elsewhere",
                           description="Follow session folders as they are played (transcript, room, agent, map); "
                                       "with several, choose one first.")
    watch.add_argument("session_dirs", type=Path, nargs="+", metavar="SESSION_DIR", help="session folders")
    watch.add_argument("--theme", help="colour theme")
    watch.add_argument("--web", action="store_true",
                       help="draw into a browser tab (zorktui serve --watch gives this to each tab's process)")


def _model_arguments(parser: argparse.ArgumentParser) -> None:
    """The model's endpoint options (``--model``, ``--base-url``)."""
    parser.add_argument("--model", help="LLM model name (default: $ZORKTUI_MODEL or gpt-4o-mini)")
    parser.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")


def _planner_arguments(parser: argparse.ArgumentParser) -> None:
    """The MCTS planner's budget options (``--sims`` or ``--time-per-move``)."""
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=_positive_int, metavar="K",
                        help="with --agent mcts: simulations per move (reproducible with --seed)")
    budget.add_argument("--time-per-move", type=_positive_float, metavar="T",
                        help="with --agent mcts: seconds of search per move (default 2)")


def _number(cast: Callable[[str], Any], least: float, strict: bool, what: str) -> Callable[[str], Any]:
    """An argparse type: ``cast`` of the text, at least (or, ``strict``, above) ``least``."""

    def convert(text: str) -> Any:
        try:
            value = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < least or (strict and value == least):
            raise argparse.ArgumentTypeError(f"must be {what}, not {text}")
        return value

    return convert


_positive_int = _number(int, 1, False, "a positive whole number")
_turn = _number(int, 0, False, "a turn number (0 or more)")
_port = _number(int, 1, False, "a port number (1 to 65535)")
_positive_float = _number(float, 0, True, "a positive number of seconds")


def _uses_model(args: argparse.Namespace) -> bool:
    """Whether the options given reach a model (the agent, or triplet extraction)."""
    return args.agent in ("llm", "mcts") or bool(getattr(args, "llm_extract", False))


def check_agent_flags(args: argparse.Namespace) -> None:
    """One line and exit 2 for agent options that the agent chosen would ignore (run and play)."""
    if args.agent != "mcts" and (args.sims is not None or args.time_per_move is not None):
        fail("--sims and --time-per-move are for --agent mcts")
    if args.agent == "llm":
        check_model_configured(args)
    if not _uses_model(args) and (args.model or args.base_url):
        fail(f"--model and --base-url are for --agent llm or mcts{' or --llm-extract' if args.command == 'run' else ''}"
             + (f"; --agent {args.agent} uses no model" if args.agent else ""))


def check_model_configured(args: argparse.Namespace) -> None:
    """``--agent llm`` needs a model: without one the explorer would play in its name."""
    # deferred: the model's settings load only for the llm agent
    from zorktui.agent.llm import LlmConfig, LlmUnavailable, require_endpoint

    try:
        require_endpoint(LlmConfig.from_env(args.model, args.base_url))
    except LlmUnavailable as exc:
        fail(f"--agent llm: {exc}")


def agent_options(args: argparse.Namespace) -> bool:
    """Whether any option for the agent (model, endpoint, planner budget) was given."""
    return bool(args.model or args.base_url or args.sims is not None or args.time_per_move is not None)


def check_run(args: argparse.Namespace) -> None:
    """One line and exit 2 for ``run`` options that contradict each other or would be ignored."""
    if args.agent and args.commands:
        fail("give --commands or --agent, not both")
    if args.agent and args.steps is None:
        fail("--agent needs --steps N (a positive number of commands)")
    if args.steps is not None and not args.agent:
        fail("--steps is for --agent (a script plays all its commands)")
    check_agent_flags(args)
    if args.critic_llm and not (args.agent and _uses_model(args)):
        fail("--critic-llm is for --agent llm or mcts (the model judges the agent's proposals)")
    if args.llm_extract and (not args.session or args.no_memory):
        fail("--llm-extract needs --session (and the memory)")
    if args.no_memory and not (args.session or args.agent):
        fail("--no-memory is for --session or --agent (a script without a session folder keeps no memory)")
    if args.valid_actions and args.jsonl is None and args.session is None:
        fail("--valid-actions records into --jsonl or --session (the transcript does not show them)")
    check_resume_seed(args)


def check_resume_seed(args: argparse.Namespace) -> None:
    """A session folder resumes with its recorded seed: another --seed is an error, not ignored."""
    # deferred: argument checks load the session folder's readers only for --session (a fast --help)
    from zorktui.session.files.folder import SessionError, SessionFolder
    from zorktui.session.files.resume import has_session

    if args.seed is None or not has_session(args.session):
        return
    try:
        recorded = SessionFolder(args.session).header().get("seed")
    except SessionError as exc:
        fail(str(exc))
    if isinstance(recorded, int) and recorded != args.seed:
        fail(f"{args.session} resumes with its recorded seed {recorded}: leave out --seed {args.seed} or give a new folder")


def check_as_of(folder: Path, as_of: int) -> None:
    """One line and exit 2 when ``--as-of`` is past the session's last turn (rather than answering as of the last)."""
    # deferred: argument checks load the session folder's readers only for --as-of (a fast --help)
    from zorktui.record.trajectory import last_turn
    from zorktui.session.files.folder import SessionError, SessionFolder

    try:
        last = last_turn(SessionFolder(folder).records())
    except SessionError as exc:
        fail(str(exc))
    if as_of > last:
        fail(f"--as-of {as_of}: the session has {last} turn{'' if last == 1 else 's'} (ask as of 0 to {last})")
