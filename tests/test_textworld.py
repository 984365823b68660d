"""The engine against generated TextWorld games, with TextWorld's own API as the ground truth.

Games come from tests/twgames.py (``tw-make``, cached in ``.pytest_cache/d/twgames``); see
tests/conftest_tw_notes.md for what TextWorld reports and how it maps onto the Z-machine.

Conventions checked here:

* Score: after every walkthrough step our ``Turn.score`` equals TextWorld's score.
* Moves: TextWorld counts moves from 0, while the Inform 7 turn counter (the status-line
  number, global ``turns``) starts at 1. So the engine's ``Turn.moves`` is expected to be
  TextWorld's ``moves + 1`` after every step, and 1 at the opening (TextWorld: 0).
* Valid actions: recall of ``Game.valid_actions()`` against TextWorld's admissible commands,
  measured over *resulting world states* (state hashes), not over command strings, because
  our finder may name objects or directions differently (``north`` vs ``go north``).

Run with ``-s`` to see the per-game numbers; they are also listed in the terminal summary.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pytest

from zorktui.engine.game import Game

pytestmark = [
    pytest.mark.textworld,
    # jericho warns that TextWorld games are "not fully supported" (no bindings): expected here.
    pytest.mark.filterwarnings("ignore:.*is not fully supported"),
]

KINDS = ("treasure_hunter", "coin_collector", "cooking", "custom")
SEEDS = (1, 2)
#: Cooking seed 9 opens in an empty corridor: the parser's bookkeeping is only learned next door.
#: One room, seed 42: the player and the room are found by "examine me" alone (three games of a
#: 22-game sweep had taken Inform's Class object for the room).
CASES = [(kind, seed) for kind in KINDS for seed in SEEDS] + [("cooking", 9), ("one_room", 42)]

#: Mean recall of our valid actions over TextWorld's world-changing admissible commands (the target
#: of docs/engine.md; every case here measures 1.000).
RECALL_MIN = 0.97
#: Share of the walkthrough's world-changing steps found among the valid actions before them
#: (cooking seed 2 measures 15/16).
WALKTHROUGH_RECALL_MIN = 0.9
#: Games where valid-action recall is known to fall short. strict: the marker must go as
#: soon as the engine meets the bar (custom seed 2's "take pillow from safe", missed until
#: the words for a thing once unseen in a shut safe were asked for again when it was taken out).
KNOWN_SHORT: set[tuple[str, int]] = set()
KNOWN_SHORT_WALKTHROUGH = KNOWN_SHORT
#: Games where looking still changes the hash somewhere along the walkthrough (strict, as above):
#: in the cooking games "look" after taking a thing from the counter clears an Inform 7 listing
#: flag on it (seen on one object, so not learned as bookkeeping), and custom seed 2 keeps the
#: holder of "take pillow from safe" in a global no room near the opening disturbs.
#: The one-room game has no room next door to learn them in: "look" after "open safe" clears
#: the listing flag on what the safe holds.
KNOWN_LOOK_CHANGES: set[tuple[str, int]] = {("cooking", 1), ("cooking", 2), ("cooking", 9), ("custom", 2),
                                            ("one_room", 42)}


def _expect_shortfall(request, kind: str, seed: int, known: set = KNOWN_SHORT) -> None:
    if (kind, seed) in known:
        request.applymarker(pytest.mark.xfail(strict=True, reason="valid-action recall below 0.8 (known, see docs/engine.md)"))

#: Admissible commands that only look: left out of the recall.
_LOOKING = re.compile(r"^(look|l|inventory|i|examine|x)\b")
#: A status line left in the text: "-= Kitchen =-   0/1" (room header, then score/turns).
_STATUS_RESIDUE = re.compile(r"-=.*=-\s*-?\d+\s*/\s*\d+\s*$")
#: A room heading line as TextWorld prints it.
_ROOM_HEADER = re.compile(r"^\s*-=\s*(.+?)\s*=-\s*$", re.MULTILINE)

_DIRECTIONS = {
    "n": "north", "s": "south", "e": "east", "w": "west", "ne": "northeast", "nw": "northwest",
    "se": "southeast", "sw": "southwest", "u": "up", "d": "down",
}


def _norm(command: str) -> str:
    """Lower case, single spaces."""
    return " ".join(command.lower().split())


def _canon(command: str) -> str:
    """Textual canonical form, for the diagnostic text recall only ("go n" == "north")."""
    words = _norm(command).split()
    if words and words[0] == "go" and len(words) == 2:
        words = words[1:]
    if len(words) == 1:
        words = [_DIRECTIONS.get(words[0], words[0])]
    return " ".join(words)


def _room_label(name: str) -> str:
    """A room name without TextWorld's "-= ... =-" decoration, lower case."""
    m = _ROOM_HEADER.match(name)
    return _norm(m.group(1) if m else name)


