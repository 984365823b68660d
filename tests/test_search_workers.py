"""The valid-action search's worker processes (``zorktui.engine.actions.search_workers``).

``divide.z5`` (our own, ``tests/data/inform/divide.inf``) has a verb, "split",
that divides by zero in Z-machine assembly: Frotz reports the error and
divides anyway, and the process running it dies of SIGFPE. Played in this
process it would end the test run, so these tests need the workers.
"""

from collections.abc import Iterator

import pytest

from tests.paths import BUNDLED, BUNDLED_WALKTHROUGH, DIVIDE, commands
from zorktui.core.errors import GameError
from zorktui.engine.actions.batch import HALTED, play_batch
from zorktui.engine.actions.dispatch import Dispatcher
from zorktui.engine.actions.dispatch_run import run_job
from zorktui.engine.actions.search_workers import SearchWorkers, WorkerError, enabled, shared_workers, story_setup
from zorktui.engine.actions.valid_actions import ActionFinder
from zorktui.engine.game import Game

pytestmark = pytest.mark.skipif(not enabled(), reason="search workers are off (ZORKTUI_SEARCH_WORKERS=0 or not POSIX)")


def test_a_command_that_kills_the_interpreter_costs_a_worker_not_the_game(game_of) -> None:
    workers = shared_workers()
    assert workers is not None and workers.wait_ready()
    replaced = workers.replaced
    game = game_of(DIVIDE)
    assert game.valid_actions() == ("take grey pebble",)
    assert workers.replaced == replaced + 1
    game.step("take pebble")
    # "split" killed a worker once; it is not played again, in a search or by hand.
    assert game.valid_actions() == ("drop grey pebble",)
    assert workers.replaced == replaced + 1
    with pytest.raises(GameError, match="crashed this story's interpreter"):
        game.step("split")
    assert game.step("drop pebble").observation == "Dropped."


def test_a_command_that_killed_a_forks_search_is_refused_by_the_game_itself(game_of) -> None:
    game = game_of(DIVIDE)
    fork = game.fork()  # a session searches on a fork, so the game is free to play meanwhile
    try:
        assert fork.valid_actions() == ("take grey pebble",)
        with pytest.raises(GameError, match="crashed this story's interpreter"):
            game.step("split")
    finally:
        fork.close()


def _bundled_walked(game_of, search_each_step: bool) -> tuple[SearchWorkers, Game]:
    """The workers, loaded, and the bundled game six steps along its walkthrough, searched there.

    ``search_each_step``: searched in every state on the way too (so dispatch has learned to trust).
    """
    workers = shared_workers()
    assert workers is not None and workers.wait_ready()
    game = game_of(BUNDLED)
    for command in commands(BUNDLED_WALKTHROUGH)[:6]:
        game.step(command)
        if search_each_step:
            game.valid_actions()
    game.valid_actions()
    return workers, game


def test_workers_read_outcomes_as_this_process_does(game_of) -> None:
    workers, game = _bundled_walked(game_of, search_each_step=False)
    finder = game._finder
    assert finder is not None and finder._setup is not None and finder._compass is not None
    held, scope = finder._scope()
    here = finder._surroundings(held, scope, game.vm.ram())
    candidates = [c for c, _t, _o in finder._candidates(held, scope, here)]
    start = game.vm.snapshot()
    lifted = finder._compass.lifted(start)
    here_too = play_batch(game.vm, start, candidates, finder._reading, finder._compass, lifted)
    assert len(candidates) > 100
    assert workers.play(finder._setup, start, lifted, candidates) == here_too


@pytest.fixture
def searched_divide(game_of) -> Iterator[tuple[SearchWorkers, Game, ActionFinder]]:
    """The workers, loaded, and ``divide.z5`` searched once (so its finder exists)."""
    workers = shared_workers()
    assert workers is not None and workers.wait_ready()
    game = game_of(DIVIDE)
    game.valid_actions()
    assert game._finder is not None
    yield workers, game, game._finder


def test_a_batch_whose_last_command_kills_its_worker_ends(searched_divide) -> None:
    workers, game, finder = searched_divide
    # A setup of its own (another seed), so that "split" is not known to kill yet.
    setup = story_setup(str(DIVIDE), 7, finder._reading, finder._compass)
    start = game.vm.snapshot()
    outcomes = workers.play(setup, start, None, ["look", "split"], split=False)
    assert outcomes[1][0] == HALTED and outcomes[0][0] != HALTED
    assert workers.killed_by(setup) == frozenset({"split"})
    assert workers.play(setup, start, None, ["split"]) == [outcomes[1]]  # not played again


def test_a_worker_that_fails_of_its_own_leaves_the_game_searching_here(searched_divide, tmp_path) -> None:
    workers, game, finder = searched_divide
    # A setup the workers cannot load (its file is gone): their failure, not the story's.
    gone = story_setup(str(tmp_path / "gone.z5"), 1, finder._reading, finder._compass)
    with pytest.raises(WorkerError):
        workers.play(gone, game.vm.snapshot(), None, ["look", "take pebble"])
    assert workers.wait_ready()  # fresh workers, no stale replies
    game.step("take pebble")
    finder._setup = gone
    finder.forget()
    assert game.valid_actions() == ("drop grey pebble",)  # searched here once the workers failed
    assert finder.workers is False


def _without_times(results: list) -> list:
    """Dispatch results in index order, without the seconds each took (which no two runs share)."""
    return sorted(r[:4] for r in results)


def test_dispatch_on_the_workers_gives_what_it_gives_here(game_of) -> None:
    workers, game = _bundled_walked(game_of, search_each_step=True)
    finder = game._finder
    assert finder is not None and finder.dispatcher.active
    jobs = []
    farmed = finder._farm

    def keeping(job):
        jobs.append(job)
        return farmed(job)

    finder._farm = keeping
    game.step(commands(BUNDLED_WALKTHROUGH)[6])
    game.valid_actions()
    assert jobs and len(jobs[0]) > 20
    job = jobs[0]
    here = run_job(finder.dispatcher.calls, job, finder._reading)
    there = workers.dispatch(finder._setup, job)
    assert _without_times(there) == _without_times(here)
    assert sorted(i for chunk in job.chunks(6) for i in chunk.indices()) == sorted(job.indices())


def test_a_dispatched_candidate_that_kills_its_worker_is_left_to_typing(game_of) -> None:
    workers = shared_workers()
    assert workers is not None and workers.wait_ready()
    game = game_of(DIVIDE)
    pebble = next(o for o in game.zm.objects.children(game.facts.place().room) if o != game.facts.player)
    # Verbs on the pebble find the action routine (traced typed, here: none of them divides); the verbs
    # alone are dispatched. "split" is stopped at the routine's entry here, and run only by a worker.
    candidates = [(f"{verb} grey pebble", f"{verb} {{0}}", (pebble,)) for verb in ("take", "push", "smell", "examine")]
    candidates += [(verb, verb, ()) for verb in ("wait", "jump", "split", "sing", "think")]
    setup = story_setup(str(DIVIDE), game.vm.seed, game.fingerprint.reading(), None)
    dispatcher = Dispatcher(game.vm, lambda: game.prompt_at)
    start = game.vm.snapshot()
    replaced = workers.replaced
    outcomes = dispatcher.play(start, candidates, setup.reading, farm=lambda job: workers.dispatch(setup, job))
    game.vm.restore(start)
    assert dispatcher.routine is not None
    assert {4, 5, 7, 8} <= set(outcomes) and 6 not in outcomes  # the others all answered, by the new worker too
    assert workers.replaced == replaced + 1
    assert dispatcher.stats.fell_back >= 1
