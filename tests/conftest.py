"""Shared pytest fixtures.

TextWorld games (see tests/twgames.py and tests/conftest_tw_notes.md):

* ``tw_games_dir``: session-wide cache folder (``.pytest_cache/d/twgames``), so generated
  games survive between runs (a cold generation costs ~2-3.5 s per game).
* ``tw_game``: factory ``tw_game(kind, seed=1) -> (path_to_z8, ground_truth_dict)``; every test
  using it is skipped when TextWorld / ``tw-make`` is not installed.
* ``tw_report``: a session dict that tests fill with measured numbers (valid-action recall);
  it is printed in the terminal summary, so the numbers show even without ``-s``.
"""

from __future__ import annotations

import pathlib

import pytest

_TW_REPORT = pytest.StashKey[dict]()


def _twgames():
    """The twgames helper module, imported lazily (its import runs ``tw-make --help``, ~0.7 s)."""
    try:
        import twgames  # rootdir-less "prepend" import mode puts tests/ on sys.path
    except ImportError:  # pragma: no cover - other import modes
        from tests import twgames
    return twgames


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "textworld: checks the engine against generated TextWorld games (needs textworld + tw-make)",
    )
    config.stash[_TW_REPORT] = {}


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


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """Every test gets its own data, config and cache folders (knowledge bases, themes, keymaps)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("ZORKTUI_HOME", str(home))
    return home
