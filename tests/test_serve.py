"""``zorktui serve`` driven by a real websocket client, as a browser's page drives it (no mocks).

Each test starts the real server as a subprocess, opens tabs over textual-serve's
websocket protocol (tests/webclient.py), reads the screen the app draws and types
into it, then reads the session folders the tabs left.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")

import aiohttp  # installed with textual-serve
from paths import BUNDLED, ZIL
from webclient import ROOT, Screen, free_port, start_server, stop_server


def _env(tmp_path: Path) -> dict[str, str]:
    """No user config, no model: the offline agent, the default study text, folders under tmp_path."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    return env


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines() if line.strip()]


async def _tab(port: int, steps: Callable[[Screen], Awaitable[None]]) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=36") as ws:
            await steps(Screen(ws))


def _serve(tmp_path: Path, args: list[str], *tabs: Callable[[Screen], Awaitable[None]]) -> tuple[int, str]:
    """Start ``zorktui serve ARGS``, open each tab in turn and play its steps, stop: the port and what it said."""
    port = free_port()
    server = start_server(*args, port=port, env=_env(tmp_path))
    try:
        for steps in tabs:
            asyncio.run(_tab(port, steps))
    finally:
        said = stop_server(server)
    return port, said


def _play_into(tmp_path: Path, folder: Path, *commands: str) -> None:
    """Play ``commands`` on the bundled game with ``zorktui run``, recorded in the session ``folder``."""
    script = tmp_path / f"{folder.name}.txt"
    script.write_text("\n".join(commands) + "\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), **_env(tmp_path))
    subprocess.run([sys.executable, "-m", "zorktui", "run", "--commands", str(script), "--session", str(folder)],
                   cwd=ROOT, env=env, capture_output=True, timeout=60, check=True)


def test_each_tab_plays_the_full_app_in_its_own_session(tmp_path: Path) -> None:
    root = tmp_path / "web"

    async def first(screen: Screen) -> None:
        # The full app, not line mode: the opening, and the panels and the status bar around it.
        await screen.until("Landing Stage", "KEEPER'S LIGHT", "Map", "Agent", "mode coplay")
        screen.mark()
        await screen.type("north\r")
        await screen.until("Shingle Path", "lighthouse rises pale")

    async def second(screen: Screen) -> None:
        await screen.until("Landing Stage", "turn 0")  # a new session, not the first tab's

    port, said = _serve(tmp_path, [str(BUNDLED), "--session-root", str(root)], first, second)
    assert "serving THE" not in said and f"http://127.0.0.1:{port}" in said
    folders = sorted(p.parent for p in root.glob("*/trajectory.jsonl"))
    assert len(folders) == 2, said
    commands = [[r.get("command") for r in _records(f) if r.get("type") == "turn"] for f in folders]
    assert sorted(commands) == [[None], [None, "north"]]


def test_a_tab_ends_when_the_server_is_killed(tmp_path: Path) -> None:
    import signal
    import time

    port, root = free_port(), tmp_path / "web"
    server = start_server("--mode", "human", "--session-root", str(root), port=port, env=_env(tmp_path))
    try:
        async def open_and_kill(screen: Screen) -> None:
            await screen.until("Landing Stage")
            server.send_signal(signal.SIGKILL)  # no goodbye to the tab: its stdin just closes

        asyncio.run(_tab(port, open_and_kill))
    finally:
        stop_server(server)
    tabs = lambda: subprocess.run(["pgrep", "-f", f"session-root {root}"], capture_output=True, text=True).stdout.split()  # noqa: E731
    deadline = time.monotonic() + 20
    while tabs() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not tabs()


def _tab_pids(root: Path, server: subprocess.Popen[str]) -> list[int]:
    """The tab processes (and their children) of a server whose tabs write under ``root``."""
    found = subprocess.run(["pgrep", "-f", f"session-root {root}"], capture_output=True, text=True).stdout.split()
    tabs = [int(pid) for pid in found if int(pid) != server.pid]
    children = subprocess.run(["pgrep", "-g", ",".join(map(str, tabs))], capture_output=True,
                              text=True).stdout.split() if tabs else []
    return sorted(set(tabs) | {int(pid) for pid in children})


def test_a_tab_that_does_not_hear_quit_is_ended_with_its_children(tmp_path: Path) -> None:
    """The browser goes while the tab's app cannot answer (stopped): its whole process group ends, the server stays."""
    import signal
    import time

    port, root = free_port(), tmp_path / "web"
    server = start_server(str(BUNDLED), "--mode", "coplay", "--session-root", str(root), port=port, env=_env(tmp_path))
    seen: list[int] = []
    try:
        async def open_freeze_and_leave(screen: Screen) -> None:
            await screen.until("Landing Stage", "Agent")
            pids = _tab_pids(root, server)
            assert pids
            seen.extend(pids)
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)  # deaf to textual-serve's quit, as an app busy in a loop is

        asyncio.run(_tab(port, open_freeze_and_leave))  # the websocket closes here
        gone_by = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() and _state(pid) != "Z" for pid in seen) and time.monotonic() < gone_by:
            time.sleep(0.2)
        assert [pid for pid in seen if Path(f"/proc/{pid}").exists() and _state(pid) != "Z"] == []
        assert server.poll() is None  # the server stays up
        # And serves the next tab as before.
        asyncio.run(_tab(port, lambda screen: screen.until("Landing Stage")))
    finally:
        stop_server(server)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")),
                    reason="needs headless Chromium (Debian: apt-get install chromium)")
