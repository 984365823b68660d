"""One factory that builds a :class:`Session` from options: the CLI, the app and the tests all use it."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zorktui.core.errors import ZorkTuiError
from zorktui.core.scratch import scratch_folder
from zorktui.engine.game_api import GameApi
from zorktui.engine.launch import open_game
from zorktui.session.baseline import BaselineRules
from zorktui.session.recording import valid_actions_fields
from zorktui.session.session import MODES, Session, StopRules

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from zorktui.agent.llm import LlmClient
    from zorktui.agent.proposal import Policy
    from zorktui.memory.ingest import Vocabulary


AGENTS = ("llm", "explore", "mcts")
#: Modes recorded in the session header but played as "human" (commands come from outside the session).
RECORDED_ONLY = ("script", "mcp")


@dataclass
class SessionOptions:
    """Everything that decides how a session is built.

    Attributes:
        story: Story file (None: the bundled game).
        mode: "human", "coplay" or "autopilot" ("script" for command files, "mcp" for an outside agent
            over MCP: recorded as such, played as human).
        agent: "llm", "explore", "mcts" or None (no agent).
        model, base_url: LLM settings (else from the environment).
        timeout, max_retries: LLM request limits (None: config file or defaults).
        calls_per_turn: The budget of model calls a turn (None: config file or 1.2; 0: none).
        session: Session folder (None: nothing recorded, a temporary memory for an agent).
        seed: The game's random seed.
        memory: Keep the AriGraph memory.
        llm_extract: LLM triplet extraction into the memory.
        critic: Judge proposals before they are shown or played.
        critic_llm: Add the model's opinion as the critic's third stage.
        llm_subagents: Let the model write the narrative and room hints (offline forms otherwise).
        knowledge: Keep and use the per-story lessons in the user data dir.
        stop: Autopilot stop rules.
        valid_actions: Record each state's valid actions in the trajectory.
        participant: Pseudonym for human-baseline data.
        baseline: A human-baseline study's rules (no agent, undo as the study says, the
            participant from the rules).
        sims: The planner's simulations per move (None: by time).
        time_per_move: The planner's CPU seconds per move (None: its default).
    """

    story: Path | str | None = None
    mode: str = "human"
    agent: str | None = None
    model: str | None = None
    base_url: str | None = None
    timeout: float | None = None
    max_retries: int | None = None
    calls_per_turn: float | None = None
    session: Path | None = None
    seed: int | None = None
    memory: bool = True
    llm_extract: bool = False
    critic: bool = True
    critic_llm: bool = False
    llm_subagents: bool = True
    knowledge: bool = True
    #: Take a model from the environment or config.toml when none is named (benchmarks: only one named).
    model_from_env: bool = True
    #: Said among the warnings when an agent plays without lessons because the person asked so.
    knowledge_note: str = ""
    stop: StopRules = field(default_factory=StopRules)
    valid_actions: bool = False
    participant: str | None = None
    baseline: BaselineRules | None = None
    sims: int | None = None
    time_per_move: float | None = None


@dataclass
class Built:
    """A session and what the person should be told about how it was built.

    Attributes:
        session: The session.
        warnings: One-line notices (e.g. why the LLM is not in use).
        llm: The LLM client, if one was made.
        baseline: The study's rules, for a human-baseline session.
        consent: The participant's recorded answer (True agreed, False declined, None not asked yet).
    """

    session: Session
    warnings: list[str]
    llm: LlmClient | None = None
    baseline: BaselineRules | None = None
    consent: bool | None = None


class _ScratchMemory:
    """A memory in a temporary folder, for an agent playing without a session folder."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        # deferred: the memory (16 ms, kuzu behind it) loads only for an agent without a session folder
        from zorktui.memory.graph import Memory

        self.folder = str(scratch_folder("memory"))
        self.memory = Memory(self.folder, vocabulary=vocabulary)

    def close(self) -> None:
        self.memory.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def check_story(path: str | Path) -> None:
    """Check that a file is a story zorktui can play (before a front promises to play it).

    Raises:
        StoryError: Not a Z-machine story of a version zorktui plays, or unreadable.
    """
    from zorktui.engine.vm.story import open_story  # deferred: the engine loads when a story is opened

    open_story(path)


