"""The start screen: resume a saved encounter, start a new one, delete one.

Lists ``store.list()`` newest first: name, round, whose turn, combatants,
last change (issue 4, "Start").  Enter resumes, ``n`` asks for a name and
starts a new encounter, ``delete`` deletes after a confirmation.  The screen
posts :class:`PickerScreen.Open` with the chosen name (or a new name); the
app opens it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from tracker.bindings import PICKER_KEYS, bindings
from tracker.screens.prompt import ConfirmScreen, PromptScreen


def _get(summary: Any, key: str, default: Any = None) -> Any:
    if isinstance(summary, dict):
        return summary.get(key, default)
    return getattr(summary, key, default)


def when(value: Any) -> str:
    """``2026-11-30 07:15`` from a datetime or an ISO string."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    text = str(value or "")
    return text[:16].replace("T", " ")


class PickerScreen(Screen[None]):
    """Saved encounters; posts Open(name, new) — the app does the opening."""

    BINDINGS = bindings(PICKER_KEYS)

    @dataclass
    class Open(Message):
        name: str
        new: bool

    def __init__(self, store: Any) -> None:
        super().__init__()
        self.store = store

    def compose(self):  # type: ignore[no-untyped-def]
        with Vertical(id="picker"):
            yield Label("Saved encounters — newest first", classes="dialog-title", markup=False)
            yield DataTable(id="encounters", cursor_type="row")
            yield Static(
                "Enter: resume · n: new encounter · del: delete · q: quit",
                classes="dialog-keys",
                markup=False,
            )
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("Name", "Round", "Turn", "Combatants", "Last change"):
            table.add_column(label, key=label.lower())
        self.reload()
        table.focus()

    def reload(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for summary in self.store.list():
            name = str(_get(summary, "name"))
            started = _get(summary, "started", False)
            table.add_row(
                name,
                str(_get(summary, "round", 0)) if started else "–",
                str(_get(summary, "active") or "–"),
                str(_get(summary, "combatants", 0)),
                when(_get(summary, "updated")),
                key=name,
            )

    def _highlighted(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        return None if row_key.value is None else str(row_key.value)

    def action_resume(self) -> None:
        name = self._highlighted()
        if name is not None:
            self.post_message(self.Open(name, new=False))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_resume()

    def action_new(self) -> None:
        def submit(name: str) -> str | None:
            if not name:
                return "type a name for the encounter, e.g. Goblin ambush"
            if self.store.exists(name):
                return f"an encounter called {name!r} exists already"
            self.post_message(self.Open(name, new=True))
            return None

        self.app.push_screen(PromptScreen("New encounter", "NAME", submit))

    def action_delete(self) -> None:
        name = self._highlighted()
        if name is None:
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.store.delete(name)
                self.reload()
                self.notify(f"Deleted {name}.")

        self.app.push_screen(ConfirmScreen(f"Delete {name}?", "This cannot be undone."), answer)
