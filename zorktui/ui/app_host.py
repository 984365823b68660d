"""What the app commands and a study's view ask of the main screen they are handed, as a type.

:class:`AppHost` lets :mod:`zorktui.ui.app_commands` and
:mod:`zorktui.ui.baseline_view` be typed against the main screen
(:class:`zorktui.ui.screens.main.MainScreen` is one) without importing it,
as it imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # hints only
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.widget import Widget

    from zorktui.session.session import Session

W = TypeVar("W", bound="Widget")


class AppHost(Protocol):
    """The main screen as its app commands and a study's view use it."""

    session: Session
    zoomed: str | None

    @property
    def app(self) -> App[Any]: ...

    def submit_job(self, call: Callable[[], object], label: str = "") -> None: ...

    def set_mode(self, mode: str) -> None: ...

    def set_delay(self, delay: float | str) -> None: ...

    def start_autopilot(self, steps: int | None) -> None: ...

    def reject(self, reason: str) -> None: ...

    def zoom_to(self, name: str | None) -> None: ...

    def action_pause(self) -> None: ...

    def action_edit(self) -> None: ...

    def action_step(self) -> None: ...

    def action_inspector(self) -> None: ...

    def action_help(self) -> None: ...

    async def action_quit(self) -> None: ...

    def query_one(self, selector: type[W]) -> W: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def push_screen(self, screen: Screen[bool], callback: Callable[[bool | None], None] | None = None) -> object: ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...