def build_session(options: SessionOptions) -> Built:
    """Open the story, the recorder, the memory, the model and the agent as the options say.

    A session folder that already holds a trajectory is resumed: its story is
    replayed with the recorded seed to the last recorded turn, and play goes on
    from there (turn numbers continue; the memory catches up).

    Raises:
        StoryError: The story cannot be played.
        SessionError: The session folder cannot be used or does not replay.
        ValueError: An unknown mode or agent.
        LlmUnavailable: ``--agent llm`` with no model configured.
    """
    if options.mode not in MODES + RECORDED_ONLY:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if options.baseline is not None:
        if options.agent is not None or options.mode != "human":
            raise ValueError("a baseline session is played by the person alone (no --agent, mode human)")
        options = replace(options, participant=options.baseline.participant, knowledge=False)
    if options.agent is not None and options.agent not in AGENTS:
        raise ValueError(f"agent must be one of {', '.join(AGENTS)}")
    # deferred: loaded already by the engine; kept beside its one use
    from zorktui.locations import bundled_story

    warnings: list[str] = []
    llm, why = None, ""
    if options.agent in ("llm", "mcts") or options.llm_extract:
        llm, why = _llm(options)
        if llm is None and options.agent == "llm":
            # The explorer playing under the model's name would be a stand-in: refuse, in one line.
            from zorktui.agent.llm import LlmUnavailable  # deferred: loaded already by _llm

            raise LlmUnavailable(f"--agent llm: {why}")
        warning = _llm_warning(options, why)
        if warning:
            warnings.append(warning)
    # deferred: the resume path loads only for a session folder (keeps the app's cold start fast)
    from zorktui.session.files.resume import has_session, resume_game

    folder = options.session
    resumed = resume_game(folder, options.story) if folder is not None and has_session(folder) else None
    game = resumed.game if resumed is not None else open_game(options.story or bundled_story(), seed=options.seed)
    agent: Policy | None = None
    try:
        agent_info = _agent_record(options, llm)
        recorder = None
        if options.session is not None:
            # deferred: the recorder loads only for a session folder (keeps the app's cold start fast)
            from zorktui.session.files.recorder import SessionRecorder

            recorder = SessionRecorder(options.session, game, mode=options.mode, agent=agent_info,
                                       memory=options.memory, participant=options.participant,
                                       llm=llm if options.llm_extract else None,
                                       resume=resumed.header if resumed is not None else None)
            if resumed is None:
                extra = valid_actions_fields(game) if options.valid_actions else None
                # The memory reads the opening's ways out from the same Turn the record is made of.
                opening = replace(game.opening, valid_actions=tuple(extra["valid_actions"])) if extra else game.opening
                recorder.opening(opening, extra=extra)
            else:
                warnings.append(f"resumed {options.session} at turn {game.current.turn}")
        scratch = None
        memory = recorder.memory if recorder is not None else None
        if memory is None and options.agent is not None and options.memory and options.session is None:
            scratch = _ScratchMemory(game.zm.object_vocabulary)
            memory = scratch.memory
            memory.ingest(game.opening, actor="game")
        knowledge, subagents = None, None
        if options.agent is not None:
            # deferred: an agent's modules load only when the session has one (keeps the app's cold start fast)
            from zorktui.agent.explorer import Explorer
            from zorktui.agent.reflact import ReflActAgent
            from zorktui.agent.subagents import SubAgents

            if options.agent == "mcts":
                agent = _planner(game, options, llm)
            else:
                agent = ReflActAgent(llm) if options.agent == "llm" and llm is not None else Explorer()
            subagents = SubAgents(llm if options.llm_subagents else None)
            if options.knowledge:
                # deferred: only with an agent's knowledge on (both loaded already with the session; no cost either way)
                from zorktui.agent.knowledge import KnowledgeBase
                from zorktui.locations import data_dir

                knowledge = KnowledgeBase(data_dir() / "knowledge", game.story.md5)
                if knowledge.warning:
                    warnings.append(knowledge.warning)
            elif options.knowledge_note:
                warnings.append(options.knowledge_note)
        judge = None
        if options.critic and options.critic_llm and llm is not None:
            # deferred: the LLM judge loads only when the critic asks a model
            from zorktui.agent.llm_judge import LlmJudge

            judge = LlmJudge(llm)
        session = Session(game, mode="human" if options.mode in RECORDED_ONLY else options.mode, agent=agent,
                          recorder=recorder, memory=memory, knowledge=knowledge,
                          critic=options.critic, stop=options.stop, subagents=subagents,
                          usage=llm.usage if llm is not None else None, record_valid_actions=options.valid_actions,
                          close_memory=scratch, llm_judge=judge, log=resumed.log if resumed is not None else None,
                          allow_undo=options.baseline.allow_undo if options.baseline is not None else True,
                          agent_info=agent_info)
    except BaseException:
        if agent is not None and hasattr(agent, "close"):
            agent.close()  # the planner's fork
        game.close()
        raise
    consent = None
    if options.baseline is not None and recorder is not None and resumed is not None:
        # deferred: only a resumed baseline study asks (the module is loaded already for BaselineRules)
        from zorktui.session.baseline import consent_given

        consent = consent_given(recorder.folder.records())
    return Built(session, warnings, llm, options.baseline, consent)


