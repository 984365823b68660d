"""``zorktui play``: the app in a terminal or a browser tab (``--web``), line by line when piped.

A human-baseline study (``--baseline``) asks for the participant's pseudonym
in the app when ``--participant`` is not given, then shows its consent screen.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from zorktui.cli.args import agent_options, check_agent_flags, check_model_configured, check_resume_seed, fail
from zorktui.cli.common import build, new_session_folder, session_options, under_web_driver
from zorktui.cli.run import cmd_run

#: Seconds between autopilot moves in plain mode: time for a screen reader to read each one.
PLAIN_AUTOPILOT_DELAY = 1.0


def cmd_play(args: argparse.Namespace) -> int:
    """``zorktui play``: the Textual app; line by line when stdin or stdout is not a terminal."""
    from zorktui.locations import sessions_dir

    # Under textual-serve stdin and stdout are pipes carrying the browser's screen: the app, not line mode.
    web = bool(getattr(args, "web", False)) or under_web_driver()
    screen = web or (sys.stdin.isatty() and sys.stdout.isatty())
    plain = not web and (bool(getattr(args, "plain", False)) or plain_configured())
    root = args.session_root or sessions_dir()
    if args.session is not None and args.session_root is not None:
        fail("give --session DIR or --session-root DIR, not both")
    if args.agent == "llm":
        check_model_configured(args)  # before anything else: no terminal or folder question hides it
    baseline = None
    if args.participant and not args.baseline:
        fail("--participant is for --baseline")
    if args.baseline:
        # deferred: only a baseline study reads its rules
        from zorktui.session.baseline import BaselineError, load_rules, participant_folder

        if args.agent or args.mode not in (None, "human") or agent_options(args) or args.mcp_port is not None:
            fail("--baseline is played by the person alone: no --agent, --mode, --model, --base-url, --sims, "
                 "--time-per-move or --mcp-port")
        try:
            load_rules(args.participant or "P-0")  # the study's settings, checked before anyone is asked anything
        except BaselineError as exc:
            fail(str(exc))
        if not screen or plain:
            fail("--baseline needs a terminal and the app (the participant answers a consent screen), not plain or line mode")
        if args.participant is None:
            args.participant = _ask_pseudonym(args.theme)
            if args.participant is None:
                return 0
        baseline = load_rules(args.participant)
        if args.session is None:
            args.session = participant_folder(args.participant, args.session_root)
    if plain:
        return _plain_mode(args, root)
    if not screen:
        if args.session is None and args.session_root is not None:
            args.session = new_session_folder(root)
        return _line_mode(args)
    _settle_agent(args, choose=baseline is None)  # a study's participant plays alone
    if args.session is None:
        args.session = new_session_folder(root) if web or args.session_root else sessions_dir() / time.strftime("%Y%m%d-%H%M%S")
    options = session_options(args, args.mode or ("human" if baseline is not None else "coplay"), args.agent)
    options.baseline = baseline
    # The story loads on a thread while Textual is imported here: its interpreter and the memory's
    # database run in C and let go of Python's lock, so the two overlap (the imports, Python on both
    # sides, do not: see docs/ui.md, "Measured").
    from concurrent.futures import ThreadPoolExecutor

    import zorktui.session.factory  # noqa: F401 - imported here first, so the two threads import nothing in common

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="zorktui-load") as loader:
        building = loader.submit(build, options, True)
        from zorktui.ui.app import create_app  # the composition root: only here does the CLI reach the UI

        built = building.result()  # re-raises the SystemExit of a bad story or session folder
    live = None
    if args.mcp_port is not None:
        from zorktui.mcp_server.live import serve_app  # deferred: the MCP SDK and uvicorn only when asked for

        live = serve_app(built.session, args.mcp_port, fail)
    app = create_app(built, theme=args.theme, mcp=(live.url, live.token) if live else None)
    if web:
        from zorktui.ui.web.drivers import follows

        follows(app)  # the tab's driver (continuing the tab a question opened, if one did)
    app.run()
    if live is not None:
        live.stop()
    print(f"zorktui: session saved in {args.session}", file=sys.stderr)
    return 0


def plain_configured() -> bool:
    """Plain mode without the flag: ``[ui] plain = true`` in config.toml, or a terminal that says it is dumb."""
    from zorktui.settings import load_section

    if os.environ.get("TERM") == "dumb":
        return True
    table, _ = load_section("ui")
    return table.get("plain") is True


def _settle_agent(args: argparse.Namespace, choose: bool = True) -> None:
    """Choose the agent when ``--agent`` is not given, then check the agent's flags and a resume's seed.

    Without ``--agent`` it is the model when one is asked for or configured, else the offline explorer;
    with ``--mcp-port`` the outside agent is the one that proposes, unless ``--agent`` asks for the app's own too.
    """
    if choose and args.agent is None and args.mcp_port is None:
        args.agent = "llm" if args.model or args.base_url or _model_configured() else "explore"
    check_agent_flags(args)
    check_resume_seed(args)


def _plain_mode(args: argparse.Namespace, root: Path) -> int:
    """``play --plain``: co-play as labelled lines, recorded as the app records it."""
    from zorktui.session.plain import PlainPlay, stdin_lines

    _settle_agent(args)
    if args.session is None:
        args.session = new_session_folder(root)
    built = build(session_options(args, args.mode or "coplay", args.agent))
    session = built.session
    session.autopilot.delay = PLAIN_AUTOPILOT_DELAY
    live = None
    if args.mcp_port is not None:
        from zorktui.mcp_server.live import serve_app  # deferred: the MCP SDK and uvicorn only when asked for

        live = serve_app(session, args.mcp_port, fail)
        session.commands.outside_agent = True
        print(f"zorktui: outside agents reach this session at {live.url}", flush=True)
    code = 0
    try:
        PlainPlay(session, usage=built.llm.usage if built.llm is not None else None).run(stdin_lines())
    except KeyboardInterrupt:
        code = 130
    finally:
        if live is not None:
            live.stop()
        session.close()
    print(f"zorktui: session saved in {args.session}", flush=True)
    return code


def _model_configured() -> bool:
    """Whether a model is configured without flags (a key, ``OPENAI_BASE_URL`` or ``[llm] base_url``)."""
    # deferred: the model's settings load only when play chooses its agent
    from zorktui.agent.llm import LlmConfig

    config = LlmConfig.from_env()
    return bool(config.api_key or config.base_url)


def _ask_pseudonym(theme: str | None) -> str | None:
    """The participant's pseudonym, asked in the app (None: they quit without one)."""
    from zorktui.ui.web.drivers import close_tab, run_first
    from zorktui.ui.web.questions import PseudonymApp

    app = PseudonymApp(theme=theme)
    run_first(app)
    if app.answer is None:
        close_tab()
    return app.answer


def _line_mode(args: argparse.Namespace) -> int:
    """Piped or redirected: no screen to draw on, so play the lines given, as ``run`` does."""
    if args.agent:
        fail(f"--agent {args.agent} needs a terminal; use zorktui run --agent {args.agent} --steps N")
    app_only = [flag for flag, given in (("--mode " + str(args.mode), args.mode not in (None, "human")),
                                         ("--theme", args.theme), ("--mcp-port", args.mcp_port is not None),
                                         ("--model", args.model),
                                         ("--base-url", args.base_url), ("--sims", args.sims is not None),
                                         ("--time-per-move", args.time_per_move is not None)) if given]
    if app_only:
        fail(f"{app_only[0]} is for the app, and this is not a terminal: play reads commands line by line "
             "(zorktui run --agent ... --steps N lets an agent play)")
    args.commands = args.jsonl = args.steps = None
    args.valid_actions = args.no_memory = args.llm_extract = args.critic_llm = False
    return cmd_run(args)
