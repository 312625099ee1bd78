"""The start screen: the saved encounters, newest first, to resume, create,
restore from a save point or delete (:data:`tracker.keys.dialogs.PICKER_KEYS`);
it posts :class:`PickerScreen.Open` and the app opens the encounter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label

from rules.rulesets import DEFAULT_RULESET, RULESETS
from saves.listing import round_said
from tracker.bindings import PICKER_KEYS, bindings
from tracker.screens.dialog import keys_row
from tracker.screens.prompt import ChoiceScreen, ConfirmScreen, PromptScreen
from tracker.screens.quitting import QuietWhenQuitting, quitting
from tracker.widgets.encounter_list import Listed, Plan, plan, row_cells, when

if TYPE_CHECKING:
    from saves.store import Store


def _get(summary: object, key: str, default: object = None) -> object:
    if isinstance(summary, dict):
        return summary.get(key, default)
    return getattr(summary, key, default)


def _round(summary: object) -> tuple[bool, int, int]:
    """Whether the listed fight is in combat, its round (0: none) and how
    many combats it has begun (0: not said)."""
    rounds, combat = _get(summary, "round", 0), _get(summary, "combat", 0)
    return (
        bool(_get(summary, "started", False)),
        rounds if isinstance(rounds, int) else 0,
        combat if isinstance(combat, int) else 0,
    )


def listed(summary: object) -> Listed:
    """What the picker shows of *summary* (a ``Summary``, or a dict)."""
    combatants, points = _get(summary, "combatants", 0), _get(summary, "save_points", 0)
    active = _get(summary, "active")
    started, rounds, combat = _round(summary)
    return Listed(
        str(_get(summary, "name")),
        started,
        rounds,
        active if isinstance(active, str) else None,
        combatants if isinstance(combatants, int) else 0,
        points if isinstance(points, int) else 0,
        _get(summary, "updated") or "",  # type: ignore[arg-type]
        combat,
    )


class PickerScreen(QuietWhenQuitting, Screen[None]):
    """Saved encounters; posts Open(name, new) — the app does the opening."""

    BINDINGS = bindings(PICKER_KEYS)

    @dataclass
    class Open(Message):
        name: str
        new: bool
        ruleset: str | None = None

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        #: each row's summary by name, as listed: what the delete question says
        self._listed: dict[str, object] = {}
        #: the columns drawn, for the table's width (None: none yet)
        self._plan: Plan | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Label("Saved encounters — newest first", classes="dialog-title", markup=False)
            yield DataTable(id="encounters", cursor_type="row")
            yield keys_row(
                "j/k: move · Enter: resume · n: new · r: restore a save point · del: delete · q: quit"
            )
        yield Footer()

    def on_mount(self) -> None:
        if quitting(self):
            return
        self.reload()
        self.query_one(DataTable).focus()
        self.call_after_refresh(self._draw)  # the table's width is known now

    def on_resize(self) -> None:
        self._draw()

    def reload(self) -> None:
        self._listed = {str(_get(s, "name")): s for s in self.store.list()}
        self._draw(again=True)

    def _draw(self, again: bool = False) -> None:
        """The rows in the columns the table's width holds
        (:mod:`tracker.widgets.encounter_list`); the same encounter stays
        highlighted.  *again*: the rows changed, not only the width."""
        table = self.query_one(DataTable)
        rows = [listed(summary) for summary in self._listed.values()]
        width = table.size.width or self.size.width - 6  # not laid out yet: the screen's
        if len(rows) + 1 > table.size.height > 0:
            width -= table.styles.scrollbar_size_vertical
        shown = plan(width, rows)
        if shown == self._plan and not again:
            return
        keep = self._highlighted()
        table.clear(columns=shown != self._plan)
        if shown != self._plan:
            for key, header in shown.columns:
                table.add_column(header, key=key)
        self._plan = shown
        for row in rows:
            # DataTable reads a str cell as markup: every cell is a Text
            table.add_row(*(Text(text) for text in row_cells(row, shown)), key=row.name)
        if keep in self._listed:
            table.move_cursor(row=table.get_row_index(keep))

    def _highlighted(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0))
        return None if row_key.value is None else str(row_key.value)

    def _move_to(self, row: int) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))

    def action_cursor_down(self) -> None:
        self._move_to(self.query_one(DataTable).cursor_row + 1)

    def action_cursor_up(self) -> None:
        self._move_to(self.query_one(DataTable).cursor_row - 1)

    def action_cursor_top(self) -> None:
        self._move_to(0)

    def action_cursor_bottom(self) -> None:
        self._move_to(self.query_one(DataTable).row_count - 1)

    def action_help(self) -> None:
        from tracker.config import Config
        from tracker.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(PICKER_KEYS, getattr(self.app, "config", None) or Config()))

    def action_resume(self) -> None:
        name = self._highlighted()
        if name is not None:
            self.post_message(self.Open(name, new=False))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if not quitting(self):
            self.action_resume()

    def action_new(self) -> None:
        """Ask for a name and a ruleset; the app creates the encounter."""
        from tracker.screens.form import Field, FormScreen

        rulesets = ", ".join(RULESETS)

        def submit(values: dict[str, str], _: dict[str, bool]) -> str | None:
            name = values.get("name", "").strip()
            if not name:
                return "type a name for the encounter, e.g. Goblin ambush"
            if self.store.exists(name):
                return f"an encounter called {name!r} exists already"
            chosen = values.get("ruleset", "").strip().lower() or DEFAULT_RULESET
            if chosen not in RULESETS:
                return f"ruleset {chosen!r}: choose one of {rulesets}"
            self.post_message(self.Open(name, new=True, ruleset=chosen))
            return None

        fields = [
            Field("name", "Name", "", "Goblin ambush"),
            Field("ruleset", "Ruleset", DEFAULT_RULESET, rulesets),
        ]
        self.app.push_screen(FormScreen(f"New encounter (rulesets: {rulesets})", fields, submit))

    def action_restore(self) -> None:
        """Pick a save point of the highlighted encounter, name the copy, open it."""
        name = self._highlighted()
        if name is None:
            return
        points = self.store.save_points(name)
        if not points:
            message = f"{name} has no save points (ctrl+s in the fight stores one)."
            self.notify(message, severity="warning", markup=False)
            return
        labels = {f"{label}   ({when(created)})": label for label, created in points}

        def chosen(choice: str | None) -> None:
            if choice is not None:
                self._restore_as(name, labels[choice])

        self.app.push_screen(
            ChoiceScreen(
                f"Restore a save point of {name}",
                list(labels),
                "It becomes a new encounter; the original is untouched.",
            ),
            chosen,
        )

    def _restore_as(self, name: str, label: str) -> None:
        from saves.store import SaveError
        from tracker.restore import default_name, restore_save_point

        def submit(new_name: str) -> str | None:
            if not new_name:
                return "type a name for the restored encounter"
            try:
                created = restore_save_point(
                    self.store, name, label, new_name, rng=getattr(self.app, "rng", None)
                )
            except SaveError as exc:
                return str(exc)
            self.reload()
            self.notify(f"Restored {label!r} of {name} as {created}.", markup=False)
            self.post_message(self.Open(created, new=False))
            return None

        self.app.push_screen(
            PromptScreen(
                f"Restore {label!r} as",
                "NAME of the new encounter",
                submit,
                value=default_name(name, label),
            )
        )

    def action_delete(self) -> None:
        name = self._highlighted()
        if name is None:
            return

        from saves.store import SaveError

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.store.delete(name)
            except SaveError as exc:
                self.notify(str(exc), severity="error", markup=False)
                return
            self.reload()
            self.notify(f"Deleted {name}.", markup=False)

        summary = self._listed.get(name)
        counted = _get(summary, "combatants", 0)
        detail = (
            f"{round_said(*_round(summary))} · {counted} combatant{'' if counted == 1 else 's'}"
            f" · last change {when(_get(summary, 'updated'))}"
        )
        self.app.push_screen(
            ConfirmScreen(f"Delete {name}?", f"{detail}. This cannot be undone.", destructive=True),
            answer,
        )
