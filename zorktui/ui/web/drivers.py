"""Two apps in one browser tab: a short question (a pseudonym, a session to watch), then the main app.

textual-serve reads one ``__GANGLION__`` line when a tab's process starts and
closes the tab when the app sends its ``exit`` packet. Textual's web driver
does both for every app it runs, so a second app in the same process would
find the tab closed. :class:`FirstWebDriver` leaves the tab open when the
question app ends; :class:`NextWebDriver` does not announce itself again.
In a terminal neither is used: the two apps simply run one after the other.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from textual import messages
from textual.app import App
from textual.drivers.web_driver import WebDriver

#: The environment variable through which textual-serve names its driver to the tab's process.
DRIVER_ENV = "TEXTUAL_DRIVER"
_PRELUDE = b"__GANGLION__\n"


def under_web_driver() -> bool:
    """Whether this process draws into a browser tab (textual-serve set Textual's web driver)."""
    return "WebDriver" in os.environ.get(DRIVER_ENV, "")


#: Seconds a tab's process has to close its session once textual-serve has gone, before it ends anyway.
ORPHAN_GRACE = 15.0


class TabWebDriver(WebDriver):
    """Textual's web driver, which also ends the app when textual-serve goes away.

    Textual's own driver stops reading when its stdin closes (the server was
    killed) but leaves the app running with nobody to see it. This one asks
    the app to quit, as closing the tab does, and ends the process if closing
    the session takes longer than :data:`ORPHAN_GRACE` (every turn is on disk by then).
    """

    def run_input_thread(self) -> None:
        """Read input as the web driver does; at end of input without a quit, quit."""
        super().run_input_thread()
        if not self.exit_event.is_set():
            self._app.post_message(messages.ExitApp())
            deadline = threading.Timer(ORPHAN_GRACE, os._exit, args=(0,))
            deadline.daemon = True  # a process that closes in time ends without waiting for it
            deadline.start()


class FirstWebDriver(TabWebDriver):
    """The web driver of a question app that another app follows in the same tab."""

    def stop_application_mode(self) -> None:
        """Stop reading input, but keep the tab: no ``exit`` packet."""
        self.exit_event.set()
        self._input_reader.close()
        # The next app reads stdin itself: this reader must be gone first (it waits at most 0.1 s).
        if self._key_thread.is_alive():
            self._key_thread.join(1.0)


class NextWebDriver(TabWebDriver):
    """The web driver of the app that follows a question app: the tab was announced already."""

    def start_application_mode(self) -> None:
        """Start as the web driver does, without the prelude line textual-serve has read."""
        write = self._write

        def without_prelude(data: bytes) -> Any:
            return None if data == _PRELUDE else write(data)

        self._write = without_prelude  # type: ignore[assignment]  # a function for a partial, the same call
        try:
            super().start_application_mode()
        finally:
            self._write = write


#: Whether a question app has run in this tab (the next app must not announce the tab again).
_asked = False


def run_first(app: App[Any]) -> None:
    """Run a question app; under the web driver, keep the tab open for the app that follows."""
    global _asked
    if under_web_driver():
        app.driver_class = FirstWebDriver
        _asked = True
    app.run()


def follows(app: App[Any]) -> App[Any]:
    """The app, set to draw into the browser tab (continuing it when a question app ran before it)."""
    # Textual read its driver's name from the environment once, at import: name this one directly.
    if _asked:
        app.driver_class = NextWebDriver
    elif under_web_driver():
        app.driver_class = TabWebDriver
    return app


def close_tab() -> None:
    """Under the web driver, end the tab after a question app that no app follows (the person quit)."""
    if under_web_driver():
        payload = b'{"type": "exit"}'
        os.write(1, b"M" + len(payload).to_bytes(4, "big") + payload)
