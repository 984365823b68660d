"""The MCP server: :class:`~zorktui.mcp_server.tools.GameTools` on the official SDK's ``MCPServer``.

Each tool call runs on a worker thread (the game lock lives in the tools), so
the server keeps answering while a command plays; a client that goes away
mid-call leaves the call to finish and its turn recorded. Every refusal,
unknown tool or bad argument is a tool error of one line.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from zorktui import __version__
from zorktui.core.errors import one_line
from zorktui.mcp_server.tools import GameTools, ToolRefused

INSTRUCTIONS = """Plays one interactive-fiction game (a Z-machine story) with its session recorded.
Call room_state() to see where you are, play_action(command) to play one game command,
valid_actions() for commands known to change the world here, memory_query("help") for the
questions the memory answers, map() for the map; undo(n), save_checkpoint(name) and
restore_checkpoint(name) to go back. The game's own QUIT, RESTART, SAVE, RESTORE and SCRIPT are refused."""

#: Each tool's description, as the client lists it.
DESCRIPTIONS = {
    "play_action": "Play one game command (e.g. 'open mailbox', 'north'). Returns the game's reply, then "
                   "[location | score s/max | moves m], and the critic's objection when it has one.",
    "room_state": "The room-state block: location, turn, score, inventory, things here, actions tried here "
                  "and what they did, valid actions, exits with destinations, unexplored ways, belief state.",
    "valid_actions": "Commands known to change the world from the current state, one per line.",
    "map": "The map the memory has drawn, as text; as_of: an earlier turn number.",
    "memory_query": "Ask the memory a question as `zorktui memory` does: 'where am i', 'what do i have', "
                    "'where is THING', 'exits from ROOM', 'unexplored', 'path to ROOM', 'what happened with THING', "
                    "'search WORD', 'rooms', 'help'; as_of: an earlier turn number.",
    "undo": "Go back n turns (default 1). Returns the turn and location play continues from.",
    "save_checkpoint": "Save the current state under a name (letters, digits, space, '-', '_', '.').",
    "restore_checkpoint": "Return to a checkpoint saved with save_checkpoint.",
}


#: Parameters the server fills in itself (the client's name, the event a call is cancelled by).
HIDDEN = frozenset({"client", "cancel"})


def _client_name(ctx: Context | None) -> str | None:
    """The connecting client's name, where the protocol told it (for the trajectory)."""
    try:
        params = ctx.session.client_params if ctx is not None else None
        return params.client_info.name if params is not None and params.client_info else None
    except Exception:  # noqa: BLE001 - a name is a nicety; no request fails for want of one
        return None


def _validation_line(tool: str, exc: ValidationError) -> str:
    """A pydantic validation error as one line: "undo: n: Input should be a valid integer"."""
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()]
    return f"{tool}: " + "; ".join(parts)


class ZorkMcpServer(MCPServer):
    """The SDK's server with argument names checked and every tool error cut to one line."""

    def __init__(self, params: dict[str, set[str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._params = params

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Call a tool, refusing unknown tools and arguments in one line."""
        if name not in self._params:
            raise ToolError(f"unknown tool {name!r}; the tools are {', '.join(self._params)}")
        unknown = sorted(set(arguments) - self._params[name])
        if unknown:
            takes = ", ".join(sorted(self._params[name])) or "no arguments"
            raise ToolError(f"{name} takes {takes}; unknown argument{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_validation_line(name, cause)) from cause
            text = one_line(exc, limit=1000).removeprefix(f"Error executing tool {name}").lstrip(": ")
            raise ToolError(f"{name}: {text or 'failed'}") from cause


def _wrap(tools: GameTools, name: str) -> Callable[..., Any]:
    """An async tool with the same signature as ``GameTools.<name>``, run on a worker thread."""
    method = getattr(tools, name)
    signature = inspect.signature(method)
    takes_client = "client" in signature.parameters
    takes_cancel = "cancel" in signature.parameters

    async def call(ctx: Context, **kwargs: Any) -> str:
        if takes_client:
            kwargs["client"] = _client_name(ctx)
        cancel = threading.Event()
        if takes_cancel:
            kwargs["cancel"] = cancel
        try:
            # Not abandoned on cancel: a client that goes away mid-call still gets its turn recorded. A
            # call that waits for the person (the app's gate) is told instead, and takes its proposal back.
            return await anyio.to_thread.run_sync(functools.partial(method, **kwargs), abandon_on_cancel=takes_cancel)
        except anyio.get_cancelled_exc_class():
            cancel.set()
            raise
        except ToolRefused as exc:
            raise ToolError(str(exc)) from None
        except ToolError:
            raise
        except Exception as exc:  # noqa: BLE001 - any fault of a tool is one line, the server goes on
            print(f"zorktui mcp: {name}: {one_line(exc, with_type=True)}", file=sys.stderr)
            raise ToolError(one_line(exc, with_type=True)) from None

    shown = [p for p in signature.parameters.values() if p.name not in HIDDEN]
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in shown] + [ctx_param],
        return_annotation=str)
    call.__annotations__ = {**{p.name: p.annotation for p in shown}, "ctx": Context, "return": str}
    call.__name__ = name
    call.__doc__ = DESCRIPTIONS[name]
    return call


def build_server(tools: GameTools) -> ZorkMcpServer:
    """The MCP server with one tool per :data:`DESCRIPTIONS` entry."""
    params = {name: {p for p in inspect.signature(getattr(tools, name)).parameters if p not in HIDDEN}
              for name in DESCRIPTIONS}
    server = ZorkMcpServer(params, name="zorktui", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    for name in DESCRIPTIONS:
        server.add_tool(_wrap(tools, name), name=name, description=DESCRIPTIONS[name], structured_output=False)
    return server


def serve(tools: GameTools, http_port: int | None = None, host: str = "127.0.0.1") -> None:
    """Serve the tools on stdio (``http_port`` None) or streamable HTTP at ``http://HOST:PORT/mcp``."""
    server = build_server(tools)
    if http_port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=http_port)
