"""``zorktui replay``: watch a recorded session in the app, or replay it on its story (``--print``, ``--verify``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from zorktui.cli.args import fail

if TYPE_CHECKING:  # hints only: the engine is imported when the command runs (a fast --help)
    from zorktui.core.turn import Turn


def cmd_replay(args: argparse.Namespace) -> int:
    """``zorktui replay DIR [--verify | --print]``: watch a session in the app, or re-execute and check it."""
    # deferred: a subcommand imports only what it runs (zorktui --help and quick commands start fast)
    from zorktui.agent.safety import clean_text
    from zorktui.core.errors import ZorkTuiError
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
