"""Completing a line of the action language as it is typed: the first word
to a verb, later words (also after a comma inside quotes, for several
targets) to a combatant's name, quoted so that a completed name is always
one word (``Imp;next`` is a name, never a second action).  The command line
(``tracker.widgets.command_line``) shows these."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from rules.engine.grammar import VERBS


def current_word(value: str) -> tuple[str, str]:
    """Split *value* into (everything before the word being typed, the word)."""
    if value.count('"') % 2 == 1:
        i = value.rfind('"')
        return value[:i], value[i:]
    i = max(value.rfind(" "), value.rfind(","))
    return value[: i + 1], value[i + 1 :]


#: what makes a name more than one bare word of the action language: white
#: space and quotes (shlex), backslashes, ``;`` (between actions of a batch)
#: and ``,`` (between targets).
_NEEDS_QUOTES = re.compile(r"[\s'\"\\;,]")


def quoted(name: str) -> str:
    """*name* as one word of the action language, quoted when it must be, so
    a completed ``Imp;next`` is a name, not a second action: in double
    quotes as a GM types them, unless the name holds a double quote or a
    backslash (then shlex's single quotes)."""
    if not _NEEDS_QUOTES.search(name):
        return name
    return shlex.quote(name) if ('"' in name or "\\" in name) else f'"{name}"'


def completions(value: str, names: Sequence[str] = (), verbs: Sequence[str] = VERBS) -> list[str]:
    """Every completed line for *value*, in order (empty when nothing fits).

    The first word completes to a verb; later words (also after a comma
    inside quotes, for several targets) complete to combatant names,
    case-insensitively; a name with spaces comes back quoted.  What is
    already typed in full is not a completion.
    """
    head, word = current_word(value)
    if not word:
        return []
    if not head.strip():
        typed = word.lower()
        return [
            head + verb
            for verb in verbs
            if verb.lower().startswith(typed) and verb.lower() != typed
        ]
    in_quotes = word.startswith('"')
    before, _, typed = word[1:].rpartition(",") if in_quotes else ("", "", word)
    typed = typed.lower()
    out = []
    for name in names:
        if name.lower().startswith(typed) and name.lower() != typed:
            if in_quotes:
                out.append(head + quoted((before + "," if before else "") + name))
            else:
                out.append(head + quoted(name))
    return out


def complete(value: str, names: Sequence[str] = (), verbs: Sequence[str] = VERBS) -> str | None:
    """The first completed line for *value*, or None when nothing fits
    (see :func:`completions`)."""
    found = completions(value, names, verbs)
    return found[0] if found else None
