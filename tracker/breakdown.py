"""Log text as the GM reads it: the rules core marks kept dice in a
breakdown with ``**…**`` (``2d20kh1 (5, **14**) + 5 = 19``); here that
becomes bold, and nothing else in the text is read as markup (engine text
contains brackets such as ``[crit]``; a condition typed ``2d20kh1 (5,
**14**)`` is those characters: the entry says where its marks are,
``rules.kept_marks``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from rules.kept_marks import kept_marks
from rules.text import visible


def styled(
    text: str, kept: Sequence[int] | None = None, *, limit: int = 0, kept_style: str = "bold"
) -> Text:
    """*text* as a Rich ``Text``, made visible (names are data: a control
    character spelled out), with kept dice in *kept_style*; *kept* is the
    entry's ``LogEntry.kept``.  *limit*: cut to about that many characters
    with an ellipsis, as ``rules.text.shorten`` cuts."""
    out = Text()
    last = 0
    for match in kept_marks(text, kept):
        out.append(visible(text[last : match.start()]))
        out.append(match.group(1), style=kept_style)
        last = match.end()
    out.append(visible(text[last:]))
    if limit and len(out) > limit:
        out = out[: max(1, limit - 1)]
        out.append("…")
    return out


def combat_rule(number: int | None, width: int = 0) -> Text:
    """The line the log shows over the entry that begins combat *number*
    (2 or later; None: a combat whose number cannot be told), as ``export``
    heads it: ``── Combat 2 ──``, drawn on to *width*."""
    label = "── New combat " if number is None else f"── Combat {number} "
    return Text(label + "─" * max(2, width - len(label)), style="bold")
