"""Which family of tools made a story, where that changes how its commands are written.

Read from the story's own dictionary, never from its title or text.
"""

from __future__ import annotations

from zorktui.engine.zmachine.zmachine import ZMachine

#: Verbs TextWorld's generator adds to every game it writes: its interface's "restrict
#: commands" and the "goal" that repeats the quest.
TEXTWORLD_VERBS = ("restrict", "goal")


def made_by_textworld(zm: ZMachine) -> bool:
    """Whether TextWorld generated the story (its interface verbs are in the dictionary).

    TextWorld's tooling, its admissible commands and the agents trained on
    them write a move as "go east", where Infocom's and Inform's players
    write "east": the valid actions of such a story are named its way.
    """
    words = [zm.dictionary.lookup(verb) for verb in TEXTWORLD_VERBS]
    return all(word is not None and word.verb for word in words)
