"""Where a dice breakdown in log text marks a kept die: ``2d20kh1 (5,
**14**) + 5 = 19`` (``rules.dice``'s ``render``, RULES.md §1).  The mark is
found only where render writes one, in the faces of a term that kept some
of its dice, so the same characters in a name, a condition, a tag or notes
(``**5**``) stay the text that was typed.  A term is taken for render's only
when render could have written it: a face for each of its dice, each on
the die, as many marked as it keeps, and those the highest (``kh``) or the
lowest (``kl``); so a tag or a name (they hold no comma, and render lists
two faces at least) cannot pass for one, as ``1d20kh1 (**5**)`` could."""

from __future__ import annotations

import re
from collections.abc import Iterator

_FACE = r"(?:\*\*\d+\*\*|\d+)"
#: a term that kept some of its dice, and its faces: ``2d20kh1 (5, **14**)``
_KEEPING_TERM = re.compile(
    rf"(?<![\w*])(?P<n>\d+)d(?P<sides>\d+)k(?P<kind>[hl])(?P<keep>\d+)!? "
    rf"\((?P<faces>{_FACE}(?:, {_FACE})*)\)"
)
_MARK = re.compile(r"\*\*(\d+)\*\*")


def _rendered(term: re.Match[str]) -> bool:
    """Whether rules.dice could have written *term*, a :data:`_KEEPING_TERM`."""
    faces = term.group("faces").split(", ")
    number, sides, keep = int(term.group("n")), int(term.group("sides")), int(term.group("keep"))
    if len(faces) != number or not 0 < keep < number:
        return False
    kept = [int(f.strip("*")) for f in faces if f.startswith("*")]
    dropped = [int(f) for f in faces if not f.startswith("*")]
    if len(kept) != keep or not all(0 < f <= sides for f in kept + dropped):
        return False
    if term.group("kind") == "h":
        return min(kept) >= max(dropped)
    return max(kept) <= min(dropped)


def kept_marks(text: str) -> Iterator[re.Match[str]]:
    """Each kept die's mark in *text*, in order; its group 1 is the face."""
    for term in _KEEPING_TERM.finditer(text):
        if _rendered(term):
            yield from _MARK.finditer(text, term.start("faces"), term.end("faces"))


def unmarked(text: str) -> str:
    """*text* without its kept dice's marks (``2d20kh1 (5, 14)``), as plain text shows it."""
    out: list[str] = []
    last = 0
    for match in kept_marks(text):
        out.append(text[last : match.start()])
        out.append(match.group(1))
        last = match.end()
    out.append(text[last:])
    return "".join(out)
