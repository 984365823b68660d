"""What the app's parts use of the app, as types: the app commands, the study's view and the mixins.

:class:`AppHost` is what :mod:`zorktui.ui.app_commands` and
:mod:`zorktui.ui.baseline_view` ask of the app they are handed, so neither
imports :mod:`zorktui.ui.app` (which imports them). :data:`AppMixin` is the
base the app's mixins (:mod:`zorktui.ui.bridge`, :mod:`zorktui.ui.player_actions`,
:mod:`zorktui.ui.workers`) type-check against: the Textual app they are mixed
into; at run time it is ``object``, so nothing changes in the app's classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # hints only
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.theme import Theme
    from textual.widget import Widget

    from zorktui.session.session import Session
    from zorktui.ui.app_base import ZorkTuiAppBase

    AppMixin = ZorkTuiAppBase
else:
    AppMixin = object

W = TypeVar("W", bound="Widget")


class AppHost(Protocol):
    """The app as its app commands and a study's view use it (:class:`zorktui.ui.app.ZorkApp` is one)."""

    session: Session
    zoomed: str | None
    theme: str

    @property
    def available_themes(self) -> dict[str, Theme]: ...

    def submit_job(self, call: Callable[[], object], label: str = "") -> None: ...

    def set_mode(self, mode: str) -> None: ...

    def set_delay(self, delay: float | str) -> None: ...

    def start_autopilot(self, steps: int | None) -> None: ...

    def reject(self, reason: str) -> None: ...

    def zoom_to(self, name: str | None) -> None: ...

    def action_pause(self) -> None: ...

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
