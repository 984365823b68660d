"""Reading a ReflAct reply: ``REFLECTION: ...``, ``OBJECTIVE: ...``, ``ACTION: ...`` in plain text.

Plain lines work with every OpenAI-compatible server, small local models
included. The parser tolerates case, markdown (bold, headings, bullets, code
fences), prose before and after, and a label on one line with its text on
the next; it returns None when no usable action is there, so the caller can
ask once more.
"""

from __future__ import annotations

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
