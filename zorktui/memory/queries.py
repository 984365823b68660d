"""Questions to the memory as a Python API, each answerable as of any earlier turn.

Every function takes the :class:`Memory` and an optional ``as_of`` turn (None:
now) and reads the Kuzu graph. A fact holds at turn ``t`` when
``valid_from <= t < valid_to``.
"""

from __future__ import annotations

import math
from typing import Any

from zorktui.engine.directions import COMMON

# The answers live in answers.py; their names are kept here too, where callers have always found them.
from zorktui.memory.answers import (  # noqa: F401
    ACCEPTED,
    BACK,
    WALKED,
    EpisodeHit,
    Exit,
    FactRow,
    Frontier,
    Place,
    Unexplored,
    Whereabouts,
    fact_sentence,
)
from zorktui.memory.graph import Memory
from zorktui.memory.match import match_entities, match_rooms
from zorktui.memory.mirror import EntityInfo
from zorktui.memory.schema import AT, EXIT, HAS, IN, IS, OPEN, PLAYER, state_id
from zorktui.memory.ways import WayMap, by_order, way_map

_VALID = "f.valid_from <= $t AND f.valid_to > $t"


def turn_of(memory: Memory, as_of: int | None) -> int:
    """The turn a question is asked at (None: the newest turn in memory)."""
    memory.flush()
    if as_of is None:
        return memory.last_turn
    return min(as_of, memory.last_turn)


def _known(memory: Memory, t: int) -> list[EntityInfo]:
    """Entities already seen at turn ``t`` (time travel must not know the future)."""
    return [e for e in memory.mirror.entities.values() if e.first <= t]


def _until(valid_to: int) -> int | None:
    return None if valid_to == OPEN else int(valid_to)


def _room_at(memory: Memory, t: int) -> Place | None:
    rows = memory.store.rows(
        f"MATCH (p:Entity {{id: $p}})-[f:Fact]->(r:Entity) WHERE f.relation = $at AND f.source = 'engine' "
        f"AND {_VALID} RETURN r.id, r.name",
        {"p": PLAYER, "at": AT, "t": t},
    )
    return Place(rows[0][0], rows[0][1]) if rows else None


def where_am_i(memory: Memory, as_of: int | None = None) -> tuple[Place | None, bool]:
    """The room the player is in, and whether it was dark, at a turn."""
    t = turn_of(memory, as_of)
    place = _room_at(memory, t)
    if place is None:
        return None, False
    dark = memory.store.rows(
        f"MATCH (r:Entity {{id: $r}})-[f:Fact]->(s:Entity {{id: $dark}}) WHERE f.relation = $is AND {_VALID} RETURN count(*)",
        {"r": place.id, "dark": state_id("dark"), "is": IS, "t": t},
    )
    return place, bool(dark and dark[0][0])


def inventory(memory: Memory, as_of: int | None = None) -> list[Place]:
    """What the player carried at a turn, in the order it was picked up."""
    t = turn_of(memory, as_of)
    rows = memory.store.rows(
        f"MATCH (p:Entity {{id: $p}})-[f:Fact]->(x:Entity) WHERE f.relation = $has AND f.source = 'engine' AND {_VALID}"
        " RETURN x.id, x.name ORDER BY f.valid_from, f.key",
        {"p": PLAYER, "has": HAS, "t": t},
    )
    return [Place(i, n) for i, n in rows]


def _containers(memory: Memory, eid: str, t: int) -> list[Place]:
    chain: list[Place] = []
    seen = {eid}
    current = eid
    for _ in range(6):
        rows = memory.store.rows(
            f"MATCH (a:Entity {{id: $id}})-[f:Fact]->(b:Entity) WHERE f.relation = $rin AND f.source = 'engine' "
            f"AND {_VALID} RETURN b.id, b.name, b.kind",
            {"id": current, "rin": IN, "t": t},
        )
        if not rows or rows[0][0] in seen:
            break
        bid, name, kind = rows[0]
        chain.append(Place(bid, name))
        seen.add(bid)
        if kind == "room":
            break
        current = bid
    return chain


