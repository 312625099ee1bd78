"""Log text as the GM reads it: the rules core marks kept dice in a
breakdown with ``**…**`` (``2d20kh1 (5, **14**) + 5 = 19``); here that
becomes bold, and nothing else in the text is read as markup (engine text
contains brackets such as ``[crit]``; a condition named ``**5**`` is those
five characters, ``rules.kept_marks``)."""

from __future__ import annotations

from rich.text import Text

from rules.kept_marks import kept_marks


def styled(text: str, kept_style: str = "bold") -> Text:
    """*text* as a Rich ``Text`` with kept dice in *kept_style*."""
    out = Text()
    last = 0
    for match in kept_marks(text):
        out.append(text[last : match.start()])
        out.append(match.group(1), style=kept_style)
        last = match.end()
    out.append(text[last:])
    return out


def combat_rule(number: int | None, width: int = 0) -> Text:
    """The line the log shows over the entry that begins combat *number*
    (2 or later; None: a combat whose number cannot be told), as ``export``
    heads it: ``── Combat 2 ──``, drawn on to *width*."""
    label = "── New combat " if number is None else f"── Combat {number} "
    return Text(label + "─" * max(2, width - len(label)), style="bold")
