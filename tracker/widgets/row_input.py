"""The input rows of a form typed row after row (the initiative totals),
where keys typed fast after Enter belong to the next row."""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from tracker.widgets.plain_input import PlainInput


class RowInput(PlainInput):
    """One row of a form typed row after row (the initiative totals): Enter
    and Tab run *on_enter* at once, and a key queued here after the focus
    moved on goes to the focused row, so ``17`` Enter ``12`` typed fast is
    17 here and 12 on the next row, never 1712."""

    def __init__(
        self,
        *,
        on_enter: Callable[[RowInput, str], None],
        placeholder: str = "",
        id: str | None = None,
    ) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self._row_done = on_enter

    def on_key(self, event: events.Key) -> None:
        focused = self.screen.focused
        if focused is not None and focused is not self:
            event.stop()
            event.prevent_default()
            key = events.Key(event.key, event.character)
            key.set_sender(self.app)  # it bubbles up to the app's bindings
            focused.post_message(key)
        elif event.key in ("enter", "tab"):
            event.stop()
            event.prevent_default()
            self._row_done(self, event.key)
