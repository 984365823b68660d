"""The person's verbs, once for every front: undo, checkpoints, restart, who plays, the
autopilot's pace, refusing a proposal, and the game's own out-of-world verbs.

The app's command line and palette, line mode (``zorktui run``, ``play`` without a
terminal) and the MCP server all call :class:`Commands` (``session.commands``): a
verb's rules (what it takes, when it is refused) and its words (what it answers)
are written here and nowhere else. A front only decides where an answer goes
(a notification, a line on stdout, a tool's reply). A refusal is a
:class:`~zorktui.session.commands.slash.CommandError` with one line for a person
or a model to read; the session is left as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from zorktui.agent.safety import clean_text
from zorktui.core.errors import RecordError, ZorkTuiError, one_line
from zorktui.engine.vm.checkpoints import check_name
from zorktui.session.commands.meta import instead, meta_verb
from zorktui.session.commands.slash import AppCommand, CommandError, saves_text
from zorktui.session.modes import Mode

if TYPE_CHECKING:  # hints only
    from pathlib import Path

    from zorktui.agent.proposal import Policy, Proposal
    from zorktui.core.turn import Turn
    from zorktui.engine.game_api import GameApi
    from zorktui.session.autopilot import Autopilot
    from zorktui.session.thinker import Thinker

#: The slash verbs the session itself answers (the rest only mean something on the app's screen).
SESSION_VERBS = ("undo", "save", "restore", "saves", "restart", "mode", "auto", "pause", "step", "speed", "reject")
#: The longest wait between autopilot commands /speed takes, in seconds.
MAX_DELAY = 60.0
NO_AGENT = "no agent in this session (start with --agent explore or --agent llm)"


class VerbHost(Protocol):
    """What the verbs act on: the session's public face."""

    game: GameApi
    agent: Policy | None
    mode: Mode
    autopilot: Autopilot
    thinker: Thinker

    @property
    def current(self) -> Turn: ...

    @property
    def pending(self) -> Proposal | None: ...

    def say_not_played(self, command: str, actor: str, why: str) -> None: ...

    def undo(self, n: int = 1) -> Turn: ...

    def restart(self) -> Turn: ...

    def save(self, name: str, folder: Path | None = None) -> Path: ...

    def restore(self, name: str, folder: Path | None = None) -> Turn: ...

    def checkpoints(self, folder: Path | None = None) -> list[dict[str, Any]]: ...

    def set_mode(self, mode: Mode | str) -> None: ...

    def accept(self) -> Turn | None: ...

    def reject(self, reason: str = "") -> None: ...


@dataclass(frozen=True)
class Answer:
    """What a verb answers.

    Attributes:
        text: A line for the person ("" when the transcript shows what happened).
        turn: The turn play is at afterwards, for a verb that moved it (undo, restore...).
    """

    text: str = ""
    turn: Turn | None = None

    @property
    def shown(self) -> str:
        """The text a front with a transcript shows: "" for a jump, which the transcript shows already."""
        return "" if self.turn is not None else self.text


def sentence(line: str) -> str:
    """A one-line answer or refusal as a sentence (capital first, a full stop at the end), for a notification."""
    line = line.strip()
    if not line:
        return line
    return line[0].upper() + line[1:] + ("" if line[-1] in ".!?)" else ".")


def jumped_text(what: str, turn: Turn) -> str:
    """The words for a jump: ``undo: back to turn 3 (West of House)``."""
    where = clean_text(turn.location.name) if turn.location else "?"
    return f"{what}: back to turn {turn.turn} ({where})"


