"""The critic's optional third stage: a model's opinion of one proposed command.

It is asked only when the session's budget of model calls a turn has room:
the agent's own call comes first.
"""

from __future__ import annotations

import re

from zorktui.agent.llm import LlmClient, LlmUnavailable
from zorktui.agent.llm_endpoint import TEXT
from zorktui.agent.prompt import block_chars, room_state_block
from zorktui.agent.reply import json_object
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

SYSTEM = ("You review one proposed command in a text adventure. Answer in two lines:\n"
          "SCORE: a number from -1 (harmful or pointless) to 1 (clearly useful)\nREASON: a few words.")
SYSTEM_JSON = ("You review one proposed command in a text adventure. Answer with one JSON object: \"verdict\", "
               "one of " + ", ".join(f'\"{v}\"' for v in ("harmful", "pointless", "neutral", "useful", "clearly useful"))
               + ", and \"reason\", a few words.")
#: A structured verdict's score.
VERDICTS = {"harmful": -1.0, "pointless": -0.5, "neutral": 0.0, "useful": 0.5, "clearly useful": 1.0}
SCHEMA = {"type": "object",
          "properties": {"verdict": {"type": "string", "enum": list(VERDICTS)},
                         "reason": {"type": "string", "maxLength": 60}},
          "required": ["verdict", "reason"], "additionalProperties": False}
_SCORE = re.compile(r"score[\s:=*_]*([-+]?\d*\.?\d+)", re.I)
_REASON = re.compile(r"reason\W*(.+)", re.I)


class LlmJudge:
    """Asks a model to score a command; silent (None) when the model fails or answers nonsense.

    Args:
        client: An :class:`~zorktui.agent.llm.LlmClient`.
    """

    def __init__(self, client: LlmClient) -> None:
        self.client = client
        self.tokens = 0
        self.cost = 0.0

    def __call__(self, command: str, situation: Situation) -> tuple[float, str] | None:
        """The model's score in [-1, 1] and its reason, or None (also when the budget of calls has no room)."""
        if not self.client.can_spare(situation.turn.turn, pending=0):  # asked after the agent's call
            return None
        limit = block_chars(self.client.context_window(), 90, len(SYSTEM_JSON) + 80)
        user = f"{room_state_block(situation, limit)}\n\nPROPOSED COMMAND: {clean_text(command)}"
        try:
            structured = self.client.reply_mode() != TEXT
            done = self.client.complete([{"role": "system", "content": SYSTEM_JSON if structured else SYSTEM},
                                         {"role": "user", "content": user}],
                                        max_tokens=90, schema=SCHEMA if structured else None, name="verdict")
        except LlmUnavailable:
            return None
        self.tokens += done.prompt_tokens + done.completion_tokens
        self.cost += done.cost
        if done.structured:
            return _structured(done.text)
        m = _SCORE.search(done.text)
        if not m:
            return None
        reason = _REASON.search(done.text)
        text = " ".join(clean_text(reason.group(1)).split())[:80] if reason else ""
        return max(-1.0, min(1.0, float(m.group(1)))), text


def _structured(text: str) -> tuple[float, str] | None:
    """The score and reason of a structured verdict, or None."""
    data = json_object(text)
    if data is None or data.get("verdict") not in VERDICTS:
        return None
    verdict = str(data["verdict"])
    reason = data.get("reason")
    return VERDICTS[verdict], " ".join(clean_text(reason).split())[:80] if isinstance(reason, str) else ""
