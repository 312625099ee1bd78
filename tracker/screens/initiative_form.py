"""The initiative form ``s`` opens while a player has no initiative: a row
per such player for the total called out.  Enter (or Tab) moves down a
row, Enter on the last applies them all at once (the order never moves
under the GM); a blank row is rolled, as are the monsters."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Input, Label, Static

from tracker.screens.dialog import Dialog, keys_row
from tracker.screens.form import FormBody, FormCheckbox
from tracker.screens.quitting import quitting
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.plain import plain
from tracker.widgets.row_input import RowInput

#: the totals typed by player name → the action line, or the engine's
#: message by name for each total it refuses (``EncounterController.initiative_entry``).
CheckTotals = Callable[[Mapping[str, str]], str | dict[str, str]]


@dataclass(frozen=True)
class InitiativeEntry:
    """What the form was submitted with."""

    #: the one batch: ``init … N`` for each typed total, then ``start``
    line: str
    #: physical rolls: the GM rolls the monsters' initiative d20s too
    monster_dice: bool = False


class InitiativeFormScreen(TakesTyping, Dialog[InitiativeEntry | None]):
    """A row per player without an initiative; dismisses with the entry."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, players: Sequence[str], check: CheckTotals, physical: bool) -> None:
        super().__init__()
        self._players = list(players)
        self._check = check
        self._physical = physical
        #: the message shown under each refused row, by player name
        self._errors: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form initiative-form"):
            yield Label("Initiative: the totals the players call out", classes="dialog-title")
            with FormBody(classes="form-body"):
                for i, name in enumerate(self._players):
                    with Horizontal(classes="init-row"):
                        yield Label(plain(name), classes="init-name")
                        yield RowInput(
                            on_enter=self._entered, placeholder="blank: rolled", id=f"init-{i}"
                        )
                    yield Static("", id=f"init-message-{i}", classes="init-message", markup=False)
                if self._physical:
                    yield FormCheckbox(
                        "I roll the monsters' d20s too", False, id="init-monster-dice"
                    )
            yield Static(
                "Monsters are rolled by the program"
                + ("" if self._physical else "; a blank row is rolled too")
                + ".",
                classes="dialog-hint",
                markup=False,
            )
            yield keys_row("Enter/Tab: next · Enter on the last: start · Esc: cancel")

    def _inputs(self) -> list[Input]:
        return [self.query_one(f"#init-{i}", Input) for i in range(len(self._players))]

    def totals(self) -> dict[str, str]:
        """What is typed, by player name."""
        return {n: i.value.strip() for n, i in zip(self._players, self._inputs(), strict=True)}

    def _show(self, errors: Mapping[str, str]) -> int | None:
        """Show *errors* under their rows (clearing the others); the first bad row."""
        self._errors = dict(errors)
        first = None
        for i, name in enumerate(self._players):
            message = self.query_one(f"#init-message-{i}", Static)
            error = errors.get(name, "")
            message.set_class(bool(error), "error", "shown")
            message.update(plain(error))
            if error and first is None:
                first = i
        return first

    def _point_at(self, row: int) -> None:
        """Focus *row*, its message in view too: under the last rows of a
        long form it would be below the fold, the GM left wondering."""
        self._inputs()[row].focus()
        message = self.query_one(f"#init-message-{row}", Static)
        # once the message has its height (it had none while empty)
        self.call_after_refresh(message.scroll_visible, animate=False)

    def _entered(self, row_input: Input, key: str) -> None:
        """Enter or Tab on a row: check it, then focus the next at once; the last submits."""
        if quitting(self):
            return
        inputs = self._inputs()
        row = inputs.index(row_input) if row_input in inputs else len(inputs) - 1
        name = self._players[row]
        result = self._check({name: row_input.value})
        if isinstance(result, dict):  # this row is refused: stay on it
            self._show({**self._errors, **result})
            self._point_at(row)
            return
        self._show({n: e for n, e in self._errors.items() if n != name})
        if row + 1 < len(inputs):
            self.set_focus(inputs[row + 1])
        elif key == "tab":
            self.focus_next()
        else:
            self.submit()

    def submit(self) -> None:
        """Apply every row at once, or show what is refused and stay open."""
        result = self._check(self.totals())
        if isinstance(result, dict):
            first = self._show(result)
            if first is not None:
                self._point_at(first)
            return
        monster_dice = self._physical and self.query_one("#init-monster-dice", Checkbox).value
        self.dismiss(InitiativeEntry(result, monster_dice))

    def on_key(self, event: events.Key) -> None:
        if event.key == "enter" and isinstance(self.focused, Checkbox):  # the check box: start
            event.stop()
            self.submit()
