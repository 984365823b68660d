"""Paths of the stories the tests play."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "zorktui" / "stories" / "lighthouse.z5"
BUNDLED_WALKTHROUGH = ROOT / "zorktui" / "stories" / "lighthouse.walkthrough"
BUNDLED_DEATH = ROOT / "zorktui" / "stories" / "lighthouse.death"
ZIL = ROOT / "tests" / "data" / "zil" / "mini.z3"
ZIL_OTHER_VERSIONS = tuple(ROOT / "tests" / "data" / "zil" / f"mini.z{v}" for v in (1, 2, 4))
ZIL_WALKTHROUGH = ROOT / "tests" / "data" / "zil" / "mini.walkthrough"
ZIL_EXPECTED = ROOT / "tests" / "data" / "zil" / "expected.json"
DARK_FIRST = ROOT / "tests" / "data" / "inform" / "dark.z5"
DARK_START = ROOT / "tests" / "data" / "inform" / "darkstart.z5"
ASKS_FIRST = ROOT / "tests" / "data" / "inform" / "asks.z5"
COMMAND_LOOP = ROOT / "tests" / "data" / "inform" / "echo.z5"
OLD_GRAMMAR = ROOT / "tests" / "data" / "inform" / "gv1.z5"
TIMELESS = ROOT / "tests" / "data" / "inform" / "timeless.z5"
DIVIDE = ROOT / "tests" / "data" / "inform" / "divide.z5"


def commands(path: Path) -> list[str]:
    """Commands of a walkthrough file (blank lines and # comments skipped)."""
    return [c.strip() for c in path.read_text().splitlines() if c.strip() and not c.strip().startswith("#")]
FULL_HANDS = ROOT / "tests" / "data" / "inform" / "load.z5"
DISPATCH = ROOT / "tests" / "data" / "inform" / "dispatch.z5"
INFORM7 = ROOT / "tests" / "data" / "any" / "ferry.z8"
#: From the opening of TextWorld's cooking9 game of seed 123 (``tw_game("cooking9", 123)``) to its kitchen.
TO_THE_KITCHEN = ["go south", "go north", "go west", "go south"]
