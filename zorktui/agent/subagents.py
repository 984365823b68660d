"""Sub-agents: a narrator, room hints and a conversation tracker, each with an offline form.

* Narrator: every 5 turns, or when the score changes, a short account of the
  story so far (the model writes it when one is in use; otherwise a summary
  of what the last commands did).
* Room hints: on entering a room for the first time, a few things worth
  trying there (from the model, or from the untried valid actions).
* Conversation tracker: when talking to someone has stopped changing anything
  for a few turns, a note to change tack.

Their notes go into the ReflAct prompt and the Agent panel. They ask the model
only when the session's budget of calls a turn has room (the agent's own call
comes first); otherwise their offline forms speak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from zorktui.agent.llm import LlmClient, LlmUnavailable
from zorktui.agent.playlog import Consequence, normal
from zorktui.agent.prompt import block_chars, room_state_block
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

NARRATE_EVERY = 5
#: Conversation commands in a row that changed nothing before the tracker speaks.
STALL_AFTER = 3
_TALK = re.compile(r"^(?:ask|tell|say|talk|speak|answer|greet|hello|hi|yes|no|(\w+),)\b", re.I)
_TALK_TO = re.compile(r"^(?:ask|tell|talk to|speak to|speak with|greet|show|give \w+ to)\s+(?:the\s+)?(\w+)", re.I)

NARRATOR_SYSTEM = ("You keep the log of a text-adventure game. In at most three sentences, summarise the story so far: "
                   "where the player has been, what they achieved, and what seems left to do. Plain text only.")
HINTS_SYSTEM = ("You advise a text-adventure player who just entered a room. List at most three short commands "
                "worth trying here, one per line, nothing else.")


@dataclass
class SubAgentNotes:
    """The latest output of each sub-agent (empty strings when silent)."""

    narrative: str = ""
    hints: list[str] = field(default_factory=list)
    hints_room: int = -1
    conversation: str = ""
    tokens: int = 0
    cost: float = 0.0

    def lines(self, room_id: int) -> list[str]:
        """Notes for the prompt and the panel (hints only while in their room)."""
        out = []
        if self.narrative:
            out.append(f"Story so far: {self.narrative}")
        if self.hints and self.hints_room == room_id:
            out.append(f"Worth trying here: {'; '.join(self.hints)}")
        if self.conversation:
            out.append(self.conversation)
        return out


def _offline_narrative(recent: list[Consequence]) -> str:
    bits = []
    for c in recent:
        if c.reward or c.gained or c.lost or c.moved_to or c.died:
            bits.append(f"{c.command} ({c.effects()})")
    return ("Lately: " + "; ".join(bits) + ".") if bits else "Lately nothing has changed much."


def _offline_hints(situation: Situation, tried: set[str]) -> list[str]:
    """Up to three untried valid actions that handle things, then ways nobody has taken (the game's, then the text's)."""
    hints = [a for a in (situation.valid_actions or ()) if normal(a) not in tried
             and normal(a).split()[0] in ("take", "open", "examine", "read", "search", "push", "pull", "turn")][:3]
    untaken = [*situation.map.accepted, *situation.map.mentioned]
    return hints + [f"go {d}" for d in untaken[: 3 - len(hints)]]


class SubAgents:
    """Runs the sub-agents after each turn.

    Args:
        client: An LLM client for the narrator and hints (None: offline forms only).
    """

    def __init__(self, client: LlmClient | None = None) -> None:
        self.client = client
        self.notes = SubAgentNotes()
        self._last_narrated = 0
        # The model's hints for the hints' room (None: the offline ones, rebuilt each turn).
        self._model_hints: list[str] | None = None

    def _ask(self, system: str, user: str, turn: int, max_tokens: int) -> str | None:
        """The model's note, or None (no model, no room in the budget of calls, or a failure)."""
        if self.client is None or not self.client.can_spare(turn):
            return None
        try:
            done = self.client.complete([{"role": "system", "content": system}, {"role": "user", "content": user}],
                                        max_tokens=max_tokens)
        except LlmUnavailable:
            return None
        self.notes.tokens += done.prompt_tokens + done.completion_tokens
        self.notes.cost += done.cost
        return " ".join(clean_text(done.text).split())[:500]

    def _limit(self) -> int | None:
        """Characters a room-state block may take in a sub-agent's prompt (None: no model)."""
        if self.client is None:
            return None
        return block_chars(self.client.context_window(), 60, len(HINTS_SYSTEM))

    def after_turn(self, situation: Situation) -> list[str]:
        """Update the notes for the situation after a turn; returns the notes that are new."""
        new: list[str] = []
        log = situation.log
        t = situation.turn
        due = t.turn - self._last_narrated >= NARRATE_EVERY or (t.reward != 0 and t.turn > self._last_narrated)
        if due and log.consequences:
            recent = log.consequences[-NARRATE_EVERY:]
            story = "\n".join(clean_text(c.line()) for c in log.consequences[-20:])
            prompt = f"Previous summary: {self.notes.narrative or 'none'}\nRecent turns:\n{story}"
            text = self._ask(NARRATOR_SYSTEM, prompt, t.turn, 120)
            self.notes.narrative = text or _offline_narrative(recent)
            self._last_narrated = t.turn
            new.append(f"Story so far: {self.notes.narrative}")
        tried = set(log.tried_here(situation.room_id))
        if log.entered_new_room() and situation.room_id != self.notes.hints_room:
            self.notes.hints_room = situation.room_id
            text = self._ask(HINTS_SYSTEM, room_state_block(situation, self._limit()), t.turn, 60)
            self._model_hints = [h.strip(" -*•") for h in re.split(r"[;\n]|(?<=\w)\s{2,}", text)
                                 if h.strip(" -*•")][:3] if text else None
            fresh = True
        else:
            fresh = False
        if situation.room_id == self.notes.hints_room:
            # Rebuilt from the state every turn: a hint once taken (or no longer possible) goes.
            before = self.notes.hints
            if self._model_hints is not None:
                self.notes.hints = [h for h in self._model_hints if normal(h) not in tried]
            else:
                self.notes.hints = _offline_hints(situation, tried)
            if self.notes.hints and (fresh or self.notes.hints != before):
                new.append(f"Worth trying here: {'; '.join(self.notes.hints)}")
        self.notes.conversation = self._conversation(log.consequences)
        if self.notes.conversation:
            new.append(self.notes.conversation)
        return new

    @staticmethod
    def _conversation(consequences: list[Consequence]) -> str:
        talk: list[Consequence] = []
        for c in reversed(consequences):
            if not _TALK.match(c.command):
                break
            talk.append(c)
        if len(talk) < STALL_AFTER or any(c.reward or c.gained or c.lost for c in talk):
            return ""
        who = {m.group(1).lower() for c in talk if (m := _TALK_TO.match(c.command))}
        topics = ", ".join(dict.fromkeys(normal(c.command) for c in reversed(talk)))
        whom = f" with {', '.join(sorted(who))}" if who else ""
        return (f"The conversation{whom} has stalled ({topics}). Try another topic, show or give them something, "
                "or come back later.")
