"""``zorktui serve`` started for a script, and headless Chromium driven over the DevTools protocol to load its pages.

Chromium's own ``--screenshot`` acts at the page's load event, before the
app's first frame arrives over the websocket, so the scripts drive it
instead: open a page, navigate, wait for a class on the page's body, call
any DevTools method. aiohttp comes with textual-serve.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

#: The page waits for its web font from Google before it connects: fail those names at once offline.
NO_FONTS = "--host-resolver-rules=MAP fonts.googleapis.com ~NOTFOUND, MAP fonts.gstatic.com ~NOTFOUND"

Call = Callable[..., Awaitable[dict[str, Any]]]
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(serve_args: list[str]) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m zorktui serve SERVE_ARGS`` from this checkout on a free port: (the server, its page's URL).

    Waits until the page answers; stops the server with ctrl+c (SIGINT) at the end, killing it after 15 s.
    """
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "zorktui", "serve", *serve_args, "--port", str(port)], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield server, url
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@asynccontextmanager
async def chromium(browser: str, size: str = "1200,800", end: str = "terminate") -> AsyncIterator[Call]:
    """A new headless Chromium with a temporary profile; yields ``call(method, **params)`` on its first page.

    Args:
        browser: The Chromium executable.
        size: Window size, "W,H" in pixels.
        end: How the browser goes at the end: "terminate" (SIGTERM), "kill" (SIGKILL to its
            whole process group, as a crash goes) or "none" (it closed itself).
    """
    import aiohttp

    port = free_port()
    profile = tempfile.mkdtemp(prefix="zorktui-chrome-")  # removed below, however the caller ends
    process = subprocess.Popen([browser, "--headless", "--no-sandbox", "--hide-scrollbars", f"--window-size={size}",
                                NO_FONTS, f"--remote-debugging-port={port}", "--user-data-dir=" + profile,
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        async with aiohttp.ClientSession() as http:
            pages: list[dict[str, Any]] = []
            for _ in range(300):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/json") as response:
                        pages = [p for p in await response.json() if p.get("type") == "page"]
                    if pages:
                        break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                ids = iter(range(1, 1_000_000))

                async def call(method: str, **params: object) -> dict[str, Any]:
                    n = next(ids)
                    await ws.send_json({"id": n, "method": method, "params": params})
                    async for message in ws:
                        reply = message.json()
                        if reply.get("id") == n:
                            return reply.get("result", {})
                    return {}  # the browser went away (Browser.close)

                yield call
    finally:
        if end == "kill" and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        elif end == "terminate":
            process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


async def wait_for_class(call: Call, names: tuple[str, ...], seconds: float = 60.0) -> str:
    """Wait until the page's body has one of the classes ``names`` (textual's page marks "-connected",
    "-first-byte"); the one it has.

    Raises:
        RuntimeError: None of them within ``seconds``.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        state = await call("Runtime.evaluate", expression="document.body.className")
        classes = str(state.get("result", {}).get("value", "")).split()
        for name in names:
            if name in classes:
                return name
        await asyncio.sleep(0.05)
    raise RuntimeError(f"the page showed none of {', '.join(names)} in {seconds:g} s")
