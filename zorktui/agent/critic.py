"""The critic: a cheap heuristic score plus a look-ahead on a snapshot of the game.

Stage one scores what is known without playing: is the command a valid
action, was it already tried here to no effect, is it a direction found
blocked, did it earn points before, did it kill a player in an earlier
session. Stage two plays the command on a copy of the state and comes back
(:meth:`Game.peek`), so a death, a loss of points, a return to an old state or
a command that changes nothing at all is seen before it is taken.
"""

from __future__ import annotations

from collections.abc import Callable

from zorktui.agent.explorer import to_leave
from zorktui.agent.playlog import normal
from zorktui.agent.proposal import Verdict
from zorktui.agent.situation import Situation
from zorktui.core.errors import GameError
from zorktui.core.turn import Turn
from zorktui.engine.directions import direction_of

#: Scores at or above this pass (a looser bar than zero: the heuristics are rough).
#: Verbs that undo one another: "close bottle" after "open bottle" anywhere is going round in
#: circles (English parser verbs, not any game's).
_UNDOES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("close ", "shut "), ("open ",)),
    (("lock ",), ("unlock ",)),
    (("extinguish ", "douse ", "blow out ", "put out ", "turn off ", "switch off ", "close off ", "deactivate ",
      "unlight ", "snuff "), ("light ", "turn on ", "switch on ", "activate ")),
    (("remove ", "take off "), ("wear ", "put on ")),
)


def undoes(command: str, earlier: set[str]) -> str | None:
    """The earlier command (normalised) that ``command`` undoes, if any ("close box" undoes "open box")."""
    cmd = normal(command)
    for one, other in _UNDOES:
        for verbs, inverse in ((one, other), (other, one)):
            for verb in verbs:
                if cmd.startswith(verb):
                    rest = cmd[len(verb):]
                    for undone in inverse:
                        if undone + rest in earlier:
                            return undone + rest
    return None


ACCEPT = -0.15
#: The bar once the world has come back to an old state (a loop is likely).
ACCEPT_TIGHT = -0.05


#: The look-ahead's summary of a command that loses the light carried.
LOSES_LIGHT = "loses your light"


def _clamp(x: float) -> float:
    return max(-1.0, min(1.0, x))