def where_is(memory: Memory, what: str, as_of: int | None = None) -> list[Whereabouts]:
    """Where things the words name are (or were last seen) at a turn.

    Args:
        memory: The session memory.
        what: Words for the thing ("lamp", "the brass lantern"); matched
            against names and the game's own vocabulary.
        as_of: The turn to ask at (None: now).
    """
    t = turn_of(memory, as_of)
    found = [e for e in match_entities(_known(memory, t), what) if e.kind != "room"]
    latest = _last_places(memory, [e.id for e in found], t)
    out: list[Whereabouts] = []
    for entity in found:
        row = latest.get(entity.id)
        if row is None:
            continue
        relation, bid, bname, bkind, since, until = row
        current = until > t
        thing = Place(entity.id, entity.name)
        if relation == HAS:
            chain: tuple[Place, ...] = (Place(PLAYER, "you"),)
        else:
            first = Place(bid, bname)
            chain = (first,) + (tuple(_containers(memory, bid, t)) if bkind != "room" and current else ())
        out.append(Whereabouts(thing, chain, relation == HAS, current, int(since), None if current else int(until)))
    out.sort(key=lambda w: not w.current)
    return out


def _last_places(memory: Memory, ids: list[str], t: int) -> dict[str, list[Any]]:
    """Each entity's newest place fact up to ``t`` (held by the player, or in something)."""
    if not ids:
        return {}
    # Two statements for all the matched things (not one per thing): placed in something, or held.
    params = {"ids": ids, "rin": IN, "has": HAS, "p": PLAYER, "t": t}
    rows = memory.store.rows(
        "MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE a.id IN $ids AND f.relation = $rin AND f.source = 'engine'"
        " AND f.valid_from <= $t RETURN a.id, f.relation, b.id, b.name, b.kind, f.valid_from, f.valid_to",
        params,
    ) + memory.store.rows(
        "MATCH (p:Entity {id: $p})-[f:Fact]->(b:Entity) WHERE b.id IN $ids AND f.relation = $has"
        " AND f.source = 'engine' AND f.valid_from <= $t RETURN b.id, f.relation, p.id, p.name, p.kind, f.valid_from, f.valid_to",
        params,
    )
    best: dict[str, list[Any]] = {}
    for eid, *row in rows:
        key = (min(row[5], t + 1), row[4])
        if eid not in best or key > (min(best[eid][5], t + 1), best[eid][4]):
            best[eid] = row
    return best


def _room(memory: Memory, room: str | None, t: int) -> Place | None:
    if room is None or room.strip().lower() in ("", "here", "this room"):
        return _room_at(memory, t)
    rooms = match_rooms(_known(memory, t), room)
    return Place(rooms[0].id, rooms[0].name) if rooms else None


def all_exits(memory: Memory, as_of: int | None = None) -> list[tuple[str, str, str, int]]:
    """Every exit known at a turn: (from id, direction, to id, since)."""
    t = turn_of(memory, as_of)
    return [
        (a, d, b, int(s))
        for a, d, b, s in memory.store.rows(
            f"MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.relation = $exit AND f.source = 'engine' AND {_VALID}"
            " RETURN a.id, f.detail, b.id, f.valid_from ORDER BY f.valid_from",
            {"exit": EXIT, "t": t},
        )
    ]


def _name(memory: Memory, rid: str, ways: WayMap) -> str:
    known = memory.mirror.entities.get(rid)
    return known.name if known is not None else ways.room(rid).name


def exits(memory: Memory, room: str | None = None, as_of: int | None = None) -> tuple[Place | None, list[Exit], list[str]]:
    """Known ways out of a room and directions found blocked.

    The ways are the exits walked (one-way only when proven), the likely way
    back to each room that led here, and the directions the valid actions
    hold that nobody has walked.

    Args:
        memory: The session memory.
        room: A room's name or words (None or "here": where the player is).
        as_of: The turn to ask at.

    Returns:
        The room, its ways out (in compass order), and its blocked directions.
    """
    t = turn_of(memory, as_of)
    place = _room(memory, room, t)
    if place is None:
        return None, [], []
    ways = way_map(memory, t)
    here = ways.room(place.id)
    found = [Exit(d, Place(b, _name(memory, b, ways)), one_way=ways.one_way(place.id, d, b),
                  since=here.since.get(d, 0)) for d, b in here.exits.items()]
    found += [Exit(d, Place(b, _name(memory, b, ways)), kind=BACK) for d, b in here.back.items()]
    found += [Exit(d, None, kind=ACCEPTED) for d in here.accepted if d not in here.exits and d not in here.back]
    order = {d: i for i, d in enumerate(by_order(e.direction for e in found))}
    found.sort(key=lambda e: order[e.direction])
    return place, found, by_order(here.blocked)


