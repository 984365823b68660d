"""What a sweep shows: progress while it runs, then a table per story and the score-by-step curves.

The curves are ``zorktui data summarize``'s own (:mod:`zorktui.record.summary`),
drawn per agent over the finished runs' folders.
"""

from __future__ import annotations

import shutil
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from zorktui.record import summary
from zorktui.sweep.plan import RunSpec


class SweepProgress:
    """Runs done, running and failed, and the time left, on stderr; a line per finished or failed run.

    Used as a context manager; :meth:`update` is the driver's ``on_change``.
    """

    def __init__(self, total: int, console: Console) -> None:
        self.console = console
        self.progress = Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("running {task.fields[running]}, failed {task.fields[failed]}"),
                                 TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                                 console=console, transient=False)
        self.task = self.progress.add_task("sweep", total=total, running=0, failed=0)
        self._shown = 0

    def __enter__(self) -> SweepProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def update(self, tally: Any) -> None:
        """Show the driver's tally (a :class:`zorktui.sweep.driver.Tally`) and its new events."""
        for line in tally.events[self._shown:]:
            self.progress.console.print(line, markup=False, highlight=False)
        self._shown = len(tally.events)
        self.progress.update(self.task, completed=tally.done + tally.failed, running=tally.running, failed=tally.failed)


def story_tables(rows: list[dict[str, Any]], specs: list[RunSpec]) -> list[Table]:
    """A table per story of this sweep: per agent, the median and spread of the best score over its finished runs."""
    tables = []
    for md5 in dict.fromkeys(s.story.md5 for s in specs):
        mine = [s for s in specs if s.story.md5 == md5]
        by_name = {r["run"]: r for r in rows}
        done = [by_name[s.name] for s in mine if s.name in by_name and not by_name[s.name].get("error")]
        title = next((r["title"] for r in done if r.get("title")), None) or mine[0].story.stem
        table = Table(title=f"{title} ({mine[0].story.stem}, md5 {md5[:8]})", title_justify="left")
        for column in ("agent", "runs", "best: median", "spread", "final: median", "victories", "s/run"):
            table.add_column(column, justify="left" if column == "agent" else "right")
        for agent in dict.fromkeys(s.agent for s in mine):
            planned = [s for s in mine if s.agent == agent]
            ok = [r for r in done if r["agent"] == agent]
            bests = sorted(r["best"] for r in ok)
            top = next((r["max_score"] for r in ok if r.get("max_score")), None)
            of = f" of {top}" if top else ""
            table.add_row(agent, f"{len(ok)}/{len(planned)}",
                          f"{statistics.median(bests):g}{of}" if bests else "-",
                          f"{bests[0]}-{bests[-1]}" if bests else "-",
                          f"{statistics.median(r['final'] for r in ok):g}" if ok else "-",
                          str(sum(1 for r in ok if r.get("victory"))),
                          f"{statistics.median(r['seconds'] for r in ok):.1f}" if ok else "-")
        tables.append(table)
    return tables


def curves(out: Path, rows: list[dict[str, Any]], specs: list[RunSpec], console: Console,
           note: Callable[[str], None]) -> None:
    """The median score by step per story and agent (text), and every run's curve as ``out/scores.png``."""
    names = {s.name for s in specs}
    finished = [r for r in rows if r["run"] in names and not r.get("error") and r.get("folder")]
    width = shutil.get_terminal_size().columns
    for agent in dict.fromkeys(r["agent"] for r in finished):
        summaries, _ = summary.summarize([out / r["folder"] for r in finished if r["agent"] == agent])
        for s in summaries:
            console.print(f"\n{s.title}, {agent}: median score by step over {len(s.curves)} runs", markup=False)
            console.print(summary.ascii_plot(s.median_curve(), width=width), markup=False, highlight=False)
    everything, _ = summary.summarize([out / r["folder"] for r in finished])
    if not everything:
        return
    try:
        summary.png_plot(everything, out / "scores.png")
        note(f"score-by-step curves of every run: {out / 'scores.png'}")
    except ImportError:
        note("no plot drawn: it needs matplotlib (pip install 'zorktui[plot]')")
