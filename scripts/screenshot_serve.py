"""Screenshot of ``zorktui serve`` in headless Chromium (docs/img/serve.png, docs/img/watch.png).

Starts ``python -m zorktui serve`` on a free port with the given arguments
(session folders under a temporary directory unless ``--watch``), points
Debian's ``chromium --headless`` at it, and stops the server.

Usage::

    python scripts/screenshot_serve.py docs/img/serve.png
    python scripts/screenshot_serve.py docs/img/watch.png --watch SESSION_DIR

The capture waits for the app's first frame, then ``--wait`` seconds more (default
4) for the panels to fill; raise it when the picture is half-drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from headless_chromium import chromium, serving, wait_for_class  # noqa: E402  (beside this script)


async def _capture(browser: str, url: str, out: Path, size: str, wait: float) -> None:
    """Open the page in headless Chromium, wait for the app's first frame and ``wait`` seconds more, save what it shows."""
    width, height = size.split(",")
    async with chromium(browser, size) as call:
        await call("Emulation.setDeviceMetricsOverride", width=int(width), height=int(height),
                   deviceScaleFactor=1, mobile=False)
        await call("Page.navigate", url=url)
        try:
            await wait_for_class(call, ("-first-byte",))
        except RuntimeError:
            raise RuntimeError("the app drew nothing in 60 s") from None
        await asyncio.sleep(wait)
        shot = await call("Page.captureScreenshot", format="png")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(base64.b64decode(shot["data"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--wait", type=float, default=4.0, help="seconds from the app's first frame to the capture")
    parser.add_argument("--size", default="1400,900", help="window size W,H in pixels")
    args, serve_args = parser.parse_known_args()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("screenshot_serve: no chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="zorktui-shot-") as tmp:
        if "--watch" not in serve_args:
            serve_args += ["--session-root", tmp]
        with serving(serve_args) as (_server, url):
            args.out.parent.mkdir(parents=True, exist_ok=True)
            asyncio.run(_capture(browser, url, args.out, args.size, args.wait))
    print(f"screenshot_serve: wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
