"""Co-play as a plain stream of lines (``zorktui play --plain``), for screen readers and braille displays.

Every line stands alone and says whose it is: ``Game:``, ``Agent proposes:``,
``Critic:``, ``Autopilot:``, ``Room:``, ``Map:``, ``Memory:``, ``zorktui:``
(the tool itself). Nothing is drawn, nothing is redrawn, nothing needs colour,
and the game's text is printed once; what the person types is not echoed back
(their terminal shows it). No prompt is printed, so a line the agent or the
autopilot writes while the person is typing never lands in the middle of one.

The person's verbs are the session's own (:class:`~zorktui.session.commands.Commands`):
Enter on an empty line plays the proposal, ``/reject REASON``, ``/auto N``,
``/undo`` and the rest answer as they do in the app. ``/edit`` puts the
proposal in the line editor's history (Up brings it back to change), ``/room``,
``/map`` (a list of ways) and ``/memory QUESTION`` read the session aloud.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING

from zorktui.agent.safety import clean_text
from zorktui.core.errors import RecordError, ZorkTuiError, one_line
from zorktui.session import events as ev
from zorktui.session.commands import AppCommand, CommandError, parse, sentence
from zorktui.session.commands.surface import SESSION_VERBS, jumped_text
from zorktui.session.modes import Mode
from zorktui.session.view import SessionView, ending_line, llm_line, refusal_line

if TYPE_CHECKING:  # hints only
    from zorktui.agent.llm import Usage
    from zorktui.agent.proposal import Proposal
    from zorktui.core.turn import Turn
    from zorktui.session.session import Session

#: Seconds Enter waits for a proposal the agent is still thinking about.
PROPOSAL_WAIT = 120.0

#: The verbs plain mode answers, with their help, in the order /help reads them.
PLAIN_HELP: tuple[tuple[str, str], ...] = (
    ("Enter on an empty line", "play the agent's proposal"),
    ("/reject REASON", "refuse the proposal and say why; the agent proposes again"),
    ("/edit", "put the proposal in the line editor: press Up to bring it back, change it, press Enter"),
    ("/auto N", "the agent plays up to N commands on its own (no N: until it stops); any line takes over"),
    ("/undo N", "take back the last N turns (default 1)"),
    ("/room", "where you are: the ways out, what is here, what you carry"),
    ("/map", "every room known, with its ways, as a list"),
    ("/memory QUESTION", "ask the memory, e.g. /memory where is the lamp (/memory help lists questions)"),
    ("/save NAME, /restore NAME, /saves", "named checkpoints"),
    ("/restart", "start the story again"),
    ("/mode human|coplay|autopilot", "who plays"),
    ("/pause, /step, /speed SECONDS", "the autopilot's pace"),
    ("/help", "this list"),
    ("/quit", "save and quit (end of input does too)"),
)


def _editor() -> Callable[[str], None] | None:
    """Where /edit puts a proposal: the line editor's history (None without one)."""
    try:
        import readline  # the line editor input() uses at a terminal: history, Up and Down
    except ImportError:  # pragma: no cover - every POSIX Python has it
        return None
    return readline.add_history


