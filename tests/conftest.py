"""Shared pytest fixtures.

TextWorld games (see tests/twgames.py and tests/conftest_tw_notes.md):

* ``tw_games_dir``: session-wide cache folder (``.pytest_cache/d/twgames``), so generated
  games survive between runs (a cold generation costs ~2-3.5 s per game).
* ``tw_game``: factory ``tw_game(kind, seed=1) -> (path_to_z8, ground_truth_dict)``; every test
  using it is skipped when TextWorld / ``tw-make`` is not installed.
* ``tw_report``: a session dict that tests fill with measured numbers (valid-action recall);
  it is printed in the terminal summary, so the numbers show even without ``-s``.

Games and apps that close themselves:

* ``game_of``: factory ``game_of(story, seed=None, **options) -> Game`` (``zorktui.engine.game.Game``);
  every game it opened is closed at teardown, pass or fail.
* ``make_app``: factory ``make_app(mode="human", agent=None, config=None, theme=None, **options) -> ZorkApp``,
  its session in ``tmp_path / "s"`` (seed 1), for Textual's Pilot (``app.run_test``); a session the app
  did not close itself (the app never ran) is closed at teardown.

Plain helpers (the trajectory's records, waiting on the app under Pilot) are in tests/helpers.py.

The quick subset (``python -m pytest -q -m quick``, under a minute on 2 cores): the modules in
``QUICK_MODULES``, each a few seconds at most: the engine on our own stories, the records, the
layering and lint-level checks, the app's snapshots. A new module whose tests are as quick joins
the list.
"""

from __future__ import annotations

import contextlib
import pathlib
from typing import Any

import pytest

_TW_REPORT = pytest.StashKey[dict]()


def _twgames():
    """The twgames helper module, imported lazily (its import runs ``tw-make --help``, ~0.7 s)."""
    try:
        import twgames  # rootdir-less "prepend" import mode puts tests/ on sys.path
    except ImportError:  # pragma: no cover - other import modes
        from tests import twgames
    return twgames


#: Test modules of the quick subset (``-m quick``), measured at a few seconds each at most.
QUICK_MODULES = frozenset({
    "test_action_search", "test_agent_reply", "test_bundled_game", "test_checkpoint_files", "test_compass",
    "test_dispatch",
    "test_deaths_and_questions", "test_fingerprint", "test_game_ops", "test_grammar_v1",
    "test_layering", "test_memory_textworld", "test_opening_stops",
    "test_pairs", "test_replay_watch", "test_search_workers", "test_sight", "test_story", "test_surfaces_from_text",
    "test_text", "test_timeless_commands", "test_ui_proposal_line", "test_ui_snapshots", "test_unseen_libraries",
    "test_verb_groups", "test_ways", "test_write_failures", "test_zil_other_versions", "test_zil_scenery_and_dark",
    "test_zil_v3",
})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "textworld: checks the engine against generated TextWorld games (needs textworld + tw-make)",
    )
    config.addinivalue_line("markers", "quick: in the quick subset, under a minute in all (see QUICK_MODULES)")
    config.stash[_TW_REPORT] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in QUICK_MODULES:
            item.add_marker(pytest.mark.quick)


@pytest.fixture(scope="session")
def tw_games_dir(pytestconfig: pytest.Config) -> pathlib.Path:
    """Cache folder for generated TextWorld games, kept across test runs."""
    return pathlib.Path(pytestconfig.cache.mkdir("twgames"))


@pytest.fixture(scope="session")
def tw_game(tw_games_dir: pathlib.Path):
    """Factory: ``tw_game(kind, seed=1) -> (path_to_z8, ground_truth)``; skips without TextWorld.

    ``ground_truth`` is cached by twgames; do not mutate it.
    """
    twgames = _twgames()
    if not twgames.TW_AVAILABLE:
        pytest.skip("textworld / tw-make not available")

    def _make(kind: str, seed: int = 1) -> tuple[pathlib.Path, dict]:
        path = twgames.make_game(kind, seed, tw_games_dir)
        return path, twgames.ground_truth(path)

    return _make


@pytest.fixture
def knife_taken(tw_game):
    """TextWorld cooking9 of seed 123, walked to its kitchen and "take knife from table", searched in every state.

    Yields (game, finder); both closed after the test.
    """
    from paths import TO_THE_KITCHEN

    from zorktui.engine.actions.valid_actions import ActionFinder
    from zorktui.engine.game import Game

    path, _truth = tw_game("cooking9", 123)
    game = Game(path)
    finder = ActionFinder(game, parallel=False)
    try:
        for command in [*TO_THE_KITCHEN, "take knife from table"]:
            game.step(command)
            finder.find()
        yield game, finder
    finally:
        finder.close()
        game.close()


@pytest.fixture(scope="session")
def tw_report(pytestconfig: pytest.Config) -> dict:
    """Session dict ``{test label: one-line summary}`` printed in the terminal summary."""
    return pytestconfig.stash[_TW_REPORT]


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    report = config.stash.get(_TW_REPORT, None)
    if report:
        terminalreporter.section("TextWorld measurements")
        for label in sorted(report):
            terminalreporter.write_line(f"{label}: {report[label]}")


@pytest.fixture
def game_of():
    """Factory: ``game_of(story, seed=None, **options) -> Game``; every game it opened is closed at teardown."""
    from zorktui.engine.game import Game

    with contextlib.ExitStack() as opened:

        def _open(story: Any, seed: int | None = None, **options: Any) -> Game:
            game = Game(story, seed=seed, **options)
            opened.callback(game.close)
            return game

        yield _open


@pytest.fixture
def make_app(tmp_path: pathlib.Path):
    """Factory: the app for a session built as the CLI builds it, in ``tmp_path / "s"`` with seed 1.

    ``make_app(mode="human", agent=None, config=None, theme=None, **options)``: ``options`` go to
    ``SessionOptions``; user themes are read from ``tmp_path / "themes"``. The app closes its session
    when it unmounts; one that never ran has its session and game closed at teardown.
    """
    from zorktui.session.factory import SessionOptions, build_session
    from zorktui.ui.app import create_app
    from zorktui.ui.keymap import UiConfig

    def _close(app: Any) -> None:
        if not app.session.closed:
            app.session.close()
            app.session.game.close()

    with contextlib.ExitStack() as opened:

        def _make(mode: str = "human", agent: str | None = None, config: UiConfig | None = None,
                  theme: str | None = None, **options: Any) -> Any:
            built = build_session(SessionOptions(mode=mode, agent=agent, session=tmp_path / "s", seed=1, **options))
            app = create_app(built, theme=theme, config=config or UiConfig(), themes_dir=tmp_path / "themes")
            opened.callback(_close, app)
            return app

        yield _make


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """Every test gets its own data, config and cache folders (knowledge bases, themes, keymaps)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("ZORKTUI_HOME", str(home))
    return home
