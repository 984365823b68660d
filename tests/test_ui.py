"""The Textual app, driven with Pilot at a fixed size: widgets AND session/trajectory state are checked.

Each test builds its session through the same factory as the CLI, with a
session folder in tmp_path, and waits for the app's workers (the game queue,
the panel readers) rather than sleeping.
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import SIZE, proposal_ready, records, run, settle, turn_records, type_command, until

from zorktui.session import commands as appcmd
from zorktui.session import events as ev
from zorktui.ui.keymap import UiConfig, load_config
from zorktui.ui.messages import SessionEvent
from zorktui.ui.suggest import CommandSuggester
from zorktui.ui.themes import BUILTIN_THEMES, ThemeFileError, load_user_themes, theme_from_data
from zorktui.ui.widgets.agentpanel import AgentPanel
from zorktui.ui.widgets.commandline import CommandLine
from zorktui.ui.widgets.mapview import MapView
from zorktui.ui.widgets.room import RoomPanel
from zorktui.ui.widgets.statusbar import StatusBar
from zorktui.ui.widgets.transcript import Transcript


# ----------------------------------------------------------------- helpers
def log_text(screen: Any) -> str:
    """The inspector's answers as one line (a hidden tab may wrap them narrowly)."""
    return " ".join(" ".join(s.text.split()) for s in screen.query_one("#ask-log").lines)


def static_text(widget: Any) -> str:
    """What a Static shows, as plain text (its content may be a Rich table)."""
    from rich.console import Console

    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


