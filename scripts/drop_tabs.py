"""Open tabs of ``zorktui serve`` in headless Chromium and drop them; print what is left behind.

Each tab is a fresh headless Chromium (its own temporary profile) driven over
the DevTools protocol: it loads the page, waits for the app's first frame (or,
with ``--early``, only until the page has asked for its websocket) and is then
killed with SIGKILL, as a browser that crashes or a laptop lid that closes
goes, or closed with ``Browser.close``, as a person closes it. Then, after
``--settle`` seconds, it counts the server's tab processes still alive and
the CPU the server's process tree uses over two seconds.

Usage::

    python scripts/drop_tabs.py --tabs 50                 # the bundled game
    python scripts/drop_tabs.py STORY --tabs 20 --early   # browsers gone before the first frame

Prints one line a tab, then ``left: N processes, CPU P%``; exits 1 if any
process is left.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from headless_chromium import chromium, serving, wait_for_class  # noqa: E402  (beside this script)


async def _one_tab(browser: str, url: str, how: str, early: bool) -> float:
    """Open the page in a new headless Chromium, then drop it ``how``; seconds until the drop."""
    start = time.monotonic()
    async with chromium(browser, end="kill" if how == "kill" else "none") as call:
        await call("Page.navigate", url=url)
        # Early: the page has opened its websocket (the app is starting) but drawn nothing yet.
        await wait_for_class(call, ("-connected", "-first-byte") if early else ("-first-byte",))
        took = time.monotonic() - start
        if how == "close":
            await call("Browser.close")
    return took


def _tab_processes(marker: str, server: int) -> list[str]:
    """Processes other than the server whose command line holds ``marker`` (each tab's names the session root)."""
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    return [pid for pid in found if pid not in (str(os.getpid()), str(server))]


def _tree_cpu(pid: int, seconds: float = 2.0) -> float:
    """CPU percent of ``pid`` and its descendants over ``seconds``."""
    def ticks() -> int:
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ppid, utime, stime = int(fields[1]), int(fields[11]), int(fields[12])
            if int(entry.name) == pid or ppid == pid:
                total += utime + stime
        return total

    before = ticks()
    time.sleep(seconds)
    return 100.0 * (ticks() - before) / os.sysconf("SC_CLK_TCK") / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("story", nargs="?", help="story file (default: the bundled game)")
    parser.add_argument("--tabs", type=int, default=10)
    parser.add_argument("--how", choices=("kill", "close"), default="kill", help="how each browser goes")
    parser.add_argument("--early", action="store_true", help="drop each browser before the app's first frame")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds to wait after the last tab")
    args = parser.parse_args()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("drop_tabs: no chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="zorktui-drop-") as tmp:
        root = Path(tmp) / "sessions"
        with serving([*([args.story] if args.story else []), "--mode", "coplay", "--session-root", str(root)]) \
                as (server, url):
            for n in range(args.tabs):
                took = asyncio.run(_one_tab(browser, url, args.how, args.early))
                print(f"tab {n + 1}: dropped ({args.how}) after {took:.1f} s; "
                      f"{len(_tab_processes(str(root), server.pid))} tab processes alive", flush=True)
            time.sleep(args.settle)
            left = _tab_processes(str(root), server.pid)
            cpu = _tree_cpu(server.pid)
            alive = server.poll() is None
        after_stop = _tab_processes(str(root), server.pid)
    print(f"left: {len(left)} processes {args.settle:g} s after the last tab, CPU {cpu:.0f}% (server and its "
          f"children); server {'up' if alive else 'DOWN'}; after stopping the server: {len(after_stop)} processes")
    return 1 if left or after_stop or not alive else 0


if __name__ == "__main__":
    raise SystemExit(main())
