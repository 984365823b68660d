"""The running app's session over streamable HTTP (``zorktui play --mcp-port N``), under the person's veto.

:class:`LiveTools` are the MCP tools with ``play_action`` going through the
session's :class:`~zorktui.session.outside.OutsideGate`: in co-play the
command becomes the proposal in the Agent panel and the call returns once the
person has decided; in autopilot it plays unless the critic is against it.
:func:`start_live` serves them on a background thread, bound to 127.0.0.1 only,
every request carrying ``Authorization: Bearer TOKEN`` (401 otherwise).
"""

from __future__ import annotations

import json
import logging
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.mcp_server.server import build_server
from zorktui.mcp_server.tools import GameTools, ToolRefused
from zorktui.session.outside import Decision, OutsideGate, OutsideRefused, Waiting
from zorktui.session.session import Session

#: The address served: this machine only.
HOST = "127.0.0.1"
#: Seconds to wait for the server thread to start listening.
START_TIMEOUT = 10.0


class LiveTools(GameTools):
    """The MCP tools over the app's session, ``play_action`` under the person's veto.

    Args:
        session: The session the app plays.
        gate: The session's gate for outside commands.
    """

    def __init__(self, session: Session, gate: OutsideGate) -> None:
        super().__init__(session)
        self.gate = gate

    def play_action(self, command: str, client: str | None = None, cancel: threading.Event | None = None) -> str:
        """Propose one game command to the person (co-play) or play it (autopilot); what became of it.

        Args:
            command: One game command ("open mailbox").
            client: The MCP client's name (the proposal's source, the turn's ``client``).
            cancel: Set when the client goes away: a waiting proposal is withdrawn.

        Raises:
            ToolRefused: Not a command for the game, the game has ended, another proposal waits,
                the person rejected it or played their own, the critic refused it (autopilot).
        """
        with self.lock:
            command = self._checked(command)
        try:
            outcome = self.gate.submit(command, client)
            decision = self.gate.wait(outcome, cancel) if isinstance(outcome, Waiting) else outcome
        except OutsideRefused as exc:
            raise ToolRefused(str(exc)) from None
        except (ZorkTuiError, RuntimeError) as exc:  # the engine refused it; the app closed meanwhile
            raise ToolRefused(one_line(exc)) from None
        return self._answer(decision)

    def _answer(self, decision: Decision) -> str:
        turn = decision.turn
        if decision.fate in ("accepted", "played") and turn is not None:
            return self.reply(turn, decision.verdict)
        if decision.fate == "edited" and turn is not None:
            return f"The person changed it to '{turn.command}':\n{self.reply(turn, None)}"
        if decision.fate == "rejected":
            raise ToolRefused("rejected by the person: " + (decision.reason or "(no reason given)"))
        if decision.fate == "superseded" and turn is not None and not decision.reason:
            raise ToolRefused(f"not played: the person played '{turn.command}' instead; "
                              "room_state() shows where play stands")
        raise ToolRefused(f"not played: {decision.reason or decision.fate}")


class BearerToken:
    """ASGI middleware: every HTTP request carries ``Authorization: Bearer TOKEN`` or is answered 401."""

    def __init__(self, app: Callable[..., Any], token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not secrets.compare_digest(given, self._expected):
                body = json.dumps({"error": "unauthorized: send the token zorktui printed at start "
                                            "as 'Authorization: Bearer TOKEN'"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


@dataclass
class LiveServer:
    """A running server: where it listens, its token, and how to stop it."""

    url: str
    token: str
    gate: OutsideGate
    _server: Any
    _thread: threading.Thread

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving (waiting proposals are withdrawn) and wait for the thread."""
        self.gate.close()
        self._server.should_exit = True
        self._thread.join(timeout)


def _quiet_logs() -> None:
    """Keep the server's logs off the terminal the app draws on (they would tear the screen)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "mcp", "httpx", "sse_starlette"):
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0: any free one).

    Raises:
        OSError: The port is taken or not allowed.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(16)
    except OSError:
        sock.close()
        raise
    return sock


def start_live(session: Session, sock: socket.socket, token: str | None = None) -> LiveServer:
    """Serve the session's tools at ``http://127.0.0.1:PORT/mcp`` on a background thread.

    Args:
        session: The session the app plays.
        sock: A socket from :func:`bind`.
        token: The bearer token (default: a new random one).

    Raises:
        RuntimeError: The server did not start listening.
    """
    import uvicorn  # deferred: only a session served over MCP pays for the web server

    token = token or secrets.token_urlsafe(24)
    gate = OutsideGate(session)
    server_app = build_server(LiveTools(session, gate))
    _quiet_logs()
    app = BearerToken(server_app.streamable_http_app(host=HOST), token)
    # A client still connected when the app closes does not hold up its exit for long.
    config = uvicorn.Config(app, log_config=None, log_level="critical", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="zorktui-mcp", daemon=True)
    thread.start()
    for _ in range(int(START_TIMEOUT / 0.02)):
        if server.started or not thread.is_alive():
            break
        thread.join(0.02)
    if not server.started:
        raise RuntimeError("the MCP server did not start")
    port = sock.getsockname()[1]
    return LiveServer(f"http://{HOST}:{port}/mcp", token, gate, server, thread)


def serve_app(session: Session, port: int, fail: Callable[[str], NoReturn]) -> LiveServer:
    """Serve the app's session on 127.0.0.1:PORT (``play --mcp-port``) and print where, with the token.

    The token goes to the terminal only (before the app draws there), never to the trajectory or a log.

    Args:
        session: The session the app plays.
        port: The port (``--mcp-port``).
        fail: Ends the command with one line (a port that is taken).
    """
    try:
        live = start_live(session, bind(port))
    except (OSError, RuntimeError) as exc:
        session.close()
        fail(f"--mcp-port {port}: cannot serve on {HOST} ({getattr(exc, 'strerror', None) or exc})")
    print(f"zorktui: MCP server on {live.url}; send the header  Authorization: Bearer {live.token}", file=sys.stderr)
    return live
