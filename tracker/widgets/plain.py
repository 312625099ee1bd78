"""Names on screen are text, never markup, and never raw control characters.

A combatant, encounter or save-point name, a condition, a tag, a note or an
error message quoting one is *data* (issue 9): ``Imp [/b]`` must not crash
Textual's markup parser, ``[@click=app.quit]x`` must not become a link that
quits, and an ``ESC ] 52`` sequence in a hand-edited file must not write
the GM's clipboard.  Everything user-supplied the app shows goes through
one of these helpers on its way out:

- :func:`plain` for a Textual title (border titles, dialog labels): a
  :class:`~textual.content.Content` built from the string, never parsed;
- :func:`shown` for a Rich :class:`~rich.text.Text` or a plain string (the
  panes' cells, option lists, tables);
- :class:`PlainInput` for every input line: a paste arrives whole and in
  order, its line breaks as spaces and other control characters dropped
  (Textual's ``Input`` keeps only a paste's first line).

``rules.text.visible`` does the escaping: each unsafe character is spelled
out (``\\x1b``, ``\\u202e``), so the GM sees that it is there.
"""

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
    """A paste as one line of text: line breaks and tabs become one space
    each (runs of them one space), every other control, bidirectional or
    invisible character is dropped.  Nothing in a paste is ever run as a
    key: it is text in the line, in the order it was pasted."""
    out: list[str] = []
    for ch in text:
        if ch in _BREAKS:
            if out and out[-1] != " ":
                out.append(" ")
        elif not is_unsafe(ch):
            out.append(ch)
    return "".join(out)


class PlainInput(Input):
    """An input line that never holds a control character: a paste is
    cleaned (:func:`clean_paste`) and inserted whole, and any text put in
    through :meth:`replace` (typing, paste) is cleaned too; a value set
    whole (a form's starting value, a completion) is made visible."""

    def validate_value(self, value: str) -> str:
        return visible(value)

    def on_paste(self, event: events.Paste) -> None:
        # before Input's own paste handler (which keeps only the first
        # line): prevent_default stops it
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
