"""The memory graph's schema: AriGraph's semantic and episodic vertices in Kuzu tables.

* ``Entity`` — semantic vertices: rooms, objects, the player, directions,
  states ("dark") and things named only by LLM extraction.
* ``Episode`` — episodic vertices: one per turn (command, observation, score),
  with ``links``, its number of mention edges (AriGraph's N_i).
* ``Fact`` — semantic edges ``(subject) -[relation]-> (object)`` valid over the
  turns ``valid_from <= t < valid_to`` and marked with their ``source``.
* ``Mentions`` — episodic edges from a turn to the entities it involved.
* ``Meta`` — bookkeeping (schema version, how far the trajectory was applied).
"""

from __future__ import annotations

#: Bump when the tables change; an older memory folder is rebuilt from the trajectory.
SCHEMA_VERSION = 1

#: ``valid_to`` of a fact that still holds (Kuzu compares integers faster than nulls).
OPEN = 1 << 62

#: The player's entity id (one player per session).
PLAYER = "player"

#: Relations the engine writes; anything else comes from LLM extraction.
#: ``leads`` is a direction out of a room the game's text points to that nobody
#: has taken yet; ``accepts`` a direction among the valid actions of the
#: latest state seen in the room that nobody has walked yet.
AT, HAS, IN, EXIT, BLOCKED, IS, LEADS, ACCEPTS = "at", "has", "in", "exit", "blocked", "is", "leads", "accepts"

#: Where a fact came from.
ENGINE, LLM = "engine", "llm"

DDL: tuple[str, ...] = (
    "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING, kind STRING, name STRING, words STRING[],"
    " obj INT64, first_turn INT64, PRIMARY KEY(id))",
    "CREATE NODE TABLE IF NOT EXISTS Episode(turn INT64, command STRING, observation STRING, score INT64,"
    " moves INT64, reward INT64, location STRING, actor STRING, state_hash STRING, links INT64, PRIMARY KEY(turn))",
    "CREATE REL TABLE IF NOT EXISTS Fact(FROM Entity TO Entity, key INT64, relation STRING, detail STRING,"
    " valid_from INT64, valid_to INT64, source STRING)",
    "CREATE REL TABLE IF NOT EXISTS Mentions(FROM Episode TO Entity, role STRING)",
    "CREATE NODE TABLE IF NOT EXISTS Meta(key STRING, value INT64, PRIMARY KEY(key))",
)


def object_id(obj: int) -> str:
    """Entity id of a Z-machine object (rooms are objects too)."""
    return f"obj:{obj}"


def object_number(eid: str) -> int | None:
    """The Z-machine object number behind an entity id (None for entities that are not objects)."""
    prefix, _, number = eid.partition(":")
    return int(number) if prefix == "obj" and number.isdigit() else None


def direction_id(direction: str) -> str:
    """Entity id of a direction ("north")."""
    return f"dir:{direction}"


def state_id(state: str) -> str:
    """Entity id of a state such as "dark"."""
    return f"state:{state}"


def thing_id(name: str) -> str:
    """Entity id of something only an LLM extraction named."""
    return "llm:" + " ".join(name.lower().split())
