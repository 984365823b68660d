"""``zorktui data summarize``: a per-story table and score-vs-step plot over many sessions."""

from __future__ import annotations

import argparse
import shutil
import sys

from zorktui.cli.args import fail


def cmd_data(args: argparse.Namespace) -> int:
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
