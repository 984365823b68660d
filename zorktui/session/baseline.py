"""Human-baseline sessions: the study's rules, the participant's folder and the consent record.

A baseline session is a person playing alone for research data: no agent, no
hints, undo only if the study allows it, a consent question before play, and
the participant id stored exactly as given (studies should hand out
pseudonyms, never names). The study's settings live under ``[baseline]`` in
``config.toml``::

    [baseline]
    consent = "You are taking part in ... Do you agree?"   # or consent_file = "/path/to/consent.txt"
    allow_undo = false
    show_memory = false
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zorktui.core.errors import ZorkTuiError

#: Shown when the study gives no consent text of its own.
DEFAULT_CONSENT = (
    "You are about to play an interactive fiction game for a study of how people play.\n\n"
    "What is recorded: every command you type, the game's replies, your score, and the time you take "
    "before each command. This is saved on this computer in a session folder under your participant id. "
    "Nothing else about you is recorded, and nothing is sent anywhere.\n\n"
    "You can stop at any time with ctrl+q; what you played so far is kept. "
    "Ask the person running the study if you want your data removed.\n\n"
    "Do you agree to take part?"
)
#: Participant ids: short, safe as a folder name, nothing that looks like a path.
_PARTICIPANT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class BaselineError(ZorkTuiError):
    """A baseline setting or participant id that cannot be used."""


@dataclass(frozen=True)
class BaselineRules:
    """How a human-baseline session runs.

    Attributes:
        participant: The participant id, exactly as given.
        consent: The consent text the person is asked to agree to.
        allow_undo: Whether undo (and restoring a checkpoint) is allowed.
        show_memory: Whether the Room and Map panels (the agent's memory) are shown.
    """

    participant: str
    consent: str = DEFAULT_CONSENT
    allow_undo: bool = False
    show_memory: bool = False

    def header_fields(self) -> dict[str, Any]:
        """The study settings recorded in the consent record (the text itself goes there too)."""
        return {"allow_undo": self.allow_undo, "show_memory": self.show_memory}


def check_participant(participant: str) -> str:
    """The participant id if it is usable as given, else a :class:`BaselineError` saying why.

    Raises:
        BaselineError: Empty, too long, or characters a folder name cannot safely hold.
    """
    if not _PARTICIPANT.fullmatch(participant or ""):
        raise BaselineError(
            f"participant id {participant!r} must be 1-64 letters, digits, '.', '_' or '-' "
            "(use a pseudonym such as P-017, not a name)")
    return participant


def load_rules(participant: str, settings: dict[str, Any] | None = None) -> BaselineRules:
    """The study's rules from ``[baseline]`` in the config file (or ``settings``), for one participant.

    Raises:
        BaselineError: A bad participant id, a missing consent file, or settings of the wrong type.
    """
    if settings is None:
        # deferred: tomllib and the config file load only when no settings are given
        from zorktui.settings import load_section

        settings, warning = load_section("baseline")
        if warning:
            # A study must not run on defaults it did not choose (the consent text above all).
            raise BaselineError(warning)
    check_participant(participant)
    consent = settings.get("consent", DEFAULT_CONSENT)
    if "consent_file" in settings:
        path = Path(str(settings["consent_file"])).expanduser()
        try:
            consent = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise BaselineError(f"[baseline] consent_file {path}: cannot read ({exc.strerror or exc})") from None
    for key in ("allow_undo", "show_memory"):
        if key in settings and not isinstance(settings[key], bool):
            raise BaselineError(f"[baseline] {key} must be true or false")
    if not isinstance(consent, str) or not consent.strip():
        raise BaselineError("[baseline] consent must be some text")
    return BaselineRules(participant, consent.strip(), bool(settings.get("allow_undo", False)),
                         bool(settings.get("show_memory", False)))


def participant_folder(participant: str, root: Path | None = None) -> Path:
    """A new session folder for this participant: ``<sessions>/baseline/<participant>/<time>``."""
    if root is None:
        # deferred like the other location look-ups (loaded already by then; costs nothing here)
        from zorktui.locations import sessions_dir

        root = sessions_dir()
    base = root / "baseline" / check_participant(participant)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder, n = base / stamp, 1
    while folder.exists():
        n += 1
        folder = base / f"{stamp}-{n}"
    return folder


def consent_given(records: list[dict[str, Any]]) -> bool | None:
    """The last consent answer in a trajectory: True agreed, False declined, None never asked."""
    answers = [r.get("answer") for r in records if r.get("type") == "consent"]
    return None if not answers else answers[-1] == "agreed"