@pytest.fixture(params=CASES, ids=[f"{k}-s{s}" for k, s in CASES])
def tw(request, tw_game):
    """(kind, seed, path, ground_truth) for one generated game."""
    kind, seed = request.param
    path, gt = tw_game(kind, seed)
    assert gt["won_after_walkthrough"], f"{kind} seed {seed}: TextWorld's own walkthrough does not win"
    assert len(gt["scores"]) == len(gt["walkthrough"]) and len(gt["admissible"]) == len(gt["walkthrough"]) + 1
    return kind, seed, path, gt


# --------------------------------------------------------------------------- basic facts
def test_max_score_matches_textworld(tw, game_of):
    kind, seed, path, gt = tw
    g = game_of(path)
    assert g.max_score == gt["max_score"]


def test_walkthrough_scores_moves_and_victory(tw, game_of):
    kind, seed, path, gt = tw
    walkthrough = gt["walkthrough"]
    g = game_of(path)
    problems: list[str] = []
    opening = g.opening
    # TextWorld: score 0 and moves 0 at reset; the I7 turn counter starts at 1.
    if opening.score != 0:
        problems.append(f"opening: score {opening.score} != TextWorld 0")
    if opening.moves != 1:
        problems.append(f"opening: moves {opening.moves} != TextWorld 0 + 1")
    t = opening
    for i, cmd in enumerate(walkthrough):
        t = g.step(cmd)
        where = f"step {i + 1} {cmd!r}"
        if t.score != gt["scores"][i]:
            problems.append(f"{where}: score {t.score} != TextWorld {gt['scores'][i]}")
        if t.moves != gt["moves"][i] + 1:
            problems.append(f"{where}: moves {t.moves} != TextWorld {gt['moves'][i]} + 1")
        if t.done and i < len(walkthrough) - 1:
            problems.append(f"{where}: done before the end of the walkthrough")
    if not (t.done and t.victory and not t.dead):
        problems.append(f"end: done={t.done} victory={t.victory} dead={t.dead}, expected a win")
    if t.score != gt["max_score"] or t.score != g.max_score:
        problems.append(f"end: score {t.score}, max_score {g.max_score}, TextWorld max {gt['max_score']}")
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems)


def _play_all(path, walkthrough):
    g = Game(path)
    try:
        return [g.opening] + [g.step(cmd) for cmd in walkthrough]
    finally:
        g.close()


def test_location_known_with_a_name(tw):
    kind, seed, path, gt = tw
    problems: list[str] = []
    for t in _play_all(path, gt["walkthrough"]):
        where = f"turn {t.turn} {t.command!r}"
        if t.location is None:
            problems.append(f"{where}: location is None")
        elif not t.location.name.strip():
            problems.append(f"{where}: location {t.location.id} has an empty name")
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems)


def test_inventory_and_surroundings_are_named_as_textworld_names_them(tw):
    """Inform 7 keeps names out of the object table; the engine reads its printed-name property."""
    kind, seed, path, gt = tw
    problems: list[str] = []
    for t, held, here in zip(_play_all(path, gt["walkthrough"]), gt["held"], gt["here"], strict=False):
        where = f"turn {t.turn} {t.command!r}"
        ours = sorted(o.name.lower() for o in t.inventory)
        if ours != [n.lower() for n in held]:
            problems.append(f"{where}: inventory {ours} != TextWorld's {held}")
        seen = {o.name.lower() for o in t.visible}
        missing = [n for n in here if n.lower() not in seen]
        if missing:
            problems.append(f"{where}: {missing} in the room but not among the visible {sorted(seen)}")
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems[:10])


def test_looking_changes_nothing(tw, request, game_of):
    """Looking or taking stock leaves the world-state hash as it was, along the walkthrough."""
    kind, seed, path, gt = tw
    if (kind, seed) in KNOWN_LOOK_CHANGES:
        request.applymarker(pytest.mark.xfail(strict=True, reason="bookkeeping not met near the opening (known)"))
    g = game_of(path)
    problems: list[str] = []
    for command in [None, *gt["walkthrough"][:6]]:
        if command is not None:
            g.step(command)
        here = g.current
        # Not "examine": TextWorld's Inform 7 code records in an object's own properties
        # that it was examined (its quests can ask for it), a real change of its world.
        looks = ["look", "inventory"]
        for look in looks:
            after = g.peek(look)
            if after.state_hash != here.state_hash:
                problems.append(f"after {command!r}: {look!r} changed the hash ({after.observation[:60]!r})")
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems[:10])


