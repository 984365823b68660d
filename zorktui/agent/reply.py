"""Reading a ReflAct reply: ``REFLECTION: ...``, ``OBJECTIVE: ...``, ``ACTION: ...`` in plain text.

Plain lines work with every OpenAI-compatible server, small local models
included. The parser tolerates case, markdown (bold, headings, bullets, code
fences), prose before and after, and a label on one line with its text on
the next; it returns None when no usable action is there, so the caller can
ask once more.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from zorktui.agent.safety import MAX_AGENT_COMMAND, safe_command

_LABEL = re.compile(
    r"^[\s>*#`_-]*(?:\d+[.)]\s*)?[*_`]*(reflection|reflect|thought|thinking|objective|goal|action|command)[*_`]*\s*[:=-]\s*[*_`]*\s*(.*)$",
    re.I,
)
_KEYS = {"reflection": "reflection", "reflect": "reflection", "thought": "reflection", "thinking": "reflection",
         "objective": "objective", "goal": "objective", "action": "action", "command": "action"}


@dataclass(frozen=True)
class ReflActReply:
    """The three parts of a reply (reflection and objective may be empty)."""

    reflection: str
    objective: str
    action: str


def _clean_action(text: str) -> str:
    text = safe_command(text.strip().strip("`*_\"'").strip())
    text = re.sub(r"^>\s*", "", text)
    text = text.rstrip(".!").strip().strip("\"'`")
    return text


def parse_reply(reply: str) -> ReflActReply | None:
    """The reflection, objective and action of a model reply, or None without a usable action.

    The last ACTION line wins (models sometimes restate it); an action longer
    than an agent command may be is treated as unusable.
    """
    parts: dict[str, list[str]] = {"reflection": [], "objective": [], "action": []}
    current: str | None = None
    for raw in reply.replace("\r", "").split("\n"):
        line = raw.strip()
        if line.startswith("```"):
            continue
        m = _LABEL.match(line)
        if m:
            current = _KEYS[m.group(1).lower()]
            if current == "action":
                parts["action"].append(m.group(2))
            else:
                parts[current] = [m.group(2)] if m.group(2).strip() else []
            continue
        if current == "action" and line and parts["action"] and not parts["action"][-1].strip():
            parts["action"][-1] = line  # label on one line, the command on the next
        elif current in ("reflection", "objective") and line:
            parts[current].append(line)
    actions = [a for a in (_clean_action(a) for a in parts["action"]) if a]
    if not actions or len(actions[-1]) > MAX_AGENT_COMMAND or "\n" in actions[-1]:
        return None
    return ReflActReply(_joined(parts["reflection"]), _joined(parts["objective"]), actions[-1])


def _joined(lines: list[str]) -> str:
    return safe_command(" ".join(lines)).strip("*_ ")


#: Caps on the free-text fields of a structured reply: they bound its tokens, so a reply is never cut off,
#: and every token costs (a small model on 2 cores spends 15-45 ms on each under a grammar).
REFLECTION_CHARS = 80
OBJECTIVE_CHARS = 60
TYPED_CHARS = 40
#: Actions the schema lists at most (the rest can still be typed).
SCHEMA_ACTIONS = 150


def reply_schema(actions: list[str] | None, allow_other: bool = True, objective: bool = True) -> dict[str, object]:
    """The JSON schema of a structured ReflAct reply.

    The action is one of ``actions`` or, with ``allow_other``, an object
    ``{"typed": "a command"}``: typing costs its tokens only when it is chosen.

    Args:
        actions: The commands the action must be one of (None: any command, typed as a string).
        allow_other: Let the model type a command that is not among ``actions``.
        objective: Ask for the objective (it stands until it is time to reconsider it:
            asking every turn would only spend tokens).
    """
    listed = list(dict.fromkeys((actions or [])[:SCHEMA_ACTIONS]))
    action: dict[str, object]
    if not listed:
        action = {"type": "string", "maxLength": MAX_AGENT_COMMAND}
    elif allow_other:
        typed = {"type": "object", "properties": {"typed": {"type": "string", "maxLength": TYPED_CHARS}},
                 "required": ["typed"], "additionalProperties": False}
        action = {"anyOf": [{"type": "string", "enum": listed}, typed]}
    else:
        action = {"type": "string", "enum": listed}
    properties: dict[str, object] = {"reflection": {"type": "string", "minLength": 8, "maxLength": REFLECTION_CHARS}}
    if objective:
        properties["objective"] = {"type": "string", "maxLength": OBJECTIVE_CHARS}
    properties["action"] = action
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def json_object(text: str) -> dict[str, object] | None:
    """The JSON object in a model's reply (prose around it ignored), or None.

    ``strict=False``: some servers' grammars let raw newlines into a string, which JSON forbids.
    """
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start:end + 1], strict=False)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def parse_json_reply(text: str, actions: list[str] | None = None) -> ReflActReply | None:
    """A structured reply's parts, or None when it is no object with a usable action.

    The action is a command (one of ``actions`` for a schema-honouring server;
    a model that ignored the schema and wrote another command is still heard
    if the command is usable: the critic judges it like any other) or an
    object whose ``typed`` is the command.
    """
    data = json_object(text)
    if data is None:
        return None
    chosen = data.get("action")
    if isinstance(chosen, dict):
        chosen = chosen.get("typed")
    if not isinstance(chosen, str):
        return None
    action = _clean_action(chosen)
    if not action or len(action) > MAX_AGENT_COMMAND or "\n" in action:
        return None
    return ReflActReply(_field(data.get("reflection")), _field(data.get("objective")), action)


def _field(value: object) -> str:
    return _joined([value]) if isinstance(value, str) else ""
