"""The input line every dialog and the command line type into: it never
holds a control character (``tracker.widgets.plain``).  A module of its
own so the class is built when the first place to type opens, not when an
encounter opens."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from rules.text import visible
from tracker.widgets.plain import clean_paste


class PlainInput(Input):
    """Typed and pasted text is cleaned (:func:`clean_paste`), a value set whole made visible."""

    def validate_value(self, value: str) -> str:
        return visible(value)

    def on_paste(self, event: events.Paste) -> None:
        # Input's own handler would keep only the first line
        event.prevent_default()
        event.stop()
        text = clean_paste(event.text)
        if text:
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(text)
            else:
                self.replace(text, *selection)

    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(clean_paste(text), start, end)