def test_what_a_shut_safe_holds_is_seen_once_it_is_open(tw_game, game_of):
    """Inform 7 names things through routines, not in the object table: the parser is asked with
    a thing's printed name whether it can see it (the sponge had been listed from the opening)."""
    path, _gt = tw_game("one_room", 42)
    g = game_of(path)
    assert "sponge" not in {o.name for o in g.opening.visible}
    opened = g.step("open safe")
    assert {"sponge", "cake scented key"} <= {o.name for o in opened.visible}
    shut = g.step("close safe")
    assert "sponge" not in {o.name for o in shut.visible}


def test_a_thing_with_a_two_letter_name_gets_actions(tw_game, game_of):
    """The tv answers to "tv" alone: words of two letters are asked about too (not pronouns)."""
    path, _gt = tw_game("simple", 31)
    g = game_of(path)
    for command in ["open antique trunk", "take old key from antique trunk", "unlock wooden door with old key",
                    "open wooden door", "go east", "go south"]:
        g.step(command)
    assert "tv" in {o.name for o in g.current.visible}
    assert any(a.endswith(" on tv") for a in g.valid_actions())


def test_cutting_one_thing_or_another_gives_two_worlds(tw_game, game_of):
    """Inform 7 keeps a thing's cut state among its individual properties (64 and up), outside the
    Z-machine's property table. Both cuts score a point, so only those properties tell them apart:
    the hash reads them (it used to merge the two, and the planner lost "chop" behind "slice")."""
    path, _gt = tw_game("cooking", 1)
    g = game_of(path)
    for command in ["north", "west", "take red potato", "open fridge", "take yellow bell pepper",
                    "cook yellow bell pepper with oven", "cook red potato with stove", "take knife"]:
        g.step(command)
    chopped = g.peek("chop red potato with knife")
    sliced = g.peek("slice yellow bell pepper with knife")
    assert chopped.reward == sliced.reward == 1
    assert chopped.state_hash != sliced.state_hash


def test_observations_have_no_status_line_or_prompt(tw):
    kind, seed, path, gt = tw
    problems: list[str] = []
    for t in _play_all(path, gt["walkthrough"]):
        where = f"turn {t.turn} {t.command!r}"
        for line in t.observation.rstrip().split("\n"):
            if _STATUS_RESIDUE.search(line):
                problems.append(f"{where}: status line residue {line.strip()!r}")
        if t.observation.rstrip().endswith(">"):
            problems.append(f"{where}: observation ends with a '>' prompt")
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems)


def test_location_matches_room_heading(tw):
    """Where a reply prints a room heading ("-= Kitchen =-"), the location is that room."""
    kind, seed, path, gt = tw
    problems: list[str] = []
    checked = 0
    for t in _play_all(path, gt["walkthrough"]):
        headings = _ROOM_HEADER.findall(t.observation)
        if not headings:
            continue
        checked += 1
        expected = _norm(headings[-1])
        got = _room_label(t.location.name) if t.location else None
        if got != expected:
            problems.append(f"turn {t.turn} {t.command!r}: location {got!r}, heading says {expected!r}")
    assert checked, "no room heading seen at all"
    assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems)


# ----------------------------------------------------------------------- valid actions
@dataclass
class StateRecall:
    """Valid actions against TextWorld's admissible commands in one state of the walkthrough."""

    index: int  # walkthrough step about to be played (0 = opening state)
    ours: dict[str, str]  # resulting state hash -> one of our valid actions leading there
    admissible: dict[str, str]  # resulting hash -> one world-changing admissible command
    step_command: str
    step_changed: bool  # the walkthrough step changed the world (by state hash)
    step_found: bool  # ... and its resulting hash is among ours
    text_recall: float | None  # diagnostic: by canonical command text
    seconds: float  # time spent in valid_actions()

    @property
    def recall(self) -> float | None:
        if not self.admissible:
            return None
        return len(self.admissible.keys() & self.ours.keys()) / len(self.admissible)

    @property
    def missed(self) -> list[str]:
        return sorted(cmd for h, cmd in self.admissible.items() if h not in self.ours)


