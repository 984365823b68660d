"""The layering rule: nothing below ui/ imports textual, not even lazily; heavy libraries load late."""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import zorktui

PACKAGE = Path(zorktui.__file__).parent
BELOW_UI = ["engine", "memory", "agent", "session", "record"]


def _modules(package: str) -> list[str]:
    """Every module of a layer, its subpackages' too."""
    path = PACKAGE / package
    return [m.name for m in pkgutil.walk_packages([str(path)], prefix=f"zorktui.{package}.")]


@pytest.mark.parametrize("package", BELOW_UI)
def test_layer_does_not_import_textual(package: str) -> None:
    modules = _modules(package) + ["zorktui", "zorktui.cli", *_modules("cli"), "zorktui.locations"]
    code = (f"import sys, importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
            "assert 'textual' not in sys.modules, sorted(m for m in sys.modules if m.startswith('textual'))")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_no_textual_import_anywhere_below_ui_even_inside_functions() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if "ui" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            # cli/ (the parser and a module per subcommand) is the composition root: it may open the app
            # (lazily), never textual itself.
            reaches_ui = any(n.startswith("zorktui.ui") for n in names) and path.relative_to(PACKAGE).parts[:1] != ("cli",)
            if reaches_ui or any(n == "textual" or n.startswith("textual.") for n in names):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


def test_engine_package_import_is_light() -> None:
    # Importing the engine package must not start the interpreter library.
    code = "import sys, zorktui.engine; assert 'jericho' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_memory_and_agent_imports_are_light() -> None:
    # Kuzu loads only when a session opens its graph; openai only when a model is used.
    code = ("import sys, zorktui.memory.questions, zorktui.memory.maps.mapmodel, zorktui.agent.llm, zorktui.session.session,"
            " zorktui.session.factory; assert 'kuzu' not in sys.modules and 'openai' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cli_package_import_is_light_and_each_command_resolves() -> None:
    # The package holds main and the table; a subcommand's module loads only when its command runs.
    code = ("import sys, importlib, zorktui.cli as cli\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('zorktui.cli.'))\n"
            "assert loaded == ['zorktui.cli.args', 'zorktui.cli.common'], loaded\n"
            "names = set(cli.build_parser()._subparsers._group_actions[0].choices)\n"
            "assert names == set(cli.COMMANDS), names ^ set(cli.COMMANDS)\n"
            "for target in cli.COMMANDS.values():\n"
            "    module, name = target.split(':')\n"
            "    assert callable(getattr(importlib.import_module(module), name)), target")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_layer_contracts_in_pyproject_hold() -> None:
    # import-linter reads [tool.importlinter] in pyproject.toml: each layer reaches only down, ui/ never imports the
    # memory or the engine, the CLI neither, textual only in ui/, the MCP SDK only in mcp_server/, Ray only in sweep/.
    root = PACKAGE.parent
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    done = subprocess.run([sys.executable, "-c", code, "--config", str(root / "pyproject.toml")],
                          cwd=root, capture_output=True, text=True)
    assert done.returncode == 0 and "6 kept, 0 broken" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_every_top_level_package_is_in_a_layer() -> None:
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    tops = {f"zorktui.{p.stem}" for p in PACKAGE.iterdir()
            if (p.suffix == ".py" and p.stem not in ("__init__", "__main__")) or (p / "__init__.py").exists()}
    assert tops - named == set(), f"in no layer: {sorted(tops - named)}"


def test_no_module_over_450_lines_and_no_folder_over_16_modules() -> None:
    long = [f"{p.relative_to(PACKAGE)}: {n}" for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450]
    crowded = [f"{d.relative_to(PACKAGE.parent)}: {n}" for d in [PACKAGE, *PACKAGE.rglob("*")]
               if d.is_dir() and d.name != "__pycache__" and (n := len(list(d.glob("*.py")))) > 16]
    assert long == [] and crowded == []


def test_no_import_circle() -> None:
    """No module reaches, through any chain of imports (deferred and hint-only ones too), back to one importing it."""
    import grimp

    graph = grimp.build_graph("zorktui", include_external_packages=False)
    circles = [(module, imported) for module in sorted(graph.modules)
               for imported in sorted(graph.find_modules_directly_imported_by(module))
               if imported != module and graph.chain_exists(importer=imported, imported=module)]
    assert circles == []
