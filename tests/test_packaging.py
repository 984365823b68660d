"""The package as players install it: the wheel and the sdist hold every file the package reads at run time.

The wheel is built the way `python -m build` builds it, from the sdist, out of a
copy of the files git tracks (what a clean clone has), so a file missing from
either archive shows here rather than in a player's traceback.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT
from zorktui.resources import RESOURCES, resource_path

pytest.importorskip("build")


def _tracked_files() -> list[str]:
    """The checkout's files as a clean clone has them (git's list; every file when this is no git checkout)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not {"__pycache__", ".pytest_cache", ".git"} & set(p.parts)]
    return [name for name in listed.stdout.split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[str], set[str]]:
    """(names in the wheel, names in the sdist without its top folder), both built from a clean copy."""
    top = tmp_path_factory.mktemp("packaging")
    source = top / "src"
    for name in _tracked_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    out = top / "dist"
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = out.glob("zorktui-*.whl")
    (sdist,) = out.glob("zorktui-*.tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    return in_wheel, in_sdist


def test_the_wheel_and_the_sdist_hold_every_file_of_the_package(built: tuple[set[str], set[str]]) -> None:
    in_wheel, in_sdist = built
    package_files = [name for name in _tracked_files() if name.startswith("zorktui/")]
    assert any(name.endswith(".tcss") for name in package_files)
    assert [name for name in package_files if name not in in_wheel] == []
    assert [name for name in package_files if name not in in_sdist] == []
    # The sdist is a source release: the tests with their stories, the docs, the licence.
    for name in ("LICENSE", "README.md", "pyproject.toml", "constraints.txt", "tests/paths.py",
                 "tests/data/zil/mini.z3", "docs/engine.md", "themes/solarized-night.toml"):
        assert name in in_sdist, name
    assert any(re.fullmatch(r"zorktui-[^/]+\.dist-info/licenses/LICENSE", name) for name in in_wheel)


def test_every_resource_is_in_the_wheel_and_read_through_importlib(built: tuple[set[str], set[str]]) -> None:
    in_wheel, _ = built
    for name, (package, file_name) in RESOURCES.items():
        assert f"{package.replace('.', '/')}/{file_name}" in in_wheel, name
        assert resource_path(name).is_file(), name
    # No module finds a file next to its own source: a zipped or relocated package would not have it.
    beside = [str(p.relative_to(ROOT)) for p in (ROOT / "zorktui").rglob("*.py") if "__file__" in p.read_text()]
    assert beside == []


def test_what_the_package_opens_while_playing_is_in_the_wheel(built: tuple[set[str], set[str]],
                                                               tmp_path: Path) -> None:
    """Play the app's first frame, a run, an MCP round trip and a served tab, and list the package files opened."""
    in_wheel, _ = built
    opened_list = tmp_path / "opened.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_installed.py"), "--opened", str(opened_list)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "every check passed" in done.stdout
    opened = json.loads(opened_list.read_text())
    # The stylesheets and the bundled story at least; each one is a named resource, and the wheel has it.
    assert {"ui/layout.tcss", "ui/app.tcss", "stories/lighthouse.z5"} <= set(opened)
    named = {f"{package.removeprefix('zorktui').strip('.').replace('.', '/')}/{file_name}".lstrip("/")
             for package, file_name in RESOURCES.values()}
    assert set(opened) <= named, set(opened) - named
    assert [name for name in opened if f"zorktui/{name}" not in in_wheel] == []
