"""``zorktui mcp`` driven by the official MCP SDK's own client, over stdio and streamable HTTP (no mocks).

Each test starts the real server as a subprocess on the bundled game, plays
through the SDK's client, and reads the session folder's trajectory after.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

import zorktui
from zorktui.cli import main

ROOT = Path(zorktui.__file__).resolve().parents[1]
TOOLS = ["play_action", "room_state", "valid_actions", "map", "memory_query", "undo", "save_checkpoint",
         "restore_checkpoint"]


def _env() -> dict[str, str]:
    """The server's environment: this checkout's package, the test's private data folder."""
    return {"PYTHONPATH": str(ROOT), "ZORKTUI_HOME": os.environ["ZORKTUI_HOME"]}


def _stdio(session: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "zorktui", "mcp", "--session", str(session)],
                                 env=_env(), cwd=str(ROOT))


async def _call(client: Client, tool: str, **arguments: Any) -> tuple[bool, str]:
    """(is_error, text) of one tool call."""
    result = await client.call_tool(tool, arguments)
    return bool(result.is_error), "\n".join(c.text for c in result.content if hasattr(c, "text"))


def _records(session: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (session / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()]


def _verify(session: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "zorktui", "replay", str(session), "--verify"], capture_output=True,
                          text=True, env={**os.environ, **_env()}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _one_line_error(result: tuple[bool, str], *words: str) -> str:
    is_error, text = result
    assert is_error, text
    assert "\n" not in text and len(text) < 400, text
    for word in words:
        assert word in text.lower(), text
    return text


def test_stdio_plays_asks_saves_restores_and_refuses(tmp_path: Path) -> None:
    session = tmp_path / "s"

    async def drive() -> None:
        async with Client(_stdio(session)) as client:
            assert [t.name for t in (await client.list_tools()).tools] == TOOLS
            bad, text = await _call(client, "play_action", command="examine boat")
            assert not bad and "boat" in text.lower() and "[Landing Stage | score 0/70 | moves 1]" in text
            assert not (await _call(client, "play_action", command="take flask"))[0]
            bad, text = await _call(client, "play_action", command="north")
            assert not bad and "| moves 3]" in text
            here = text.splitlines()[-1].strip("[").split(" |")[0]
            bad, state = await _call(client, "room_state")
            assert not bad and f"ROOM: {here}" in state and "VALID ACTIONS:" in state and "INVENTORY: flask" in state
            assert "BELIEF STATE:" in state and "EXITS:" in state
            bad, actions = await _call(client, "valid_actions")
            assert not bad and "south" in actions.splitlines()
            # The memory as of an earlier turn, and now.
            bad, then = await _call(client, "memory_query", question="where am i", as_of=1)
            assert not bad and "Landing Stage" in then and "as of turn 1" in then
            bad, now = await _call(client, "memory_query", question="where am i")
            assert not bad and here in now
            _one_line_error(await _call(client, "memory_query", question="where am i", as_of=99), "as_of 99", "0 to 3")
            _one_line_error(await _call(client, "memory_query", question="colour of the sky"), "help")
            bad, drawn = await _call(client, "map", as_of=2)
            assert not bad and drawn.startswith("Map as of turn 2") and "Landing Stage" in drawn
            # Checkpoints and undo.
            assert not (await _call(client, "save_checkpoint", name="path"))[0]
            assert not (await _call(client, "play_action", command="south"))[0]
            bad, back = await _call(client, "restore_checkpoint", name="path")
            assert not bad and "back to turn 3" in back and here in back
            _one_line_error(await _call(client, "restore_checkpoint", name="nowhere"), "no checkpoint", "path")
            _one_line_error(await _call(client, "save_checkpoint", name="../x"), "checkpoint name")
            # The restore is itself a move undo takes back: then "south", then "north".
            bad, back = await _call(client, "undo", n=3)
            assert not bad and "back to turn 2 (Landing Stage)" in back
            _one_line_error(await _call(client, "undo", n=0), "1 or more")
            # The game's own out-of-world verbs, chains and floods are refused, never played.
            _one_line_error(await _call(client, "play_action", command="quit"), "quit", "not played")
            _one_line_error(await _call(client, "play_action", command="save"), "save_checkpoint")
            _one_line_error(await _call(client, "play_action", command="restore"), "restore_checkpoint")
            _one_line_error(await _call(client, "play_action", command="restart"), "not played")
            _one_line_error(await _call(client, "play_action", command="script"), "not played")
            _one_line_error(await _call(client, "play_action", command="undo"), "undo(n)")
            _one_line_error(await _call(client, "play_action", command="north then east"), "one command at a time")
            _one_line_error(await _call(client, "play_action", command="north. east"), "one command at a time")
            _one_line_error(await _call(client, "play_action", command="north\neast"), "one line")
            _one_line_error(await _call(client, "play_action", command="x" * 5000), "not played", "80 characters")
            # Unknown tools and arguments, and missing or mistyped ones.
            _one_line_error(await _call(client, "dance"), "unknown tool", "play_action")
            _one_line_error(await _call(client, "undo", steps=2), "unknown argument", "steps")
            _one_line_error(await _call(client, "play_action"), "command", "required")
            _one_line_error(await _call(client, "undo", n="many"), "integer")
            # Still serving after all that.
            bad, text = await _call(client, "play_action", command="look")
            assert not bad and "Landing Stage" in text

    asyncio.run(drive())
    records = _records(session)
    turns = [r for r in records if r.get("type") == "turn" and r.get("command")]
    assert [r["command"] for r in turns] == ["examine boat", "take flask", "north", "south", "look"]
    assert {r["actor"] for r in turns} == {"mcp"} and all(r.get("client") for r in turns)
    assert all("critic" in r for r in turns)
    assert [r["type"] for r in records if r["type"] in ("save", "restore", "undo")] == ["save", "restore", "undo"]
    assert records[0]["mode"] == "mcp"
    assert "verified: 6 turns and 2 jumps" in _verify(session)  # the opening and five commands


def test_stdio_refuses_play_after_the_end_and_plays_on_after_undo(tmp_path: Path) -> None:
    session = tmp_path / "s"

    async def drive() -> None:
        async with Client(_stdio(session)) as client:
            for command in ("north", "east"):
                assert not (await _call(client, "play_action", command=command))[0]
            bad, text = await _call(client, "play_action", command="jump")
            assert not bad and "The game has ended" in text
            _one_line_error(await _call(client, "play_action", command="look"), "ended", "undo")
            assert (await _call(client, "valid_actions"))[1].startswith("None")
            assert not (await _call(client, "room_state"))[0]
            assert not (await _call(client, "undo"))[0]
            assert not (await _call(client, "play_action", command="look"))[0]

    asyncio.run(drive())
    commands = [r.get("command") for r in _records(session) if r.get("type") == "turn"]
    assert commands == [None, "north", "east", "jump", "look"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_http(session: Path) -> tuple[subprocess.Popen[str], str]:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "zorktui", "mcp", "--session", str(session), "--http", str(port)],
                              env={**os.environ, **_env()}, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            assert server.poll() is None, server.communicate()[1]
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the HTTP server did not start")


def test_http_two_clients_at_once_and_one_that_leaves_mid_call(tmp_path: Path) -> None:
    session = tmp_path / "s"
    server, url = _serve_http(session)

    async def player(commands: list[str]) -> list[str]:
        async with Client(url) as client:
            replies = []
            for command in commands:
                bad, text = await _call(client, "play_action", command=command)
                assert not bad, text
                replies.append(text)
            return replies

    async def leaver(connected: asyncio.Event) -> None:
        async with Client(url) as client:
            connected.set()
            await client.call_tool("play_action", {"command": "north"})

    async def drive() -> str:
        a, b = await asyncio.gather(player(["examine boat", "take flask", "inventory"]),
                                    player(["look", "examine lighthouse", "look"]))
        # Every reply was a whole turn: six moves in all, whatever the order.
        moves = sorted(int(text.splitlines()[-1 if "Critic" not in text else -2].split("moves ")[1].rstrip("]"))
                       for text in a + b)
        assert moves == [1, 2, 3, 4, 5, 6]
        connected = asyncio.Event()
        task = asyncio.create_task(leaver(connected))
        await connected.wait()
        await asyncio.sleep(0.02)  # the call is on its way, or already playing
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        async with Client(url) as client:
            bad, state = await _call(client, "room_state")
            assert not bad
            _one_line_error(await _call(client, "play_action", command="quit"), "quit")
            return state

    try:
        state = asyncio.run(drive())
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    assert "session saved" in err
    turns = [r for r in _records(session) if r.get("type") == "turn" and r.get("command")]
    assert [r["turn"] for r in turns] == list(range(1, len(turns) + 1))
    assert sorted(r["command"] for r in turns[:6]) == sorted(
        ["examine boat", "take flask", "inventory", "look", "examine lighthouse", "look"])
    # The leaver's command, if it reached the server, was played to the end and recorded before the room state.
    assert len(turns) in (6, 7) and turns[6:7] in ([], [turns[-1]]) and all(t["command"] == "north" for t in turns[6:])
    assert state.startswith("ROOM: ") and f"TURN {len(turns)};" in state
    assert _verify(session).startswith(f"verified: {len(turns) + 1} turns")  # the opening counts


def test_cli_flags_are_checked_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in ((["mcp", "--host", "0.0.0.0"], "--host is for --http"),
                        (["mcp", "--http", "70000"], "1 to 65535")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err