def _llm_warning(options: SessionOptions, why: str) -> str:
    """What to tell the person when the model cannot be used ("" when there is nothing to say)."""
    if not why:
        return ""
    if options.agent == "mcts":
        # Heuristic priors are the planner's intended offline mode: only worth a word when a model was asked for.
        return f"LLM unavailable: {why}; the planner uses heuristic priors" if options.model or options.base_url else ""
    return f"LLM unavailable: {why}; memory extraction is off"


def _planner(game: GameApi, options: SessionOptions, llm: LlmClient | None) -> Policy:
    """The MCTS planner with the options' budget and seed."""
    # deferred: the planner (about 14 ms) loads only for the mcts agent
    from zorktui.agent.mcts.planner import MctsPlanner, PlannerSettings
    from zorktui.engine.game import Game

    settings = PlannerSettings(seed=options.seed or 0, sims=options.sims)
    if options.time_per_move is not None:
        settings.time_per_move = options.time_per_move
    if isinstance(game, Game):  # a game in this process: the search plays on a fork of it, here too
        return MctsPlanner(game, settings, llm)
    from zorktui.agent.mcts.planner_process import PlannerProcess  # deferred: with the worker only

    return PlannerProcess(game, settings, llm)


def _llm(options: SessionOptions) -> tuple[LlmClient | None, str]:
    """The LLM client, or None and why not (one line)."""
    if not options.model_from_env and options.model is None and options.base_url is None:
        return None, "no model named"
    # deferred: the LLM client's module loads only when a model is asked for
    from zorktui.agent.llm import LlmClient, LlmConfig

    try:
        limits = {k: v for k, v in (("timeout", options.timeout), ("max_retries", options.max_retries),
                                    ("calls_per_turn", options.calls_per_turn)) if v is not None}
        config = LlmConfig.from_env(options.model, options.base_url, **limits)
        return LlmClient(config), ""
    except ZorkTuiError as exc:
        return None, str(exc)


def _agent_record(options: SessionOptions, llm: LlmClient | None) -> dict[str, Any] | None:
    """The agent settings for session.json and the trajectory header (never the key)."""
    if options.agent is None:
        return None
    info: dict[str, Any] = {"name": options.agent, "critic": options.critic}
    if options.agent == "mcts":
        info["planner"] = {"sims": options.sims, "time_per_move": options.time_per_move, "seed": options.seed or 0}
    if llm is not None:
        info["llm"] = llm.config.public()
    return info

