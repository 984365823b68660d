"""Reading ReflAct replies and keeping the agent to commands a player may give."""

from __future__ import annotations

import pytest

from zorktui.agent.reply import parse_reply
from zorktui.agent.safety import clean_text, reserved_reason


@pytest.mark.parametrize("reply,action", [
    ("REFLECTION: dark here\nOBJECTIVE: find light\nACTION: light lantern", "light lantern"),
    ("reflection: x\nobjective: y\naction: open the door.", "open the door"),
    ("Sure! Let me think.\n\n**Reflection:** The kitchen is cold.\n**Objective:** warm up\n**Action:** `take kettle`\nGood luck!",
     "take kettle"),
    ("### REFLECTION\n- nothing\n### ACTION:\n> north", "north"),
    ("```\nREFLECTION: a\nOBJECTIVE: b\nACTION: \"go west\"\n```", "go west"),
    ("1. Reflection: a\n2. Objective: b\n3. Action: east\nActually, on second thought:\nACTION: west", "west"),
    ("ACTION:\nclimb ladder", "climb ladder"),
    ("Command = wait", "wait"),
])
def test_parses_many_shapes(reply: str, action: str) -> None:
    parsed = parse_reply(reply)
    assert parsed is not None and parsed.action == action


def test_reflection_and_objective_kept() -> None:
    parsed = parse_reply("REFLECTION: The door is locked\nand the key is gone.\nOBJECTIVE: find the key\nACTION: look")
    assert parsed.reflection == "The door is locked and the key is gone." and parsed.objective == "find the key"


@pytest.mark.parametrize("reply", ["", "I would go north.", "ACTION:", "ACTION: " + "x" * 300, "REFLECTION: hm"])
def test_unusable_replies_are_none(reply: str) -> None:
    assert parse_reply(reply) is None


def test_escape_sequences_and_control_characters_removed() -> None:
    parsed = parse_reply("REFLECTION: \x1b[31mred\x1b[0m\nACTION: take \x1b]0;pwned\x07lamp\x00")
    assert parsed.action == "take lamp" and "\x1b" not in parsed.reflection and parsed.reflection == "red"
    assert clean_text("a\x1b[2Jb\x07c\n\td\x9b31m") == "abc\n\td"
    assert clean_text("[bold red]markup stays literal[/]") == "[bold red]markup stays literal[/]"


@pytest.mark.parametrize("command", ["quit", "Q", "restart", "save", "restore game", "script", "unscript", "undo",
                                     "north then quit", "take lamp; quit"])
def test_reserved_commands_refused(command: str) -> None:
    assert reserved_reason(command)


@pytest.mark.parametrize("command", ["north", "take lamp", "ask nessa about key", "put mantle in lamp"])
def test_ordinary_commands_allowed(command: str) -> None:
    assert reserved_reason(command) is None
