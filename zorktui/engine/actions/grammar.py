"""Command templates learned from the game's own dictionary and parser.

The dictionary marks verbs, but which verbs take an object, which take two
and with which preposition is in grammar tables whose layout differs between
compilers. Instead of decoding each layout, zorktui asks the parser once per
verb, from a snapshot: a bare verb that needs an object makes any Inform or
Infocom-style parser ask "What do you want to take?", and a verb that needs a
second object asks "What do you want to put the lamp in?". The answers are
the templates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from zorktui.engine.vm.interpreter import Interpreter
from zorktui.engine.vm.text import split_reply
from zorktui.engine.zmachine.inform_grammar import read_grammar
from zorktui.engine.zmachine.verbs import about_settings, verb_groups
from zorktui.engine.zmachine.zmachine import ZMachine

#: Particles tried after a verb ("turn on", "pick up") when the dictionary has them.
PARTICLES = ("on", "off", "up", "down", "in", "out", "over", "under", "with", "at", "to")
_ASKS = re.compile(r"\b(what|whom|who|which)\b[^\n?]*\bdo you want\b[^\n?]*\?\s*$", re.I)
_ASK_TAIL = re.compile(r"\b(\w+)\s*\?\s*$")


@dataclass
class Templates:
    """The command shapes a game's parser accepts.

    Attributes:
        intransitive: Verbs that act alone ("wait", "jump").
        single: Templates with one object slot, as format strings ("open {0}").
        double: Templates with two slots ("put {0} in {1}").
        double_learned: Whether two-object templates have been asked about
            (that needs an object in the player's hands).
        held: For templates read from grammar tables: which slots take only
            objects the player holds.
        tokens: For templates read from grammar tables: what the parser
            asks of each slot's thing before any action, per line written
            alike (see :class:`zorktui.engine.zmachine.inform_grammar.GrammarLine`).
    """

    intransitive: list[str] = field(default_factory=list)
    single: list[str] = field(default_factory=list)
    double: list[str] = field(default_factory=list)
    double_learned: bool = False
    held: dict[str, tuple[bool, ...]] = field(default_factory=dict)
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.intransitive) + len(self.single) + len(self.double)


def _asks(reply: str) -> str | None:
    """If the parser asked for an object, the last word of its question."""
    text = split_reply(reply).narrative.strip()
    if text.startswith("("):
        return ""  # the parser guessed the object itself: the verb needs one
    if _ASKS.search(text):
        m = _ASK_TAIL.search(text)
        return m.group(1).lower() if m else ""
    return None


#: Words that join a verb's two objects ("unlock door with key").
LINKS = ("with", "in", "into", "on", "onto", "to", "from", "at", "under", "through")
#: Links that mean the same to a parser: one template per class is enough.
LINK_CLASS = {"into": "in", "inside": "in", "onto": "on", "upon": "on"}


def learn_templates(vm: Interpreter, zm: ZMachine, held_object: str | None) -> Templates:
    """Ask the parser how each verb is used.

    Args:
        vm: The interpreter at a prompt (restored after each probe).
        zm: The memory reader.
        held_object: A word naming an object the player holds, used to find
            the verbs that take a second object; None when nothing is held
            (call :func:`learn_double_templates` later).

    Returns:
        The templates found.
    """
    start = vm.snapshot()
    dictionary = zm.dictionary
    particles = [p for p in PARTICLES if p in dictionary]
    templates = Templates()

    def probe(command: str) -> str | None:
        vm.restore(start)
        return _asks(vm.step(command))

    for verb in verb_groups(zm):
        if probe(verb) is None:
            templates.intransitive.append(verb)
        else:
            templates.single.append(f"{verb} {{0}}")
        for particle in particles:
            if about_settings(f"{verb} {particle}"):
                continue
            if probe(f"{verb} {particle}") == particle:
                templates.single.append(f"{verb} {particle} {{0}}")
    vm.restore(start)
    zm.refresh(vm.ram())
    if not templates.single:
        # A parser that never asks for a missing object (a story's own, answering a bare "take" as it
        # answers nonsense): any verb may take one, and the search finds out which do.
        templates.single = [f"{verb} {{0}}" for verb in templates.intransitive]
    if held_object:
        learn_double_templates(vm, zm, templates, held_object)
    return templates


def learn_double_templates(vm: Interpreter, zm: ZMachine, templates: Templates, held_object: str) -> None:
    """Find which one-object verbs also take a second object, and with which words.

    "put lamp" makes the parser ask "What do you want to put the lamp in?";
    "light lamp with" asks "What do you want to light the lamp with?".

    Args:
        vm: The interpreter at a prompt (restored after each probe).
        zm: The memory reader.
        templates: Templates to extend in place.
        held_object: A word naming an object the player holds.
    """
    start = vm.snapshot()
    dictionary = zm.dictionary
    links = [w for w in LINKS if w in dictionary]
    found: list[str] = []
    verbs = [t.split()[0] for t in templates.single if len(t.split()) == 2]
    for verb in verbs:
        vm.restore(start)
        asked = _asks(vm.step(f"{verb} {held_object}"))
        if asked and asked in dictionary and asked != verb:
            found.append(f"{verb} {{0}} {asked} {{1}}")
        for link in links:
            vm.restore(start)
            if _asks(vm.step(f"{verb} {held_object} {link}")) == link:
                found.append(f"{verb} {{0}} {link} {{1}}")
    seen: set[tuple[str, str]] = set()
    for template in found:
        verb, _obj, link, _second = template.split()
        kind = (verb, LINK_CLASS.get(link, link))
        if kind not in seen and template not in templates.double:
            seen.add(kind)
            templates.double.append(template)
    templates.double_learned = True
    vm.restore(start)
    zm.refresh(vm.ram())


def templates_from_grammar(zm: ZMachine) -> Templates | None:
    """Templates read from the story's own grammar tables (Inform), or None to fall back on asking."""
    lines = read_grammar(zm)
    if not lines:
        return None
    templates = Templates(double_learned=True)
    for line in lines:
        if about_settings(line.words):
            continue
        slots = len(line.held)
        bucket = templates.intransitive if slots == 0 else templates.single if slots == 1 else templates.double
        if line.words not in bucket:
            bucket.append(line.words)
            templates.held[line.words] = line.held
            templates.tokens[line.words] = line.tokens
    return templates