class Critic:
    """Judges proposed commands.

    Args:
        peek: Plays a command on a copy of the state and returns the turn it
            would make (``Game.peek``); None turns the look-ahead off.
        deadly: Tells whether a command killed the player in this room in an
            earlier session: ``deadly(room_name, command) -> bool``.
        llm_judge: An optional third stage, asked only about commands the
            first two passed: ``llm_judge(command, situation) -> (score, reason)``
            or None when the model could not answer.
    """

    def __init__(self, peek: Callable[[str], Turn] | None = None, deadly: Callable[[str, str], bool] | None = None,
                 llm_judge: Callable[[str, Situation], tuple[float, str] | None] | None = None) -> None:
        self.peek = peek
        self.deadly = deadly
        self.llm_judge = llm_judge

    def heuristic(self, command: str, situation: Situation, leads_somewhere: bool = False) -> tuple[float, list[str]]:
        """Stage one: a score from what is already known, and the reasons.

        Args:
            command: The command judged.
            situation: What is known now.
            leads_somewhere: The look-ahead saw it take the player to another room.
        """
        cmd = normal(command)
        log = situation.log
        score = 0.0
        reasons: list[str] = []
        valid = {normal(a) for a in situation.valid_actions} if situation.valid_actions is not None else None
        direction = direction_of(cmd)
        if valid is not None:
            # Valid actions keep one command per resulting state, so a known exit may be missing from them.
            known = set(situation.map.exit_directions) | set(situation.map.back)
            if cmd in valid or (direction is not None and direction in known):
                score += 0.25
                reasons.append("a valid action here")
            elif direction is not None:
                score -= 0.2
                reasons.append("no known way that direction")
        here = log.here(situation.room_id)
        earlier = [c for c in here if normal(c.command) == cmd]
        if earlier:
            last = earlier[-1]
            if last.useless:
                score -= 0.5
                reasons.append("already tried here with no effect")
            elif last.reward <= 0 and not last.moved_to and not leads_somewhere:
                score -= 0.2
                reasons.append(f"tried here {len(earlier)}x without points")
            elif last.reward > 0:
                score -= 0.3
                reasons.append("already earned its points here")
        if direction is not None:
            blocked = set(situation.map.blocked)
            blocked |= {d for c in here if (d := direction_of(normal(c.command))) and not c.moved_to}
            if direction in blocked and not leads_somewhere:
                score -= 0.6
                reasons.append(f"{direction} is blocked here")
            elif direction in situation.map.accepted or direction in situation.map.mentioned or (
                    direction in blocked and leads_somewhere):
                score += 0.2
                reasons.append("an unexplored exit")
        verb = cmd.split()[0] if cmd else ""
        undone = undoes(cmd, {normal(c.command) for c in log.consequences})
        if undone is not None and not earlier:
            score -= 0.4
            reasons.append(f"undoes '{undone}'")
        if not earlier and any(r.split()[0] == verb for r in log.rewarded()):
            score += 0.1
            reasons.append(f"'{verb}' has earned points before")
        if log.puts_out_a_light(cmd):
            score -= 0.6
            reasons.append("puts out the light you carry")
        if self.deadly is not None and self.deadly(situation.room, cmd):
            score -= 0.9
            reasons.append("killed you here in an earlier session")
        return _clamp(score), reasons

    def look_ahead(self, command: str, situation: Situation) -> tuple[float, list[str], str, bool, bool]:
        """Stage two: play on a snapshot. Returns (score change, reasons, summary, fatal, moved).

        The summary is :data:`LOSES_LIGHT` exactly when the command loses the light carried.
        """
        if self.peek is None:
            return 0.0, [], "", False, False
        try:
            after = self.peek(command)
        except GameError as exc:
            return -0.5, [str(exc)], "refused by the engine", False, False
        now = situation.turn
        if after.dead or (after.done and not after.victory):
            return -1.0, ["look-ahead: this ends the game"], "death or a bad ending", True, False
        if after.victory:
            return 1.0, ["look-ahead: wins the game"], "victory", False, False
        if now.question and now.dead and not after.question:
            # The offer after a death, taken up: whatever it costs, the story goes on.
            cost = f" at {after.reward:+d} points" if after.reward < 0 else ""
            return 0.2, [f"look-ahead: takes the new life offered{cost}"], f"a new life{cost}", False, True
        if now.question:
            # An answer must be given: short of a death, no answer is a step back or a loop.
            points = [f"{after.reward:+d} points"] if after.reward else []
            return 0.1 + 0.3 * (after.reward > 0) - 0.4 * (after.reward < 0), ["look-ahead: answers the question"], \
                ", ".join(points) or "an answer", False, False
        if after.reward < 0:
            return -0.8, [f"look-ahead: loses {-after.reward} points"], f"{after.reward:+d} points", False, False
        delta, reasons, what = 0.0, [], []
        moved = after.location and (not now.location or after.location.id != now.location.id)
        if after.dark and not now.dark and not moved and not after.question:
            # Whatever the verb ("off", "blow out", "cover lamp"): where the player stands goes dark.
            return -1.5, ["look-ahead: leaves you in the dark here"], LOSES_LIGHT, False, False
        banked = situation.log.banked() if not moved else set()
        if banked:
            # What was put away for points stays where it scored: taking it out again (emptying its
            # case, taking it back) undoes the points in many stories.
            was = {o.name: o.parent for o in now.visible if o.name in banked}
            later = {o.name: o.parent for o in after.visible} | {o.name: -1 for o in after.inventory}
            undone = [name for name, parent in was.items() if later.get(name) != parent]
            if undone:
                return -0.9, [f"look-ahead: takes out the {undone[0]}, put away for points"], "undoes points", False, False
        if now.dark and not after.dark and not moved and not after.question:
            # Light where the player stands, whatever the verb: the way back to a lit state is no loop.
            return 0.6, ["look-ahead: light to see by"], "lights the dark", False, False
        if after.reward > 0:
            delta += 0.6
            reasons.append(f"look-ahead: +{after.reward} points")
            what.append(f"+{after.reward} points")
        if moved:
            seen = situation.log.rooms_seen()
            if after.location.id not in seen:  # type: ignore[union-attr]
                delta += 0.3
                reasons.append("look-ahead: a new room")
            what.append(f"to {after.location.name}")  # type: ignore[union-attr]
        lost = {o.id for o in now.inventory} - {o.id for o in after.inventory}
        # A light put down where it can be seen is not lost: it can be taken back (the lamp left
        # on the shore before a swim that would ruin it).
        room = after.location.id if after.location else -1
        gone = lost - {o.id for o in after.visible if o.parent in (0, room)}
        if gone and gone & situation.lights():  # the log is read only when something is lost
            # A point or a new room is no trade for the light every dark room needs (a swim that
            # sinks the lamp): refused outright, whatever else it brings.
            return -1.5, ["look-ahead: loses the light you carry"], LOSES_LIGHT, False, bool(moved)
        if lost and after.reward <= 0 and situation.blocked_takes \
                and normal(command) == normal(to_leave(situation, situation.valid_actions or ()) or ""):
            # Something here is out of reach for what is carried: leaving the thing least worth
            # keeping (as the explorer picks it) makes room; any other drop is still a loss.
            reasons.append(f"look-ahead: makes room to {situation.blocked_takes[0]}")
            what.append("makes room")
        elif lost and after.reward <= 0:
            delta -= 0.45
            reasons.append("look-ahead: gives up something carried")
            what.append("loses an item")
        if after.key == now.key:
            delta -= 0.4
            reasons.append("look-ahead: nothing changes")
            what.append("no change")
        elif situation.log.visits(after.key):
            # Walking back through known rooms is normal; undoing what was just done is not.
            if moved:
                penalty = 0.2 if situation.guards.revisit else 0.1
            else:
                penalty = 0.6 if situation.guards.revisit else 0.45
            delta -= penalty
            reasons.append("look-ahead: back to an earlier state")
            what.append("an earlier state")
        return delta, reasons, ", ".join(what) or "state changes", False, bool(moved)

    def judge(self, command: str, situation: Situation, ask_model: bool = True) -> Verdict:
        """Both stages (and the model's, when there is one and ``ask_model``); a death is always refused."""
        delta, more, summary, fatal, moved = self.look_ahead(command, situation)
        # A look-ahead that walks into another room outranks memories of that way being shut
        # (a door opened since): the heuristic then leaves out its "blocked" penalties.
        score, reasons = self.heuristic(command, situation, leads_somewhere=moved)
        score = _clamp(score + delta)
        bar = ACCEPT_TIGHT if situation.guards.revisit else ACCEPT
        accepted = not fatal and score >= bar
        if accepted and self.llm_judge is not None and ask_model:
            opinion = self.llm_judge(command, situation)
            if opinion is not None:
                # The model sees the story as a whole, the first stages only mechanics: it weighs double.
                score = _clamp((score + 2 * opinion[0]) / 3)
                more.append(f"model: {opinion[1]}" if opinion[1] else f"model: {opinion[0]:+.1f}")
                accepted = score >= bar
        return Verdict(command, score, accepted, reasons + more, summary, fatal, grave=fatal or summary == LOSES_LIGHT)

    def best_untried(self, situation: Situation, exclude: set[str]) -> tuple[str, Verdict] | None:
        """The best-judged command after refusals: untried valid actions first, then known exits.

        The one the critic likes best wins, passing or not, unless it would end the game
        (leaving the room by a known exit is often the right thing when nothing else is).
        """
        tried = set(situation.log.tried_here(situation.room_id))
        excluded = {normal(c) for c in exclude}
        if situation.turn.question:  # only the answers the story offers, refused or not: no walking away
            tried, excluded = set(), set()
        options = [a for a in (situation.valid_actions or ()) if normal(a) not in tried | excluded]
        if not situation.turn.question:
            options += [d for d in situation.map.exit_directions if d not in excluded and d not in options]
        best: tuple[str, Verdict] | None = None
        for action in options:
            verdict = self.judge(action, situation)
            if not verdict.fatal and (best is None or verdict.score > best[1].score):
                best = (action, verdict)
        return best
