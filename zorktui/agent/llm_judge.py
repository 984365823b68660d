"""The critic's optional third stage: a model's opinion of one proposed command.

It is asked only when the session's budget of model calls a turn has room:
the agent's own call comes first.
"""

from __future__ import annotations

import re

from zorktui.agent.llm import LlmClient, LlmUnavailable
from zorktui.agent.prompt import CHARS_PER_TOKEN, room_state_block
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

SYSTEM = ("You review one proposed command in a text adventure. Answer in two lines:\n"
          "SCORE: a number from -1 (harmful or pointless) to 1 (clearly useful)\nREASON: a few words.")
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
        if not self.client.can_spare(situation.turn.turn):
            return None
        limit = max(400, (self.client.context_window() - 100) * CHARS_PER_TOKEN - 400)
        user = f"{room_state_block(situation, limit)}\n\nPROPOSED COMMAND: {clean_text(command)}"
        try:
            done = self.client.complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
                                        max_tokens=60)
        except LlmUnavailable:
            return None
        self.tokens += done.prompt_tokens + done.completion_tokens
        self.cost += done.cost
        m = _SCORE.search(done.text)
        if not m:
            return None
        reason = _REASON.search(done.text)
        text = " ".join(clean_text(reason.group(1)).split())[:80] if reason else ""
        return max(-1.0, min(1.0, float(m.group(1)))), text
