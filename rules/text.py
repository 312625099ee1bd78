"""Text a person typed (names, conditions, tags, notes) is data that must
never act on a terminal or reorder what players read: :func:`check_text`
refuses control, bidirectional and invisible characters at input,
:func:`visible` spells out any that got in anyway, :func:`name_key`
compares names NFC-normalised and case-folded, and :func:`closest` finds
what a mistyped word most likely meant."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import partial

from rules.errors import ActionError

#: Unicode categories refused in names and shown escaped: controls, format
#: characters (bidi, zero-width), surrogates (undecodable bytes), separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: printable characters that draw nothing: a name made only of these would
#: be an empty-looking row nobody can read or type.
BLANK_LOOKING = "\u115f\u1160\u3164\uffa0\u2800"

#: the longest encounter or save-point name (a title, not a paragraph).
MAX_TITLE = 80
#: the longest combatant, condition or tag name (room for "Goblin 12").
MAX_NAME = 60
#: the longest notes text.
MAX_NOTES = 1000


def is_unsafe(ch: str) -> bool:
    """Whether the one character *ch* may not appear in a name
    (:data:`UNSAFE_CATEGORIES`)."""
    # every unsafe character is non-printable, so most never need a lookup
    return not ch.isprintable() and unicodedata.category(ch) in UNSAFE_CATEGORIES


def first_unsafe(text: str) -> int:
    """Index of the first unsafe character in *text*, or -1."""
    if text.isascii() and text.isprintable():
        return -1
    return next((i for i, ch in enumerate(text) if is_unsafe(ch)), -1)


def describe(ch: str) -> str:
    """``U+001B ESCAPE``: a character named for an error message."""
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return f"the byte 0x{code - 0xDC00:02X} (not UTF-8 text)"
    name = unicodedata.name(ch, "")
    if not name and unicodedata.category(ch) == "Cc":
        name = _CONTROL_NAMES.get(code, "control character")
    return f"U+{code:04X} {name}".rstrip()


_CONTROL_NAMES = {
    0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0A: "LINE FEED",
    0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE", 0x9B: "CONTROL SEQUENCE INTRODUCER",
}  # fmt: skip


def check_text(field: str, value: str, limit: int = MAX_NAME) -> str:
    """*value* NFC-normalised, or :class:`ActionError` naming *field*: it
    holds an unsafe character, or is longer than *limit* characters.

    >>> check_text("name", "Cafe\\u0301")
    'Café'
    """
    if not isinstance(value, str):
        raise ActionError(f"{field} must be text, not {type(value).__name__}")
    text = nfc(value)
    i = first_unsafe(text)
    if i >= 0:
        code = ord(text[i])
        if 0xDC80 <= code <= 0xDCFF:
            raise ActionError(f"{field} is not UTF-8 text (the byte 0x{code - 0xDC00:02X})")
        raise ActionError(
            f"{field} cannot contain {describe(text[i])} "
            f"(at character {i + 1}: no control, bidirectional or invisible characters)"
        )
    if len(text) > limit:
        raise ActionError(f"{field} is too long ({len(text):,} characters; at most {limit:,})")
    if text.strip() and all(ch in BLANK_LOOKING or ch.isspace() for ch in text):
        raise ActionError(f"{field} shows nothing: it holds only blank-looking characters")
    return text


#: what a carriage return is for, said wherever one is refused
CARRIAGE_RETURN_ENDS_LINES = "a carriage return belongs only at the end of a line (a Windows CR LF)"
#: a carriage return that ends no line: not right before a newline, nor in
#: the white space a text ends with
_STRAY_RETURN = re.compile(r"\r(?!\n|[ \t\r]*\Z)")


def stray_return(text: str) -> int:
    """Index of the first carriage return in *text* that ends no line, or -1.
    A file saved on Windows ends each line with CR LF, so a CR right before
    a newline, or left at the very end once the newline was cut, is part of
    a line end; one anywhere else is a mistake (an old Mac file, a pasted
    fragment) that would otherwise be read as a space, joining what the GM
    meant as two lines."""
    found = _STRAY_RETURN.search(text) if "\r" in text else None
    return -1 if found is None else found.start()


def name_key(name: str) -> str:
    """How two names compare: NFC-normalised, then case-folded."""
    return nfc(name).casefold()


#: the most combining marks in a row handed to unicodedata as they are
#: (UAX #15's stream-safe bound): it puts each run in canonical order by
#: insertion, in time quadratic in the run
MARKS_IN_A_ROW = 30
#: a longer run, in a text's combining classes one byte each
_LONG_RUN = re.compile(rb"[^\x00]{%d}" % (MARKS_IN_A_ROW + 1))
#: a text too short for any run of it to take long (a name, a word)
_SHORT = 500
#: the characters of class 0 that decompose into marks only (Tibetan vowels)
_MARKS_ONLY = str.maketrans(dict.fromkeys("\u0f73\u0f75\u0f81", "\u0f71"))


def nfc(text: str) -> str:
    """*text* NFC-normalised in time linear in it: a pasted line of 130,000
    marks of two classes in the wrong order took unicodedata 26 s.  A text
    with a run of more than :data:`MARKS_IN_A_ROW` marks is decomposed and
    each run put in canonical order first (a stable sort by combining
    class), so what unicodedata composes is in order already."""
    if text.isascii():
        return text
    if len(text) <= _SHORT or not _LONG_RUN.search(
        bytes(map(unicodedata.combining, text.translate(_MARKS_ONLY)))
    ):
        return unicodedata.normalize("NFC", text)
    out: list[str] = []
    run: list[str] = []
    for ch in "".join(map(partial(unicodedata.normalize, "NFD"), text)):
        if unicodedata.combining(ch):
            run.append(ch)
            continue
        if run:
            out += sorted(run, key=unicodedata.combining)
            run = []
        out.append(ch)
    out += sorted(run, key=unicodedata.combining)
    return unicodedata.normalize("NFC", "".join(out))


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The one of *choices* that *word* most likely misspells, compared as
    :func:`name_key` compares names, for a "did you mean" (every one in the
    language comes from here); None when none is at least *cutoff* alike
    (difflib's ratio) or two are equally alike: ``Goblin 7`` is as near
    Goblin 1 as Goblin 2, and a guess between them would mislead."""
    return most_alike(alike(word, choices, cutoff))


