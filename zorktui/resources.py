"""The files zorktui reads from its own package at run time, found through :mod:`importlib.resources`.

Every such file is named in :data:`RESOURCES`, and read through
:func:`resource_path`, never through a path built next to a module's source:
an installed wheel, a zipped package or a checkout all answer the same way.
``tests/test_packaging.py`` builds the wheel and the sdist and checks that
each holds every file named here (and every file the package is seen to open).
"""

from __future__ import annotations

import atexit
import functools
from contextlib import ExitStack
from importlib.resources import as_file, files
from pathlib import Path

#: Every file the package reads at run time, by name: (package, file name in it).
RESOURCES: dict[str, tuple[str, str]] = {
    "layout.tcss": ("zorktui.ui", "layout.tcss"),
    "app.tcss": ("zorktui.ui", "app.tcss"),
    "plain_note.html": ("zorktui.ui.web", "plain_note.html"),
    "lighthouse.z5": ("zorktui.stories", "lighthouse.z5"),
}

# Files extracted from a zipped package live until the process ends (a story is read by Frotz's C code,
# a stylesheet by Textual: both want a real path).
_extracted = ExitStack()
atexit.register(_extracted.close)


@functools.cache
def resource_path(name: str) -> Path:
    """A real file holding one of the package's own files.

    Args:
        name: A key of :data:`RESOURCES`.

    Returns:
        The file in the installed package, or a temporary copy when the
        package is not on the file system (a zip).

    Raises:
        KeyError: ``name`` is not a known resource.
    """
    package, file_name = RESOURCES[name]
    return _extracted.enter_context(as_file(files(package).joinpath(file_name)))
