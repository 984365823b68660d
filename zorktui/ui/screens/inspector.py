"""The memory inspector: questions, entities and their facts over time, the map, read-only Cypher, at any turn.

It only reads the memory (every read runs in a thread worker), so the game is
exactly as it was when the person comes back. User Cypher runs in a child
process on a snapshot of the database: a Kuzu crash on an odd query then costs
one line of error, never the game.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, RichLog, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from zorktui.agent.safety import clean_text
from zorktui.session.memory_view import CypherAnswer, EntityView, MemoryView, question_help
from zorktui.ui.widgets.mapview import MapView

if TYPE_CHECKING:  # hints only: nothing more is imported at run time
    from textual import events


#: How the entity list labels each kind of entity (short words, never cut).
KIND_LABELS = {"object": "thing", "room": "room", "direction": "way", "state": "state", "player": "you"}

class TurnSlider(Widget, can_focus=True):
    """A turn picker: ←/→ one turn, PgUp/PgDn ten, Home/End the ends, or click on the bar."""

    DEFAULT_CSS = """
    TurnSlider { height: 1; width: 1fr; }
    TurnSlider:focus { background: $primary 20%; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Earlier", show=False),
        Binding("right", "move(1)", "Later", show=False),
        Binding("pageup", "move(-10)", "10 earlier", show=False),
        Binding("pagedown", "move(10)", "10 later", show=False),
        Binding("home", "ends(0)", "First turn", show=False),
        Binding("end", "ends(1)", "Last turn", show=False),
    ]

    value: reactive[int] = reactive(0)

    class Changed(Message):
        """The turn changed."""

        def __init__(self, value: int) -> None:
            super().__init__()
            self.value = value

    def __init__(self, maximum: int, value: int, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.maximum = max(0, maximum)
        self.set_reactive(TurnSlider.value, max(0, min(value, self.maximum)))

    def _label(self) -> str:
        return f" turn {self.value:>4} / {self.maximum} "

    def render(self) -> Text:
        label = self._label()
        width = max(4, self.size.width - len(label) - 1)
        pos = round(self.value / self.maximum * (width - 1)) if self.maximum else width - 1
        bar = Text(label, style="bold")
        bar.append("━" * pos, style="bold")
        bar.append("●", style="bold reverse")
        bar.append("─" * (width - 1 - pos), style="dim")
        return bar

    def watch_value(self, value: int) -> None:
        self.post_message(self.Changed(value))

    def action_move(self, step: int) -> None:
        """Move by ``step`` turns."""
        self.value = max(0, min(self.maximum, self.value + step))

    def action_ends(self, end: int) -> None:
        """Jump to the first (0) or last (1) turn."""
        self.value = self.maximum if end else 0

    def on_click(self, event: events.Click) -> None:
        width = max(4, self.size.width - len(self._label()) - 1)
        x = event.x - len(self._label())
        if 0 <= x < width and self.maximum:
            self.value = round(x / max(1, width - 1) * self.maximum)


class InspectorData(Message):
    """What a read of the memory as of a turn found."""

    def __init__(self, as_of: int, kind: str, payload: Any) -> None:
        super().__init__()
        self.as_of = as_of
        self.kind = kind
        self.payload = payload


class InspectorScreen(Screen[None]):
    """Look into the memory without touching the game. Escape returns."""

    DEFAULT_CSS = """
    InspectorScreen { layout: vertical; }
    InspectorScreen #insp-title { height: 1; background: $primary 25%; padding: 0 1; }
    InspectorScreen TurnSlider { margin: 0 1; }
    InspectorScreen TabbedContent { height: 1fr; }
    InspectorScreen #entities-pane { height: 1fr; }
    InspectorScreen #entity-side { width: 34%; min-width: 24; }
    InspectorScreen #entity-list { height: 1fr; border: round $secondary; }
    InspectorScreen #entity-filter { height: 3; }
    InspectorScreen #entity-detail { width: 1fr; border: round $secondary; padding: 0 1; }
    InspectorScreen RichLog { height: 1fr; border: round $secondary; padding: 0 1; }
    InspectorScreen #insp-map { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "close", "Back to the game", id="inspector_close"),
        Binding("ctrl+b", "turn(-1)", "Earlier turn", id="inspector_earlier"),
        Binding("ctrl+n", "turn(1)", "Later turn", id="inspector_later"),
    ]

    def __init__(self, memory: MemoryView, turn: int) -> None:
        super().__init__()
        self.memory = memory
        self.as_of = turn
        self.last = max(turn, 0)
        self.selected: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Memory inspector: the world as the memory knew it at the chosen turn "
                          "(Escape returns to the game)", style="bold"), id="insp-title")
        yield TurnSlider(self.last, self.as_of, id="insp-turn")
        with TabbedContent(id="insp-tabs"):
            with TabPane("Ask", id="tab-ask"):
                yield Input(placeholder="where is the lamp · exits · path to ROOM · help", id="ask-input")
                yield RichLog(id="ask-log", wrap=True, markup=False, highlight=False, min_width=20)
            with TabPane("Entities", id="tab-entities"):
                with Horizontal(id="entities-pane"):
                    with Vertical(id="entity-side"):
                        yield Input(placeholder="filter", id="entity-filter")
                        yield OptionList(id="entity-list")
                    with VerticalScroll(id="entity-detail"):
                        yield Static("Pick an entity to see its facts over time.", id="entity-body")
            with TabPane("Map", id="tab-map"):
                yield MapView(id="insp-map")
            with TabPane("Cypher", id="tab-cypher"):
                yield Input(placeholder="MATCH (e:Entity) WHERE e.kind = 'room' RETURN e.name LIMIT 20", id="cypher-input")
                yield RichLog(id="cypher-log", wrap=False, markup=False, highlight=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#ask-log", RichLog).write(Text(question_help(), style="dim"))
        self.query_one("#cypher-log", RichLog).write(Text(
            "Read-only Cypher on a snapshot of the memory (a child process runs it).\n"
            "Nodes: Entity(id, kind, name, words, first_turn), Episode(turn, command, observation)\n"
            "Relations: (Entity)-[Fact {relation, detail, valid_from, valid_to, source}]->(Entity),"
            " (Episode)-[Mentions]->(Entity)", style="dim"))
        self.query_one("#ask-input", Input).focus()
        self.load()

    # --------------------------------------------------------------- turn
    def on_turn_slider_changed(self, event: TurnSlider.Changed) -> None:
        self.as_of = event.value
        self.load()

    def action_turn(self, step: int) -> None:
        """One turn earlier or later."""
        self.query_one(TurnSlider).action_move(step)

    def load(self) -> None:
        """Read the entity list, the map and the selected entity as of the chosen turn."""
        self.read_world(self.as_of)
        if self.selected:
            self.read_entity(self.selected, self.as_of)

    # ------------------------------------------------------------- reading
    @work(thread=True, exclusive=True, group="inspector-world", exit_on_error=False)
    def read_world(self, as_of: int) -> None:
        """Entities known at the turn and the map as of then."""
        entities, map_text = self.memory.entities(as_of), self.memory.map_text(as_of)
        if not get_current_worker().is_cancelled:
            self.post_message(InspectorData(as_of, "world", (entities, map_text)))

    @work(thread=True, exclusive=True, group="inspector-entity", exit_on_error=False)
    def read_entity(self, eid: str, as_of: int) -> None:
        """One entity's facts over time and the turns that mention it."""
        entity = self.memory.entity(eid, as_of)
        if not get_current_worker().is_cancelled:
            self.post_message(InspectorData(as_of, "entity", entity))

    @work(thread=True, group="inspector-ask", exit_on_error=False)
    def ask(self, question: str, as_of: int) -> None:
        """Answer a question as of the chosen turn."""
        self.post_message(InspectorData(as_of, "answer", (question, self.memory.ask(question, as_of))))

    @work(thread=True, group="inspector-cypher", exit_on_error=False)
    def cypher(self, query: str) -> None:
        """Run read-only Cypher in a child process on a snapshot of the database."""
        self.post_message(InspectorData(self.as_of, "cypher", (query, cypher_text(self.memory.cypher(query)))))

    def on_inspector_data(self, message: InspectorData) -> None:
        if message.kind == "world":
            entities, map_text = message.payload
            self._show_world(entities, map_text, message.as_of)
        elif message.kind == "entity":
            self._show_entity(message.payload, message.as_of)
        elif message.kind == "answer":
            question, text = message.payload
            log = self.query_one("#ask-log", RichLog)
            log.write(Text(f"\n? {question}  (as of turn {message.as_of})", style="bold"))
            log.write(Text(clean_text(text)))
        elif message.kind == "cypher":
            query, result = message.payload
            log = self.query_one("#cypher-log", RichLog)
            log.write(Text(f"\n{query}", style="bold"))
            log.write(result if isinstance(result, Text) else Text(clean_text(str(result))))

    def _show_world(self, entities: list[tuple[str, str, str]], map_text: str, as_of: int) -> None:
        if as_of != self.as_of:
            return
        self.entities = entities
        self._fill_list()
        self.query_one("#insp-map", MapView).show(map_text, as_of)

    def _fill_list(self) -> None:
        needle = self.query_one("#entity-filter", Input).value.strip().lower()
        options = self.query_one("#entity-list", OptionList)
        highlighted = options.highlighted_option.id if options.highlighted_option is not None else self.selected
        options.clear_options()
        shown = [(eid, kind, name) for eid, kind, name in getattr(self, "entities", []) if needle in name.lower()]
        options.add_options([Option(Text.assemble((f"{KIND_LABELS.get(kind, kind):<6}", "dim"), clean_text(name)), id=eid)
                             for eid, kind, name in shown])
        ids = [eid for eid, _, _ in shown]
        if highlighted in ids:
            options.highlighted = ids.index(highlighted)

    def _show_entity(self, entity: EntityView, as_of: int) -> None:
        out = Text()
        out.append(clean_text(entity.name), style="bold")
        out.append(f"  {entity.kind}, first seen turn {'?' if entity.first is None else entity.first}", style="dim")
        out.append(f"\nFacts up to turn {as_of} (bold: holding then)\n", style="italic")
        if not entity.facts:
            out.append("  none\n", style="dim")
        for text, holds in entity.facts:
            out.append("  " + clean_text(text) + "\n", style="bold" if holds else "dim")
        out.append("\nTurns that mention it\n", style="italic")
        if not entity.mentions:
            out.append("  none\n", style="dim")
        for turn, command, observation in entity.mentions:
            out.append(f"  turn {turn}", style="bold")
            out.append(f" > {clean_text(command or '(opening)')}: ")
            first = " ".join(clean_text(observation).split())
            out.append((first[:120] + "…") if len(first) > 120 else first, style="dim")
            out.append("\n")
        self.query_one("#entity-body", Static).update(out)

    # -------------------------------------------------------------- input
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if event.input.id == "ask-input" and text:
            event.input.value = ""
            self.ask(text, self.as_of)
        elif event.input.id == "cypher-input" and text:
            self.cypher(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "entity-filter":
            event.stop()
            self._fill_list()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.selected:
            self.selected = event.option.id
            self.read_entity(self.selected, self.as_of)

    def action_close(self) -> None:
        """Back to the game, as it was."""
        self.dismiss(None)


def cypher_text(answer: CypherAnswer) -> Text:
    """A Cypher answer as the inspector shows it: a header row, the rows, their count (or the error in red)."""
    if answer.error is not None:
        return Text(clean_text(answer.error), style="bold red")
    out = Text()
    out.append(" | ".join(clean_text(c) for c in answer.columns), style="bold")
    for row in answer.rows:
        out.append("\n")
        out.append(" | ".join(clean_text(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)) for v in row))
    out.append(f"\n({answer.total} rows)", style="dim")
    return out
