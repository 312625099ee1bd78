"""What the small dialogs share: a modal screen styled as a dialog that
quits quietly and whose ``cancel`` (or ``close``) dismisses it with None,
Enter in its input lines, the message line that shows an error, and the
keys row at its foot."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tracker.screens.quitting import QuietWhenQuitting, quitting
from tracker.widgets.plain import plain

Result = TypeVar("Result")


class Dialog(QuietWhenQuitting, ModalScreen[Result]):
    """A ``dialog-screen``; ``action_cancel`` closes it with None."""

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    def action_cancel(self) -> None:
        self.dismiss(None)

    action_close = action_cancel

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not quitting(self):
            self.entered(event.value.strip(), event.input)

    def entered(self, text: str, field: Input) -> None:
        """Enter in *field*, which holds *text* (stripped)."""

    def settle(self, error: str | None, message_id: str) -> None:
        """Show *error* in the message line and stay open (nothing changed), or close."""
        if quitting(self):
            return
        if error:
            say(self.query_one(message_id, Static), error)
        else:
            self.dismiss(None)


def say(message: Static, text: str, error: bool = True) -> None:
    """Show *text* (plain, never markup) in a dialog's message line."""
    message.set_class(error, "error")
    message.update(plain(text))


def keys_row(text: str, id: str | None = None) -> Static:
    """The line of keys at a dialog's foot (plain text, never markup)."""
    return Static(text, id=id, classes="dialog-keys", markup=False)
