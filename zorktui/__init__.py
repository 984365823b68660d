"""zorktui: a terminal app for people and AI agents playing interactive fiction together."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("zorktui")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.1.0"

__all__ = ["__version__"]