def unexplored(memory: Memory, room: str | None = None, as_of: int | None = None) -> Unexplored | None:
    """Directions from a room nobody has taken: those the valid actions hold first, then
    those the game's text points to, then the usual compass ones; the likely way back apart."""
    t = turn_of(memory, as_of)
    place = _room(memory, room, t)
    if place is None:
        return None
    ways = way_map(memory, t)
    here = ways.room(place.id)
    accepted = [d for d in by_order(here.accepted) if d not in here.exits and d not in here.back]
    mentioned = [d for d in here.open_ways() if d not in accepted]
    taken = here.tried | set(here.exits) | set(here.back) | set(accepted) | set(mentioned)
    plausible = [d for d in COMMON if d not in taken]
    back = [(d, Place(b, _name(memory, b, ways))) for d, b in here.back.items()]
    return Unexplored(place, accepted, mentioned, plausible, back)


def path_to(memory: Memory, target: str, start: str | None = None,
            as_of: int | None = None) -> tuple[Place | None, list[str] | None]:
    """The cheapest walk to a room, as commands (AriGraph's "go to").

    It goes over walked exits and the likely ways back of walked passages
    (a passage walked one way is taken back the opposite way unless that was
    tried and failed), preferring walked exits.

    Returns:
        The target room (None if unknown) and the commands (None if no known
        way leads there; empty if already there).
    """
    t = turn_of(memory, as_of)
    rooms = match_rooms(_known(memory, t), target)
    if not rooms:
        return None, None
    goal = Place(rooms[0].id, rooms[0].name)
    origin = _room(memory, start, t)
    if origin is None:
        return goal, None
    walk = way_map(memory, t).walks(origin.id).get(goal.id)
    return goal, list(walk) if walk is not None else None


def likely_steps(memory: Memory, steps: list[str], as_of: int | None = None) -> list[int]:
    """Which steps (by index) of a walk from the player's room take a likely way back nobody has walked."""
    t = turn_of(memory, as_of)
    origin = _room_at(memory, t)
    if origin is None:
        return []
    return way_map(memory, t).likely_steps(origin.id, tuple(steps))


def history(memory: Memory, what: str, as_of: int | None = None, limit: int = 5) -> tuple[list[str], list[EpisodeHit]]:
    """Past turns about something, ranked as AriGraph ranks episodic vertices.

    A turn's relevance is ``n / max(N, 1) * log(max(N, 1))`` where ``n`` counts
    its links to the matched entities and ``N`` all its links; ties go to
    the more recent turn. Without a matching entity, turns whose text
    contains the words are used (each counting one link).

    Returns:
        Names of the matched entities, and the best turns.
    """
    t = turn_of(memory, as_of)
    found = match_entities(_known(memory, t), what, rooms=True)
    if found:
        rows = memory.store.rows(
            "MATCH (e:Episode)-[:Mentions]->(x:Entity) WHERE x.id IN $ids AND e.turn <= $t"
            " RETURN e.turn, e.command, e.observation, count(*), e.links",
            {"ids": [e.id for e in found], "t": t},
        )
    else:
        needle = " ".join(what.lower().split())
        rows = memory.store.rows(
            "MATCH (e:Episode) WHERE e.turn <= $t AND lower(e.observation) CONTAINS $w"
            " RETURN e.turn, e.command, e.observation, 1, e.links + 1",
            {"w": needle, "t": t},
        ) if needle else []
    hits = []
    for turn, command, observation, n, total in rows:
        big = max(int(total), 1)
        score = int(n) / big * math.log(big) if big > 1 else 0.0
        hits.append(EpisodeHit(int(turn), command, observation, score, int(n), int(total)))
    hits.sort(key=lambda h: (h.relevance, h.turn), reverse=True)
    return [e.name for e in found], hits[:limit]