def test_tabs_dropped_by_headless_chromium_leave_nothing_behind() -> None:
    """scripts/drop_tabs.py: browsers killed before and after the app's first frame; no process left, no CPU."""
    for early in ([], ["--early"]):
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / "drop_tabs.py"), "--tabs", "3", *early],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "left: 0 processes" in done.stdout and "after stopping the server: 0 processes" in done.stdout


def test_another_story_and_mode(tmp_path: Path) -> None:
    root = tmp_path / "web"

    async def play(screen: Screen) -> None:
        await screen.until("Shingle Beach", "LAMPLIGHTER", "mode human")
        screen.mark()
        await screen.type("take wick\r")
        await screen.until("You take the cotton wick")

    _serve(tmp_path, [str(ZIL), "--mode", "human", "--session-root", str(root)], play)
    (folder,) = [p.parent for p in root.glob("*/trajectory.jsonl")]
    assert [r.get("command") for r in _records(folder) if r.get("type") == "turn"] == [None, "take wick"]


def test_a_study_over_the_web_asks_a_pseudonym_then_consent_and_files_it_for_summarize(tmp_path: Path) -> None:
    root = tmp_path / "study"

    async def participant(screen: Screen) -> None:
        await screen.until("pseudonym")
        await screen.type("Jane Doe\r")
        await screen.until("use a pseudonym")  # a name is refused, in the tab
        screen.mark()
        for _ in "Jane Doe":
            await screen.type("\x7f")  # backspace, a key at a time as a browser sends it
        await screen.until("pseudonym, then Enter")  # the box is empty again: its placeholder shows
        screen.mark()
        await screen.type("P-042\r")
        await screen.until("Do you agree", "participant P-042")
        screen.mark()
        await screen.type("y")
        await screen.until("play begins")
        screen.mark()
        await screen.type("north\r")
        await screen.until("Shingle Path")

    _serve(tmp_path, ["--baseline", "--session-root", str(root)], participant)
    (folder,) = [p.parent for p in root.glob("**/trajectory.jsonl")]
    assert folder.parent == root / "baseline" / "P-042"
    records = _records(folder)
    assert records[0]["participant"] == "P-042" and any(r.get("answer") == "agreed" for r in records)
    summary = subprocess.run([sys.executable, "-m", "zorktui", "data", "summarize", str(root), "--json"], cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=60)
    assert summary.returncode == 0, summary.stderr
    (story,) = json.loads(summary.stdout)
    assert story["title"] == "THE KEEPER'S LIGHT" and story["sessions"] == 1


def test_watch_follows_a_growing_session_and_takes_no_commands(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    _play_into(tmp_path, folder, "north")
    before = (folder / "trajectory.jsonl").read_bytes()

    async def watch(screen: Screen) -> None:
        await screen.until("Shingle Path", "Room", "Map", "● live")
        screen.mark()
        await screen.type("west\r")  # a watcher's keys never reach the game
        await asyncio.sleep(1.0)
        assert (folder / "trajectory.jsonl").read_bytes() == before
        _play_into(tmp_path, folder, "west")  # played elsewhere: the view follows
        await screen.until("Cottage Kitchen")

    _serve(tmp_path, ["--watch", str(folder)], watch)
    commands = [r.get("command") for r in _records(folder) if r.get("type") == "turn"]
    assert commands == [None, "north", "west"]


def test_watch_of_several_sessions_asks_which_first(tmp_path: Path) -> None:
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder, command in zip(folders, ("north", "east"), strict=False):
        _play_into(tmp_path, folder, command)

    async def choose(screen: Screen) -> None:
        await screen.until("Watch a session", str(folders[1]))
        screen.mark()
        await screen.type("\x1b[B")  # down: the second session
        await asyncio.sleep(0.3)
        await screen.type("\r")
        await screen.until("Boulder Cove", "● live")
        assert "Shingle Path" not in screen.text  # not the first session

    _serve(tmp_path, ["--watch", *map(str, folders)], choose)


@pytest.mark.parametrize("args, says", [
    (["--watch", "/nonexistent/session"], "no such session folder"),
    (["--watch", str(ROOT), "--agent", "explore"], "--agent is for playing"),
    (["/nonexistent/story.z5"], "no such file"),
    (["--baseline", "--agent", "explore"], "alone"),
    (["--port", "0"], "port number"),
])
def test_serve_refuses_bad_input_in_one_line(args: list[str], says: str) -> None:
    done = subprocess.run([sys.executable, "-m", "zorktui", "serve", *args], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_another_host_is_served_with_a_warning(tmp_path: Path) -> None:
    _port, said = _serve(tmp_path, ["--host", "0.0.0.0"])
    assert "warning: listening on 0.0.0.0: anyone who can reach port" in said


def test_the_page_tells_a_screen_reader_how_to_play_in_plain_mode(tmp_path: Path) -> None:
    """A screen reader cannot read the terminal's canvas: the page's HTML says how to play instead."""
    port = free_port()
    server = start_server(str(BUNDLED), "--session-root", str(tmp_path / "web"), port=port, env=_env(tmp_path))

    async def read_page() -> str:
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as response:
            return await response.text()

    try:
        page = asyncio.run(read_page())
    finally:
        stop_server(server)
    body = page[page.index("<body"):]
    assert body.index("zorktui play --plain") < body.index('id="terminal"')  # read before the canvas
    assert "screen reader" in body and "plain = true" in body and "/reject REASON" in body
