"""The timeline of play as the agent sees it: turns, their consequences, and per-room history.

Everything here is derived from :class:`~zorktui.core.turn.Turn` records
(never from re-parsing game text), so it stays right across undo, restart and
restore: the session rewinds the log exactly as it rewinds the game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from zorktui.agent.safety import clean_text
from zorktui.core.turn import ObjectRef, Turn
from zorktui.engine.directions import direction_of

#: Characters of game text kept as a turn's "short result".
SHORT_RESULT = 90
#: How games word lighting a thing.
LIGHT_UP = ("turn on ", "switch on ", "light ", "activate ")
#: How games word putting out a light.
PUT_OUT = ("extinguish ", "blow out ", "douse ", "switch off ", "turn off ", "put out ", "deactivate ", "unlight ",
           "snuff ")
#: Words that link a command's things ("with", "on"): no thing of their own.
_LINKING = frozenset({"with", "in", "into", "on", "onto", "to", "from", "at", "the", "a", "an", "under", "over",
                      "through", "inside", "upon"})
#: How commands pick a thing up, and put one down.
TAKE = ("take ", "get ", "pick up ")
DROP = ("drop ", "put down ", "discard ")


def normal(command: str) -> str:
    """A command in the form used to compare commands (lower case, single spaces)."""
    return " ".join(command.lower().split())


def short_result(observation: str, limit: int = SHORT_RESULT) -> str:
    """The first words of the game's reply on one line."""
    text = " ".join(clean_text(observation).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Consequence:
    """What one command did.

    Attributes:
        turn: The turn the command made.
        command: The command.
        room_id: The room it was typed in (0 when unknown).
        room: That room's name.
        reward: Score change.
        gained: Things the player newly carries.
        lost: Things the player no longer carries.
        moved_to: The new room's name when the player moved.
        changed: The world state changed.
        died: The game ended badly.
        result: The start of the game's reply.
        answer: It was typed while the story asked a question (an answer, not a command tried here).
    """

    turn: int
    command: str
    room_id: int
    room: str
    reward: int
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    moved_to: str | None
    changed: bool
    died: bool
    result: str
    answer: bool = False

    @property
    def useless(self) -> bool:
        """Nothing happened: no reward, nothing carried changed, no move, no change of state."""
        return not (self.reward or self.gained or self.lost or self.moved_to or self.changed)

    def effects(self) -> str:
        """The consequences as a short phrase ("+5; gained lamp; moved to Hall")."""
        parts: list[str] = []
        if self.reward:
            parts.append(f"{self.reward:+d} points")
        if self.gained:
            parts.append("gained " + ", ".join(self.gained))
        if self.lost:
            parts.append("lost " + ", ".join(self.lost))
        if self.moved_to:
            parts.append(f"moved to {self.moved_to}")
        if self.died:
            parts.append("DIED")
        if not parts:
            parts.append("state changed" if self.changed else "no change")
        return "; ".join(parts)

    def line(self) -> str:
        """One line for a prompt or panel: turn, command, effects and the reply's start."""
        return f"t{self.turn} {self.command} -> {self.effects()}: \"{self.result}\""


def consequence(before: Turn, after: Turn) -> Consequence:
    """What ``after.command`` did, judged against the turn before it."""
    had = {o.id: o.name for o in before.inventory}
    has = {o.id: o.name for o in after.inventory}
    moved = None
    if after.location and (before.location is None or after.location.id != before.location.id):
        moved = after.location.name
    return Consequence(
        turn=after.turn,
        command=after.command or "",
        room_id=before.location.id if before.location else 0,
        room=before.location.name if before.location else "?",
        reward=after.reward,
        gained=tuple(n for i, n in has.items() if i not in had),
        lost=tuple(n for i, n in had.items() if i not in has),
        moved_to=moved,
        changed=after.changed,
        died=after.dead,
        result=short_result(after.observation),
        answer=before.question,
    )


class PlayLog:
    """The current line of play (turn 0 onwards) and what each command did.

    Args:
        opening: Turn 0.
    """

    def __init__(self, opening: Turn) -> None:
        self.turns: list[Turn] = [opening]
        self.consequences: list[Consequence] = []

    @property
    def current(self) -> Turn:
        """The latest turn."""
        return self.turns[-1]

    def add(self, turn: Turn) -> Consequence:
        """Append a played turn; returns what its command did."""
        done = consequence(self.turns[-1], turn)
        self.turns.append(turn)
        self.consequences.append(done)
        return done

    def reset(self, turn: Turn) -> None:
        """Jump to ``turn`` (undo, restart or restore): later turns are forgotten.

        A turn this line never reached (a restored checkpoint) starts the line afresh.
        """
        for i in range(len(self.turns) - 1, -1, -1):
            if self.turns[i].turn == turn.turn and self.turns[i].state_hash == turn.state_hash:
                del self.turns[i + 1 :]
                break
        else:
            self.turns = [turn]
        self.consequences = [c for c in self.consequences if c.turn <= turn.turn][: len(self.turns) - 1]

    # ------------------------------------------------------------- queries
    def here(self, room_id: int | None = None) -> list[Consequence]:
        """Commands typed in a room (default: the current one), oldest first; answers to the story's questions aside."""
        rid = room_id if room_id is not None else (self.current.location.id if self.current.location else 0)
        return [c for c in self.consequences if c.room_id == rid and not c.answer]

    def tried_here(self, room_id: int | None = None) -> list[str]:
        """Every distinct command already typed in a room, in first-tried order."""
        return list(dict.fromkeys(normal(c.command) for c in self.here(room_id)))

    def useless_here(self, room_id: int | None = None) -> set[str]:
        """Commands that did nothing at all the last time they were typed in the room (and may not now either).

        Not those :meth:`changed_since` holds: a thing they name has changed since.
        """
        last: dict[str, Consequence] = {}
        for c in self.here(room_id):
            last[normal(c.command)] = c
        return {cmd for cmd, c in last.items() if c.useless} - self.changed_since(room_id)

    def changed_since(self, room_id: int | None = None) -> set[str]:
        """Commands that did nothing the last time they were typed in a room, naming a thing changed since.

        "pour flask on moss" did nothing with the flask empty; once "fill flask"
        changed the world (without a move), it is worth another try. Read from
        what each command did, not from its verb: a later command that changed
        the world and names one of the same things.
        """
        last: dict[str, Consequence] = {}
        for c in self.here(room_id):
            last[normal(c.command)] = c
        # The latest turn a world-changing command (no move, no answer) named each word.
        changed_at: dict[str, int] = {}
        for c in self.consequences:
            if c.changed and not c.moved_to and not c.answer:
                changed_at.update(dict.fromkeys(set(normal(c.command).split()[1:]) - _LINKING, c.turn))
        return {cmd for cmd, c in last.items()
                if c.useless and any(changed_at.get(word, -1) > c.turn for word in set(cmd.split()[1:]) - _LINKING)}

    def failed_moves_here(self, room_id: int | None = None) -> Counter[str]:
        """Directions typed in a room that did not take the player anywhere, with how often."""
        return Counter(normal(c.command) for c in self.here(room_id)
                       if direction_of(c.command) is not None and not c.moved_to)

    def recent_commands(self, n: int) -> list[str]:
        """The last ``n`` commands (normalised), oldest first."""
        return [normal(t.command) for t in self.turns[-n:] if t.command]

    def rewarded(self) -> set[str]:
        """Commands that have earned points on this line of play."""
        return {normal(c.command) for c in self.consequences if c.reward > 0}

    def undone(self) -> set[str]:
        """Commands whose effect the next one took back, nothing gained and nobody moving: both of each pair.

        Read from the world, not from the verbs: "on" then "off", "fill bottle"
        then "empty bottle", "wear cloak" then "remove cloak" leave the world as
        it was, and trying the pair again in another room is no exploring.
        """
        pairs: set[str] = set()
        for before, first, second in zip(self.turns, self.turns[1:], self.turns[2:], strict=False):
            still = before.location is not None and first.location == before.location == second.location
            if (still and first.changed and second.key == before.key and first.command and second.command
                    and first.reward <= 0 and second.reward <= 0):
                pairs |= {normal(first.command), normal(second.command)}
        return pairs

    def visits(self, key: str) -> int:
        """How many turns on this line ended in a given moment (:attr:`Turn.key`)."""
        return sum(1 for t in self.turns if t.key == key)

    def turns_since_score(self) -> int:
        """Commands played since the score last went up (or since the start)."""
        n = 0
        for c in reversed(self.consequences):
            if c.reward > 0:
                break
            n += 1
        return n

    def banked(self) -> set[str]:
        """Names of things a command that earned points took from the player (a treasure put in its case).

        Taking such a thing back undoes what scored: in many stories it loses the points again.
        """
        return {name for c in self.consequences if c.reward > 0 for name in c.lost}

    def carried_once(self) -> set[str]:
        """Names of everything the player has picked up at some point in this line of play."""
        return {name for c in self.consequences for name in c.gained}

    def lights(self) -> set[int]:
        """Object numbers of carried things lit on this line of play: losing one sends later steps into the dark.

        A carried thing is a light when a command that changed the world lit it ("light lantern
        with matches": the lantern), or when a command naming it let the player see in a dark
        room ("lamp" of a "rub lamp" that lit the cellar).
        """
        found: set[int] = set()
        for before, after in zip(self.turns, self.turns[1:], strict=False):
            said = normal(after.command or "")
            verb = next((v for v in LIGHT_UP if said.startswith(v)), None)
            if verb is not None and after.changed:
                words = set(said[len(verb):].split(" with ")[0].split())
            elif before.dark and not after.dark and before.location and after.location \
                    and before.location.id == after.location.id:
                words = set(said.split()[1:])
            else:
                continue
            found |= {o.id for o in after.inventory if words & set(o.name.lower().split())}
        return found

    def puts_out_a_light(self, command: str) -> bool:
        """Whether a command puts out a carried light ("turn off lamp" once "light lamp" lit the dark)."""
        put_out = put_out_by(command, self.current.inventory)
        return bool(put_out) and bool(put_out & self.lights())

    def rooms_seen(self) -> dict[int, str]:
        """Rooms visited on this line, by id."""
        return {t.location.id: t.location.name for t in self.turns if t.location}

    def entered_new_room(self) -> bool:
        """The last command brought the player to a room not seen before on this line."""
        if len(self.turns) < 2 or not self.current.location:
            return False
        rid = self.current.location.id
        return all(not t.location or t.location.id != rid for t in self.turns[:-1])


def put_out_by(command: str, carried: tuple[ObjectRef, ...]) -> set[int]:
    """Object numbers of the things carried that a command would put out ("douse torch": the torch)."""
    said = normal(command)
    verb = next((v for v in PUT_OUT if said.startswith(v)), None)
    if verb is None:
        return set()
    words = set(said[len(verb):].split()) - {"off", "out"}
    return {o.id for o in carried if words & set(o.name.lower().split())}
