"""Serving the app to browsers with textual-serve: one process per tab, started by a command line.

textual-serve runs the command for each websocket (each tab), with
``TEXTUAL_DRIVER`` set to Textual's web driver, and relays the screen and
the keys as JSON and binary frames. This module only adapts its server:
pages name the address the browser used (so a server on 0.0.0.0 works from
another machine), and start-up says one line instead of textual-serve's logo.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import sys
from typing import Any

import textual_serve.server
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from zorktui.resources import resource_path

#: Seconds a tab's process has, once its browser has gone, to close its session before it is ended.
TAB_GRACE = 4.0


def with_plain_note(html: str) -> str:
    """The page with the note on plain mode first in its body (the first thing a screen reader reads)."""
    note = resource_path("plain_note.html").read_text(encoding="utf-8")
    at = html.find("<body")
    end = html.find(">", at) if at >= 0 else -1
    if end < 0:
        return note + html
    return html[:end + 1] + "\n" + note + html[end + 1:]


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


class TabService(AppService):
    """textual-serve's service for one tab, whose process and all its children end with the tab.

    textual-serve asks a tab's app to quit when its websocket closes and then
    waits for the process, for ever: an app that does not hear the request
    (a browser gone during start-up) keeps running with nobody to see it, a
    core spent redrawing. Here the tab's command runs as the leader of a
    process group of its own, and once the tab is gone the group gets
    :data:`TAB_GRACE` seconds to close its session, then SIGTERM, then SIGKILL:
    the app, its search workers and its Cypher child alike.
    """

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        """Start the tab's command (no shell) as a process group of its own."""
        self._process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width=width, height=height),
            start_new_session=True)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the app to quit as textual-serve does; after the grace, end its whole group."""
        try:
            await asyncio.wait_for(asyncio.shield(super().stop()), TAB_GRACE)
        except TimeoutError:
            pass
        finally:
            await self._end_group()

    async def _end_group(self) -> None:
        """SIGTERM to the tab's whole group, a second for its leader to go, then SIGKILL to whatever is left."""
        process = self._process
        if process is None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)  # the group outlives its leader while children remain
            except (ProcessLookupError, PermissionError):
                return  # nothing left of it
            if sig == signal.SIGTERM:
                with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), 1.0)
        await process.wait()


# textual-serve makes each tab's service inside its websocket handler: point that name at ours.
textual_serve.server.AppService = TabService  # type: ignore[misc]


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
        """The page, with its script and websocket addressed as the browser reached this server.

        The page also says, in HTML a screen reader reads, how to play in plain mode: the
        terminal it draws is a canvas, which no screen reader can read.
        """
        # No await between here and the page's rendering: the address cannot change under another request.
        self.public_url = f"{request.scheme}://{request.host}"
        page = await super().handle_index(request)
        if isinstance(page, web.Response) and page.text:
            page.text = with_plain_note(page.text)
        return page

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
