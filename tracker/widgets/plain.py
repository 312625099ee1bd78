"""Names on screen are text, never markup, and never raw control characters:
``Imp [/b]`` must not crash Textual's markup parser, ``[@click=app.quit]x``
must not become a link, and an ``ESC ] 52`` in a hand-edited file must not
write the GM's clipboard.  Everything user-supplied the app shows goes
through :func:`plain` (Textual content), :func:`shown` (Rich text) or
:class:`PlainInput` (input lines, whose pastes arrive whole, on one line)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.content import Content
from textual.widgets import Input

from rules.text import is_unsafe, visible

__all__ = ["PlainInput", "clean_paste", "plain", "shown", "visible"]


def plain(text: object) -> Content:
    """*text* as Textual content: its characters exactly, made visible,
    never read as markup (a title, a label)."""
    return Content(visible(str(text)))


def shown(text: object, style: str = "") -> Text:
    """*text* as a Rich Text: made visible, never read as markup."""
    return Text(visible(str(text)), style)


#: what a pasted line break becomes: the command line is one line
_BREAKS = frozenset("\r\n\t\v\f\x85\u2028\u2029")


def clean_paste(text: str) -> str:
    """A paste as one line of text: runs of line breaks and tabs become one
    space, every other unsafe character is dropped, nothing is run as a key."""
    out: list[str] = []
    for ch in text:
        if ch in _BREAKS:
            if out and out[-1] != " ":
                out.append(" ")
        elif not is_unsafe(ch):
            out.append(ch)
    return "".join(out)


class PlainInput(Input):
    """An input line that never holds a control character: typed and pasted
    text is cleaned (:func:`clean_paste`), a value set whole made visible."""

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
