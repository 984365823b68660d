"""Human-baseline sessions: consent screen (Pilot), the study's rules, the participant's folder, summaries."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import records, settle, turn_records, type_command, until

from zorktui.record import summary
from zorktui.session.baseline import BaselineError, BaselineRules, check_participant, load_rules, participant_folder
from zorktui.session.factory import SessionOptions, build_session
from zorktui.ui.app import ZorkApp, create_app
from zorktui.ui.keymap import UiConfig
from zorktui.ui.screens.consent import ConsentScreen
from zorktui.ui.widgets.transcript import Transcript

SIZE = (110, 34)
CONSENT = "Study 7 [b]consent[/b]: we record your commands. Agree?"


def baseline_app(folder: Path, rules: BaselineRules) -> ZorkApp:
    built = build_session(SessionOptions(session=folder, seed=1, baseline=rules))
    return create_app(built, config=UiConfig(), themes_dir=folder.parent / "themes")


async def wait_closed(app: ZorkApp, timeout: float = 30.0) -> None:
    # Not pilot.pause: it waits on an app that is about to be gone.
    end = time.monotonic() + timeout
    while app.is_running and time.monotonic() < end:
        await asyncio.sleep(0.05)
    assert not app.is_running, "the app did not close"


def test_agreeing_records_consent_then_play_with_no_agent_no_undo_no_memory_panels(tmp_path: Path) -> None:
    rules = BaselineRules("P-017", consent=CONSENT, allow_undo=False, show_memory=False)
    app = baseline_app(tmp_path / "s", rules)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConsentScreen))
            assert app.screen.query_one("#consent-text").content.plain == CONSENT   # literal, never markup
            await pilot.press("y")
            await until(pilot, lambda: not isinstance(app.screen, ConsentScreen))
            for panel in ("#room", "#map", "#agent"):
                assert not app.query_one(panel).display
            await type_command(pilot, "north")
            await settle(pilot, app)
            await type_command(pilot, "/undo")
            await settle(pilot, app)
            await type_command(pilot, "undo")                           # the game's own UNDO verb
            await settle(pilot, app)
            await type_command(pilot, "/mode coplay")
            await pilot.press("ctrl+a")                                 # no autopilot for a participant
            await type_command(pilot, "/memory")
            await settle(pilot, app)
            text = app.query_one(Transcript).text
            assert text.count("undo is switched off") >= 2
            assert "/mode is not part of this study" in text and "/memory is not part of this study" in text
            assert app.session.current.turn == 1 and not app.session.autopilot.running
            assert len(app.screen_stack) == 1                           # no inspector opened

    asyncio.run(go())
    recs = records(tmp_path)
    header = recs[0]
    assert header["participant"] == "P-017" and header["agent"] is None and header["mode"] == "human"
    consent = [r for r in recs if r["type"] == "consent"]
    assert consent == [consent[0]] and consent[0]["answer"] == "agreed" and consent[0]["text"] == CONSENT
    assert consent[0]["allow_undo"] is False
    assert recs.index(consent[0]) < recs.index(turn_records(tmp_path)[0])     # asked before the first command
    assert [r["command"] for r in turn_records(tmp_path)] == ["north"]
    assert not any(r["type"] == "undo" for r in recs)


def test_declining_closes_without_playing_and_summaries_leave_it_out(tmp_path: Path) -> None:
    folder = tmp_path / "baseline" / "P-2" / "t1"
    app = baseline_app(folder, BaselineRules("P-2", consent=CONSENT))

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConsentScreen))
            await pilot.click("#decline")
            await wait_closed(app)

    asyncio.run(go())
    recs = [r for r in (folder / "trajectory.jsonl").read_text().splitlines()]
    assert any('"answer": "declined"' in r for r in recs)
    assert not any('"command": "' in r for r in recs)
    # Reopening a declined folder plays nothing either.
    again = baseline_app(folder, BaselineRules("P-2", consent=CONSENT))

    async def reopen() -> None:
        async with again.run_test(size=SIZE):
            await wait_closed(again)

    asyncio.run(reopen())
    summaries, skipped = summary.summarize([tmp_path])
    assert summaries == [] and any("did not consent" in s for s in skipped)


def test_resuming_an_agreed_session_does_not_ask_again_and_think_time_excludes_reading(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    app = baseline_app(folder, BaselineRules("P-3", consent=CONSENT))

    async def first() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConsentScreen))
            await asyncio.sleep(1.5)                                    # reading the consent text
            await pilot.press("y")
            await until(pilot, lambda: not isinstance(app.screen, ConsentScreen))
            await type_command(pilot, "north")
            await settle(pilot, app)

    asyncio.run(first())
    assert turn_records(tmp_path)[0]["think_ms"] < 1500
    again = baseline_app(folder, BaselineRules("P-3", consent=CONSENT))

    async def second() -> None:
        async with again.run_test(size=SIZE) as pilot:
            await settle(pilot, again)
            assert not isinstance(again.screen, ConsentScreen)
            await type_command(pilot, "south")
            await settle(pilot, again)

    asyncio.run(second())
    recs = records(tmp_path)
    assert [r["answer"] for r in recs if r["type"] == "consent"] == ["agreed"]
    assert [(r["turn"], r["command"]) for r in turn_records(tmp_path)] == [(1, "north"), (2, "south")]


def test_study_rules_from_the_config_file_allow_undo_and_show_memory(tmp_path: Path, monkeypatch: Any) -> None:
    consent_file = tmp_path / "consent.txt"
    consent_file.write_text("Our own consent text.\n", encoding="utf-8")
    config = Path(__import__("zorktui.settings", fromlist=["config_path"]).config_path())
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[baseline]\nconsent_file = "{consent_file}"\nallow_undo = true\nshow_memory = true\n')
    rules = load_rules("P-4")
    assert rules.consent == "Our own consent text." and rules.allow_undo and rules.show_memory
    app = baseline_app(tmp_path / "s", rules)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConsentScreen))
            await pilot.press("y")
            await until(pilot, lambda: not isinstance(app.screen, ConsentScreen))
            assert app.query_one("#room").display and app.query_one("#map").display
            assert not app.query_one("#agent").display
            await type_command(pilot, "north")
            await settle(pilot, app)
            await type_command(pilot, "/undo")
            await settle(pilot, app)
            assert app.session.current.turn == 0

    asyncio.run(go())
    assert any(r["type"] == "undo" for r in records(tmp_path))
    config.write_text("[baseline]\nallow_undo = 'sometimes'\n")
    with pytest.raises(BaselineError, match="allow_undo"):
        load_rules("P-4")
    config.write_text('[baseline]\nconsent_file = "/nonexistent/consent.txt"\n')
    with pytest.raises(BaselineError, match="consent_file"):
        load_rules("P-4")
    config.write_text("[baseline\n")
    with pytest.raises(BaselineError):
        load_rules("P-4")


def test_participant_ids_and_folders(tmp_path: Path) -> None:
    assert check_participant("P-017") == "P-017"
    for bad in ("", "../etc", "a/b", "Jane Doe", "x" * 65, ".hidden"):
        with pytest.raises(BaselineError):
            check_participant(bad)
    one = participant_folder("P-9", root=tmp_path)
    one.mkdir(parents=True)
    two = participant_folder("P-9", root=tmp_path)
    assert one.parent == two.parent == tmp_path / "baseline" / "P-9" and one != two


def zorktui(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zorktui", *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, says", [
    (["--baseline"], "needs a terminal"),  # in a terminal (or a browser tab) the app asks the pseudonym
    (["--participant", "P-1"], "is for --baseline"),
    (["--baseline", "--participant", "Jane Doe"], "pseudonym"),
    (["--baseline", "--participant", "P-1", "--agent", "explore"], "alone"),
    (["--baseline", "--participant", "P-1"], "needs a terminal"),
])
def test_baseline_command_line_refusals(args: list[str], says: str) -> None:
    done = zorktui("play", *args)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1
