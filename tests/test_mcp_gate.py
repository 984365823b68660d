"""The app's live gate (``zorktui play --mcp-port``): the SDK's own client over HTTP, the person at the keys.

Each test runs the app under Textual's Pilot with its MCP server on a free
port in this process (the app's server thread, as ``--mcp-port`` starts it);
an MCP client on a thread of its own sends ``play_action`` and the test
presses the keys a person would. No mocks: the real session, recorder,
critic, server and client.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation

from zorktui.mcp_server.live import LiveServer, bind, start_live
from zorktui.session.factory import SessionOptions, build_session
from zorktui.session.modes import Mode
from zorktui.ui.app import ZorkApp, create_app
from zorktui.ui.keymap import UiConfig
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.transcript import Transcript

SIZE = (120, 36)
CLIENT = "gate-test"
Call = tuple[bool, str]


def _app(tmp_path: Path, mode: str = "coplay", agent: str | None = None) -> tuple[ZorkApp, LiveServer]:
    built = build_session(SessionOptions(mode=mode, agent=agent, session=tmp_path / "s", seed=1))
    live = start_live(built.session, bind(0))
    return create_app(built, config=UiConfig(), themes_dir=tmp_path / "themes", mcp=(live.url, live.token)), live


def _client(live: LiveServer, token: str | None = None, name: str = CLIENT) -> tuple[Any, Client]:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token or live.token}"})
    return http, Client(streamable_http_client(live.url, http_client=http), client_info=Implementation(name=name, version="1"))


async def _call(client: Client, command: str) -> Call:
    result = await client.call_tool("play_action", {"command": command})
    return bool(result.is_error), "\n".join(c.text for c in result.content if hasattr(c, "text"))


def _agent(live: LiveServer, script: Callable[[Client, list[Call]], Awaitable[None]]) -> tuple[Future[None], list[Call]]:
    """Run ``script`` with a connected client on its own thread and event loop; its results land in the list."""
    done: Future[None] = Future()
    results: list[Call] = []

    async def main() -> None:
        http, client = _client(live)
        async with http, client:
            await script(client, results)

    def thread() -> None:
        try:
            asyncio.run(main())
            done.set_result(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            done.set_exception(exc)

    threading.Thread(target=thread, daemon=True).start()
    return done, results


async def until(pilot: Any, predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out waiting"
        await pilot.pause(0.02)


def _outside(app: ZorkApp, command: str) -> bool:
    p = app.session.pending
    return p is not None and p.command == command and p.source == f"mcp:{CLIENT}" \
        and app.query_one(AgentPanel).state.proposal is p


def _turns(tmp_path: Path) -> list[dict[str, Any]]:
    lines = (tmp_path / "s" / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
    return [r for r in map(json.loads, lines) if r.get("type") == "turn" and r.get("command")]


async def _type(pilot: Any, text: str) -> None:
    line = pilot.app.query_one(CommandLine)
    line.focus()
    line.value = text
    await pilot.press("enter")


def test_coplay_accept_edit_reject_and_supersede(tmp_path: Path) -> None:
    app, live = _app(tmp_path)

    async def script(client: Client, results: list[Call]) -> None:
        for command in ("examine boat", "north", "north", "south"):
            results.append(await _call(client, command))

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            done, results = _agent(live, script)
            # accept: Enter on an empty line; the call returns the game's reply
            await until(pilot, lambda: _outside(app, "examine boat"))
            panel = app.query_one(AgentPanel).text
            assert "Proposal: examine boat" in panel and f"mcp:{CLIENT}" in panel and "Critic: against" in panel
            await pilot.press("enter")
            await until(pilot, lambda: len(results) == 1)
            assert not results[0][0] and "boat" in results[0][1] and "[Landing Stage | score 0/70 | moves 1]" in results[0][1]
            # edit: ctrl+e, change it, Enter: the edited command is played and reported
            await until(pilot, lambda: _outside(app, "north"))
            await pilot.press("ctrl+e")
            app.query_one(CommandLine).value = "take flask"
            await pilot.press("enter")
            await until(pilot, lambda: len(results) == 2)
            assert not results[1][0] and results[1][1].startswith("The person changed it to 'take flask':")
            # reject with a reason: the call returns it, as a tool error of one line
            await until(pilot, lambda: _outside(app, "north"))
            await pilot.press("ctrl+r")
            await pilot.pause()
            await pilot.press(*"not yet", "enter")
            await until(pilot, lambda: len(results) == 3)
            assert results[2] == (True, "play_action: rejected by the person: not yet")
            # the person's own command supersedes the waiting proposal
            await until(pilot, lambda: _outside(app, "south"))
            await _type(pilot, "look")
            await until(pilot, lambda: len(results) == 4)
            assert results[3][0] and "the person played 'look' instead" in results[3][1]
            done.result(10)
            assert app.session.current.turn == 3 and app.is_running

    try:
        asyncio.run(go())
    finally:
        live.stop()
    turns = _turns(tmp_path)
    assert [(t["command"], t["actor"]) for t in turns] == [("examine boat", "mcp"), ("take flask", "human"), ("look", "human")]
    assert turns[0]["client"] == CLIENT
    fates = [(t["proposal"]["source"], t["proposal"]["command"], t["proposal"]["fate"]) for t in turns]
    assert fates == [(f"mcp:{CLIENT}", "examine boat", "accepted"), (f"mcp:{CLIENT}", "north", "edited"),
                     (f"mcp:{CLIENT}", "south", "superseded")]
    assert turns[0]["proposal"]["critic"]["verdict"] == "reject"
    assert turns[2]["proposal"]["refused"] == [{"command": "north", "by": "person", "reason": "not yet"}]
    folder = (tmp_path / "s").rglob("*")
    assert not any(live.token in p.read_text(errors="replace") for p in folder if p.is_file() and p.suffix in (".jsonl", ".json"))


def test_token_required_disconnect_withdraws_one_at_a_time_and_the_end(tmp_path: Path) -> None:
    app, live = _app(tmp_path)

    async def script(client: Client, results: list[Call]) -> None:
        try:  # a client that gives up mid-wait: the SDK cancels the request
            await asyncio.wait_for(_call(client, "north"), 1.5)
        except TimeoutError:
            results.append((True, "gave up"))

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for token in (None, "wrong"):
                request = urllib.request.Request(live.url, data=b"{}", method="POST",
                                                 headers={"Authorization": f"Bearer {token}"} if token else {})
                with pytest.raises(urllib.error.HTTPError) as refused:
                    await asyncio.to_thread(urllib.request.urlopen, request, timeout=5)
                assert refused.value.code == 401
            done, results = _agent(live, script)
            await until(pilot, lambda: _outside(app, "north"))
            await until(pilot, lambda: results == [(True, "gave up")] and app.session.pending is None)
            done.result(10)
            await until(pilot, lambda: "withdrawn" in app.query_one(Transcript).text)
            assert "'north' was withdrawn: the outside agent went away" in " ".join(app.query_one(Transcript).text.split())
            assert app.query_one(AgentPanel).state.proposal is None
            # two clients at once: the second is told the first still waits; nothing of it plays
            first, firsts = _agent(live, lambda c, r: _append(r, _call(c, "north")))
            await until(pilot, lambda: _outside(app, "north"))
            second, seconds = _agent(live, lambda c, r: _append(r, _call(c, "west")))
            second.result(10)
            assert seconds[0] == (True, "play_action: not played: 'north' is still waiting for the person's decision; "
                                        "one proposal at a time")
            await pilot.press("enter")
            first.result(10)
            assert not firsts[0][0] and app.session.current.turn == 1
            # the game ends; a call after it is a one-line tool error and the app goes on
            for command in ("east", "jump"):
                await _type(pilot, command)
            await until(pilot, lambda: app.session.current.done)
            after, afters = _agent(live, lambda c, r: _append(r, _call(c, "look")))
            after.result(10)
            assert afters == [(True, "play_action: the game has ended: undo(1) or restore_checkpoint(name) to play on")]
            assert app.is_running

    try:
        asyncio.run(go())
    finally:
        live.stop()
    turns = _turns(tmp_path)
    assert [(t["command"], t["actor"]) for t in turns] == [("north", "mcp"), ("east", "human"), ("jump", "human")]
    assert turns[0]["proposal"]["fate"] == "accepted"
    # the proposal its client took back is in the record of the turn played next
    assert turns[0]["proposal"]["refused"] == [{"command": "north", "by": f"mcp:{CLIENT}",
                                                "reason": "the outside agent went away"}]


async def _append(results: list[Call], call: Awaitable[Call]) -> None:
    results.append(await call)


def test_autopilot_plays_with_the_critic_and_typing_takes_over(tmp_path: Path) -> None:
    app, live = _app(tmp_path, mode="autopilot")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            played, results = _agent(live, lambda c, r: _append(r, _call(c, "north")))
            played.result(10)
            assert not results[0][0] and app.session.current.turn == 1  # played at once, no proposal
            refused, refusals = _agent(live, lambda c, r: _append(r, _call(c, "examine lighthouse")))
            refused.result(10)
            assert refusals[0][0] and "not played: the critic is against it" in refusals[0][1]
            assert "\n" not in refusals[0][1] and app.session.current.turn == 1
            await until(pilot, lambda: "the critic is against it" in app.query_one(Transcript).text)
            await _type(pilot, "look")  # the person takes over
            await until(pilot, lambda: app.session.mode == Mode.COPLAY and app.session.current.turn == 2)
            waiting, waits = _agent(live, lambda c, r: _append(r, _call(c, "south")))
            await until(pilot, lambda: _outside(app, "south"))
            await pilot.press("enter")
            waiting.result(10)
            assert not waits[0][0]

    try:
        asyncio.run(go())
    finally:
        live.stop()
    turns = _turns(tmp_path)
    assert [(t["command"], t["actor"]) for t in turns] == [("north", "mcp"), ("look", "human"), ("south", "mcp")]
    assert turns[0]["critic"]["verdict"] == "accept" and "proposal" not in turns[0]
    assert turns[2]["proposal"]["fate"] == "accepted"


def test_an_outside_proposal_takes_the_place_of_the_apps_own(tmp_path: Path) -> None:
    app, live = _app(tmp_path, agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session.pending is not None and app.session.pending.source == "explore")
            own = app.session.pending.command
            done, results = _agent(live, lambda c, r: _append(r, _call(c, "take flask")))
            await until(pilot, lambda: _outside(app, "take flask"))
            assert f"in place of explore's proposal '{own}'" in app.session.pending.notes
            await pilot.pause(0.5)  # the app's own agent does not take its place back meanwhile
            assert _outside(app, "take flask")
            await pilot.press("enter")
            done.result(10)
            assert not results[0][0]
            # the app's own agent proposes again for the turn after
            await until(pilot, lambda: app.session.pending is not None and app.session.pending.turn == 1)
            assert app.session.pending.source == "explore"

    try:
        asyncio.run(go())
    finally:
        live.stop()
    turns = _turns(tmp_path)
    assert turns[0]["actor"] == "mcp" and turns[0]["proposal"]["source"] == f"mcp:{CLIENT}"
    assert turns[0]["proposal"]["fate"] == "accepted"


def test_a_port_taken_or_no_terminal_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zorktui.cli import main
    from zorktui.mcp_server.live import serve_app

    built = build_session(SessionOptions(mode="coplay", session=tmp_path / "s", seed=1))
    taken = bind(0)
    port = taken.getsockname()[1]
    lines: list[str] = []

    def fail(line: str) -> Any:
        lines.append(line)
        raise SystemExit(2)

    try:
        with pytest.raises(SystemExit):
            serve_app(built.session, port, fail)
    finally:
        taken.close()
    assert lines == [f"--mcp-port {port}: cannot serve on 127.0.0.1 (Address already in use)"]
    assert built.session.closed
    # piped, as pytest runs it: no screen for the person to decide on
    with pytest.raises(SystemExit) as exited:
        main(["play", "--mcp-port", "8765", "--session", str(tmp_path / "p")])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("zorktui: --mcp-port is for the app, and this is not a terminal") and "\n" not in err
