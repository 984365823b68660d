"""Priors from a model for the planner, as in MC-DML: the model weighs the valid actions.

The model sees the recent line of play (in-trial memory), the lessons the
planner drew from simulated lines that died (cross-trial memory), the
current text and the numbered valid actions, and answers with a JSON object
of action numbers to probabilities; where the endpoint takes a JSON schema, it
names up to three of the commands, best first, and can name no other. Its
weights are mixed with the heuristic ones, so a model that is unsure, wrong about a number or simply absent can
only shift the search, never stop it. One call per state: the answer is
remembered by state hash.
"""

from __future__ import annotations

import json
import math
import re

from zorktui.agent.llm import LlmClient, LlmUnavailable
from zorktui.agent.llm_endpoint import TEXT
from zorktui.agent.playlog import short_result
from zorktui.agent.reply import json_object
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

#: Weight of the model's opinion against the heuristic prior.
MODEL_SHARE = 0.7
#: Valid actions listed at most (the rest keep their heuristic prior).
MAX_LISTED = 40
#: Turns to leave the model alone after it failed.
RETRY_AFTER = 5

SYSTEM = (
    "You advise a planner playing a text adventure. Given the recent play, lessons learned and the "
    "numbered commands that are possible now, answer ONLY with a JSON object mapping command numbers "
    "to the probability that each is the best next step towards points, e.g. {\"3\": 0.6, \"1\": 0.3, \"7\": 0.1}."
)

SYSTEM_JSON = (
    "You advise a planner playing a text adventure. Given the recent play, lessons learned and the "
    "commands that are possible now, answer with one JSON object: \"best\", a list of one to three of "
    "those commands, the most promising first."
)
#: Weights of the commands a structured reply ranks, best first.
RANK_WEIGHTS = (0.6, 0.3, 0.1)

_OBJECT = re.compile(r"\{.*?\}", re.S)


def prompt(situation: Situation, actions: list[str], lessons: list[str],
           structured: bool = False) -> list[dict[str, str]]:
    """The messages for one state (``structured``: the reply is a JSON object naming the best commands)."""
    recent = [f"> {c.command} -> {short_result(c.result, 80)}" for c in situation.log.consequences[-8:]]
    score = situation.turn.score
    lines = [
        f"Room: {situation.room}. Score: {score if score is not None else '?'}"
        + (f" of {situation.max_score}" if situation.max_score else "") + ".",
        "Recent play:" if recent else "Recent play: (none yet)",
        *recent,
        "Lessons from simulated lines:" if lessons else "",
        *[f"- {lesson}" for lesson in lessons],
        "Now:",
        clean_text(situation.turn.observation)[:1200],
        "Possible commands:",
        *([f"- {a}" for a in actions] if structured else [f"{i}. {a}" for i, a in enumerate(actions, 1)]),
    ]
    return [{"role": "system", "content": SYSTEM_JSON if structured else SYSTEM},
            {"role": "user", "content": "\n".join(line for line in lines if line)}]


def ranking_schema(actions: list[str]) -> dict[str, object]:
    """The JSON schema of a structured reply: up to three of ``actions``, best first."""
    return {"type": "object",
            "properties": {"best": {"type": "array", "items": {"type": "string", "enum": actions},
                                    "minItems": 1, "maxItems": len(RANK_WEIGHTS)}},
            "required": ["best"], "additionalProperties": False}


def parse_ranking(text: str, actions: list[str]) -> dict[str, float] | None:
    """Weights from a structured reply's ranking, or None when it names none of ``actions``."""
    data = json_object(text)
    best = data.get("best") if data is not None else None
    known = set(actions)
    ranked = list(dict.fromkeys(a for a in best if isinstance(a, str) and a in known)) if isinstance(best, list) else []
    return {a: w for a, w in zip(ranked, RANK_WEIGHTS, strict=False)} or None


def parse_weights(text: str, actions: list[str]) -> dict[str, float] | None:
    """The model's probabilities by action, or None when the reply holds no usable JSON object.

    Keys may be the command's number or its text; values must be finite,
    non-negative numbers. Anything else in the reply is ignored.
    """
    by_text = {a.lower(): a for a in actions}
    for candidate in _OBJECT.findall(text[:20000]):
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        out: dict[str, float] = {}
        for key, value in data.items():
            action = None
            key_text = str(key).strip()
            if key_text.isdigit() and 1 <= int(key_text) <= len(actions):
                action = actions[int(key_text) - 1]
            else:
                action = by_text.get(key_text.lower())
            if action is None or isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if math.isfinite(value) and value >= 0:
                out[action] = out.get(action, 0.0) + min(float(value), 1e6)
        if out and sum(out.values()) > 0:
            return out
    return None


class LlmPrior:
    """Asks a model to weigh a state's actions, once per state.

    Args:
        client: An :class:`~zorktui.agent.llm.LlmClient`.
    """

    def __init__(self, client: LlmClient) -> None:
        self.client = client
        self._memo: dict[str, dict[str, float]] = {}
        self._offline_until = -1

    def adjust(self, situation: Situation, priors: dict[str, float],
               lessons: list[str]) -> tuple[dict[str, float], int, float, str]:
        """Mix the model's weights into ``priors``.

        Returns:
            (new priors, tokens spent, cost, a note for people or "").
        """
        key = situation.turn.key
        self.client.note_turn(situation.turn.turn)
        actions = sorted(priors, key=lambda a: -priors[a])[:MAX_LISTED]
        weights = self._memo.get(key)
        tokens, cost, note = 0, 0.0, ""
        if weights is None:
            if situation.turn.turn < self._offline_until:
                return priors, 0, 0.0, ""
            try:
                structured = self.client.reply_mode() != TEXT
                done = self.client.complete(prompt(situation, actions, lessons, structured), max_tokens=300,
                                            schema=ranking_schema(actions) if structured else None, name="ranking")
            except LlmUnavailable as exc:
                self._offline_until = situation.turn.turn + RETRY_AFTER
                return priors, 0, 0.0, f"LLM unavailable: {exc}; the planner uses heuristic priors for now"
            tokens, cost = done.prompt_tokens + done.completion_tokens, done.cost
            weights = parse_ranking(done.text, actions) if done.structured else parse_weights(done.text, actions)
            if weights is None:
                return priors, tokens, cost, "the model's reply held no usable weights; heuristic priors kept"
            self._memo[key] = weights
            note = "the model weighed: " + ", ".join(f"{a} {w / sum(weights.values()):.2f}"
                                                      for a, w in sorted(weights.items(), key=lambda x: -x[1])[:3])
        total_model = sum(weights.values())
        total_prior = sum(priors.values()) or 1.0
        mixed = {a: (1 - MODEL_SHARE) * p / total_prior + MODEL_SHARE * weights.get(a, 0.0) / total_model
                 for a, p in priors.items()}
        return mixed, tokens, cost, note
