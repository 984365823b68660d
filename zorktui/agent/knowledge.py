"""Lessons kept per story across sessions: what killed the player, how earlier games ended.

One JSON file per story, named by the story file's md5, in the user data
dir (``knowledge/MD5.json``). Written atomically; a damaged file is moved
aside and a fresh one started, with one line saying so.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.agent.playlog import normal, short_result
from zorktui.agent.safety import clean_text

if TYPE_CHECKING:
    from zorktui.core.turn import Turn

#: Lessons kept per story (oldest dropped first).
MAX_LESSONS = 200
#: Lessons shown in a prompt (deaths first, newest first).
SHOWN = 8


@dataclass(frozen=True)
class Lesson:
    """One thing learned.

    Attributes:
        kind: "death" or "ending".
        text: The lesson for a prompt.
        room: The room it happened in.
        command: The command that caused it.
    """

    kind: str
    text: str
    room: str = ""
    command: str = ""


class KnowledgeBase:
    """The lessons of one story.

    Args:
        folder: Where knowledge files live (usually ``data_dir()/"knowledge"``).
        story_md5: The story's md5.
    """

    def __init__(self, folder: Path, story_md5: str) -> None:
        self.path = Path(folder) / f"{story_md5}.json"
        self.warning = ""
        self.lessons: list[Lesson] = self._load()

    def _load(self) -> list[Lesson]:
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [Lesson(str(x["kind"]), str(x["text"]), str(x.get("room", "")), str(x.get("command", "")))
                    for x in data["lessons"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            aside = self.path.with_name(f"{self.path.stem}.damaged-{int(time.time())}.json")
            try:
                self.path.replace(aside)
            except OSError:
                pass
            self.warning = f"knowledge file {self.path.name} was unreadable ({type(exc).__name__}); moved aside, starting afresh"
            return []

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        payload: dict[str, Any] = {"lessons": [vars(x) for x in self.lessons[-MAX_LESSONS:]]}
        tmp.write_text(json.dumps(payload, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def add(self, lesson: Lesson) -> None:
        """Keep a lesson (an identical one is not kept twice)."""
        if lesson in self.lessons:
            return
        self.lessons.append(lesson)
        self._save()

    def death(self, room: str, command: str, observation: str) -> Lesson:
        """Learn from a death: this command in this room killed the player."""
        lesson = Lesson("death", f"In {clean_text(room)}, '{normal(command)}' killed you: \"{short_result(observation, 120)}\"",
                        room, normal(command))
        self.add(lesson)
        return lesson

    def ending(self, text: str) -> Lesson:
        """Learn from the end of a game (score reached, rooms seen, how it ended)."""
        lesson = Lesson("ending", clean_text(text)[:300])
        self.add(lesson)
        return lesson

    def game_over(self, turn: Turn, rooms: int, max_score: int | None) -> Lesson:
        """Learn from how a game went: how it ended, after how many turns, its score and rooms seen."""
        score = "no score" if turn.score is None else f"score {turn.score}" + (f"/{max_score}" if max_score else "")
        how = "won" if turn.victory else ("died" if turn.dead else ("ended" if turn.done else "stopped"))
        return self.ending(f"An earlier game {how} after {turn.turn} turns with {score}, "
                           f"{rooms} rooms seen, last in {turn.location.name if turn.location else '?'}.")

    def deadly(self, room: str, command: str) -> bool:
        """Whether ``command`` killed the player in ``room`` before."""
        cmd = normal(command)
        return any(x.kind == "death" and x.room == room and x.command == cmd for x in self.lessons)

    def for_prompt(self, limit: int = SHOWN) -> list[str]:
        """The lessons worth showing a model: deaths first, newest first."""
        ranked = sorted(enumerate(self.lessons), key=lambda ix: (ix[1].kind != "death", -ix[0]))
        return [x.text for _, x in ranked[:limit]]