class Commands:
    """The person's verbs over one session (``session.commands``).

    Args:
        session: The session the verbs act on.
    """

    def __init__(self, session: VerbHost) -> None:
        self._session = session
        #: How this front quits, for the line that answers the game's own QUIT.
        self.quit_how = "type /quit"
        #: An outside agent (MCP) plays in this session: co-play and autopilot need no agent of its own.
        self.outside_agent = False

    # ------------------------------------------------------ out of world
    def out_of_world(self, command: str) -> str | None:
        """The game's own out-of-world verb a command is (QUIT, SAVE...: see ``meta.py``), else None."""
        return meta_verb(command, self._session.game.zm.dictionary)

    def answer_out_of_world(self, command: str, actor: str) -> bool:
        """Answer an out-of-world command with one line (a NotPlayed event); False for a command to play."""
        action = self.out_of_world(command)
        if action is None:
            return False
        self._session.say_not_played(" ".join(command.split()), actor, instead(action, self.quit_how))
        return True

    # ------------------------------------------------------------- jumps
    def undo(self, n: int = 1) -> Answer:
        """Take back the last ``n`` turns."""
        if n < 1:
            raise CommandError("undo takes a number of 1 or more")
        return self._jump("undo", lambda: self._session.undo(n))

    def restart(self) -> Answer:
        """Start the story again."""
        return self._jump("restart", self._session.restart)

    def save(self, name: str) -> Answer:
        """Save a named checkpoint."""
        name = self._name(name, "a checkpoint needs a name, e.g. before-the-cellar")
        self._guarded(lambda: self._session.save(name))
        turn = self._session.current
        where = clean_text(turn.location.name) if turn.location else "?"
        return Answer(f"Saved checkpoint '{name}' at turn {turn.turn} ({where}).")

    def restore(self, name: str) -> Answer:
        """Go back to a named checkpoint (one of those :meth:`saves` lists)."""
        name = self._name(name, "which checkpoint? give its name (/saves lists them)")
        known = [str(c.get("name")) for c in self._guarded(self._session.checkpoints)]
        if name not in known:
            raise CommandError(f"no checkpoint '{name}'" + (f"; there are: {', '.join(known)}" if known
                                                           else " (none saved yet)"))
        return self._jump(f"restore '{name}'", lambda: self._session.restore(name))

    def saves(self) -> Answer:
        """The named checkpoints there are, damaged ones named as such."""
        return Answer(saves_text(self._guarded(self._session.checkpoints)))

    # --------------------------------------------------------- who plays
    def mode(self, name: str) -> Answer:
        """Who plays: "human", "coplay" or "autopilot"."""
        if name not in tuple(Mode):
            raise CommandError("/mode takes human, coplay or autopilot")
        if name != Mode.HUMAN and self._session.agent is None and not self.outside_agent:
            raise CommandError(NO_AGENT)
        self._session.set_mode(name)
        return Answer()

    def auto(self, steps: int | None = None) -> Answer:
        """Hand control to the agent, for at most ``steps`` commands (None: until a stop rule fires)."""
        session = self._session
        if session.agent is None and self.outside_agent:
            session.set_mode(Mode.AUTOPILOT)  # the outside agent plays; typing a command takes over
            return Answer("Autopilot: the outside agent's commands play at once (the critic may refuse them); "
                          "type a command to take over.")
        if session.agent is None:
            raise CommandError(NO_AGENT)
        if session.current.done:
            raise CommandError("the story has ended; /undo or /restart first")
        session.autopilot.start(steps)
        return Answer()

    def take_back(self) -> Answer:
        """Stop the autopilot (the mode becomes co-play); an outside agent's commands wait for the person again."""
        session = self._session
        if session.autopilot.running:
            session.autopilot.stop("you took the controls back")
            return Answer()
        if session.mode == Mode.AUTOPILOT:
            session.set_mode(Mode.COPLAY)
            return Answer("Co-play: the outside agent's commands wait for your decision.")
        raise CommandError("the autopilot is not on")

    def pause(self) -> Answer:
        """Pause the autopilot, or resume it."""
        autopilot = self._session.autopilot
        if not autopilot.running:
            raise CommandError("the autopilot is not on (/auto starts it)")
        if autopilot.paused:
            autopilot.resume()
        else:
            autopilot.pause()
        return Answer()

    def why_no_proposal(self) -> str:
        """Why there is no proposal to play now, in one line."""
        session = self._session
        if session.agent is None and not self.outside_agent:
            return "no agent in this session"
        if session.current.done:
            return "the story has ended: /undo, /restore NAME or /restart to play on"
        if session.thinker.thinking:
            return "the agent is still thinking; Enter again once its proposal shows"
        if session.mode == Mode.HUMAN:
            return "no proposals in human mode (/mode coplay turns them on)"
        return "no proposal to accept yet"

    def accept(self) -> Answer:
        """Play the pending proposal (the agent's, or an outside client's)."""
        session = self._session
        proposal = session.pending
        if proposal is None or proposal.turn != session.current.turn:
            raise CommandError(self.why_no_proposal())
        turn = self._guarded(session.accept)
        if turn is None:
            raise CommandError("the proposal went stale; the agent thinks again")
        return Answer(turn=turn)

    def step(self) -> Answer:
        """One autopilot command when it is on (pausing it), else play the pending proposal."""
        session = self._session
        if session.autopilot.running:
            if not session.autopilot.paused:
                session.autopilot.pause()
            session.autopilot.step_once()
            return Answer()
        return self.accept()

    def speed(self, seconds: str | float) -> Answer:
        """Seconds the autopilot waits between commands (0 to 60)."""
        try:
            delay = float(seconds)
        except ValueError:
            raise CommandError("/speed takes seconds, e.g. /speed 0.5") from None
        if not 0 <= delay <= MAX_DELAY:
            raise CommandError(f"/speed takes 0 to {MAX_DELAY:g} seconds")
        self._session.autopilot.delay = delay
        return Answer(f"Autopilot delay {delay:g} s")

    def reject(self, reason: str = "") -> Answer:
        """Refuse the pending proposal, saying why ("" for no reason); the agent thinks again."""
        proposal = self._session.pending
        if proposal is None:
            raise CommandError("no proposal to reject")
        self._session.reject(reason)
        return Answer(f"You refused '{proposal.command}'" + (f": {reason}" if reason else "."))

    # ---------------------------------------------------------- by slash
    def run(self, command: AppCommand) -> Answer:
        """Run a slash verb the session answers (one of :data:`SESSION_VERBS`).

        Raises:
            CommandError: Not such a verb, a bad argument, or a refusal, in one line.
            RecordError: The turn could not be recorded (play stops).
        """
        name, arg = command.name, command.arg
        verbs: dict[str, Callable[[], Answer]] = {
            "undo": lambda: self.undo(command.int_arg(1)),
            "save": lambda: self.save(arg),
            "restore": lambda: self.restore(arg),
            "saves": self.saves,
            "restart": self.restart,
            "mode": lambda: self.mode(arg),
            "auto": lambda: self.auto(command.int_arg(0, minimum=0) or None),
            "pause": self.pause,
            "step": self.step,
            "speed": lambda: self.speed(arg),
            "reject": lambda: self.reject(arg),
        }
        if name not in verbs:
            raise CommandError(f"/{name} is not one of the session's verbs")
        return verbs[name]()

    # ----------------------------------------------------------- helpers
    def _jump(self, what: str, jump: Callable[[], Turn]) -> Answer:
        turn = self._guarded(jump)
        return Answer(jumped_text(what, turn), turn)

    @staticmethod
    def _name(name: str, missing: str) -> str:
        if not name.strip():
            raise CommandError(missing)
        try:
            return check_name(name)
        except ZorkTuiError as exc:
            raise CommandError(one_line(exc)) from None

    @staticmethod
    def _guarded(call: Callable[[], Any]) -> Any:
        """Run a session call; its refusal becomes one CommandError line (a lost record still stops play)."""
        try:
            return call()
        except (RecordError, CommandError):
            raise
        except (ZorkTuiError, OSError) as exc:
            raise CommandError(one_line(exc)) from None
