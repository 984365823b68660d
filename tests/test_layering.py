"""The layering rule: nothing below ui/ imports textual."""

import subprocess
import sys

import pytest

LAYERS = ["zorktui", "zorktui.engine", "zorktui.engine.game", "zorktui.engine.valid_actions",
          "zorktui.record.trajectory", "zorktui.session.headless", "zorktui.cli"]


@pytest.mark.parametrize("module", LAYERS)
def test_layer_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_engine_package_import_is_light() -> None:
    # Importing the engine package must not start the interpreter library.
    code = "import sys, zorktui.engine; assert 'jericho' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
