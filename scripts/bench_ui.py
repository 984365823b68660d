"""UI benchmark: cold start to the first frame with story text, and keypress-to-transcript latency.

Runs ``zorktui play`` in a real pseudo-terminal (as a person's terminal
would), reads what it draws, and prints medians measured in one run:

- cold start: from launching the process to the first frame that shows the
  story's opening room (a fresh Python each time, so imports count);
- keypress to transcript: from writing a command and Enter to the pty until
  its echo and the game's answer are on screen (in the same running app),
  with no agent (human mode) and with the offline explorer proposing (co-play);
- the same, typed the moment the answer to a world-changing command shows
  (from the walkthrough, or ``--commands``), while that new state's valid
  actions are being searched;
- the same latency in-process through Textual's Pilot (headless), which
  leaves out the terminal and shows what the app itself costs.

    python scripts/bench_ui.py [STORY --commands FILE] [--starts N] [--keys N] [--against REV]

``--against REV`` times the package of an earlier git revision too, its runs
alternating with this checkout's, and prints the ratio of the medians (a
busy machine weighs on both alike). Each launch uses a fresh temporary home
(ZORKTUI_HOME) and session folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Text from the bundled game's opening, and from its answer to the commands typed below.
OPENING = "Landing Stage"
BUNDLED = ROOT / "zorktui" / "stories" / "lighthouse.z5"
WALKTHROUGH = ROOT / "zorktui" / "stories" / "lighthouse.walkthrough"
#: Commands that change nothing; each is made unique (the echo "you > examine gull 3" is looked for,
#: since old text is redrawn whenever the transcript scrolls, and the command line shows what is typed).
PROBES = ["examine gull", "examine boat", "inventory"]
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")


class Terminal:
    """``zorktui play`` in a pseudo-terminal of a fixed size."""

    def __init__(self, home: Path, cols: int = 120, rows: int = 36, mode: str = "coplay",
                 story: str | None = None, root: Path = ROOT) -> None:
        master, slave = pty.openpty()
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, ZORKTUI_HOME=str(home), TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows),
                   PYTHONPATH=str(root))
        env.pop("OPENAI_API_KEY", None)
        self.started = time.perf_counter()
        argv = [sys.executable, "-m", "zorktui", "play", *([story] if story else []),
                "--session", str(home / "session"), "--mode", mode]
        self.proc = subprocess.Popen(argv,
                                     stdin=slave, stdout=slave, stderr=slave, env=env, cwd=root,
                                     start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = b""

    def wait_for(self, text: str, timeout: float = 60.0) -> float:
        """Read output until ``text`` shows (escape codes removed); the moment it did."""
        needle = text.encode()
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            now = time.perf_counter()
            self.seen += chunk
            if needle in ANSI.sub(b"", self.seen):
                self.seen = b""
                return now
        raise TimeoutError(f"{text!r} did not appear within {timeout:g} s")

    def type(self, text: str) -> float:
        """Type a line, wait until the command line shows it, then press Enter; the moment Enter was sent.

        Only the Enter is timed: drawing each typed character is not what a
        person waits for.
        """
        self.seen = b""
        os.write(self.master, text.encode())
        self.wait_for(text)
        time.sleep(0.05)
        self.seen = b""
        sent = time.perf_counter()
        os.write(self.master, b"\r")
        return sent

    def close(self) -> None:
        """Quit with ctrl+q (as a person does); kill if it will not go."""
        try:
            os.write(self.master, b"\x11")
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        finally:
            os.close(self.master)


@dataclass
class Story:
    """What the benchmark plays: the story file (None: the bundled game), its opening room, and
    commands that change the world (typed to start a valid-action search before a probe)."""

    path: str | None
    opening: str
    moves: list[str]


def load_story(path: str | None, commands: str | None) -> Story:
    """The story's opening room name (read by the engine) and its world-changing commands."""
    from zorktui.engine.game import Game

    game = Game(path or BUNDLED)
    try:
        opening = game.opening.location.name if game.opening.location else OPENING
    finally:
        game.close()
    lines = Path(commands or WALKTHROUGH).read_text().splitlines() if (commands or not path) else []
    moves = [c.strip() for c in lines if c.strip() and not c.startswith("#")]
    return Story(path, opening, moves)


def cold_starts(n: int, story: Story, root: Path = ROOT) -> list[float]:
    """Seconds from launch to the first frame with the story's opening text."""
    out = []
    for _ in range(n):
        home = Path(tempfile.mkdtemp(prefix="zorktui-bench-"))
        term = Terminal(home, story=story.path, root=root)
        try:
            out.append(term.wait_for(story.opening) - term.started)
        finally:
            term.close()
            shutil.rmtree(home, ignore_errors=True)
    return out


