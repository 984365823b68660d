"""Optional LLM extraction (AriGraph): triplets from observations, outdated ones replaced.

After a turn is ingested, :meth:`Extractor.submit` hands its observation to a
background thread that asks the model for facts as plain lines::

    subject | relation | object
    OUTDATED: subject | relation | object

Results wait in a queue; the memory applies them at its next write, on its
own thread, with provenance ``llm``. A turn never waits for the model, a
failing or hostile reply changes nothing, and engine facts are never closed
by the model (the Z-machine's own state wins).
"""

from __future__ import annotations

import queue
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from zorktui.core.errors import one_line
from zorktui.core.turn import Turn
from zorktui.memory.graph import Memory
from zorktui.memory.ingest import Ingestor
from zorktui.memory.mirror import EntityInfo
from zorktui.memory.schema import LLM, thing_id

#: Most triplets taken from one reply; longer replies are cut, not trusted.
MAX_TRIPLETS = 12
MAX_PART = 60

SYSTEM = (
    "You maintain a knowledge graph for a text adventure. From the new observation, extract facts as lines "
    "'subject | relation | object' (short noun phrases, present tense, e.g. 'gnome | wants | gold coin', "
    "'door | is | locked'). Then, for each KNOWN FACT the observation shows is no longer true, write "
    "'OUTDATED: subject | relation | object'. Write nothing else."
)

_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Triplet:
    """A fact as the model wrote it (cleaned)."""

    subject: str
    relation: str
    object: str


@dataclass
class Extraction:
    """What the model said about one turn."""

    turn: int
    generation: int
    added: list[Triplet] = field(default_factory=list)
    outdated: list[Triplet] = field(default_factory=list)
    error: str | None = None


def _clean(part: str) -> str:
    text = _CONTROL.sub(" ", part).strip().strip("*`'\"[]()").strip()
    return " ".join(text.lower().split())[:MAX_PART]


def parse_triplets(reply: str) -> tuple[list[Triplet], list[Triplet]]:
    """Facts and outdated facts from a reply; anything not shaped like a triplet is ignored.

    Tolerates bullets, numbering, markdown emphasis, code fences and prose
    around the lines; caps the number of triplets.
    """
    added: list[Triplet] = []
    outdated: list[Triplet] = []
    for raw in reply.splitlines()[: MAX_TRIPLETS * 4]:
        line = _BULLET.sub("", raw.strip().strip("`"))
        line = line.replace("**", "")
        is_old = False
        m = re.match(r"^(outdated|obsolete|removed?)\s*:\s*", line, re.I)
        if m:
            is_old, line = True, line[m.end():]
        parts = [_clean(p) for p in line.split("|")]
        if len(parts) != 3 or not all(parts):
            continue
        target = outdated if is_old else added
        triplet = Triplet(*parts)
        if triplet not in target and len(added) + len(outdated) < MAX_TRIPLETS:
            target.append(triplet)
    return added, outdated


def _entity(ingestor: Ingestor, name: str, turn: int) -> str:
    """An existing entity with this name, else a new LLM-only thing."""
    for info in ingestor.mirror.entities.values():
        if info.name.lower() == name and info.kind in ("object", "room", "thing"):
            return info.id
    if name in ("you", "player", "me", "i"):
        return "player"
    eid = thing_id(name)
    ingestor.entity(eid, "thing", name, turn)
    return eid


def apply_extraction(memory: Memory, result: Extraction) -> int:
    """Store an extraction's triplets as ``llm`` facts (call on the memory's thread).

    Returns:
        How many facts were opened or closed (0 when the turn was undone meanwhile).
    """
    if result.error or result.generation != memory.generation or result.turn > memory.last_turn:
        return 0
    ingestor = memory.ingestor
    changed = 0
    t = result.turn
    for triplet in result.outdated:
        src, dst = _entity(ingestor, triplet.subject, t), _entity(ingestor, triplet.object, t)
        for fact in ingestor.mirror.by(src, triplet.relation, dst, source=LLM):
            ingestor.close(fact, max(t, fact.valid_from + 1))
            changed += 1
    for triplet in result.added:
        src, dst = _entity(ingestor, triplet.subject, t), _entity(ingestor, triplet.object, t)
        if ingestor.mirror.find(src, triplet.relation, dst, source=LLM) is None:
            ingestor.open(src, triplet.relation, dst, t, source=LLM)
            ingestor.batch.mentions.extend({"turn": t, "id": e, "role": "llm"} for e in (src, dst) if e != "player")
            changed += 1
    return changed


def _known_facts(memory: Memory, names: set[str], limit: int = 20) -> list[str]:
    entities: dict[str, EntityInfo] = memory.mirror.entities
    lines = []
    for fact in memory.mirror.facts.values():
        a, b = entities.get(fact.src), entities.get(fact.dst)
        if a and b and (a.name.lower() in names or b.name.lower() in names or fact.source == LLM):
            lines.append(f"{a.name} | {fact.relation} | {b.name}")
    return lines[-limit:]


class Extractor:
    """Runs LLM extraction after turns, one at a time, off the caller's thread.

    Args:
        memory: The memory to feed (results are applied on its next write).
        client: An :class:`~zorktui.agent.llm.LlmClient` (None: extraction off).
    """

    def __init__(self, memory: Memory, client: object | None) -> None:
        self.memory = memory
        self.client = client
        self.results: queue.Queue[Extraction] = queue.Queue()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zorktui-extract") if client else None
        self.errors: list[str] = []
        self._lock = threading.Lock()
        memory.before_write.append(self.apply_pending)

    @property
    def enabled(self) -> bool:
        """Whether a model is configured."""
        return self._pool is not None

    def submit(self, turn: Turn) -> Future | None:
        """Queue extraction for a turn just ingested; returns at once."""
        if self._pool is None or not turn.observation.strip():
            return None
        names = {o.name.lower() for o in (*turn.visible, *turn.inventory) if o.name}
        if turn.location:
            names.add(turn.location.name.lower())
        known = _known_facts(self.memory, names)
        generation = self.memory.generation
        messages = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": "KNOWN FACTS:\n" + ("\n".join(known) or "(none)")
             + f"\n\nCOMMAND: {turn.command or '(start)'}\nOBSERVATION:\n{turn.observation[:4000]}"},
        ]
        return self._pool.submit(self._run, turn.turn, generation, messages)

    def _run(self, turn: int, generation: int, messages: list[dict[str, str]]) -> Extraction:
        result = Extraction(turn, generation)
        try:
            reply = self.client.complete(messages, max_tokens=300)  # type: ignore[union-attr]
            result.added, result.outdated = parse_triplets(reply.text)
        except Exception as exc:  # noqa: BLE001 - a failed call must never reach the game loop
            result.error = one_line(exc, 200)
            with self._lock:
                self.errors.append(result.error)
        self.results.put(result)
        return result

    def apply_pending(self) -> int:
        """Apply finished extractions (the memory calls this before each write)."""
        changed = 0
        while True:
            try:
                result = self.results.get_nowait()
            except queue.Empty:
                return changed
            changed += apply_extraction(self.memory, result)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for queued extractions to finish (tests, shutdown)."""
        if self._pool is not None:
            self._pool.submit(lambda: None).result(timeout=timeout)

    def close(self) -> None:
        """Stop the worker (queued work is dropped) and stop applying results."""
        if self.apply_pending in self.memory.before_write:
            self.memory.before_write.remove(self.apply_pending)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
