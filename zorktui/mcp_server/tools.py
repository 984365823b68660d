"""What each MCP tool does, over one session: plain Python, one call at a time.

Every tool takes the same lock, so two clients (or one client's overlapping
calls) never interleave on the game, the recorder or the memory. A refusal
raises :class:`ToolRefused` with one line for the calling model to read; the
session, the game and the trajectory are left as they were.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zorktui.agent.safety import clean_text, reserved_reason, safe_command
from zorktui.core.errors import ZorkTuiError, one_line
from zorktui.core.turn import Turn
from zorktui.session.commands import Answer, CommandError
from zorktui.session.headless import status_line
from zorktui.session.session import Session

if TYPE_CHECKING:  # hints only
    from zorktui.agent.proposal import Verdict

#: The trajectory's ``actor`` for a command an outside agent played over MCP.
ACTOR = "mcp"

#: What an outside agent uses instead of the game's own out-of-world verbs.
INSTEAD: dict[str, str] = {
    "quit": "not played: the game's QUIT is not for tools; close the MCP connection to stop (every turn is already saved)",
    "restart": "not played: the game's RESTART is not for tools; use restore_checkpoint(name) or undo(n) to go back",
    "save": "not played: the game's SAVE is not for tools; use save_checkpoint(name)",
    "restore": "not played: the game's RESTORE is not for tools; use restore_checkpoint(name)",
    "script": "not played: every turn is already recorded in the session folder's trajectory.jsonl",
}


class ToolRefused(Exception):
    """A tool call refused, with one line saying why and what to do instead."""


class GameTools:
    """The MCP tools over one session.

    Args:
        session: The session played (its recorder writes the trajectory).
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.lock = threading.Lock()

    # -------------------------------------------------------------- play
    def play_action(self, command: str, client: str | None = None) -> str:
        """Play one game command; the reply, the status line and the critic's objection if it has one.

        Args:
            command: One game command ("open mailbox").
            client: The MCP client's name, for the trajectory.

        Raises:
            ToolRefused: The game has ended, or the command is not one for the game.
        """
        with self.lock:
            command = self._checked(command)
            session = self.session
            verdict = session.judge(command)
            extra: dict[str, Any] = {}
            if client:
                extra["client"] = client[:80]
            if verdict is not None:
                extra["critic"] = verdict.to_record()
            try:
                turn = session.play(command, actor=ACTOR, extra=extra)
            except ZorkTuiError as exc:
                raise ToolRefused(one_line(exc)) from None
            return self.reply(turn, verdict)

    def _checked(self, command: str) -> str:
        """The command made safe, or :class:`ToolRefused` when it is not one for the game (or the game has ended)."""
        if "\n" in command.strip() or "\r" in command.strip():
            raise ToolRefused("not played: a command is one line (one command at a time)")
        command = safe_command(command)
        session = self.session
        if session.current.done:
            raise ToolRefused("the game has ended: undo(1) or restore_checkpoint(name) to play on")
        action = session.commands.out_of_world(command)
        if action is not None:
            raise ToolRefused(INSTEAD[action])
        why = reserved_reason(command)
        if why is not None:
            if command.lower().split()[0] in ("undo", "oops"):
                why = "not played: use the undo(n) tool to go back"
            elif "one command at a time" in why:
                why = "not played: one command at a time (no 'then', ';' or '.' between commands)"
            raise ToolRefused(why if why.startswith("not played") else f"not played: {why}")
        return command

    def reply(self, turn: Turn, verdict: Verdict | None) -> str:
        """What ``play_action`` answers for a turn played: the reply, the status line, the critic's objection."""
        lines = [clean_text(turn.observation).strip(), status_line(turn, self.session.game.max_score)]
        if turn.done:
            lines.append("The game has ended" + (" (won)." if turn.victory else " (died)." if turn.dead else "."))
        elif turn.question:
            answers = ", ".join(self.session.valid_actions()) or "the game's own words"
            lines.append(f"The game asks a question: answer it with play_action, one of: {answers}.")
        if verdict is not None and not verdict.accepted:
            lines.append(f"Critic: {verdict.text()}")
        return "\n".join(lines)

    # -------------------------------------------------------------- read
    def room_state(self) -> str:
        """The room-state block the app's own agent reads."""
        from zorktui.agent.prompt import room_state_block

        with self.lock:
            return room_state_block(self.session.situation())

    def valid_actions(self) -> str:
        """The current state's valid actions, one per line."""
        with self.lock:
            if self.session.current.done:
                return "None: the game has ended."
            actions = self.session.valid_actions()
        return "\n".join(actions) if actions else "None found."

    def map(self, as_of: int | None = None) -> str:
        """The map the memory has drawn (as of an earlier turn when asked)."""
        from zorktui.session.files.inspect import map_text

        with self.lock:
            return map_text(self._memory(), self._as_of(as_of))

    def memory_query(self, question: str, as_of: int | None = None) -> str:
        """A question ``zorktui memory`` answers ("where is the lamp"), as of now or an earlier turn."""
        from zorktui.memory.questions import ask

        if not question.strip():
            raise ToolRefused('ask a question, e.g. "where am i" ("help" lists them)')
        with self.lock:
            answer = ask(self._memory(), question, self._as_of(as_of))
        if not answer.understood:
            raise ToolRefused(one_line(ToolRefused(answer.text)) + ' ("help" lists the questions)')
        return f"{answer.text}\n(as of turn {answer.as_of})"

    # ------------------------------------------------------------- jumps
    def undo(self, n: int = 1) -> str:
        """Go back ``n`` turns."""
        with self.lock:
            return self._jumped(lambda: self.session.commands.undo(n))

    def save_checkpoint(self, name: str) -> str:
        """Save the current state under a name."""
        with self.lock:
            return self._refused_as_tool(lambda: self.session.commands.save(name)).text

    def restore_checkpoint(self, name: str) -> str:
        """Return to a named checkpoint."""
        with self.lock:
            return self._jumped(lambda: self.session.commands.restore(name))

    # ----------------------------------------------------------- helpers
    def _jumped(self, verb: Callable[[], Answer]) -> str:
        answer = self._refused_as_tool(verb)
        assert answer.turn is not None
        return f"{answer.text}\n{status_line(answer.turn, self.session.game.max_score)}"

    @staticmethod
    def _refused_as_tool(verb: Callable[[], Answer]) -> Answer:
        try:
            return verb()
        except (CommandError, ZorkTuiError, OSError) as exc:
            raise ToolRefused(one_line(exc)) from None

    def _memory(self) -> Any:
        if self.session.memory is None:
            raise ToolRefused("this session keeps no memory")
        return self.session.memory

    def _as_of(self, as_of: int | None) -> int | None:
        last = self.session.current.turn
        if as_of is not None and not 0 <= as_of <= last:
            raise ToolRefused(f"as_of {as_of}: ask as of turn 0 to {last}")
        return as_of
