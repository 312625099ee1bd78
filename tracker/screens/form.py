"""A small modal form of one-line fields and check boxes (the ``a`` and
``e`` dialogs): Enter anywhere submits, Escape cancels.  The caller's
``submit`` returns an error shown inline (nothing changed) or None."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Static

from tracker.screens.dialog import Dialog, keys_row
from tracker.screens.quitting import quitting
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.plain import plain
from tracker.widgets.plain_input import PlainInput


@dataclass(frozen=True)
class Field:
    """One line of the form: ``key`` names it in the values handed to submit."""

    key: str
    label: str
    value: str = ""
    placeholder: str = ""


class FormCheckbox(Checkbox, inherit_bindings=False):
    """A check box that space toggles; Enter is left to the form (submit)."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False)]


#: a label column of ``.form-grid`` and the gutter between columns (dialogs.tcss)
LABEL, GUTTER = 11, 1


class FormGrid(Grid):
    """Two label / field pairs a line while every field shows its whole
    hint; one pair a line (the form scrolls) when two would cut one off: a
    GM reads a hint whole, never ``fixed total (empty:``."""

    def __init__(self, hints: Sequence[str]) -> None:
        super().__init__(classes="form-grid")
        self._longest = max(map(cell_len, hints), default=0)

    def fit(self, width: int) -> None:
        """Lay the fields out for a grid *width* columns wide."""
        # a field with two pairs a line: the width less two labels and three gutters
        field = (width - 2 * LABEL - 3 * GUTTER) // 2
        self.set_class(field < self._longest, "-one-pair")


class FormBody(VerticalScroll, can_focus=False):
    """The fields; scrolls (to the focused field) when the terminal is short."""

    def on_resize(self, event: events.Resize) -> None:
        # the width as if the fields scroll: whether they do depends on the layout chosen
        for grid in self.query(FormGrid):  # the initiative form's rows are no grid
            grid.fit(event.size.width - self.styles.scrollbar_size_vertical)


#: (text values by key, check box values by key) → error message or None.
FormSubmit = Callable[[dict[str, str], dict[str, bool]], str | None]


class FormScreen(TakesTyping, Dialog[None]):
    """Fields in a two-column grid, check boxes below, an inline error line."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "submit", "Apply", show=False),
    ]

    def __init__(
        self,
        title: str,
        fields: Sequence[Field],
        submit: FormSubmit,
        checks: Sequence[tuple[str, str, bool]] = (),
    ) -> None:
        super().__init__()
        self._title = title
        self._fields = list(fields)
        self._checks = list(checks)
        self._submit = submit

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(plain(self._title), classes="dialog-title")
            with FormBody(classes="form-body"):
                with FormGrid([f.placeholder for f in self._fields]):
                    for f in self._fields:
                        yield Label(plain(f.label), classes="form-label")
                        yield PlainInput(f.value, placeholder=f.placeholder, id=f"field-{f.key}")
                if self._checks:
                    with Horizontal(classes="form-checks"):
                        for key, label, value in self._checks:
                            yield FormCheckbox(label, value, id=f"check-{key}")
            yield Static("", id="form-message", classes="dialog-hint form-message", markup=False)
            tick = " · space: tick" if self._checks else ""
            yield keys_row(f"Enter: apply · Tab: next field{tick} · Esc: cancel")

    def values(self) -> tuple[dict[str, str], dict[str, bool]]:
        texts = {
            f.key: self.query_one(f"#field-{f.key}", Input).value.strip() for f in self._fields
        }
        checks = {
            key: self.query_one(f"#check-{key}", Checkbox).value for key, _, _ in self._checks
        }
        return texts, checks

    def entered(self, text: str, field: Input) -> None:
        self.action_submit()

    def action_submit(self) -> None:
        if not quitting(self):
            self.settle(self._submit(*self.values()), "#form-message")
