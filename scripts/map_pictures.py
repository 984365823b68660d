"""Draw the map of a session folder as an SVG picture, for the documentation.

    python scripts/map_pictures.py SESSION_DIR OUT.svg [--title TITLE]

The picture is ``zorktui map SESSION_DIR`` as a terminal shows it, coloured as
the app's Map panel colours it (the room you are in, one-way arrows, unexplored
stubs), through Rich's SVG export.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from zorktui.session.files.folder import open_memory  # noqa: E402
from zorktui.session.memory_view import MemoryView  # noqa: E402
from zorktui.ui.widgets.mapview import style_map  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("session", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--title", default="zorktui map")
    args = parser.parse_args()
    with open_memory(args.session) as memory:
        text = MemoryView(memory).map_text()
    styled, _ = style_map(text, "yellow", "magenta", "dim")
    width = max(len(line) for line in text.splitlines()) + 2
    with open(os.devnull, "w") as nowhere:  # recorded for the SVG, not shown
        console = Console(record=True, width=width, file=nowhere, force_terminal=True)
        console.print(styled)
    console.save_svg(str(args.out), title=args.title)
    print(f"{args.out}: {width} columns, {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