def most_alike(ranked: list[tuple[float, str]]) -> str | None:
    """The first of *ranked* (:func:`alike`'s answer), None when there is
    none or the second is as alike (:func:`closest`'s ruling)."""
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def alike(word: str, choices: Iterable[str], cutoff: float = 0.6) -> list[tuple[float, str]]:
    """Every one of *choices* at least *cutoff* alike *word* as
    :func:`closest` compares them, with how alike, the most alike first:
    one pass over the choices, however many (a horde's defended tags)."""
    import difflib

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(name_key(word.strip()))
    scored: dict[str, tuple[float, str]] = {}
    for choice in choices:
        key = name_key(choice)
        matcher.set_seq1(key)
        if (
            key not in scored
            and matcher.real_quick_ratio() >= cutoff  # lengths alone: cheapest first
            and matcher.quick_ratio() >= cutoff
        ):
            scored[key] = (matcher.ratio(), choice)
    return sorted((score for score in scored.values() if score[0] >= cutoff), reverse=True)


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """*text* with every unsafe character spelled out (``\\x1b``,
    ``\\u202e``); backslashes are left alone: it is for reading, not parsing."""
    if not isinstance(text, str):
        text = str(text)
    if text and modifies_previous(text[0]):
        # a combining mark or emoji modifier with nothing before it draws
        # nothing (or mangles a border): spell out each of the leading run
        # (a pasted line may be thousands of them)
        lead = next((i for i, ch in enumerate(text) if not modifies_previous(ch)), len(text))
        return "".join(map(_escape, text[:lead])) + visible(text[lead:])
    if first_unsafe(text) < 0:
        return text
    return "".join(_escape(ch) if is_unsafe(ch) else ch for ch in text)


def modifies_previous(ch: str) -> bool:
    """Whether *ch* only modifies the character before it."""
    return unicodedata.category(ch) in ("Mn", "Me") or 0x1F3FB <= ord(ch) <= 0x1F3FF


def shorten(text: str, limit: int = 60) -> str:
    """*text* made visible and cut to about *limit* characters with an
    ellipsis: how an error message quotes a value it refuses."""
    shown = visible(text)
    if len(shown) <= limit:
        return shown
    return shown[: max(1, limit - 1)] + "…"


def possessive(name: str) -> str:
    """*name* owning something, as the log and the screens write it: a
    name ending in s takes a bare apostrophe (``Ghouls' initiative``,
    ``group Zombies' slot``), any other ``'s`` (``Mira's turn``).  One
    rule everywhere, so a name reads the same in every line."""
    return f"{name}'" if name[-1:] in ("s", "S") else f"{name}'s"
