"""The layering rule: nothing below ui/ imports textual."""

import subprocess
import sys

import pytest

LAYERS = ["zorktui", "zorktui.engine", "zorktui.engine.game", "zorktui.engine.valid_actions",
          "zorktui.record.trajectory", "zorktui.session.headless", "zorktui.session.recorder",
          "zorktui.session.inspect", "zorktui.memory.graph", "zorktui.memory.questions",
          "zorktui.memory.mapmodel", "zorktui.memory.maprender", "zorktui.memory.extract",
          "zorktui.memory.belief", "zorktui.agent.llm", "zorktui.agent.reply", "zorktui.agent.safety", "zorktui.cli"]


@pytest.mark.parametrize("module", LAYERS)
def test_layer_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_engine_package_import_is_light() -> None:
    # Importing the engine package must not start the interpreter library.
    code = "import sys, zorktui.engine; assert 'jericho' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_memory_package_import_is_light() -> None:
    # Kuzu loads only when a session opens its graph.
    code = ("import sys, zorktui.memory.questions, zorktui.memory.mapmodel, zorktui.agent.llm;"
            " assert 'kuzu' not in sys.modules and 'openai' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
