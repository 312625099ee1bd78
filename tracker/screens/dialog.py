"""What the small dialogs share: a modal screen styled as a dialog that
quits quietly and whose ``cancel`` dismisses it with None, and the keys row
at its foot."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Static

from tracker.screens.quitting import QuietWhenQuitting

Result = TypeVar("Result")


class Dialog(QuietWhenQuitting, ModalScreen[Result]):
    """A ``dialog-screen``; ``action_cancel`` closes it with None."""

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    def action_cancel(self) -> None:
        self.dismiss(None)


def keys_row(text: str) -> Static:
    """The line of keys at a dialog's foot (plain text, never markup)."""
    return Static(text, classes="dialog-keys", markup=False)
