"""The shell quoting of the action language, both ways: :func:`split_shell`
reads a line's words exactly as ``shlex.split`` does (POSIX rules: white
space between words, ``'…'`` literal, ``"…"`` where a backslash escapes
only ``"`` and ``\\``, a backslash outside quotes escaping any character),
but in time linear in the line: shlex grows each word a character at a
time, which a word of a hundred thousand characters (every name of a horde,
quoted as one list) turns quadratic.  :func:`quote_word` writes one word
so it reads back as itself and is at most twice as long plus its quotes,
which bounds the longest line a key builds (``rules.limits.MAX_LINE``)."""

from __future__ import annotations

import re

#: one piece of a word as shlex reads it: bare characters, a single-quoted
#: run, a double-quoted run (its escapes undone apart), one escaped character
_PIECES = r"""[^ \t\r\n'"\\]+|'[^']*'|"[^"\\]*(?:\\.[^"\\]*)*"|\\."""
#: a whole word, the white space between words, or the quote or backslash
#: that nothing closes (the line cannot be read)
_TOKEN = re.compile(rf"((?:{_PIECES})+)|[ \t\r\n]+|(.)", re.DOTALL)
_PIECE = re.compile(_PIECES, re.DOTALL)
_QUOTING = re.compile(r"""['"\\]""")
_SPACE = re.compile(r"[ \t\r\n]+")

#: inside double quotes a backslash escapes only these (the others stay)
_DOUBLE_ESCAPE = re.compile(r'\\(["\\])')

#: what a word may hold and still be written bare (as ``shlex.quote``)
_BARE = re.compile(r"[\w@%+=:,./-]+", re.ASCII)


def split_shell(line: str) -> list[str]:
    """The words of *line*, as ``shlex.split(line)`` gives them; ValueError
    with shlex's own words ("No closing quotation", "No escaped
    character") when a quote or an escape is left open."""
    if not _QUOTING.search(line):  # no quotes: only white space to split at
        trimmed = line.strip(" \t\r\n")
        return _SPACE.split(trimmed) if trimmed else []
    words: list[str] = []
    for token in _TOKEN.finditer(line):
        word, stray = token.groups()
        if stray is not None:
            raise ValueError(_unclosed(line, token.start()))
        if word is not None:
            words.append(_unquoted(word) if _QUOTING.search(word) else word)
    return words


def _unquoted(word: str) -> str:
    """One word's text, its quotes and escapes undone."""
    out = []
    for piece in _PIECE.findall(word):
        if piece[0] == "'":
            out.append(piece[1:-1])
        elif piece[0] == '"':
            out.append(_DOUBLE_ESCAPE.sub(r"\1", piece[1:-1]))
        elif piece[0] == "\\":
            out.append(piece[1])
        else:
            out.append(piece)
    return "".join(out)


def _unclosed(line: str, at: int) -> str:
    """shlex's message for the quote or escape that *line* leaves open at *at*."""
    if line[at] == "\\":
        return "No escaped character"  # a backslash ends the line
    if line[at] == '"' and re.fullmatch(r'"[^"\\]*(?:\\.[^"\\]*)*\\', line[at:], re.DOTALL):
        return "No escaped character"  # "…\ at the end
    return "No closing quotation"


def quote_word(word: str) -> str:
    """*word* as one word of a line that :func:`split_shell` reads back as
    *word*: bare when it can be, else in single quotes as ``shlex.quote``
    writes it, or, when it holds a single quote, in double quotes with
    ``"`` and ``\\`` escaped (shlex's ``'"'"'`` for each would make a name
    of quotes five times as long)."""
    if not word:
        return "''"
    if _BARE.fullmatch(word):
        return word
    if "'" not in word:
        return f"'{word}'"
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
