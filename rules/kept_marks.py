"""Where a dice breakdown in log text marks a kept die: ``2d20kh1 (5,
**14**) + 5 = 19`` (``rules.dice``'s ``render``, RULES.md §1).  The mark is
found only where render writes one, in the faces of a term that kept some
of its dice, so the same characters in a name, a condition, a tag or notes
(``**5**``) stay the text that was typed."""

from __future__ import annotations

import re
from collections.abc import Iterator

_FACE = r"(?:\*\*\d+\*\*|\d+)"
#: a term that kept some of its dice, and its faces: ``2d20kh1 (5, **14**)``
_KEEPING_TERM = re.compile(rf"(?<![\w*])\d+d\d+k[hl]\d+!? \({_FACE}(?:, {_FACE})*\)")
_MARK = re.compile(r"\*\*(\d+)\*\*")


def kept_marks(text: str) -> Iterator[re.Match[str]]:
    """Each kept die's mark in *text*, in order; its group 1 is the face."""
    for term in _KEEPING_TERM.finditer(text):
        yield from _MARK.finditer(text, term.start(), term.end())
