"""The look shared by the side panels: a bordered, titled, scrollable box around one body."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class TitledPanel(VerticalScroll):
    """A side panel: border title, focusable, scrollable; subclasses fill the body.

    Textual matches CSS type selectors against base classes too, so this
    style serves every panel built on it.
    """

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    TitledPanel {
        border: round $secondary;
        border-title-color: $secondary;
        border-title-style: bold;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    TitledPanel:focus-within { border: round $primary; }
    TitledPanel > Static { width: 1fr; }
    """
    #: The border title.
    PANEL_TITLE: ClassVar[str] = ""
    #: The id of the body widget.
    BODY_ID: ClassVar[str] = "panel-body"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.can_focus = True

    def compose(self) -> ComposeResult:
        yield Static(id=self.BODY_ID)

    def on_mount(self) -> None:
        self.border_title = self.PANEL_TITLE

    @property
    def body(self) -> Static:
        """The widget that shows the panel's content."""
        return self.query_one(f"#{self.BODY_ID}", Static)