def search(memory: Memory, keyword: str, as_of: int | None = None, limit: int = 30) -> list[FactRow]:
    """Facts holding at a turn whose subject, object, relation or detail contain the keyword."""
    t = turn_of(memory, as_of)
    k = " ".join(keyword.lower().split())
    rows = memory.store.rows(
        f"MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE {_VALID} AND (lower(a.name) CONTAINS $k OR lower(b.name) CONTAINS $k"
        " OR list_contains(a.words, $k) OR list_contains(b.words, $k) OR f.relation CONTAINS $k OR f.detail CONTAINS $k)"
        " RETURN a.id, a.name, f.relation, b.id, b.name, f.detail, f.valid_from, f.valid_to, f.source"
        " ORDER BY f.valid_from DESC LIMIT $n",
        {"k": k, "t": t, "n": limit},
    )
    return [_fact(r) for r in rows]


def _fact(row: list[Any]) -> FactRow:
    aid, aname, relation, bid, bname, detail, since, until, source = row
    return FactRow(Place(aid, aname), relation, Place(bid, bname), detail or "", int(since), _until(until), source)


def facts_about(memory: Memory, eid: str, as_of: int | None = None, current_only: bool = False) -> list[FactRow]:
    """All facts touching an entity up to a turn (for the inspector's timeline)."""
    t = turn_of(memory, as_of)
    extra = " AND f.valid_to > $t" if current_only else ""
    out = []
    for query in (
        "MATCH (a:Entity {id: $id})-[f:Fact]->(b:Entity)",
        "MATCH (a:Entity)-[f:Fact]->(b:Entity {id: $id})",
    ):
        out += memory.store.rows(
            query + f" WHERE f.valid_from <= $t{extra}"
            " RETURN a.id, a.name, f.relation, b.id, b.name, f.detail, f.valid_from, f.valid_to, f.source",
            {"id": eid, "t": t},
        )
    return sorted((_fact(r) for r in out), key=lambda f: (f.valid_from, f.relation))


def rooms(memory: Memory, as_of: int | None = None) -> list[Place]:
    """Rooms visited up to a turn, in the order first seen."""
    t = turn_of(memory, as_of)
    rows = memory.store.rows(
        "MATCH (x:Entity) WHERE x.kind = 'room' AND x.first_turn <= $t RETURN x.id, x.name ORDER BY x.first_turn",
        {"t": t},
    )
    return [Place(i, n) for i, n in rows]


def walks(memory: Memory, as_of: int | None = None) -> dict[str, tuple[str, ...]]:
    """The shortest walk over learned exits from the player's room to every room it reaches, by room id."""
    t = turn_of(memory, as_of)
    origin = _room_at(memory, t)
    if origin is None:
        return {}
    return way_map(memory, t).walks(origin.id)


def frontiers(memory: Memory, as_of: int | None = None, limit: int = 8,
              paths: dict[str, tuple[str, ...]] | None = None) -> list[Frontier]:
    """Rooms with ways nobody has taken (accepted or mentioned), nearest first (AriGraph's unexplored-exit search).

    Only rooms reachable over known ways from the player's room count; the
    likely way back from a room is not one of its untaken ways.

    Args:
        memory: The memory.
        as_of: The turn (default: the latest).
        limit: How many rooms at most.
        paths: :func:`walks` at the same turn, when the caller has them already.
    """
    t = turn_of(memory, as_of)
    origin = _room_at(memory, t)
    if origin is None:
        return []
    ways = way_map(memory, t)
    if paths is None:
        paths = ways.walks(origin.id)
    found: list[Frontier] = []
    for rid, path in sorted(paths.items(), key=lambda kv: len(kv[1])):
        open_ways = ways.room(rid).open_ways()
        if open_ways:
            found.append(Frontier(Place(rid, _name(memory, rid, ways)), tuple(open_ways), path))
        if len(found) >= limit:
            break
    return found
