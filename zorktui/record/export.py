"""Exporting a trajectory: an interpreter-style transcript, a ``.rec`` command file, or CSV of the turns."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

FORMATS = ("transcript", "rec", "csv")

#: Columns of the CSV export, in order.
CSV_COLUMNS = (
    "line", "type", "turn", "time", "actor", "command", "score", "moves", "reward", "location_id", "location",
    "inventory", "done", "victory", "dead", "state_hash", "proposal_command", "proposal_source", "proposal_fate",
    "critic_score", "think_ms", "tokens", "observation",
)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _text(value: Any) -> str:
    return _CONTROL.sub("", str(value)) if value is not None else ""


def transcript(records: Iterable[dict[str, Any]]) -> str:
    """The session as an interpreter's SCRIPT output would show it: the story text and each ``>command``.

    Undo, restart and restore are shown as bracketed notes where they happened.
    """
    out: list[str] = []
    for record in records:
        kind = record.get("type")
        if kind == "session":
            story = record.get("story") or {}
            out.append(f"[zorktui transcript of {story.get('title') or story.get('path') or 'a story'}, "
                       f"started {record.get('started', '?')}]")
        elif kind == "turn":
            if record.get("command") is not None:
                out.append(f">{_text(record['command'])}")
            out.append(_text(record.get("observation", "")).rstrip())
            out.append("")
        elif kind in ("undo", "restart", "restore"):
            name = f" {record.get('name')}" if kind == "restore" else ""
            out.append(f"[{kind}{name}: back to turn {record.get('turn')}]")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


class LineOfPlay:
    """Follows trajectory records and keeps the commands that lead to the current state.

    Undone commands drop out; a restore goes back to the line saved under its name.
    """

    def __init__(self) -> None:
        self.commands: list[str] = []
        self.saved: dict[str, list[str]] = {}

    def apply(self, record: dict[str, Any]) -> None:
        """Follow one record (other kinds are ignored)."""
        kind = record.get("type")
        if kind == "turn" and record.get("command") is not None:
            turn = int(record.get("turn", len(self.commands) + 1))
            del self.commands[turn - 1:]
            self.commands.append(str(record["command"]))
        elif kind in ("undo", "restart"):
            del self.commands[int(record.get("turn", 0)):]
        elif kind == "save":
            self.saved[str(record.get("name"))] = [str(c) for c in record.get("line") or self.commands]
        elif kind == "restore":
            name = str(record.get("name"))
            self.commands = list(self.saved.get(name, self.commands[: int(record.get("turn", 0))]))


def line_of_play(records: Iterable[dict[str, Any]]) -> list[str]:
    """The commands that lead from the opening to the final state (undone commands left out)."""
    line = LineOfPlay()
    for record in records:
        line.apply(record)
    return line.commands


def rec(records: Iterable[dict[str, Any]]) -> str:
    """A ``.rec`` command file (one command per line) that replays the final line of play in any interpreter."""
    commands = line_of_play(records)
    return "".join(f"{_text(c)}\n" for c in commands)


def csv_text(records: Iterable[dict[str, Any]]) -> str:
    """CSV of every turn and jump record, one row each (see :data:`CSV_COLUMNS`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for n, record in enumerate(records, start=1):
        kind = record.get("type")
        if kind == "session":
            continue
        location = record.get("location") or {}
        proposal = record.get("proposal") or {}
        critic = proposal.get("critic") or {}
        writer.writerow([
            n, kind, record.get("turn"), record.get("time"), record.get("actor"), _text(record.get("command")),
            record.get("score"), record.get("moves"), record.get("reward"), location.get("id"), _text(location.get("name")),
            "; ".join(_text(x) for x in record.get("inventory") or []), record.get("done"), record.get("victory"),
            record.get("dead"), record.get("state_hash"), _text(proposal.get("command")), proposal.get("source"),
            proposal.get("fate"), critic.get("score"), record.get("think_ms"), record.get("tokens"),
            _text(record.get("observation")) if kind == "turn" else _text(record.get("name")),
        ])
    return buffer.getvalue()


def export(records: list[dict[str, Any]], fmt: str) -> str:
    """A session in one of :data:`FORMATS`.

    Raises:
        ValueError: An unknown format.
    """
    if fmt == "transcript":
        return transcript(records)
    if fmt == "rec":
        return rec(records)
    if fmt == "csv":
        return csv_text(records)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}")
