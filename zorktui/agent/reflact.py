"""The ReflAct agent: one model call per idea, a re-ask on an unusable reply, offline when the model is not.

When the model cannot be used (no key, endpoint down, timeouts after
retries), the agent says why in one line, suggests with the offline explorer
instead, and tries the model again after a few turns.
"""

from __future__ import annotations


from zorktui.agent import prompt
from zorktui.agent.explorer import Explorer
from zorktui.agent.llm import LlmClient, LlmUnavailable
from zorktui.agent.proposal import Idea
from zorktui.agent.reply import parse_reply
from zorktui.agent.situation import Situation

#: Turns to stay offline after the model failed before trying it again.
RETRY_AFTER = 5


class ReflActAgent:
    """Suggests commands by asking a model with the room-state block.

    Args:
        client: An :class:`~zorktui.agent.llm.LlmClient` (None: offline from the start).
        unavailable: Why there is no client (shown when ``client`` is None).
    """

    name = "llm"

    def __init__(self, client: LlmClient | None, unavailable: str = "") -> None:
        self.client = client
        self.fallback = Explorer()
        #: Why the model is not being used right now ("" when it is).
        self.offline_reason = "" if client is not None else (unavailable or "no LLM configured")
        self._offline_until = -1 if client is not None else 1 << 62

    def suggest(self, situation: Situation) -> Idea:
        """Ask the model (re-asking once on an unusable reply); fall back to the explorer."""
        if self.client is None or situation.turn.turn < self._offline_until:
            return self._offline(situation, [])
        msgs = prompt.messages(situation)
        tokens, cost = 0, 0.0
        notes: list[str] = []
        try:
            for attempt in range(2):
                done = self.client.complete(msgs)
                tokens += done.prompt_tokens + done.completion_tokens
                cost += done.cost
                reply = parse_reply(done.text)
                if reply is not None:
                    self.offline_reason = ""
                    return Idea(reply.action, self.name, reply.reflection, reply.objective, tokens, cost, notes)
                if attempt == 0:
                    notes.append("the model's reply had no usable ACTION; asked again")
                    msgs = msgs + [{"role": "assistant", "content": done.text[:2000]},
                                   {"role": "user", "content": prompt.REASK}]
            notes.append("the model gave no usable action twice; the explorer chose instead")
        except LlmUnavailable as exc:
            self.offline_reason = str(exc)
            self._offline_until = situation.turn.turn + RETRY_AFTER
            notes.append(f"LLM unavailable: {exc}; the offline explorer plays for now")
        idea = self._offline(situation, notes)
        idea.tokens, idea.cost = tokens, cost
        return idea

    def _offline(self, situation: Situation, notes: list[str]) -> Idea:
        idea = self.fallback.suggest(situation)
        idea.notes = notes or ([f"LLM unavailable: {self.offline_reason}"] if self.offline_reason else [])
        idea.objective = situation.objective or idea.objective
        return idea