# ------------------------------------------------------------ main screen
def test_typing_a_command_reaches_the_game_the_transcript_and_the_panels(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "Landing Stage" in app.query_one(Transcript).text
            await pilot.press(*"north", "enter")
            await settle(pilot, app)
            assert app.session.current.turn == 1
            assert app.session.current.location.name == "Shingle Path"
            text = app.query_one(Transcript).text
            assert "you > north" in text and "Shingle Path" in text
            status = app.query_one(StatusBar).text
            assert "THE KEEPER'S LIGHT" in status and "Shingle Path" in status and "turn 1" in status
            assert "score 0/70" in status and "moves 1" in status and "mode human" in status
            room = app.query_one(RoomPanel).text
            assert room.startswith("Shingle Path") and "Carrying:" in room
            # The way in: the likely way back, or a known way once the valid-action search saw it lead there.
            assert "south (back to Landing Stage, likely)" in room or "south → Landing Stage" in room, room
            assert "none known" not in room and "south (not walked yet)" not in room
            assert "Shingle Path" in app.query_one(MapView).map_text
            assert "╔" in app.query_one(MapView).map_text  # the current room is drawn double-lined
            # a second command; then history brings it back
            await pilot.press(*"south", "enter")
            await settle(pilot, app)
            room = app.query_one(RoomPanel).text
            assert "north → Shingle Path" in room  # the memory learned the exit
            await pilot.press("up")
            assert app.query_one(CommandLine).value == "south"
            await pilot.press("up")
            assert app.query_one(CommandLine).value == "north"
            await pilot.press("down", "down")
            assert app.query_one(CommandLine).value == ""

    run(go())
    recs = turn_records(tmp_path)
    assert [(r["command"], r["actor"]) for r in recs] == [("north", "human"), ("south", "human")]


def test_game_and_command_text_with_markup_is_shown_literally(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            fake = dataclasses.replace(app.session.current, turn=99, command="x [bold]lamp[/bold]",
                                       observation="A sign reads: [bold]DANGER[/bold] [red]keep out[/] \x1b[31mred")
            app.main.post_message(SessionEvent(ev.TurnDone(fake, "human", None)))
            await settle(pilot, app)
            text = app.query_one(Transcript).text
            assert "you > x [bold]lamp[/bold]" in text
            assert "A sign reads: [bold]DANGER[/bold] [red]keep out[/] red" in text  # escape stripped, markup kept
            await type_command(pilot, "say [i]hello[/i]")
            await settle(pilot, app)
            assert "you > say [i]hello[/i]" in app.query_one(Transcript).text

    run(go())


def test_a_refused_command_is_shown_and_play_goes_on(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await type_command(pilot, "x" * 300)
            await settle(pilot, app)
            assert "command too long" in app.query_one(Transcript).text
            await type_command(pilot, "/undo 5")
            await settle(pilot, app)
            assert "can undo 0 turn(s), not 5" in app.query_one(Transcript).text
            await type_command(pilot, "/frobnicate")
            await settle(pilot, app)
            assert "unknown app command /frobnicate" in app.query_one(Transcript).text
            await type_command(pilot, "north")
            await settle(pilot, app)
            assert app.session.current.turn == 1

    run(go())


# ---------------------------------------------------------------- co-play
def test_coplay_accept_reject_supersede_and_edit_give_the_right_fates(tmp_path: Path, make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            await pilot.pause()
            proposal = app.session.pending
            agent_text = app.query_one(AgentPanel).text
            assert f"Proposal: {proposal.command}" in agent_text and "Critic: in favour" in agent_text
            assert proposal.command in app.query_one(CommandLine).placeholder
            # Enter on an empty line accepts
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session.current.turn == 1
            assert f"agent > {proposal.command}" in app.query_one(Transcript).text
            # Ctrl+R rejects, with a reason typed into the dialog
            await until(pilot, lambda: proposal_ready(app))
            refused = app.session.pending.command
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert type(app.screen).__name__ == "RejectScreen"
            await pilot.press(*"not yet", "enter")
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and len(app.screen_stack) == 1  # back on the main screen
            assert f"You refused '{refused}': not yet" in app.query_one(Transcript).text
            # typing one's own command supersedes the new proposal
            await until(pilot, lambda: proposal_ready(app))
            await type_command(pilot, "look")
            await settle(pilot, app)
            assert app.session.current.turn == 2
            # Ctrl+E puts the proposal in the command line; Enter plays the edited command
            await until(pilot, lambda: proposal_ready(app))
            await pilot.press("ctrl+e")
            assert app.query_one(CommandLine).value == app.session.pending.command
            app.query_one(CommandLine).value = "examine boat"
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session.current.turn == 3

    run(go())
    recs = turn_records(tmp_path)
    assert [r["actor"] for r in recs] == ["agent", "human", "human"]
    assert [r["proposal"]["fate"] for r in recs] == ["accepted", "superseded", "edited"]
    assert recs[1]["proposal"]["refused"][0] == {"command": refused_command(recs), "by": "person", "reason": "not yet"}
    assert recs[2]["command"] == "examine boat"


def refused_command(recs: list[dict[str, Any]]) -> str:
    return recs[1]["proposal"]["refused"][0]["command"]


def test_the_person_can_act_while_the_agent_is_thinking(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")
    gate = __import__("threading").Event()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            slow = app.session.agent.suggest

            def stuck(situation: Any) -> Any:
                gate.wait(20)
                return slow(situation)

            app.session.agent.suggest = stuck
            await type_command(pilot, "north")   # the agent now thinks (and hangs) about turn 1
            await settle(pilot, app)
            await until(pilot, lambda: app.query_one(AgentPanel).state.thinking)
            started = time.monotonic()
            await type_command(pilot, "south")   # plays while the agent is still thinking
            await settle(pilot, app)
            assert app.session.current.turn == 2 and time.monotonic() - started < 5
            gate.set()

    run(go())


# -------------------------------------------------------------- autopilot
def test_autopilot_toggles_pauses_steps_and_typing_takes_over(tmp_path: Path, make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            app.session.autopilot.delay = 0.05
            await pilot.press("ctrl+a")
            await until(pilot, lambda: app.session.autopilot.running and app.session.current.turn >= 2)
            assert "AUTOPILOT" in app.query_one(StatusBar).text
            await pilot.press("f7")                      # pause
            await until(pilot, lambda: app.session.autopilot.paused)
            await pilot.pause(0.3)
            held = app.session.current.turn
            await pilot.pause(0.3)
            assert app.session.current.turn == held
            await pilot.press("f8")                      # one step
            await until(pilot, lambda: app.session.current.turn == held + 1)
            await pilot.press("f7")                      # resume
            await until(pilot, lambda: app.session.current.turn >= held + 2)
            await pilot.press("ctrl+a")                  # take control back
            await until(pilot, lambda: not app.session.autopilot.running)
            await until(pilot, lambda: "Autopilot stopped: you took the controls back" in app.query_one(Transcript).text)
            assert app.session.mode == "coplay"
            # again, and this time typing takes over
            await pilot.press("ctrl+a")
            await until(pilot, lambda: app.session.autopilot.running)
            await type_command(pilot, "inventory")
            await settle(pilot, app)
            await until(pilot, lambda: not app.session.autopilot.running)
            assert app.session.mode == "coplay"
            assert "you > inventory" in app.query_one(Transcript).text

    run(go())
    recs = turn_records(tmp_path)
    assert recs[-1]["command"] == "inventory" and recs[-1]["actor"] == "human"
    assert sum(r["actor"] == "agent" for r in recs) >= 3


def test_autopilot_shows_critic_refusals_as_they_happen(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            app.session.autopilot.start()
            # Paused, so that no next turn clears this turn's refusals before they are read.
            app.session.autopilot.pause()
            await until(pilot, lambda: app.session.autopilot.paused)
            await settle(pilot, app)
            from zorktui.agent.proposal import Verdict

            refused = Verdict("jump off the cliff", -0.9, False, ["the look-ahead saw a death"], fatal=True)
            app.main.post_message(SessionEvent(ev.CriticVerdict(refused, app.session.current.turn)))
            await until(pilot, lambda: "critic refused 'jump off the cliff'" in app.query_one(Transcript).text)
            assert "the look-ahead saw a death" in app.query_one(AgentPanel).text
            await pilot.press("ctrl+a")
            await until(pilot, lambda: not app.session.autopilot.running)

    run(go())


def test_autopilot_stop_rule_hands_control_back(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await type_command(pilot, "/auto 2")
            await until(pilot, lambda: "step budget reached (2)" in app.query_one(Transcript).text)
            assert app.session.current.turn == 2 and app.session.mode == "coplay"

    run(go())


# ------------------------------------------------------------ app commands
def test_undo_save_restore_restart(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for command in ("north", "/save path", "west"):
                await type_command(pilot, command)
                await settle(pilot, app)
            west = app.session.current.location.name
            assert west != "Shingle Path"
            assert "Saved checkpoint 'path'" in app.query_one(Transcript).text
            await type_command(pilot, "/restore path")
            await settle(pilot, app)
            assert app.session.current.location.name == "Shingle Path"
            assert "restore: back to turn 1 (Shingle Path)" in app.query_one(Transcript).text
            assert app.query_one(StatusBar).text.count("Shingle Path") == 1
            await type_command(pilot, "/undo")
            await settle(pilot, app)
            assert app.session.current.location.name == west
            await type_command(pilot, "/saves")
            await settle(pilot, app)
            assert "path (turn 1, Shingle Path)" in app.query_one(Transcript).text
            await type_command(pilot, "/restart")
            await settle(pilot, app)
            assert app.session.current.turn == 0
            assert "Landing Stage" in app.query_one(RoomPanel).text

    run(go())
    kinds = [r["type"] for r in records(tmp_path)]
    assert "restore" in kinds and "undo" in kinds and "restart" in kinds
    assert (tmp_path / "s" / "saves").is_dir()


def test_mode_command_and_no_agent_message(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await type_command(pilot, "/mode coplay")
            await settle(pilot, app)
            assert "no agent in this session" in app.query_one(Transcript).text
            assert app.session.mode == "human"
            await pilot.press("ctrl+a")
            await pilot.pause()
            assert not app.session.autopilot.running
            assert "No agent in this session." in app.query_one(AgentPanel).text

    run(go())


def test_mode_switch_with_an_agent(make_app) -> None:
    app = make_app(agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert app.session.pending is None
            await type_command(pilot, "/mode coplay")
            await until(pilot, lambda: proposal_ready(app))
            assert "mode coplay" in app.query_one(StatusBar).text
            await type_command(pilot, "/mode human")
            await pilot.pause()
            assert "mode human" in app.query_one(StatusBar).text

    run(go())


# ------------------------------------------------------ memory inspector
def test_memory_inspector_opens_on_the_current_turn_and_returns_with_the_game_untouched(tmp_path: Path, make_app) -> None:
    app = make_app()

    async def go() -> None:
        from textual.widgets import OptionList

        from zorktui.ui.screens.inspector import InspectorScreen, TurnSlider

        async with app.run_test(size=SIZE) as pilot:
            for command in ("north", "west"):
                await type_command(pilot, command)
                await settle(pilot, app)
            before = (app.session.current.turn, app.session.current.state_hash)
            transcript = app.query_one(Transcript).text
            lines = len(records(tmp_path))
            await pilot.press("f6")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, InspectorScreen)
            slider = screen.query_one(TurnSlider)
            assert slider.value == 2 and slider.maximum == 2
            await until(pilot, lambda: screen.query_one(OptionList).option_count > 3)
            assert "╔" in screen.query_one(MapView).map_text
            # a question, as of now
            ask = screen.query_one("#ask-input")
            ask.value = "where am i"
            ask.focus()
            await pilot.press("enter")
            await until(pilot, lambda: any("? where am i" in s.text for s in screen.query_one("#ask-log").lines))
            answer = "\n".join(s.text for s in screen.query_one("#ask-log").lines)
            assert app.session.current.location.name in answer
            # an entity and its facts over time
            options = screen.query_one(OptionList)
            options.focus()
            options.highlighted = 0
            await until(pilot, lambda: "Facts up to turn 2" in str(screen.query_one("#entity-body").render()))
            # back to turn 0: the world as it was
            slider.focus()
            await pilot.press("home")
            await until(pilot, lambda: "as of turn 0" in (screen.query_one(MapView).border_subtitle or ""))
            assert "╔═" in screen.query_one(MapView).map_text and "Shingle Path" not in screen.query_one(MapView).map_text
            ask.value = "where am i"
            ask.focus()
            await pilot.press("enter")
            await until(pilot, lambda: "(as of turn 0)" in log_text(screen))
            assert "Landing Stage" in log_text(screen).split("(as of turn 0)")[1]
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, InspectorScreen)
            assert (app.session.current.turn, app.session.current.state_hash) == before
            assert app.query_one(Transcript).text == transcript
            assert len(records(tmp_path)) == lines
            await type_command(pilot, "/memory")
            await pilot.pause()
            assert isinstance(app.screen, InspectorScreen)
            await pilot.press("escape")

    run(go())


def test_inspector_cypher_runs_in_a_child_on_a_snapshot(make_app) -> None:
    app = make_app()

    async def go() -> None:
        from zorktui.ui.screens.inspector import cypher_text

        async with app.run_test(size=SIZE) as pilot:
            await type_command(pilot, "north")
            await settle(pilot, app)
            memory = app.view.memory_view()
            result = cypher_text(memory.cypher("MATCH (e:Entity) WHERE e.kind = 'room' RETURN e.name ORDER BY e.name"))
            assert "Landing Stage" in result.plain and "Shingle Path" in result.plain and "(2 rows)" in result.plain
            refused = memory.cypher("MATCH (e:Entity) DETACH DELETE e")
            assert refused.error is not None and "read-only" in refused.error and refused.rows == []
            # the live memory still answers, and the game goes on
            await type_command(pilot, "south")
            await settle(pilot, app)
            assert app.session.current.turn == 2

    run(go())


# ------------------------------------------------------------------ themes
def test_builtin_themes_switch_and_a_broken_user_theme_falls_back(tmp_path: Path, make_app) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "broken.toml").write_text('primary = "not-a-colour"\n')
    (themes / "garbage.json").write_text("{nope")
    (themes / "sea.toml").write_text('name = "sea"\nprimary = "#2080c0"\nbackground = "#001020"\ndark = true\n')
    app = make_app(theme="broken")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == "zork-dark"                           # the fallback
            names = set(app.available_themes)
            assert {"zork-dark", "zork-light", "zork-green", "sea"} <= names and "broken" not in names
            notes = [n.message for n in app._notifications]
            assert any("broken.toml is broken" in n for n in notes)
            assert any("garbage.json is broken" in n for n in notes)
            await type_command(pilot, "/theme zork-green")
            await pilot.pause()
            assert app.theme == "zork-green"
            assert app.current_theme.background == "#000000"
            await type_command(pilot, "/theme sea")
            await pilot.pause()
            assert app.theme == "sea"
            await type_command(pilot, "/theme nope")
            await pilot.pause()
            assert app.theme == "sea" and "no theme 'nope'" in app.query_one(Transcript).text

    run(go())


def test_theme_from_the_config_file_and_theme_loader_errors(tmp_path: Path, make_app) -> None:
    config = tmp_path / "config.toml"
    config.write_text('theme = "zork-light"\nautopilot_delay = 0.5\n[keymap]\naccept = "ctrl+g"\nnope = "f12"\n')
    loaded = load_config(config, binding_ids={"accept"})
    assert loaded.theme == "zork-light" and loaded.keymap == {"accept": "ctrl+g"} and loaded.autopilot_delay == 0.5
    assert any("nope" in w for w in loaded.warnings)
    (tmp_path / "bad.toml").write_text("theme = [")
    assert "bad.toml is broken" in load_config(tmp_path / "bad.toml").warnings[0]
    assert load_config(tmp_path / "missing.toml") == UiConfig()
    with pytest.raises(ThemeFileError):
        theme_from_data({"name": "x"}, "x")
    with pytest.raises(ThemeFileError):
        theme_from_data({"primary": "#fff", "colour": "red"}, "x")
    assert theme_from_data({"primary": "#ffffff"}, "stem").name == "stem"
    assert load_user_themes(tmp_path / "none") == ([], [])
    assert len({t.name for t in BUILTIN_THEMES}) >= 3 and any(not t.dark for t in BUILTIN_THEMES)
    app = make_app(config=loaded)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == "zork-light" and app.session.autopilot.delay == 0.5

    run(go())


# --------------------------------------------------------- help and keys
def test_f1_help_lists_every_key_and_app_command_and_the_keymap_applies(make_app) -> None:
    config = UiConfig(keymap={"autopilot": "f12", "help": "f1,f10"})
    app = make_app(mode="coplay", agent="explore", config=config)

    async def go() -> None:
        from zorktui.ui.screens.help import HelpScreen

        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            keys = static_text(app.screen.query_one("#help-keys"))
            commands = static_text(app.screen.query_one("#help-commands"))
            for name in appcmd.APP_COMMANDS:
                assert f"/{name}" in commands
            for binding_id in ("accept", "reject", "edit", "autopilot", "pause", "step", "zoom", "inspector", "quit"):
                assert binding_id in keys
            assert "ctrl+r" in keys and "f12" in keys and "ctrl+a" not in keys
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("f10")                     # a second key for help, from the keymap
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await until(pilot, lambda: proposal_ready(app))
            await pilot.press("f12")                     # the remapped autopilot key
            await until(pilot, lambda: app.session.autopilot.running)
            await pilot.press("f12")
            await until(pilot, lambda: not app.session.autopilot.running)
            await type_command(pilot, "/help")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)

    run(go())


def test_layout_at_100x30_panels_hide_and_zoom(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            for wid, title in (("transcript", "Transcript"), ("room", "Room"), ("map", "Map"), ("agent", "Agent")):
                widget = app.query_one(f"#{wid}")
                assert widget.border_title == title
                assert widget.region.width >= 30 and widget.region.height >= 5, (wid, widget.region)
                assert widget.region.right <= 100 and widget.region.bottom <= 30
            assert app.query_one(CommandLine).region.height == 3
            assert app.query_one(StatusBar).region.y == 0
            await pilot.press("f3")
            assert not app.query_one("#map").display
            await pilot.press("f3")
            assert app.query_one("#map").display
            await pilot.press("f5")
            assert app.screen.maximized is app.query_one("#transcript")
            await pilot.press("f5")
            assert app.screen.maximized is app.query_one("#room")
            await pilot.press("escape")
            assert app.screen.maximized is None
            await type_command(pilot, "/map")
            await pilot.pause()
            assert app.screen.maximized is app.query_one("#map")
            await type_command(pilot, "/map")
            await pilot.pause()
            assert app.screen.maximized is None
            await pilot.press("f2", "f3", "f4")
            assert not app.query_one("#side").display
            assert app.query_one("#transcript").region.width >= 95

    run(go())


def test_ctrl_q_saves_and_quits(tmp_path: Path, make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await type_command(pilot, "north")
            await settle(pilot, app)
            await pilot.press("ctrl+q")
            # Not pilot.pause: it waits on an app that is about to be gone.
            end = time.monotonic() + 30
            while app.is_running and time.monotonic() < end:
                await asyncio.sleep(0.05)
            assert not app.is_running, "ctrl+q did not close the app"
        assert app.return_code in (0, None)

    run(go())
    assert app.session.closed
    assert turn_records(tmp_path)[-1]["command"] == "north"


# ----------------------------------------------------------- small parts
def test_app_command_parsing() -> None:
    assert appcmd.parse("north") is None and appcmd.parse("//look") is None
    assert appcmd.parse("/undo 3") == appcmd.AppCommand("undo", "3")
    assert appcmd.parse("/UNDO").int_arg(1) == 1
    with pytest.raises(appcmd.CommandError):
        appcmd.parse("/nope")
    with pytest.raises(appcmd.CommandError):
        appcmd.AppCommand("undo", "x").int_arg(1)
    with pytest.raises(appcmd.CommandError):
        appcmd.AppCommand("undo", "0").int_arg(1)


def test_completion_from_history_valid_actions_vocabulary_and_app_commands() -> None:
    s = CommandSuggester()
    s.set_actions(["open mailbox", "north"])
    s.set_words(["lantern", "lamp", "mailbox", "x"])
    s.remember("north")
    assert s.suggest("no") == "north"
    assert s.suggest("open m") == "open mailbox"
    assert s.suggest("take lan") == "take lantern"
    assert s.suggest("/un") == "/undo"
    assert s.suggest("") is None and s.suggest("zzz") is None


def test_completion_in_the_app_comes_from_the_games_actions(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            line = app.query_one(CommandLine)
            await until(pilot, lambda: bool(line.completer.actions))
            # The opening room's exits are east and up (north is not a way out there).
            assert line.completer.words and "east" in line.completer.actions
            line.focus()
            await pilot.press(*"ea")
            await until(pilot, lambda: line._suggestion == "east")
            await pilot.press("tab")
            assert line.value == "east"

    run(go())


def test_play_with_a_bad_story_exits_2_with_one_line_before_the_app(tmp_path: Path) -> None:
    missing = tmp_path / "nope.z5"
    result = subprocess.run([sys.executable, "-m", "zorktui", "play", str(missing)], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "nope.z5" in result.stderr
    bad = subprocess.run([sys.executable, "-m", "zorktui", "play", "--mode", "sideways"], capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_the_example_theme_in_the_repo_loads() -> None:
    folder = Path(__file__).resolve().parent.parent / "themes"
    themes, warnings = load_user_themes(folder)
    assert warnings == [] and [t.name for t in themes] == ["solarized-night"] and themes[0].dark


def test_the_planner_proposes_with_its_search_statistics_and_drives_the_autopilot(tmp_path: Path, make_app) -> None:
    app = make_app(mode="coplay", agent="mcts", sims=15)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            await pilot.pause()
            assert app.session.pending.source == "mcts"
            agent_text = " ".join(app.query_one(AgentPanel).text.split())
            # The opening has no points within 15 lines: the search says so and the explorer's pick is shown.
            assert "Searched 15 lines" in agent_text and "states); none scored." in agent_text
            await pilot.press("enter")                     # accept the planner's move
            await settle(pilot, app)
            await pilot.press("ctrl+a")                    # then hand it the game for a few moves
            await until(pilot, lambda: app.session.current.turn >= 4, timeout=60)
            await pilot.press("ctrl+a")
            await until(pilot, lambda: not app.session.autopilot.running)
            await settle(pilot, app)

    run(go())
    played = turn_records(tmp_path)
    assert len(played) >= 4 and all(r["actor"] == "agent" for r in played)
    assert played[0]["proposal"]["fate"] == "accepted" and "Searched 15 lines" in played[0]["proposal"]["reflection"]
    header = records(tmp_path)[0]
    assert header["agent"]["name"] == "mcts" and header["agent"]["planner"]["sims"] == 15
