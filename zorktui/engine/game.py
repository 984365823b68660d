"""``Game``: one story being played, turning each command into a :class:`Turn`."""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import replace
from pathlib import Path

import numpy as np

from zorktui.core.errors import GameError
from zorktui.core.turn import ObjectRef, Turn
from zorktui.engine import endings
from zorktui.engine.actions.load_refusals import refused_for_load_takes
from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.asking import Outcome
from zorktui.engine.game_api import DEFAULT_UNDO_LEVELS, GameState
from zorktui.engine.measure import measure
from zorktui.engine.story_model import StoryModel
from zorktui.engine.vm.checkpoints import list_checkpoints, read_checkpoint, write_checkpoint
from zorktui.engine.vm.interpreter import MAX_COMMAND_BYTES, Interpreter, Snapshot
from zorktui.engine.vm.story import StoryInfo, open_story
from zorktui.engine.vm.text import announced_score, asked_text, split_reply, title_from_banner
from zorktui.engine.world.darkness import DarknessByLook
from zorktui.engine.world.facts import FactReader, Place
from zorktui.engine.world.holders import Holders
from zorktui.engine.world.naming import object_word
from zorktui.engine.world.sight import Sight
from zorktui.engine.zmachine.zmachine import ZMachine


class Game:
    """A story in play.

    Args:
        story: A story path or an already identified story.
        seed: Seed for the game's random numbers (None: 1, for every story). The
            same seed and commands give the same game.
        undo_levels: How many turns ``undo`` can go back.
    """

    def __init__(self, story: StoryInfo | str | Path, seed: int | None = None, undo_levels: int = DEFAULT_UNDO_LEVELS) -> None:
        info = story if isinstance(story, StoryInfo) else open_story(story)
        measured = measure(info, seed)
        model, raw = measured.model, measured.opening
        self._build(model, measured.vm, measured.zm, measured.facts, measured.darkness, undo_levels)
        self.current = self._make_turn(0, None, raw, previous=None)
        model.opening = self.opening = self.current
        if not self.story.title:
            self.story.title = title_from_banner(self.opening.observation)

    def _build(self, model: StoryModel, vm: Interpreter, zm: ZMachine, facts: FactReader,
               darkness: DarknessByLook, undo_levels: int) -> None:
        """Stand a game on ``model`` with its own interpreter, memory image and readers of them."""
        self.model = model
        self.story, self.seed = model.story, model.seed
        self.zm, self.vm, self.facts, self._darkness = zm, vm, facts, darkness
        self._undo: deque[tuple[Snapshot, Turn]] = deque(maxlen=max(1, undo_levels))
        self._valid_cache = model.valid_cache
        self._destinations = model.destinations
        # Commands that killed a search's interpreter, shared with every fork: never played here.
        self._deadly = model.deadly
        self._finder: ActionFinder | None = None
        self._start, self._prompt, self._max_score = model.start, model.prompt, model.max_score
        self._status = ""
        self.fingerprint = model.fingerprint
        self.sight = Sight(zm)  # its own: a fork's planner asks from another thread
        #: On, in or held, and shut away, where the story's library says (None: not known).
        self.holders = Holders(zm, model.layout, model.player) if model.layout is not None else None
        self.surfaces = model.surfaces
        if model.opening is not None:
            self.opening = model.opening

    # ------------------------------------------------------------------ facts
    @property
    def prompt_at(self) -> tuple[int, int]:
        """Where the story waits for commands: (program counter, call depth); elsewhere it asks a question."""
        return self.model.asking.prompt_at

    @property
    def max_score(self) -> int | None:
        """The maximum score where the story makes it knowable, else None."""
        return self._max_score

    def _in_sight(self, visible: tuple[ObjectRef, ...], place: Place,
                  inventory: tuple[ObjectRef, ...]) -> tuple[ObjectRef, ...]:
        """``visible`` less the things the parser cannot see (the shut mailbox's leaflet, an invisible box).

        The object tree holds them either way; the parser is asked (see
        :class:`~zorktui.engine.world.sight.Sight`), once per situation. The agent's
        prompt and the memory read ``visible``: a thing in a shut box is not
        something the player can see.
        """
        held = [o.id for o in inventory]
        around = held + [o.id for o in visible]
        # Each object's words are read once per turn, not once per neighbour named. Inform 7
        # keeps them private: its printed name ("old key") is what a player would type.
        def words(obj: int) -> list[str]:
            own = self.zm.object_vocabulary(obj)
            if own:
                return own
            name = self.facts.name(obj).lower()
            return [name] if name else []

        vocabulary = functools.cache(words)
        unseen = self.sight.hidden(self.vm, place, held, around, lambda obj: object_word(self.zm, obj, around, vocabulary),
                                   self.fingerprint.noise_properties)
        return tuple(o for o in visible if o.id not in unseen) if unseen else visible

    def _command_loop(self, state_hash: str) -> bool:
        """Whether the line the story waits for away from its prompt is read by a loop of commands (cached)."""
        key = (state_hash, self.vm.position())
        known = self.model.command_loops.get(key)
        if known is None:
            known = self.model.command_loops[key] = self.model.asking.takes_commands(self.vm)
            self.zm.refresh(self.vm.ram())
        return known

    def _make_turn(self, number: int, command: str | None, raw: str, previous: Turn | None) -> Turn:
        ram = self.vm.ram()
        self.zm.refresh(ram)
        # Hashed first: asking the parser what it sees (below) plays commands,
        # and ``ram`` is the interpreter's shared buffer.
        state_hash = self.fingerprint(ram)
        parts = split_reply(raw, self._status, self._prompt)
        question = self.model.asking.asks(self.vm) and not self._command_loop(state_hash)
        narrative = asked_text(parts.narrative) if question else parts.narrative
        if parts.status and not question:
            self._status = parts.status
        facts = self.facts
        score, moves = facts.score_and_moves(self._status)
        place = facts.place()
        if place is not None and not place.dark and self._darkness.dark(place.room, self._status):
            place = Place(place.room, dark=True)
        location = facts.room_ref(place.room, self._status) if place else None
        inventory = facts.inventory()
        # In the dark nothing in the room is in sight (the parser says "You can't see any such thing").
        # At a question the parser is not listening: what it would see cannot be asked.
        visible: tuple[ObjectRef, ...] = ()
        if place and not place.dark:
            visible = facts.visible(place.room) if question else self._in_sight(facts.visible(place.room), place, inventory)
        if visible and place is not None:
            if self.holders is not None:
                visible = self.holders.place(visible, place.room)
            else:
                visible = self.surfaces.place(visible, place.room, narrative)
        answers = self._answers(state_hash, narrative) if question else ()
        done = endings.ended(self.vm.halted(), answers, narrative)
        if done:
            final_score, final_moves = announced_score(narrative)
            score = final_score if final_score is not None else score
            moves = final_moves if final_moves is not None else moves
        reward = 0
        if previous is not None and score is not None and previous.score is not None:
            reward = score - previous.score
        won = endings.won(self._max_score, score, reward, narrative)
        ending = endings.settle(done, won, answers, endings.new_life(previous, location, inventory, score, question),
                                previous, state_hash)
        return Turn(
            turn=number,
            command=command,
            observation=narrative,
            score=score,
            moves=moves,
            reward=reward,
            location=location,
            dark=bool(place and place.dark),
            inventory=inventory,
            visible=visible,
            done=ending.done,
            victory=ending.victory,
            dead=ending.dead,
            question=question,
            state_hash=state_hash,
            changed=previous is None or state_hash != previous.state_hash or question != previous.question,
        )

    def _answers(self, state_hash: str, question: str) -> tuple[Outcome, ...]:
        """Where each answer to the question the story waits at leads (played once per question, shared with forks).

        A question is known by the world and the place the story asks it
        from: asked again in other words ("one of those three words, please")
        it is still the question that offered them.
        """
        key = (state_hash, self.vm.position())
        known = self.model.answers.get(key)
        if known is None:
            known = self.model.answers[key] = tuple(self.model.asking.outcomes(self.vm, question))
            self.zm.refresh(self.vm.ram())
        return known

    # ------------------------------------------------------------------- play
    def _checked(self, command: str) -> str:
        command = command.strip()
        if not command or "\n" in command:
            raise GameError("a command is one non-empty line")
        if len(command.encode("cp1252", errors="replace")) > MAX_COMMAND_BYTES:
            raise GameError(f"command too long (at most {MAX_COMMAND_BYTES} characters)")
        if self.vm.halted():
            raise GameError("the story has stopped; restart or undo")
        return command

    def step(self, command: str, undoable: bool = True) -> Turn:
        """Play one command.

        Args:
            command: What the player types (one line).
            undoable: Keep the state before it for :meth:`undo` (a planner
                playing thousands of lines on a fork turns this off).

        Returns:
            The turn that resulted.

        Raises:
            GameError: For an empty, multi-line or over-long command, when
                the story has halted, or for a command that killed the
                valid-action search's interpreter (see :mod:`zorktui.engine.actions.search_workers`).
        """
        command = self._checked(command)
        said = " ".join(command.lower().split())
        if said in self._deadly or (self._finder is not None and self._finder.deadly(said)):
            # Played here it would take the whole application down with the interpreter.
            raise GameError(f"Not played: {command!r} crashed this story's interpreter when the valid-action search tried it.")
        before = self.vm.snapshot() if undoable else None
        raw = self.vm.step(command)
        turn = self._make_turn(self.current.turn + 1, command, raw, previous=self.current)
        if before is not None:
            self._undo.append((before, self.current))
        self.current = turn
        return turn

    def state(self) -> GameState:
        """The current state, to return to with :meth:`set_state` (here or on a :meth:`fork`)."""
        return GameState(self.vm.snapshot(), self.current, self._status)

    def set_state(self, state: GameState) -> None:
        """Jump to a state taken by :meth:`state` of this game or of its fork (undo history is untouched)."""
        self.vm.restore(state.snapshot)
        self.zm.refresh(self.vm.ram())
        self.current = state.turn
        self._status = state.status

    def jump(self, state: GameState) -> Turn:
        """Go to a state undoably, as a restore does (a rebuilt game's way back to a checkpoint restored before)."""
        self._undo.append((self.vm.snapshot(), self.current))
        self.set_state(state)
        return self.current

    def fork(self) -> Game:
        """An independent copy of this game for look-ahead search, at the same state.

        It has its own interpreter and memory image, so a planner can play
        thousands of lines on it from another thread while this game goes on.
        It is built on the same :class:`StoryModel`: what was learned about the
        story (the player object, the noise in the globals, the maximum score)
        is not measured again, and the valid-action cache is shared: both
        fingerprint states the same way.
        """
        other = Game.__new__(Game)
        zm = ZMachine(Path(self.story.zcode_path).read_bytes())
        vm = self.vm.twin()
        facts = self.facts.copy_for(zm)
        other._build(self.model, vm, zm, facts, self._darkness.copy_for(vm, zm, facts), undo_levels=1)
        other.set_state(self.state())
        return other

    def peek(self, command: str) -> Turn:
        """Play a command on a copy of the current state and come back (a look-ahead).

        The game, its undo history and its current turn are left exactly as
        they were; the returned turn says what the command would do.

        Raises:
            GameError: As :meth:`step`.
        """
        command = self._checked(command)
        before, status = self.vm.snapshot(), self._status
        try:
            raw = self.vm.step(command)
            return self._make_turn(self.current.turn + 1, command, raw, previous=self.current)
        finally:
            self.vm.restore(before)
            self.zm.refresh(self.vm.ram())
            self._status = status

    def undo(self, n: int = 1) -> Turn:
        """Go back ``n`` turns (interpreter-side: works in v3 stories too).

        Returns:
            The turn that is current again.

        Raises:
            GameError: When fewer than ``n`` turns can be undone.
        """
        if n < 1:
            raise GameError("undo needs a positive number of turns")
        if n > len(self._undo):
            raise GameError(f"can undo {len(self._undo)} turn(s), not {n}")
        for _ in range(n - 1):
            self._undo.pop()
        snap, turn = self._undo.pop()
        self.vm.restore(snap)
        self.zm.refresh(self.vm.ram())
        self.current = turn
        return turn

    @property
    def undo_depth(self) -> int:
        """How many turns can be undone now."""
        return len(self._undo)

    def restart(self) -> Turn:
        """Start the story again from its opening (undo history is kept)."""
        self._undo.append((self.vm.snapshot(), self.current))
        self.vm.restore(self._start)
        self.zm.refresh(self.vm.ram())
        self.current = self.opening
        return self.current

    # ------------------------------------------------------------ checkpoints
    def save_checkpoint(self, folder: str | Path, name: str, note: str = "") -> Path:
        """Save the current state as a named checkpoint in ``folder``."""
        turn = self.current
        meta = {
            "story_md5": self.story.md5,
            "turn": turn.turn,
            "score": turn.score,
            "moves": turn.moves,
            "location": turn.location.name if turn.location else None,
            "note": note,
            "record": turn.to_record(),
        }
        return write_checkpoint(folder, name, self.vm.snapshot(), meta)

    def restore_checkpoint(self, folder: str | Path, name: str) -> Turn:
        """Return to a named checkpoint; the move is itself undoable.

        Raises:
            GameError: Unknown or damaged checkpoint, or one of another story.
        """
        snap, meta = read_checkpoint(folder, name)
        if meta.get("story_md5") != self.story.md5:
            raise GameError(f"checkpoint {name!r} belongs to another story")
        ram = snap.ram()
        if not isinstance(ram, np.ndarray) or len(ram) != len(self.vm.ram()):
            raise GameError(f"checkpoint {name!r} is damaged (memory size differs)")
        previous = self.current
        before = self.vm.snapshot()
        self.vm.restore(snap)
        self.zm.refresh(self.vm.ram())
        record = meta["record"]
        turn = self._make_turn(int(meta["turn"]), record.get("command"), "", previous=None)
        turn = replace(turn, observation=record.get("observation", ""), reward=0)
        self._undo.append((before, previous))
        self.current = turn
        return turn

    checkpoints = staticmethod(list_checkpoints)  # describes the checkpoints saved in a folder

    # ---------------------------------------------------------- valid actions
    def answers(self) -> tuple[Outcome, ...]:
        """Where each answer to the question the story asks now leads (nothing when it is not asking)."""
        if not self.current.question:
            return ()
        return self._answers(self.current.state_hash, self.current.observation)

    def valid_actions(self) -> tuple[str, ...]:
        """Commands that change the world from the current state (cached by state hash).

        At a question, its answers: those that do not end the story first.
        """
        cached = self.valid_actions_cached()
        if cached is not None:
            return cached
        if self._finder is None:
            self._finder = ActionFinder(self)
        found = self._finder.find()
        self._destinations[self.current.state_hash] = dict(self._finder.destinations)
        self.model.untaken[self.current.state_hash] = self._finder.untaken
        self._valid_cache[self.current.state_hash] = found
        return found

    def findings(self) -> tuple[tuple[str, ...], dict[str, int], tuple[str, ...]]:
        """The current state's :meth:`valid_actions`, the rooms its directions lead to, and the takes that moved nothing."""
        found = self.valid_actions()
        key = self.current.state_hash
        return found, dict(self._destinations.get(key, {})), tuple(self.model.untaken.get(key, ()))

    def learn(self, state_hash: str, found: tuple[str, ...], destinations: dict[str, int], untaken: tuple[str, ...]) -> None:
        """Take a state's :meth:`findings` from a search made elsewhere (another process's fork)."""
        self._valid_cache.setdefault(state_hash, found)
        self._destinations.setdefault(state_hash, destinations)
        self.model.untaken.setdefault(state_hash, untaken)

    def blocked_takes(self) -> tuple[str, ...]:
        """Takes the game refuses here for what the player already carries ("Your load is too heavy").

        Asked of the takes that the valid-action search of this state found
        moving nothing (a command each, played and undone); that search is
        made first where it has not been, here or by a fork.
        """
        key = self.current.state_hash
        known = self.model.blocked.get(key)
        if known is not None:
            return known
        if self.current.done or self.current.question or not self.current.inventory:
            return ()  # nothing carried: no load to blame (and nothing to put down)
        if key not in self.model.untaken:
            self.valid_actions()
        self.model.blocked[key] = refused_for_load_takes(self.vm, self.model.untaken.get(key, ()), self._deadly)
        self.zm.refresh(self.vm.ram())
        return self.model.blocked[key]

    def valid_destinations(self) -> dict[str, int]:
        """Room object numbers the current state's valid directions lead to, once its valid actions are found.

        Empty until then (here or by a fork). Keyed by the command as the search typed it ("north").
        """
        return dict(self._destinations.get(self.current.state_hash, {}))

    def valid_actions_cached(self) -> tuple[str, ...] | None:
        """The valid actions of the current state if already found (here or by a fork), else None."""
        if self.current.done:
            return ()
        if self.current.question:
            return tuple(a.answer for a in sorted(self.answers(), key=lambda a: a.ends))
        return self._valid_cache.get(self.current.state_hash)

    def close(self) -> None:
        """Release the interpreter (and the valid-action search's twin, if one was started)."""
        if self._finder is not None:
            self._finder.close()
        self.vm.close()
