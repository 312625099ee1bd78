"""Where a dice breakdown in log text marks a kept die: ``2d20kh1 (5,
**14**) + 5 = 19`` (``rules.dice``'s ``render``, RULES.md §1).

The engine records where render wrote each mark: while it runs an action
(:func:`recording`), render writes a kept face between two control
characters no typed text can hold (``rules.text.check_text`` refuses
them), and :func:`settle` turns them into ``**14**`` as every reader sees
it, noting their places (``LogEntry.kept``).  So the same characters in a
condition, notes, a name or a tag (``2d20kh1 (5, **14**)`` typed as a
condition) stay the text that was typed.

Text with no record (an entry logged before marks were recorded, or a
recorded one :func:`settle` found this module would read alike) is read
by the shape render gives a breakdown: a mark only in the faces of a term
that kept some of its dice, a face for each of its dice, each on the die,
as many marked as it keeps, and those the highest (``kh``) or the lowest
(``kl``); so a tag or a name (they hold no comma, and render lists two
faces at least) cannot pass for one, as ``1d20kh1 (**5**)`` could."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

_FACE = r"(?:\*\*\d+\*\*|\d+)"
#: a term that kept some of its dice, and its faces: ``2d20kh1 (5, **14**)``
_KEEPING_TERM = re.compile(
    rf"(?<![\w*])(?P<n>\d+)d(?P<sides>\d+)k(?P<kind>[hl])(?P<keep>\d+)!? "
    rf"\((?P<faces>{_FACE}(?:, {_FACE})*)\)"
)
_MARK = re.compile(r"\*\*(\d+)\*\*")

#: what render writes around a kept face while the engine records: start
#: and end of text, control characters refused in every text a GM types
_OPEN, _CLOSE = "\x02", "\x03"
_RECORDED = re.compile(f"{_OPEN}(\\d+){_CLOSE}")
_recording: ContextVar[bool] = ContextVar("kept_marks_recording", default=False)


def mark(face: int) -> str:
    """A kept die's face as render writes it: ``**14**``, or while
    :func:`recording`, between the characters :func:`settle` looks for."""
    return f"{_OPEN}{face}{_CLOSE}" if _recording.get() else f"**{face}**"


@contextmanager
def recording() -> Iterator[None]:
    """Render marks kept dice so :func:`settle` can tell them from typed
    text: the engine runs each action so (``rules.engine.verbs.run``)."""
    token = _recording.set(True)
    try:
        yield
    finally:
        _recording.reset(token)


def settle(text: str) -> tuple[str, tuple[int, ...] | None]:
    """*text* as logged (each kept face render wrote while
    :func:`recording` as ``**14**``) and where those marks start; None
    when the breakdown's shape finds exactly them (:func:`kept_marks`
    without a record), as in every line whose typed text looks like no
    breakdown, so the journal records only the lines that need it."""
    pieces: list[str] = []
    kept: list[int] = []
    at = length = 0
    for found in _RECORDED.finditer(text):
        pieces.append(text[at : found.start()])
        length += found.start() - at
        kept.append(length)
        face = f"**{found.group(1)}**"
        pieces.append(face)
        length += len(face)
        at = found.end()
    plain = "".join(pieces) + text[at:] if pieces else text
    read = tuple(m.start() for m in kept_marks(plain))
    return plain, None if read == tuple(kept) else tuple(kept)


def kept_marks(text: str, kept: Sequence[int] | None = None) -> Iterator[re.Match[str]]:
    """Each kept die's mark in *text*, in order; its group 1 is the face.
    *kept*: where the engine recorded them (``LogEntry.kept``; a place
    that holds no mark, as a hand-edited file may say, is none), else
    where the breakdown's shape reads one."""
    if kept is not None:
        end = 0
        for at in sorted(set(kept)):
            found = _MARK.match(text, at) if at >= end else None
            if found is not None:
                end = found.end()
                yield found
        return
    for term in _KEEPING_TERM.finditer(text):
        if _rendered(term):
            yield from _MARK.finditer(text, term.start("faces"), term.end("faces"))


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


def unmarked(text: str, kept: Sequence[int] | None = None) -> str:
    """*text* without its kept dice's marks (``2d20kh1 (5, 14)``), as plain
    text shows it; *kept* as :func:`kept_marks` takes it."""
    out: list[str] = []
    last = 0
    for match in kept_marks(text, kept):
        out.append(text[last : match.start()])
        out.append(match.group(1))
        last = match.end()
    out.append(text[last:])
    return "".join(out)
