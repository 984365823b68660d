"""The ReflAct prompt: a system message and a room-state block built from the situation.

Game text and model text are passed through :func:`clean_text`, so nothing a
story prints can smuggle terminal escapes into a prompt (or back out of one).
Lists are capped so the prompt stays small whatever the length of play.
"""

from __future__ import annotations

from zorktui.agent.playlog import short_result
from zorktui.agent.safety import clean_text
from zorktui.agent.situation import Situation

#: Actions typed in this room shown with their consequences (newest kept).
HISTORY_HERE = 40
#: Valid actions listed (the rest are summarised as a count).
VALID_SHOWN = 60

SYSTEM = """You are playing a parser-based text adventure (interactive fiction) with a human partner.
Each turn you get a ROOM STATE block. Think about where you are and what you want, then answer in exactly three plain-text lines:
REFLECTION: one or two sentences on the situation: what worked, what failed, what is left to try here.
OBJECTIVE: the goal you are pursuing now (keep it until it is done or clearly hopeless).
ACTION: one game command, as a player would type it (e.g. "open mailbox", "north", "take lamp").
Rules: one command only; never QUIT, RESTART, SAVE, RESTORE, UNDO or SCRIPT; do not repeat commands that did nothing; prefer valid actions, unexplored exits and things not yet tried."""


def _section(title: str, lines: list[str]) -> list[str]:
    return [f"{title}:"] + [f"  {line}" for line in lines] if lines else []


def room_state_block(s: Situation) -> str:
    """The room-state block: room identity, what was tried here and what it did, map, belief, warnings."""
    t = s.turn
    score = "?" if t.score is None else (f"{t.score}/{s.max_score}" if s.max_score else str(t.score))
    here = s.log.here(s.room_id)
    lines = [
        f"ROOM: {clean_text(s.room)} (id {s.room_id}){' (dark)' if t.dark else ''}; visits: "
        f"{sum(1 for x in s.log.turns if x.location and x.location.id == s.room_id)}",
        f"TURN {t.turn}; SCORE {score}; MOVES {t.moves if t.moves is not None else '?'}",
        f"INVENTORY: {', '.join(clean_text(o.name) for o in t.inventory) or 'nothing'}",
        f"VISIBLE: {', '.join(clean_text(o.name) for o in t.visible) or 'nothing notable'}",
    ]
    if t.question:
        answers = ", ".join(clean_text(a) for a in s.valid_actions or ()) or "yes, no"
        lines.append(f"QUESTION: the game asks a question (see LAST OUTPUT); the ACTION is your answer, one of: {answers}")
    tried = s.log.tried_here(s.room_id)
    if tried:
        lines.append(f"ACTIONS TRIED IN THIS ROOM ({len(tried)}): {', '.join(clean_text(c) for c in tried)}")
    lines += _section(f"LAST ACTIONS HERE (newest last, up to {HISTORY_HERE})",
                      [clean_text(c.line()) for c in here[-HISTORY_HERE:]])
    if s.valid_actions is not None:
        shown = list(s.valid_actions[:VALID_SHOWN])
        more = len(s.valid_actions) - len(shown)
        lines.append("VALID ACTIONS: " + (", ".join(clean_text(a) for a in shown) or "none found")
                     + (f" (+{more} more)" if more > 0 else ""))
    m = s.map
    if m.exits:
        lines.append(f"EXITS: {'; '.join(clean_text(e) for e in m.exits)}")
    if m.blocked:
        lines.append(f"BLOCKED HERE: {', '.join(m.blocked)}")
    if m.unexplored:
        notes = ([f"the game accepts: {', '.join(m.accepted)}"] if m.accepted else []) + (
            [f"the text points to: {', '.join(m.mentioned)}"] if m.mentioned else [])
        lines.append(f"UNEXPLORED FROM HERE: {', '.join(m.unexplored[:8])}" + (f" ({'; '.join(notes)})" if notes else ""))
    if m.rooms:
        lines.append(f"EXPLORED ROOMS ({len(m.rooms)}): {', '.join(clean_text(r) for r in m.rooms[-25:])}")
    if m.frontiers:
        lines += _section("ROOMS WITH UNTRIED EXITS", [
            f"{clean_text(room)}: {', '.join(dirs)} (walk: {', '.join(path) if path else 'you are here'})"
            for room, dirs, path in m.frontiers[:5]])
    if m.belief:
        lines += _section("BELIEF STATE", [clean_text(x) for x in m.belief.splitlines()])
    lines += _section("WARNINGS", [clean_text(w) for w in s.guards.warnings])
    lines += _section("NOTES", [clean_text(n) for n in s.notes])
    lines += _section("LESSONS FROM EARLIER GAMES", [clean_text(x) for x in s.lessons])
    lines.append("LAST OUTPUT: " + short_result(t.observation, 600))
    return "\n".join(lines)


def messages(s: Situation) -> list[dict[str, str]]:
    """The chat messages for one ReflAct call."""
    user = [room_state_block(s), "", f"CURRENT OBJECTIVE: {clean_text(s.objective) or 'none yet: choose one'}"]
    if s.refresh_objective:
        user.append("It is time to reconsider the objective: keep it only if it is still the best one.")
    for f in s.feedback:
        user.append(f"REFUSED: {clean_text(f)}")
    if s.feedback:
        user.append("Choose a different action.")
    user.append("Answer with REFLECTION, OBJECTIVE and ACTION lines.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(user)}]


REASK = ("Your reply had no usable ACTION line. Answer again with exactly three lines: "
         "REFLECTION: ..., OBJECTIVE: ..., ACTION: <one game command of at most 80 characters>.")
