"""Names on screen are text, never markup, and never raw control characters:
``Imp [/b]`` must not crash Textual's markup parser, ``[@click=app.quit]x``
must not become a link, and an ``ESC ] 52`` in a hand-edited file must not
write the GM's clipboard.  Everything user-supplied the app shows goes
through :func:`plain`, :func:`shown` or ``PlainInput``."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from rules.text import is_unsafe, visible

__all__ = ["clean_paste", "plain", "shown", "visible"]


def plain(text: object) -> Content:
    """*text* as Textual content: made visible, never read as markup."""
    return Content(visible(str(text)))


def shown(text: object, style: str = "") -> Text:
    """*text* as a Rich Text: made visible, never read as markup."""
    return Text(visible(str(text)), style)


#: what a pasted line break becomes: the command line is one line
_BREAKS = frozenset("\r\n\t\v\f\x85\u2028\u2029")


def clean_paste(text: str) -> str:
    """A paste as one line: breaks and tabs become a space, other unsafe characters go."""
    out: list[str] = []
    for ch in text:
        if ch in _BREAKS:
            if out and out[-1] != " ":
                out.append(" ")
        elif not is_unsafe(ch):
            out.append(ch)
    return "".join(out)
