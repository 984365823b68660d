"""Try zorktui as a player installed it: the app's first frame, a headless run, an MCP round trip, a served page.

CI installs the built wheel into a venv of its own and runs this script with
that venv's Python from a folder outside the checkout, so nothing can import
the source tree::

    cd "$(mktemp -d)" && /path/to/venv/bin/python /path/to/checkout/scripts/check_installed.py --outside CHECKOUT

Each check prints one line; the first that fails ends the script with status 1.
With ``--opened FILE`` it also writes, as JSON, every file under the package's
folder that this process opened other than Python modules (the test that the
wheel holds what the package reads, tests/test_packaging.py, runs it so).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

#: Files under the package's folder opened by this process (the audit hook's record).
OPENED: set[str] = set()


def _watch_opens(package_root: Path) -> None:
    """Record every non-Python file under ``package_root`` that is opened from now on."""
    root = str(package_root) + os.sep

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and isinstance(args[0], (str, Path)):
            path = os.path.abspath(str(args[0]))
            if path.startswith(root) and not path.endswith((".py", ".pyc")):
                OPENED.add(os.path.relpath(path, root))

    sys.addaudithook(hook)


def _zorktui_command() -> list[str]:
    """The ``zorktui`` a player would type: the console script beside this Python, else ``python -m zorktui``."""
    script = Path(sys.executable).parent / "zorktui"
    return [str(script)] if script.exists() else [sys.executable, "-m", "zorktui"]


def _say(check: str, detail: str) -> None:
    print(f"ok  {check}: {detail}", flush=True)


def check_where(outside: Path | None) -> Path:
    """The package is imported from the install, not from the checkout; returns its folder."""
    import zorktui

    package = Path(zorktui.__file__).resolve().parent
    if outside is not None and package.is_relative_to(outside.resolve()):
        raise SystemExit(f"FAIL where: zorktui was imported from the checkout ({package})")
    _say("where", f"zorktui {zorktui.__version__} from {package}")
    return package


def check_version() -> None:
    """``zorktui --version`` names the version and the config and data folders."""
    done = subprocess.run([*_zorktui_command(), "--version"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0 or "config" not in done.stdout or "data" not in done.stdout:
        raise SystemExit(f"FAIL --version: {done.returncode} {done.stdout!r} {done.stderr!r}")
    _say("--version", " | ".join(done.stdout.split("\n")[:3]))


def check_app(home: Path) -> None:
    """The app starts under Textual's Pilot and draws its first frame on the bundled game."""
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.ui.app import create_app
    from zorktui.ui.keymap import UiConfig
    from zorktui.ui.widgets.transcript import Transcript

    built = build_session(SessionOptions(mode="human", session=home / "app-session", seed=1))
    app = create_app(built, config=UiConfig(), themes_dir=home / "themes")
    shown: list[str] = []

    async def first_frame() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            deadline = time.monotonic() + 60
            while not app.query_one(Transcript).text.strip():
                if time.monotonic() > deadline:
                    raise SystemExit("FAIL app: the transcript stayed empty for 60 s")
                await pilot.pause(0.05)
            shown.append(app.query_one(Transcript).text.strip().splitlines()[0])
            await pilot.press("ctrl+q")

    asyncio.run(first_frame())
    _say("app", f"first frame drawn, transcript opens with {shown[0]!r}")


def check_run(home: Path) -> None:
    """``zorktui run`` plays commands from standard input and prints a transcript."""
    done = subprocess.run([*_zorktui_command(), "run", "--session", str(home / "run-session")], input="look\ninventory\n",
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or "moves 2" not in done.stdout:
        raise SystemExit(f"FAIL run: status {done.returncode}: {done.stderr.strip() or done.stdout[-300:]!r}")
    _say("run", f"two commands played, {len(done.stdout.splitlines())} lines of transcript")


def check_mcp(home: Path) -> None:
    """An MCP round trip with the official SDK's client: list the tools, play one command, read the room."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    command = _zorktui_command()
    server = StdioServerParameters(command=command[0], args=[*command[1:], "mcp", "--session", str(home / "mcp-session")],
                                   env=dict(os.environ), cwd=str(home))
    said: list[str] = []

    async def round_trip() -> None:
        async with Client(server) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            played = await client.call_tool("play_action", {"command": "look"})
            room = await client.call_tool("room_state", {})
            text = "\n".join(c.text for c in [*played.content, *room.content] if hasattr(c, "text"))
            if played.is_error or room.is_error or "ROOM:" not in text:
                raise SystemExit(f"FAIL mcp: {text[:300]!r}")
            said.append(f"{len(tools)} tools, played 'look', room_state answered")

    asyncio.run(round_trip())
    _say("mcp", said[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_serve(home: Path) -> None:
    """``zorktui serve`` answers its page, and a tab's websocket draws the app."""
    import aiohttp

    port = _free_port()
    log = tempfile.TemporaryFile("w+")
    server = subprocess.Popen([*_zorktui_command(), "serve", "--port", str(port)], stdout=log, stderr=log, cwd=str(home))
    try:
        page = ""
        deadline = time.monotonic() + 60
        while not page:
            if server.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"FAIL serve: no page ({log.read()[-300:]!r})")
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
            except OSError:
                time.sleep(0.2)
        drawn: list[str] = []

        async def tab() -> None:
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=36") as ws:
                    text = ""
                    end = time.monotonic() + 60
                    while "Transcript" not in text:
                        left = end - time.monotonic()
                        if left <= 0:
                            raise SystemExit(f"FAIL serve: the tab never drew the app ({text[-300:]!r})")
                        message = await ws.receive(timeout=left)
                        if message.type != aiohttp.WSMsgType.BINARY:
                            raise SystemExit(f"FAIL serve: the tab closed ({message.type})")
                        text += message.data.decode("utf-8", "replace")
                    drawn.append(f"{len(page)} bytes of page, the tab drew the app")

        asyncio.run(tab())
        _say("serve", drawn[0])
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def main() -> None:
    """Run every check in turn."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--outside", type=Path, help="fail if zorktui is imported from under this folder (the checkout)")
    parser.add_argument("--opened", type=Path, help="write the package's non-Python files this process opened, as JSON")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="zorktui-installed-"))
    # A clean home of the player's own: config, data and cache all under it.
    os.environ["ZORKTUI_HOME"] = str(home / "zorktui-home")
    try:
        import zorktui

        _watch_opens(Path(zorktui.__file__).resolve().parent)
        check_where(args.outside)
        check_version()
        check_app(home)
        check_run(home)
        check_mcp(home)
        check_serve(home)
    finally:
        if args.opened is not None:
            args.opened.write_text(json.dumps(sorted(OPENED)), encoding="utf-8")
        shutil.rmtree(home, ignore_errors=True)
    print("installed package: every check passed")


if __name__ == "__main__":
    main()
