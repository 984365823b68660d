"""What the command line shows when the app puts a command in it (ctrl+e on a proposal, history).

The line is checked as drawn (value and completion together), as a terminal shows it:
the completion is drawn right after the text, so a stray suggestion reads as part of it.
"""

from __future__ import annotations

from helpers import SIZE, proposal_ready, run, until

from zorktui.ui.suggest import CommandSuggester
from zorktui.ui.widgets.commandline import CommandLine


def drawn(line: CommandLine) -> str:
    """The command line's text as the terminal draws it (suggestion included)."""
    return line.render_line(0).text.strip()


def test_edit_shows_exactly_the_proposal_and_completion_comes_back_when_typing(make_app) -> None:
    app = make_app(mode="coplay", agent="explore")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: proposal_ready(app))
            command = app.session.pending.command
            line = app.query_one(CommandLine)
            # the person once typed a longer command that starts with the proposal
            line.completer.remember(f"{command} again")
            await pilot.press("ctrl+e")
            await pilot.pause(0.3)  # time for a completion to arrive (it takes a few ms)
            assert line.value == command and drawn(line) == command
            # typing brings completion back
            await pilot.press("space", "backspace")
            await until(pilot, lambda: drawn(line) == f"{command} again", timeout=5)
            assert line.value == command

    run(go())


def test_a_recalled_command_shows_as_it_is(make_app) -> None:
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            line = app.query_one(CommandLine)
            line.focus()
            line.remember("north")
            line.completer.remember("north again")  # what typing "north" completes to
            await pilot.press("up")
            await pilot.pause(0.3)
            assert line.value == "north" and drawn(line) == "north"

    run(go())


def test_a_whole_dictionary_word_is_not_lengthened() -> None:
    # A version 3 story keeps six letters of each word: "northe" is northeast, "lanter" lantern.
    s = CommandSuggester()
    s.set_words(["north", "northe", "northw", "lanter", "lamp"])
    assert s.suggest("north") is None and s.suggest("go north") is None
    assert s.suggest("nor") == "north" and s.suggest("take lan") == "take lanter"
    s.set_actions(["northeast"])
    assert s.suggest("north") == "northeast"  # a whole command still completes


def test_a_held_line_gets_no_completion_until_another_is_asked() -> None:
    s = CommandSuggester()
    s.set_actions(["north", "northeast"])
    s.hold("North")
    assert s.suggest("north") is None
    assert s.suggest("nort") == "north"
    assert s.suggest("north") == "northeast"
