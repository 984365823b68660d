"""The belief-state block of an agent's prompt: short, ranked, current facts first.

Order: where the player is, what they carry, ways out (known, blocked,
unexplored), what is here, where other things were last seen (most recent
first), dark rooms, and notes from LLM extraction. Each list is capped so the
block stays small however long the game has run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zorktui.memory import queries as q
from zorktui.memory.graph import Memory
from zorktui.memory.schema import IN, IS, LLM, PLAYER, state_id


@dataclass
class BeliefState:
    """What the memory believes at one turn, ready for a prompt or a panel."""

    turn: int
    room: str | None
    dark: bool
    inventory: list[str] = field(default_factory=list)
    exits: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    unexplored: list[str] = field(default_factory=list)
    here: list[str] = field(default_factory=list)
    #: Objects in other rooms: those the player has handled first, then the most recently seen.
    elsewhere: list[str] = field(default_factory=list)
    dark_rooms: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The block as lines, empty sections left out."""
        out = [
            f"Location: {self.room or 'unknown'}{' (dark)' if self.dark else ''}",
            f"Carrying: {', '.join(self.inventory) if self.inventory else 'nothing'}",
        ]
        sections = (
            ("Exits", self.exits), ("Blocked", self.blocked), ("Unexplored", self.unexplored), ("Here", self.here),
            ("Seen elsewhere", self.elsewhere), ("Dark rooms", self.dark_rooms), ("Notes", self.notes),
        )
        for title, items in sections:
            if items:
                out.append(f"{title}: {'; '.join(items)}")
        return out

    def text(self) -> str:
        """The block as one string."""
        return "\n".join(self.lines())


def belief_state(memory: Memory, as_of: int | None = None, limit: int = 8) -> BeliefState:
    """Summarise what the memory holds at a turn.

    Args:
        memory: The session memory.
        as_of: The turn (None: now).
        limit: Most items per list.
    """
    t = q.turn_of(memory, as_of)
    place, dark = q.where_am_i(memory, t)
    state = BeliefState(turn=t, room=place.name if place else None, dark=dark)
    state.inventory = [p.name for p in q.inventory(memory, t)][:limit]
    if place is None:
        return state
    _, exits, blocked = q.exits(memory, None, t)
    state.exits = [e.text() for e in exits]
    state.blocked = blocked
    ways = q.unexplored(memory, None, t)
    if ways is not None:
        named = [f"{d} (the game accepts it)" for d in ways.accepted] + [f"{d} (the text points there)" for d in ways.mentioned]
        state.unexplored = named + [f"{d} (never tried)" for d in ways.plausible[: max(0, limit - len(named))]]
    rows = memory.store.rows(
        "MATCH (x:Entity)-[f:Fact]->(c:Entity) WHERE f.relation = $rin AND f.source = 'engine' "
        "AND f.valid_from <= $t AND f.valid_to > $t"
        " AND x.kind = 'object' RETURN x.id, x.name, c.id, c.name, c.kind ORDER BY f.valid_from DESC",
        {"rin": IN, "t": t},
    )
    parent = {xid: (cid, cname, ckind) for xid, _, cid, cname, ckind in rows}

    def room_of(xid: str) -> str | None:
        for _ in range(6):
            if xid not in parent:
                return None
            cid, _, ckind = parent[xid]
            if ckind == "room":
                return cid
            xid = cid
        return None

    # Things the player has named in commands are the notable ones; then the most recently seen.
    handled = dict(memory.store.rows(
        "MATCH (e:Episode)-[m:Mentions]->(x:Entity) WHERE m.role = 'command' AND e.turn <= $t RETURN x.id, count(*)",
        {"t": t},
    ))
    elsewhere: list[tuple[int, int, str]] = []
    for rank, (xid, name, _cid, cname, ckind) in enumerate(rows):
        if room_of(xid) == place.id:
            state.here.append(name if ckind == "room" else f"{name} (in {cname})")
        elif ckind == "room":
            elsewhere.append((-int(handled.get(xid, 0)), rank, f"{name} ({cname})"))
    state.elsewhere = [text for _, _, text in sorted(elsewhere)[:limit]]
    state.here = state.here[: limit * 2]
    state.dark_rooms = [
        name for (name,) in memory.store.rows(
            "MATCH (r:Entity)-[f:Fact]->(s:Entity {id: $dark}) WHERE f.relation = $is AND f.valid_from <= $t"
            " AND f.valid_to > $t RETURN r.name",
            {"dark": state_id("dark"), "is": IS, "t": t},
        )
    ][:limit]
    state.notes = [
        f"{a} {rel} {b}" for a, rel, b in memory.store.rows(
            "MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.source = $llm AND f.valid_from <= $t AND f.valid_to > $t"
            " AND a.id <> $p RETURN a.name, f.relation, b.name ORDER BY f.valid_from DESC LIMIT $n",
            {"llm": LLM, "t": t, "p": PLAYER, "n": limit},
        )
    ]
    return state
