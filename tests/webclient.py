"""A real websocket client of ``zorktui serve``: what a browser's page does, without the page.

The page opens ``/ws?width=W&height=H``, sends ``["stdin", keys]`` and
``["resize", {...}]`` as JSON text frames, and receives the app's terminal
output as binary frames (textual-serve's protocol). :class:`Screen` keeps
that output with its escape sequences removed, which is enough to find the
words the app has drawn.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
#: CSI and OSC sequences, and lone escapes, of the terminal output.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def plain(data: str) -> str:
    """Terminal output without its escape sequences."""
    return _ANSI.sub("", data)


def start_server(*args: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``python -m zorktui serve ARGS --port PORT``, running from this worktree, once it answers HTTP."""
    import os
    import tempfile
    import urllib.request

    environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    # A file, not a pipe: nobody reads a pipe while the test plays, and a full one would stop the server.
    said = tempfile.TemporaryFile("w+")
    server = subprocess.Popen([sys.executable, "-m", "zorktui", "serve", *args, "--port", str(port)], cwd=ROOT,
                              env=environment, stdout=said, stderr=said, text=True)
    server.said = said  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"serve ended: {stop_server(server)}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("serve did not answer in 20 s")


def stop_server(server: subprocess.Popen[str]) -> str:
    """Stop the server (as ctrl+c would) and return what it said (stderr and stdout)."""
    import signal

    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    said = server.said  # type: ignore[attr-defined]
    said.seek(0)
    text = said.read()
    said.close()
    return text


class Screen:
    """One tab: a websocket to the server and the text drawn so far."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.text = ""
        self.closed = False

    async def until(self, *words: str, timeout: float = 20) -> float:
        """Read frames until every word has been drawn since the last :meth:`mark`; returns the seconds taken."""
        start = time.monotonic()
        while not all(w in self.text for w in words):
            left = timeout - (time.monotonic() - start)
            if left <= 0 or self.closed:
                missing = [w for w in words if w not in self.text]
                raise AssertionError(f"never drawn: {missing}; last text: {self.text[-600:]!r}")
            try:
                message = await self.ws.receive(timeout=left)
            except TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                self.text += plain(message.data.decode("utf-8", "replace"))
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                self.closed = True
        return time.monotonic() - start

    def mark(self) -> None:
        """Forget what was drawn so far (the next :meth:`until` looks only at new output)."""
        self.text = ""

    async def type(self, keys: str) -> None:
        """Send keys as the page does (Enter is ``\\r``)."""
        await self.ws.send_json(["stdin", keys])