def pty_latencies(n: int, mode: str, story: Story, searching: bool = False, root: Path = ROOT) -> list[float]:
    """Seconds from a typed command's Enter to its answer on screen, in one running app.

    Settled (``searching`` false): each probe is typed once the panels have
    refreshed after the last turn. Searching: a world-changing command is
    played first, and the probe is typed the moment that command's answer
    shows, while the new state's valid actions are being searched (in
    co-play the agent thinks then; in human mode the completer asks for them).
    """
    home = Path(tempfile.mkdtemp(prefix="zorktui-bench-"))
    term = Terminal(home, mode=mode, story=story.path, root=root)
    out = []
    moves = iter(story.moves)
    try:
        term.wait_for(story.opening)
        time.sleep(1.0)  # let the first valid-action search and panel refresh finish
        for i in range(n):
            if searching:
                move = next(moves, None)
                if move is None:
                    break
                term.type(move)
                term.wait_for(f"you > {move}")
            command = f"{PROBES[i % len(PROBES)]} {i}"
            sent = term.type(command)
            out.append(term.wait_for(f"you > {command}") - sent)
            if not searching:
                time.sleep(0.4)  # the panels refresh after each turn; measure typing into a settled app
    finally:
        term.close()
        shutil.rmtree(home, ignore_errors=True)
    return out


def pilot_latencies(n: int) -> list[float]:
    """The same, in-process and headless through Textual's Pilot."""
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.ui.app import create_app
    from zorktui.ui.keymap import UiConfig
    from zorktui.ui.widgets.commandline import CommandLine
    from zorktui.ui.widgets.transcript import Transcript

    home = Path(tempfile.mkdtemp(prefix="zorktui-bench-"))
    os.environ["ZORKTUI_HOME"] = str(home)
    built = build_session(SessionOptions(session=home / "session", seed=1))
    app = create_app(built, config=UiConfig(), themes_dir=home / "themes")
    out: list[float] = []

    async def go() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause(1.0)
            transcript = app.query_one(Transcript)
            line = app.query_one(CommandLine)
            for i in range(n):
                command = f"{PROBES[i % len(PROBES)]} {i}"
                answer = f"you > {command}"
                before = len(transcript.lines)
                line.focus()
                line.value = command
                sent = time.perf_counter()
                # Not pilot.press: it waits for the app to go idle, which would be measured too.
                app.simulate_key("enter")
                while not any(answer in strip.text for strip in transcript.lines[before:]):
                    await asyncio.sleep(0.001)
                out.append(time.perf_counter() - sent)
                await pilot.pause(0.3)
            await app.action_quit()

    asyncio.run(go())
    shutil.rmtree(home, ignore_errors=True)
    return out


def describe(name: str, values: list[float]) -> None:
    """One line: median, 90th percentile, min and max in milliseconds."""
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    print(f"{name:<58} median {statistics.median(ms):7.1f} ms   p90 {p90:7.1f}   min {ms[0]:7.1f}   "
          f"max {ms[-1]:7.1f}   (n={len(ms)})")


def checkout(revision: str) -> Path:
    """The package as it was at a git revision, unpacked into a temporary folder (removed at exit)."""
    import atexit
    import io
    import tarfile

    archive = subprocess.run(["git", "archive", revision, "zorktui"], cwd=ROOT, check=True, capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    atexit.register(shutil.rmtree, folder, True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def interleaved(roots: dict[str, Path], rounds: int, measure: Callable[[Path], list[float]]) -> dict[str, list[float]]:
    """Run ``measure(root)`` for each checkout in turn, ``rounds`` times: a noisy machine weighs on both alike."""
    out: dict[str, list[float]] = {name: [] for name in roots}
    for _ in range(rounds):
        for name, root in roots.items():
            out[name] += measure(root)
    return out


def report(title: str, results: dict[str, list[float]]) -> None:
    """One line a checkout; with two, the ratio of their medians (this one over the other)."""
    for name, values in results.items():
        describe(f"{title}{'' if len(results) == 1 else f' [{name}]'}", values)
    if len(results) == 2:
        (_, before), (_, after) = results.items()
        print(f"{'':<58} ratio of medians {statistics.median(after) / statistics.median(before):.2f}")


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    parser.add_argument("--commands", help="world-changing commands, one a line, typed before each probe while "
                                           "searching (default: the bundled game's walkthrough)")
    parser.add_argument("--starts", type=int, default=5, help="cold starts to time")
    parser.add_argument("--keys", type=int, default=15, help="commands to time")
    parser.add_argument("--against", metavar="REV", help="also time the package of this git revision, runs "
                                                         "alternating with this checkout's, and print the ratios")
    parser.add_argument("--no-pilot", action="store_true", help="leave out the in-process Pilot measure")
    args = parser.parse_args()
    story = load_story(args.story, args.commands)
    print(f"story: {args.story or BUNDLED.name} (opening room {story.opening!r})")
    roots = {args.against: checkout(args.against), "this checkout": ROOT} if args.against else {"this checkout": ROOT}
    rounds = 3 if args.against else 1
    keys = max(1, args.keys // rounds)
    report("cold start to story text (pty)",
           interleaved(roots, args.starts, lambda root: cold_starts(1, story, root)))
    report("keypress to transcript (pty, human)",
           interleaved(roots, rounds, lambda root: pty_latencies(keys, "human", story, root=root)))
    report("keypress to transcript (pty, coplay)",
           interleaved(roots, rounds, lambda root: pty_latencies(keys, "coplay", story, root=root)))
    if story.moves:
        report("same, while a search runs (human)",
               interleaved(roots, rounds, lambda root: pty_latencies(keys, "human", story, True, root)))
        report("same, while a search runs (coplay)",
               interleaved(roots, rounds, lambda root: pty_latencies(keys, "coplay", story, True, root)))
    if not args.no_pilot and not args.story and not args.against:
        piloted = pilot_latencies(args.keys)
        describe("keypress to transcript (Pilot)", piloted)


if __name__ == "__main__":
    main()