@dataclass
class GameRecall:
    kind: str
    seed: int
    states: list[StateRecall] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def scored(self) -> list[float]:
        return [s.recall for s in self.states if s.recall is not None]

    @property
    def mean_recall(self) -> float:
        scored = self.scored
        return sum(scored) / len(scored) if scored else float("nan")

    @property
    def walkthrough(self) -> tuple[int, int]:
        changed = [s for s in self.states if s.step_changed]
        return sum(s.step_found for s in changed), len(changed)

    @property
    def mean_text_recall(self) -> float:
        vals = [s.text_recall for s in self.states if s.text_recall is not None]
        return sum(vals) / len(vals) if vals else float("nan")

    def summary(self) -> str:
        hits, n = self.walkthrough
        va = [s.seconds for s in self.states]
        return (
            f"recall {self.mean_recall:.3f} over {len(self.scored)} states"
            f" (min {min(self.scored, default=float('nan')):.2f}),"
            f" walkthrough recall {hits}/{n},"
            f" text recall {self.mean_text_recall:.3f},"
            f" valid actions/state {sum(len(s.ours) for s in self.states) / max(1, len(self.states)):.1f}"
            f" (max {max(va, default=0) * 1000:.0f} ms), total {self.seconds:.1f}s"
        )


def _result_hash(g: Game, command: str, before: str) -> str:
    """State hash after ``command`` from the current state, which is then restored."""
    t = g.step(command)
    g.undo()
    assert g.current.state_hash == before, f"undo after {command!r} did not restore the state"
    return t.state_hash


_RECALL_CACHE: dict[tuple[str, int], GameRecall] = {}


def _measure(kind: str, seed: int, path, gt: dict) -> GameRecall:
    key = (kind, seed)
    if key in _RECALL_CACHE:
        return _RECALL_CACHE[key]
    result = GameRecall(kind, seed)
    start = time.perf_counter()
    g = Game(path)
    try:
        for i, step_command in enumerate(gt["walkthrough"]):
            before = g.current.state_hash
            t0 = time.perf_counter()
            valid = g.valid_actions()
            seconds = time.perf_counter() - t0
            ours: dict[str, str] = {}
            for cmd in valid:
                ours.setdefault(_result_hash(g, cmd, before), _norm(cmd))
            admissible: dict[str, str] = {}
            for cmd in gt["admissible"][i]:
                cmd = _norm(cmd)
                if _LOOKING.match(cmd):
                    continue
                h = _result_hash(g, cmd, before)
                if h != before:
                    admissible.setdefault(h, cmd)
            adm_text = {_canon(c) for c in admissible.values()}
            our_text = {_canon(c) for c in valid}
            text_recall = len(adm_text & our_text) / len(adm_text) if adm_text else None
            t = g.step(step_command)
            changed = t.state_hash != before
            result.states.append(StateRecall(
                index=i, ours=ours, admissible=admissible, step_command=step_command,
                step_changed=changed, step_found=changed and t.state_hash in ours,
                text_recall=text_recall, seconds=seconds,
            ))
    finally:
        g.close()
    result.seconds = time.perf_counter() - start
    _RECALL_CACHE[key] = result
    return result


def _print_details(r: GameRecall) -> None:
    print(f"\n[{r.kind} s{r.seed}] {r.summary()}")
    for s in r.states:
        rec = "  n/a" if s.recall is None else f"{s.recall:5.2f}"
        print(f"  state {s.index:2d} recall {rec}  ours={sorted(s.ours.values())}  missed={s.missed}")


def test_valid_action_recall(tw, tw_report, request):
    kind, seed, path, gt = tw
    _expect_shortfall(request, kind, seed)
    r = _measure(kind, seed, path, gt)
    _print_details(r)
    tw_report[f"{kind}-s{seed}"] = r.summary()
    assert r.scored, "no state with a world-changing admissible command"
    assert r.mean_recall >= RECALL_MIN, (
        f"{kind} seed {seed}: mean valid-action recall {r.mean_recall:.3f} < {RECALL_MIN}; {r.summary()}"
    )


def test_walkthrough_steps_among_valid_actions(tw, tw_report, request):
    kind, seed, path, gt = tw
    _expect_shortfall(request, kind, seed, KNOWN_SHORT_WALKTHROUGH)
    r = _measure(kind, seed, path, gt)
    hits, n = r.walkthrough
    tw_report[f"{kind}-s{seed}"] = r.summary()
    missed = [s.step_command for s in r.states if s.step_changed and not s.step_found]
    print(f"\n[{kind} s{seed}] walkthrough recall {hits}/{n}; not found: {missed}")
    assert n, "no walkthrough step changed the world"
    assert hits / n >= WALKTHROUGH_RECALL_MIN, (
        f"{kind} seed {seed}: only {hits}/{n} world-changing walkthrough steps were among the "
        f"valid actions before them; missed {missed}"
    )
