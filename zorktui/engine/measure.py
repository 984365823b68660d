"""What a story is measured for once, when it opens: the player, the status globals, the noise, the questions.

Everything found here goes into a :class:`~zorktui.engine.story_model.StoryModel`
that the game and every fork of it share.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zorktui.engine.asking import Asking
from zorktui.engine.calibrate import probes
from zorktui.engine.calibrate.noise import noise_globals
from zorktui.engine.story_model import StoryModel
from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.opening import own_prompt, to_first_prompt
from zorktui.engine.vm.story import StoryInfo
from zorktui.engine.world.darkness import DarknessByLook
from zorktui.engine.world.facts import FactReader
from zorktui.engine.world.fingerprint import Fingerprinter
from zorktui.engine.world.holders import library_attributes
from zorktui.engine.zmachine.zmachine import ZMachine


@dataclass
class Measured:
    """A story measured at its first prompt, with the interpreter and readers that measured it.

    Attributes:
        model: What was learned (shared with forks).
        vm: The interpreter, at the first prompt.
        zm: The memory image the readers read.
        facts: Reads score, moves, room and inventory.
        darkness: Tells a dark room where the story's library does not say.
        opening: The raw text up to the first prompt.
    """

    model: StoryModel
    vm: Interpreter
    zm: ZMachine
    facts: FactReader
    darkness: DarknessByLook
    opening: str


def measure(info: StoryInfo, seed: int | None) -> Measured:
    """Open a story, bring it to its first prompt and measure it.

    Args:
        info: The story file.
        seed: Seed for the game's random numbers (None: 1, for every story).
    """
    zm = ZMachine(Path(info.zcode_path).read_bytes())
    own_seed = seed if seed is not None else 1
    vm = Interpreter(info.zcode_path, own_seed)
    raw = vm.reset()
    fresh = vm.ram().copy()  # the world before any answer to an opening question: a restart comes back here
    raw = to_first_prompt(vm, raw)
    start = vm.snapshot()
    prompt = own_prompt(vm, raw)
    player, room_global = probes.find_player(vm, zm)
    facts = FactReader(zm, player, room_global)
    if not facts.status_globals:
        found = probes.find_status_globals(vm, zm, room_global)
        if found is not None:
            facts.status_globals = True
            facts.score_global, facts.moves_global = found
    noise = noise_globals(vm, zm, facts)
    fingerprint = Fingerprinter(zm, noise.globals, noise.attributes, noise.properties, noise.object_attributes)
    max_score = probes.probe_max_score(vm, zm)
    darkness = DarknessByLook(vm, zm, facts, fingerprint.noise_properties)
    zm.refresh(vm.ram())
    # Where the story waits for commands, and the worlds a restart comes back to.
    asking = Asking(vm.position(), {fingerprint(fresh), fingerprint(start.ram())}, fingerprint)
    model = StoryModel(info, own_seed, start, prompt, player, fingerprint, max_score, library_attributes(zm, player),
                       asking)
    return Measured(model, vm, zm, facts, darkness, raw)
