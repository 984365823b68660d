"""Serving the app to browsers with textual-serve: one process per tab, started by a command line.

textual-serve runs the command for each websocket (each tab), with
``TEXTUAL_DRIVER`` set to Textual's web driver, and relays the screen and
the keys as JSON and binary frames. This module only adapts its server:
pages name the address the browser used (so a server on 0.0.0.0 works from
another machine), and start-up says one line instead of textual-serve's logo.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from aiohttp import web
from textual_serve.server import Server


def tab_command(argv: list[str]) -> str:
    """The shell command each tab runs: this Python running ``zorktui`` with ``argv``."""
    return shlex.join([sys.executable, "-m", "zorktui", *argv])


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach an address (a name other than localhost counts as reachable)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ZorkServer(Server):
    """textual-serve's server with pages that follow the browser's address and a one-line start.

    Args:
        command: The shell command each tab runs.
        host: Address to listen on.
        port: Port to listen on.
        title: The page's title.
        what: Said on start-up after the address ("the game", "a live view of ...").
    """

    def __init__(self, command: str, host: str, port: int, title: str, what: str) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.what = what

    async def handle_index(self, request: web.Request) -> Any:
        """The page, with its script and websocket addressed as the browser reached this server."""
        # No await between here and the page's rendering: the address cannot change under another request.
        self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)

    async def on_startup(self, app: web.Application) -> None:
        """Say where to point a browser (on stderr; stdout is left alone)."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        print(f"zorktui: serving {self.what} on http://{shown}:{self.port} (ctrl+c stops)", file=sys.stderr, flush=True)


def serve(command: str, host: str, port: int, title: str, what: str) -> None:
    """Serve until ctrl+c or SIGTERM.

    Raises:
        OSError: The port is taken, or the address is not this machine's.
    """
    ZorkServer(command, host, port, title, what).serve()
