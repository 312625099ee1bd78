"""Physical rolls (setting ``physical_rolls``): ask the GM for the face of
each die an action will roll, in ``dice_needed`` order.  Enter on an empty
line lets the program roll this die and every one after; Escape cancels."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from rules.text import shorten
from tracker.screens.dialog import Dialog, keys_row, say
from tracker.screens.quitting import quitting
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.plain import plain
from tracker.widgets.plain_input import PlainInput


def check_face(text: str, sides: int) -> int | str:
    """The face typed for a d*sides*, or an error message quoting at most
    a short excerpt (a pasted page must not fill the dialog).  Digits
    0-9 only, as everywhere in the action language: ``int`` alone would
    take ``1_0`` or Arabic-Indic digits."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        return f"'{shorten(text)}' is not a number: type the face shown on the d{sides}"
    if len(digits) > 7:
        return f"a d{sides} shows 1 to {sides}, not {shorten(digits, 8)}"
    face = int(digits)
    if not 1 <= face <= sides:
        return f"a d{sides} shows 1 to {sides}, not {face}"
    return face


def die_label(label: str, sides: int) -> str:
    """``flat check DC 20 (d20)``: the engine's label with the die named once."""
    return label if f"(d{sides})" in label else f"{label} (d{sides})"


class FacesScreen(TakesTyping, Dialog[list[int] | None]):
    """One die at a time; dismisses with the faces typed (maybe fewer)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, needed: Sequence[tuple[str, int]]) -> None:
        super().__init__()
        self._title = title
        self._needed = list(needed)
        self._faces: list[int] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield Static("", id="faces-which", markup=False)
            yield PlainInput(placeholder="face", id="faces-input")
            yield Static("", id="faces-message", classes="dialog-hint", markup=False)
            yield keys_row(
                "Enter: use this face · empty Enter: the program rolls the rest · Esc: cancel"
            )

    def on_mount(self) -> None:
        if not quitting(self):
            self._ask()

    def _ask(self) -> None:
        label, sides = self._needed[len(self._faces)]
        which = f"Die {len(self._faces) + 1} of {len(self._needed)}: {die_label(label, sides)}"
        self.query_one("#faces-which", Static).update(plain(which))

    def entered(self, text: str, field: Input) -> None:
        if not text:
            self.dismiss(self._faces)
            return
        _, sides = self._needed[len(self._faces)]
        face = check_face(text, sides)
        message = self.query_one("#faces-message", Static)
        if isinstance(face, str):
            say(message, face)
            return
        say(message, "", error=False)
        self._faces.append(face)
        field.value = ""
        if len(self._faces) == len(self._needed):
            self.dismiss(self._faces)
        else:
            self._ask()
