"""The ReflAct agent: one model call a turn, its reply usable the first time, offline only while the model is not.

Where the endpoint takes a JSON schema (found once per endpoint, see
:mod:`zorktui.agent.llm_endpoint`) the reply is one object whose action must
be one of the commands offered: the valid actions the critic would let
through, or a command typed out. Elsewhere the reply is three text lines,
asked again once when it holds no usable action.

When the model cannot be used (endpoint down, timeouts after retries) the
agent says why once, lets the offline explorer choose (the turn records the
explorer as its source), tries the model again after a few turns, and says
once when it is back.
"""

from __future__ import annotations

from zorktui.agent import prompt
from zorktui.agent.explorer import Explorer
from zorktui.agent.llm import LlmClient, LlmRefused, LlmUnavailable, PromptTooLong
from zorktui.agent.llm_endpoint import LABELS, TEXT
from zorktui.agent.proposal import Idea
from zorktui.agent.reply import parse_json_reply, parse_reply, reply_schema
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

#: Turns to stay offline after the model failed before trying it again.
RETRY_AFTER = 5
#: Tokens a structured reply may take (its fields are capped well below this).
JSON_REPLY_TOKENS = 400
#: Tokens a text reply may take.
TEXT_REPLY_TOKENS = 300


class ReflActAgent:
    """Suggests commands by asking a model with the room-state block.

    Args:
        client: The session's :class:`~zorktui.agent.llm.LlmClient`.
    """

    name = "llm"
    #: Ask the session for the commands the critic would let through (they make up the action's schema).
    wants_screening = True

    def __init__(self, client: LlmClient) -> None:
        self.client = client
        self.fallback = Explorer()
        #: Why the model is not being used right now ("" when it is).
        self.offline_reason = ""
        self._offline_until = -1
        self._asked: Situation | None = None

    @property
    def mode_line(self) -> str:
        """How replies are asked for, for the Agent panel ("" before the first call)."""
        mode = self.client.usage.replies
        return f"replies: {LABELS[mode]}" if mode in LABELS else ""

    def suggest(self, situation: Situation) -> Idea:
        """Ask the model; fall back to the explorer while it cannot be used."""
        self.client.note_turn(situation.turn.turn)
        if situation.turn.turn < self._offline_until:
            return self._offline(situation, [])
        again = self._asked is situation  # the critic refused what the model chose for this same decision
        self._asked = situation
        if again and not self.client.can_spare(situation.turn.turn, pending=0, reserve=0):
            # The critic refused the model's command; asking again would spend a call the budget has not got.
            return self._offline(situation, ["the model's command was refused and the budget of calls a turn has "
                                             "no room to ask again; the explorer chose"])
        tokens, cost = 0, 0.0
        notes: list[str] = []
        if self.offline_reason:
            notes.append("the model answers again")  # said once, on the turn it is back
        try:
            reask = False
            for attempt in range(3):
                structured = self.client.reply_mode() != TEXT
                msgs, schema, offered = self._request(situation, structured, attempt == 0, reask)
                try:
                    done = self.client.complete(msgs, JSON_REPLY_TOKENS if structured else TEXT_REPLY_TOKENS,
                                                schema=schema)
                except PromptTooLong:
                    if attempt:
                        raise
                    continue  # the client learned the window: the next prompt is fitted to it
                except LlmRefused as exc:
                    if not structured or attempt:
                        raise
                    notes.append(f"the endpoint refused a structured request ({exc}); replies are text from now")
                    continue
                tokens += done.prompt_tokens + done.completion_tokens
                cost += done.cost
                reply = parse_json_reply(done.text, offered) if done.structured else parse_reply(done.text)
                if reply is not None:
                    self.offline_reason = ""
                    return Idea(reply.action, self.name, reply.reflection, reply.objective or situation.objective,
                                tokens, cost, notes)
                if attempt == 0:
                    notes.append(f"the model's reply had no usable action ({_gist(done.text)}); asked again")
                    reask = not done.structured
                    continue
                break
            notes.append("the model gave no usable action twice; the explorer chose instead")
        except LlmUnavailable as exc:
            if not self.offline_reason:
                notes.append(f"LLM unavailable: {exc}; the offline explorer plays until it answers again")
            self.offline_reason = str(exc)
            self._offline_until = situation.turn.turn + RETRY_AFTER
            if notes and notes[0] == "the model answers again":
                notes.pop(0)
        idea = self._offline(situation, notes)
        idea.tokens, idea.cost = tokens, cost
        return idea

    def _request(self, situation: Situation, structured: bool, allow_other: bool,
                 reask: bool) -> tuple[list[dict[str, str]], dict[str, object] | None, list[str] | None]:
        """The messages, the reply's schema (None for text) and the commands the schema offers."""
        offered = list(situation.acceptable if situation.acceptable else situation.valid_actions or ()) or None
        if offered is not None:
            offered = [a for a in offered if a not in situation.refused] or None
        if situation.turn.question:
            allow_other = False  # a question is answered from what the story offers
        elif allow_other and offered and not self.client.can_spare(situation.turn.turn, pending=1, reserve=0):
            # A typed command may be refused, and asking again needs a call the budget has not got: offer
            # only what the critic lets through, so this reply is played.
            allow_other = False
        reply_tokens = JSON_REPLY_TOKENS if structured else TEXT_REPLY_TOKENS
        msgs = prompt.messages(situation, structured, self.client.context_window(), reply_tokens)
        if reask and not structured:
            msgs = msgs + [{"role": "user", "content": prompt.REASK}]
        objective = not situation.objective or situation.refresh_objective
        return msgs, (reply_schema(offered, allow_other, objective) if structured else None), offered

    def _offline(self, situation: Situation, notes: list[str]) -> Idea:
        idea = self.fallback.suggest(situation)
        idea.notes = notes
        idea.objective = situation.objective or idea.objective
        return idea


def _gist(text: str) -> str:
    """The start of an unusable reply, on one line, for the notes."""
    flat = " ".join(clean_text(text).split())
    return f"'{flat[:80]}…'" if len(flat) > 80 else f"'{flat}'"