class PlainPlay:
    """Co-play of one session as lines on a stream.

    Args:
        session: The session played (its recorder keeps the session as the app's does).
        out: Where the lines go.
        usage: The model client's running totals, to say how its replies are asked for (None: no model).
    """

    def __init__(self, session: Session, out: IO[str] = sys.stdout, usage: Usage | None = None) -> None:
        self.session = session
        self.view = SessionView(session)
        self.out = out
        self._usage = usage
        self._lock = threading.Lock()
        self._editing: Proposal | None = None
        self._said_replies = ""
        self._where: tuple[str, int | None] | None = None
        self._add_history = _editor()

    # ------------------------------------------------------------- output
    def say(self, who: str, text: str) -> None:
        """One line, ``who: text``, flushed at once (a reader hears each line as it comes)."""
        line = " ".join(clean_text(text).split())
        if not line:
            return
        with self._lock:
            print(f"{who}: {line}", file=self.out, flush=True)

    def _game_text(self, text: str) -> None:
        """The game's words, a line each paragraph (blank lines left out: a reader says "blank")."""
        for paragraph in clean_text(text).splitlines():
            self.say("Game", paragraph)

    def _status(self, turn: Turn, force: bool = False) -> None:
        """Where play is, when the room or the score changed (or when asked)."""
        where = (turn.location.name if turn.location else "", turn.score)
        if where == self._where and not force:
            return
        self._where = where
        parts = [where[0] or "somewhere unknown"]
        if turn.score is not None:
            parts.append(f"score {turn.score}" + (f" of {self.view.max_score}" if self.view.max_score else ""))
        if turn.moves is not None:
            parts.append(f"{turn.moves} move" + ("" if turn.moves == 1 else "s"))
        self.say("Status", ", ".join(parts) + ".")

    # ------------------------------------------------------------- events
    def _show(self, event: ev.Event) -> None:
        """Session subscriber: runs on whatever thread made the event."""
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _on_TurnDone(self, event: ev.TurnDone) -> None:  # noqa: N802 - named after the event
        turn = event.turn
        if event.jump is not None:
            self.say("Game", jumped_text(event.jump, turn) + ".")
            self._status(turn, force=True)
            return
        if event.actor == "agent":
            self.say("Autopilot" if self.session.autopilot.running else "Agent plays", turn.command or "")
        elif event.actor not in ("human", "game"):
            self.say(f"{event.actor} plays", turn.command or "")
        self._game_text(turn.observation)
        self._status(turn)
        if turn.done:
            self.say("Game", ending_line(turn, self.view.max_score))
        elif turn.question:
            answers = ", ".join(self.session.valid_actions()) or "the game's own words"
            self.say("Game asks", f"answer with one of: {answers}.")

    def _on_NotPlayed(self, event: ev.NotPlayed) -> None:  # noqa: N802
        self.say("zorktui", f"{event.command}: {event.message}")

    def _on_ProposalReady(self, event: ev.ProposalReady) -> None:  # noqa: N802
        p = event.proposal
        if p.turn != self.session.current.turn or self.session.autopilot.running:
            return
        who = f"{p.client} proposes" if p.client else "Agent proposes"
        why = f" Why: {p.reflection}" if p.reflection else ""
        self.say(who, f"{p.command}.{why}")
        if p.verdict is not None:
            self.say("Critic", p.verdict.text())

    def _on_ProposalDecided(self, event: ev.ProposalDecided) -> None:  # noqa: N802
        if event.fate == "withdrawn":
            self.say("Agent", f"the outside agent withdrew '{event.proposal.command}': {event.reason}.")

    def _on_CriticVerdict(self, event: ev.CriticVerdict) -> None:  # noqa: N802
        if not event.verdict.accepted and self.session.autopilot.running:
            self.say("Critic", f"refused {refusal_line(event.verdict)}")

    def _on_ThinkingFinished(self, event: ev.ThinkingFinished) -> None:  # noqa: N802
        usage = self._usage
        if usage is not None and usage.replies and usage.replies != self._said_replies:
            self._said_replies = usage.replies  # said once, when the model's way of replying is known
            self.say("Agent", llm_line(usage))

    def _on_AutopilotState(self, event: ev.AutopilotState) -> None:  # noqa: N802
        if event.state == "running":
            self.say("Autopilot", "on: the agent plays; send any line to take over.")
        elif event.state == "paused":
            self.say("Autopilot", "paused (/pause resumes, /step plays one).")
        elif event.state == "stopped":
            self.say("Autopilot", f"stopped: {event.reason or 'stopped'}. You have the controls.")

    def _on_GameRebuilt(self, event: ev.GameRebuilt) -> None:  # noqa: N802
        self.say("zorktui", event.message)

    def _on_ErrorEvent(self, event: ev.ErrorEvent) -> None:  # noqa: N802
        self.say("zorktui", event.message)

    # --------------------------------------------------------------- play
    def run(self, lines: Iterator[str]) -> None:
        """Play until the lines end or ``/quit``; the session stays open for the caller to close.

        Raises:
            RecordError: A turn could not be recorded (a full disk): nothing after it is played.
        """
        session = self.session
        unsubscribe = session.subscribe(self._show)
        try:
            self.say("zorktui", "plain mode. Type a command and press Enter. Enter on an empty line plays "
                                "the agent's proposal; /help lists the rest.")
            self._game_text(session.current.observation)
            self._status(session.current, force=True)
            if session.agent is not None and not session.current.done:
                if session.mode == Mode.AUTOPILOT:
                    session.autopilot.start()
                elif session.mode == Mode.COPLAY:
                    session.request_proposal()
            for line in lines:
                if not self._line(line.rstrip("\r\n")):
                    break
        finally:
            session.autopilot.stop("the person left")
            unsubscribe()

    def _line(self, text: str) -> bool:
        """Act on one line the person sent; False to stop."""
        session = self.session
        if session.autopilot.running:
            session.autopilot.stop("you took over")
            if not text.strip():
                return True
        try:
            command = parse(text)
        except CommandError as exc:
            self.say("zorktui", sentence(str(exc)))
            return True
        if command is None:
            return self._play(text.strip())
        if command.name == "quit":
            return False
        try:
            self._verb(command.name, command.arg)
        except CommandError as exc:
            self.say("zorktui", sentence(str(exc)))
        except RecordError:
            raise
        except (ZorkTuiError, OSError) as exc:
            self.say("zorktui", f"/{command.name}: {one_line(exc)}")
        return True

    def _play(self, text: str) -> bool:
        session = self.session
        text = text[1:] if text.startswith("//") else text
        editing, self._editing = self._editing, None
        try:
            if not text:
                if editing is None:
                    self._await_proposal()
                    session.commands.accept()
            elif editing is not None and editing.turn == session.current.turn:
                session.edit(text)
            else:
                session.play(text, actor="human")
        except CommandError as exc:
            self.say("zorktui", sentence(str(exc)))
        except RecordError:
            raise
        except ZorkTuiError as exc:
            self.say("zorktui", one_line(exc))
        return True

    def _await_proposal(self) -> None:
        """Enter while the agent still thinks: wait for its proposal (a line at a time, as it is heard)."""
        session = self.session
        if session.agent is None or session.mode != Mode.COPLAY or session.current.done or not session.thinker.thinking:
            return
        try:
            session.request_proposal().result(timeout=PROPOSAL_WAIT)
        except Exception:  # noqa: BLE001 - a thought that failed or timed out is said by accept's refusal
            return

    def _verb(self, name: str, arg: str) -> None:
        """A slash verb: the session's own, or one that reads the session aloud."""
        if name in SESSION_VERBS:
            if name in ("reject", "step"):
                self._await_proposal()  # the proposal the person means is on its way
            answer = self.session.commands.run(AppCommand(name, arg))
            if name == "reject":
                self.say("You", answer.text.removeprefix("You "))  # "You: refused 'north': not yet."
            elif answer.shown:
                self.say("zorktui", answer.shown)
        elif name == "edit":
            self._edit()
        elif name == "room":
            self._room()
        elif name == "map":
            self._map()
        elif name == "memory":
            self._memory(arg)
        elif name == "help":
            for usage, text in PLAIN_HELP:
                self.say("Help", f"{usage}: {text}.")
        else:
            raise CommandError(f"/{name} is for the app's screen; /help lists what plain mode does")

    def _edit(self) -> None:
        self._await_proposal()
        p = self.session.pending
        if p is None or p.turn != self.session.current.turn:
            raise CommandError(self.session.commands.why_no_proposal())
        self._editing = p
        if self._add_history is not None:
            self._add_history(p.command)
            self.say("zorktui", f"press Up to bring back '{p.command}', change it, and press Enter.")
        else:
            self.say("zorktui", f"type your version of '{p.command}' and press Enter.")

    def _room(self) -> None:
        info = self.view.room(arrow="to")
        self.say("Room", (info.room or "somewhere unknown") + (" (dark)" if info.dark else "") + ".")
        if info.exits:
            self.say("Exits", "; ".join(f"{d} {what}" + (" (one way)" if one_way else "")
                                        for d, what, one_way in info.exits) + ".")
        if info.unexplored:
            self.say("Not yet taken", ", ".join(info.unexplored) + ".")
        if info.blocked:
            self.say("Went nowhere", ", ".join(info.blocked) + ".")
        self.say("Here", (", ".join(info.objects) or "nothing you can take") + ".")
        self.say("Carrying", (", ".join(info.inventory) or "nothing") + ".")
        if info.question is not None:
            self.say("Game asks", "answer with one of: " + (", ".join(info.question) or "the game's own words") + ".")

    def _map(self) -> None:
        memory = self.view.memory_view()
        if memory is None:
            raise CommandError("this session keeps no memory, so no map")
        for line in memory.ways():
            self.say("Map", line)

    def _memory(self, question: str) -> None:
        memory = self.view.memory_view()
        if memory is None:
            raise CommandError("this session keeps no memory")
        if not question.strip():
            raise CommandError("ask a question, e.g. /memory where is the lamp (/memory help lists them)")
        for line in memory.ask(question).splitlines():
            self.say("Memory", line)


def stdin_lines() -> Iterator[str]:
    """The person's lines: through the line editor at a terminal (history, Up, Down), else as read."""
    if sys.stdin.isatty():
        _editor()  # loaded before the first input(), which then edits with it
        while True:
            try:
                yield input()
            except EOFError:
                return
    else:
        yield from sys.stdin
