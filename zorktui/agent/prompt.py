"""The ReflAct prompt: a system message and a room-state block built from the situation.

Game text and model text are passed through :func:`clean_text`, so nothing a
story prints can smuggle terminal escapes into a prompt (or back out of one).
Lists are capped so the prompt stays small whatever the length of play, and a
block can be fitted to a model's context window: whole records are left out,
least useful first (lessons, the belief summary, older history), never a
record cut in the middle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zorktui.agent.playlog import short_result
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

#: Actions typed in this room shown with their consequences (newest kept).
HISTORY_HERE = 40
#: Valid actions listed (the rest are summarised as a count).
VALID_SHOWN = 60
#: Characters a token is taken to hold when fitting a prompt (English runs nearer 4: this errs short).
CHARS_PER_TOKEN = 3

_RULES = ("Rules: one command only; never QUIT, RESTART, SAVE, RESTORE, UNDO or SCRIPT; do not repeat commands "
          "that did nothing; prefer valid actions, unexplored exits and things not yet tried.")

SYSTEM = """You are playing a parser-based text adventure (interactive fiction) with a human partner.
Each turn you get a ROOM STATE block. Think about where you are and what you want, then answer in exactly three plain-text lines:
REFLECTION: one or two sentences on the situation: what worked, what failed, what is left to try here.
OBJECTIVE: the goal you are pursuing now (keep it until it is done or clearly hopeless).
ACTION: one game command, as a player would type it (e.g. "open mailbox", "north", "take lamp").
""" + _RULES

SYSTEM_JSON = """You are playing a parser-based text adventure (interactive fiction) with a human partner.
Each turn you get a ROOM STATE block. Think about where you are and what you want, then answer with one JSON object:
"reflection": one sentence on the situation: what worked, what failed, what is left to try here;
"objective" (when asked for): the goal you are pursuing now (keep it until it is done or clearly hopeless);
"action": the command to play now, one of the commands offered, or {"typed": "another command"}.
""" + _RULES


@dataclass
class Part:
    """One part of the room-state block: a heading and its records.

    Attributes:
        key: The part's name, for trimming.
        head: The heading ("VALID ACTIONS: ", "WARNINGS:").
        items: Its records, each whole.
        inline: Records follow the heading on its line, comma-separated (else one per line).
        more: Records left out before trimming (said as a count).
        oldest_first: Trimming drops from the front (history) rather than the back.
    """

    key: str
    head: str
    items: list[str] = field(default_factory=list)
    inline: bool = False
    more: int = 0
    oldest_first: bool = False

    def text(self) -> str:
        """The part as prompt lines ("" when it has nothing to say)."""
        if not self.items and not self.inline:
            return ""
        extra = f" (+{self.more} more)" if self.more > 0 else ""
        if self.inline:
            return self.head + ", ".join(self.items) + extra
        return "\n".join([self.head + extra, *(f"  {item}" for item in self.items)])


#: Belief-state lines whose label the block has said already.
_SAID_ABOVE = {"Location", "Carrying", "Exits", "Blocked", "Unexplored"}
#: What goes first when a block must be shortened; the room, the score, the inventory,
#: what is visible and the last output are never left out.
TRIM_ORDER = ("lessons", "belief", "history", "rooms", "notes", "frontiers", "tried", "valid", "unexplored", "exits")
#: Records a trimmed part keeps at least until every other part is trimmed to its floor.
_FLOOR = {"history": 3, "valid": 12}


#: Parts that change least from turn to turn: put first in a model's prompt, the server's cache of the
#: prompt's start (llama.cpp keeps the longest common prefix) spares their tokens on the next turn.
STABLE_FIRST = ("lessons", "rooms", "belief", "notes", "frontiers", "warnings")


def _parts(s: Situation) -> list[Part]:
    t = s.turn
    score = "?" if t.score is None else (f"{t.score}/{s.max_score}" if s.max_score else str(t.score))
    here = s.log.here(s.room_id)
    visits = sum(1 for x in s.log.turns if x.location and x.location.id == s.room_id)
    parts = [
        Part("room", f"ROOM: {clean_text(s.room)} (id {s.room_id}){' (dark)' if t.dark else ''}; visits: {visits}", inline=True),
        Part("score", f"TURN {t.turn}; SCORE {score}; MOVES {t.moves if t.moves is not None else '?'}", inline=True),
        Part("inventory", "INVENTORY: ", [clean_text(o.name) for o in t.inventory] or ["nothing"], inline=True),
        Part("visible", "VISIBLE: ", [clean_text(o.name) for o in t.visible] or ["nothing notable"], inline=True),
    ]
    if t.question:
        answers = ", ".join(clean_text(a) for a in s.valid_actions or ()) or "yes, no"
        parts.append(Part("question", "QUESTION: the game asks a question (see LAST OUTPUT); the ACTION is your "
                          f"answer, one of: {answers}", inline=True))
    tried = s.log.tried_here(s.room_id)
    if tried:
        parts.append(Part("tried", f"ACTIONS TRIED IN THIS ROOM ({len(tried)}): ", [clean_text(c) for c in tried],
                          inline=True, oldest_first=True))
    shown = here[-HISTORY_HERE:]
    parts.append(Part("history", f"LAST ACTIONS HERE (newest last, up to {HISTORY_HERE}):",
                      [clean_text(c.line()) for c in shown], oldest_first=True))
    if s.valid_actions is not None:
        listed = [clean_text(a) for a in s.valid_actions[:VALID_SHOWN]]
        parts.append(Part("valid", "VALID ACTIONS: ", listed or ["none found"], inline=True,
                          more=len(s.valid_actions) - len(listed)))
    m = s.map
    if m.exits:
        parts.append(Part("exits", "EXITS: ", [clean_text(e) for e in m.exits], inline=True))
    if m.blocked:
        parts.append(Part("blocked", "BLOCKED HERE: ", list(m.blocked), inline=True))
    if m.unexplored:
        notes = ([f"the game accepts: {', '.join(m.accepted)}"] if m.accepted else []) + (
            [f"the text points to: {', '.join(m.mentioned)}"] if m.mentioned else [])
        parts.append(Part("unexplored", "UNEXPLORED FROM HERE: ",
                          m.unexplored[:8] + ([f"({'; '.join(notes)})"] if notes else []), inline=True))
    if m.rooms:
        parts.append(Part("rooms", f"EXPLORED ROOMS ({len(m.rooms)}): ", [clean_text(r) for r in m.rooms[-25:]],
                          inline=True, oldest_first=True))
    if m.frontiers:
        parts.append(Part("frontiers", "ROOMS WITH UNTRIED EXITS:", [
            f"{clean_text(room)}: {', '.join(dirs)} (walk: {', '.join(path) if path else 'you are here'})"
            for room, dirs, path in m.frontiers[:5]]))
    if m.belief:
        # The belief lines the block already has above (room, inventory, exits) would only lengthen the prompt.
        belief = [clean_text(x) for x in m.belief.splitlines() if x.split(":", 1)[0].strip() not in _SAID_ABOVE]
        if belief:
            parts.append(Part("belief", "BELIEF STATE:", belief))
    parts.append(Part("warnings", "WARNINGS:", [clean_text(w) for w in s.guards.warnings]))
    parts.append(Part("notes", "NOTES:", [clean_text(n) for n in s.notes]))
    parts.append(Part("lessons", "LESSONS FROM EARLIER GAMES:", [clean_text(x) for x in s.lessons]))
    parts.append(Part("output", "LAST OUTPUT: ", [short_result(t.observation, 600)], inline=True))
    return parts


def _joined(parts: list[Part]) -> str:
    return "\n".join(text for p in parts if (text := p.text()))


def _trim(parts: list[Part], limit: int) -> None:
    """Leave out whole records, least useful first, until the block fits ``limit`` characters."""
    by_key = {p.key: p for p in parts}
    for floor_pass in (True, False):
        for key in TRIM_ORDER:
            part = by_key.get(key)
            if part is None:
                continue
            floor = _FLOOR.get(key, 0) if floor_pass else 0
            while part.items and len(part.items) > floor and len(_joined(parts)) > limit:
                part.items.pop(0 if part.oldest_first else -1)
                part.more += 1
            if len(_joined(parts)) <= limit:
                return
            if not part.items:
                parts.remove(part)
                del by_key[key]


def block_chars(context_tokens: int, reply_tokens: int, other_chars: int) -> int:
    """Characters a room-state block may take in a prompt to a model with ``context_tokens``.

    Args:
        context_tokens: The model's context window.
        reply_tokens: Tokens kept free for the reply.
        other_chars: The rest of the prompt (system message, question), in characters.
    """
    # Less the chat template's own tokens (a few per message); never so little the room goes unsaid.
    return max(400, (context_tokens - reply_tokens - 32) * CHARS_PER_TOKEN - other_chars)


def room_state_block(s: Situation, limit: int | None = None, stable_first: bool = False) -> str:
    """The room-state block: room identity, what was tried here and what it did, map, belief, warnings.

    Args:
        s: The situation.
        limit: At most this many characters (None: no limit); whole records are left out to fit.
        stable_first: Begin with what changes least (lessons, explored rooms, what was seen
            elsewhere, notes), for a model's prompt; people read the room first.
    """
    parts = _parts(s)
    if stable_first:
        parts.sort(key=lambda p: STABLE_FIRST.index(p.key) if p.key in STABLE_FIRST else len(STABLE_FIRST))
    if limit is not None:
        _trim(parts, limit)
    return _joined(parts)


def messages(s: Situation, structured: bool = False, context_tokens: int | None = None,
             reply_tokens: int = 400) -> list[dict[str, str]]:
    """The chat messages for one ReflAct call.

    Args:
        s: The situation.
        structured: The reply is asked for as a JSON object (else three text lines).
        context_tokens: The model's context window (None: no limit).
        reply_tokens: Tokens kept free for the reply.
    """
    system = SYSTEM_JSON if structured else SYSTEM
    tail = ["", f"CURRENT OBJECTIVE: {clean_text(s.objective) or 'none yet: choose one'}"]
    if s.refresh_objective:
        tail.append("It is time to reconsider the objective: keep it only if it is still the best one.")
    for f in s.feedback:
        tail.append(f"REFUSED: {clean_text(f)}")
    if s.feedback:
        tail.append("Choose a different action.")
    tail.append("Answer with one JSON object." if structured else "Answer with REFLECTION, OBJECTIVE and ACTION lines.")
    limit = None
    if context_tokens is not None:
        limit = block_chars(context_tokens, reply_tokens, len(system) + len("\n".join(tail)))
    user = [room_state_block(s, limit, stable_first=True), *tail]
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(user)}]


REASK = ("Your reply had no usable ACTION line. Answer again with exactly three lines: "
         "REFLECTION: ..., OBJECTIVE: ..., ACTION: <one game command of at most 80 characters>.")
