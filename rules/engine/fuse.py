"""Unquoted full names with spaces (README, "The action language":
``damage Hobgoblin 1 20``): :func:`fuse_all` joins the words that spell a
full name, or a comma list of them, into one before the parser reads the
rest, and :func:`begun_name` finds the words that begin one (the quoting
hint for ``heal Brother Tom 5``).

Each reads the words once, left to right, and stops as soon as no more
words can make a name: a name is at most as long as the longest one in
the fight, so a line of any length (up to ``rules.limits.MAX_LINE``) is
read in time linear in it.  A comma piece of several words is a name, or a
selector (``Goblin B*``) whose words before its last begin a name."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rules.engine.targets import is_selector, targets_at
from rules.errors import ActionError
from rules.text import closest, name_key, shorten

T = TypeVar("T")

#: option words whose value names combatants (fused like the targets).
NAME_OPTIONS = frozenset({"half", "none", "of"})


class Spelled:
    """The fight's names and its groups' names as the words are compared
    with them: their keys (``rules.text.name_key``), and each key's
    beginnings that end where one of its words does (``goblin`` and
    ``goblin boss`` of ``goblin boss 2``)."""

    def __init__(self, names: Sequence[str], groups: Sequence[str] = ()) -> None:
        #: the names as the fight spells them, for a "did you mean"
        self.shown = (*names, *groups)
        #: the most words in one name: how far a mistyped one may reach
        self.most_words = max((len(n.split()) for n in self.shown), default=0)
        #: the combatants' keys: the short reading that makes a line ambiguous
        self.combatants = {name_key(n) for n in names}
        self.keys = self.combatants | {name_key(g) for g in groups}
        #: only a name with a space is ever fused
        self.spaced = any(" " in k for k in self.keys)
        self.begins: set[str] = set()
        for key in self.keys:
            at = key.find(" ")
            while at >= 0:
                self.begins.add(key[:at])
                at = key.find(" ", at + 1)
            self.begins.add(key)
        self._sorted = sorted(self.keys)

    def begins_some(self, key: str) -> bool:
        """Whether *key* begins a name's key, character by character."""
        at = bisect_left(self._sorted, key)
        return at < len(self._sorted) and self._sorted[at].startswith(key)


class _Run:
    """The comma pieces of the words from one start, read a word at a time."""

    def __init__(self, spelled: Spelled) -> None:
        self.spelled = spelled
        self.text = ""  # the open piece, blanks before it taken off
        self.piece = ""  # the open piece as a name: text with its blanks taken off
        self.grows = True  # more words can make the open piece a name
        self.valid = False  # the open piece is a name or a selector
        self.piece_spaced = False  # the open piece is a full name with a space
        self.spaced = False  # a closed piece is a full name with a space
        self.at = 0  # the word where the open piece began

    def start(self, fragment: str, at: int) -> None:
        """A piece begins with *fragment* (after a comma, or the first word)."""
        self.at = at
        self.text = ""
        self.grows = True
        self._grow(fragment)

    def add(self, fragment: str) -> bool:
        """*fragment* continues the open piece after a space; False when no
        run from here on can be read as names."""
        if not fragment.strip():  # the piece reads the same
            if self.grows and self.text:
                self.text += " " + fragment
                self.grows = name_key(self.text) in self.spelled.begins
        elif self.grows:
            self._grow(fragment)
        else:
            return False
        return self.valid or self.grows

    def _grow(self, fragment: str) -> None:
        self.text = (self.text + " " + fragment).lstrip() if self.text else fragment.lstrip()
        self.piece = self.text.rstrip()
        key = name_key(self.piece)
        named = key in self.spelled.keys
        self.valid = bool(self.piece) and (named or is_selector(self.piece))
        self.piece_spaced = named and " " in self.piece
        self.grows = not self.text or name_key(self.text) in self.spelled.begins

    def close(self) -> bool:
        """A comma closes the open piece; False when it is no name."""
        self.spaced = self.spaced or self.piece_spaced
        return self.valid


def run_ends(rest: Sequence[str], start: int, spelled: Spelled) -> list[tuple[int, int, str]]:
    """Each run of two words or more from ``rest[start]`` that spells a
    comma list of full names (a combatant's or a group's) or selectors,
    one of them a full name with a space, shortest first: (the word after
    it, the word its last piece began in, that piece)."""
    ends: list[tuple[int, int, str]] = []
    opening = rest[start].split(",", 1)[0].strip() if start < len(rest) else ""
    if opening and name_key(opening) not in spelled.begins and not is_selector(opening):
        return ends  # the first word begins no name (most words after an ``of``)
    run = _Run(spelled)
    for at in range(start, len(rest)):
        first, *more = rest[at].split(",")
        if at == start:
            run.start(first, at)
        elif not run.add(first):
            return ends
        for fragment in more:
            if not run.close():
                return ends
            run.start(fragment, at)
        if at > start and run.valid and (run.spaced or run.piece_spaced):
            ends.append((at + 1, run.at, run.piece))
        elif not (run.valid or run.grows):
            return ends
    return ends


def fuse_names(
    rest: Sequence[str],
    start: int,
    spelled: Spelled,
    parses: Callable[[list[str]], T] | None = None,
) -> list[str]:
    """*rest* with the words from *start* joined into one when they spell a
    full name (or a comma list of them) with spaces in it
    (:func:`run_ends`): the longest such run whose line *parses* (that
    callable raising ActionError when not; without it, the longest run).
    Only runs that differ in their last piece are tried, one per way of
    reading it: a run that leaves out a whole name of the list leaves the
    rest of it where an amount or a keyword goes.  When the words also
    read as a shorter combatant name that is itself exact and the line
    parses that way too, the reading is ambiguous: one ActionError asks for
    quotes.  A group's name never makes that doubt (``damage Zombie 2
    1d4`` is Zombie 2 of group Zombie: the longer name wins).  When no
    reading parses, the longest full name's problem is raised.  Without a
    run, *rest* is unchanged."""
    ends = run_ends(rest, start, spelled) if spelled.spaced else []
    if not ends:
        return list(rest)
    if parses is None:
        return _fused(rest, start, ends[-1][0])
    last_piece = ends[-1][1]
    tried: set[str] = set()
    first_error: ActionError | None = None
    for end, piece_at, piece in reversed(ends):
        if piece_at != last_piece or piece in tried:
            continue  # the same reading with blanks more or less, or a name left out
        tried.add(piece)
        fused = _fused(rest, start, end)
        try:
            parses(fused)
        except ActionError as exc:
            first_error = first_error or exc
            continue
        plain = list(rest)
        if name_key(rest[start].strip()) in spelled.combatants and _parses(parses, plain):
            raise ActionError(
                f'"{shorten(fused[start])}" could also mean "{shorten(rest[start])}": '
                f'quote the name you mean (e.g. "{shorten(fused[start])}")'
            )
        return fused
    if first_error is not None and not _parses(parses, list(rest)):
        # the words spell a full name, so its reading's problem is the one
        # the GM made (``damage Goblin Boss 0``: the amount, not "Boss")
        raise first_error
    return list(rest)


def _fused(rest: Sequence[str], start: int, end: int) -> list[str]:
    return [*rest[:start], " ".join(rest[start:end]), *rest[end:]]


def _parses(parses: Callable[[list[str]], T], words: list[str]) -> bool:
    try:
        parses(words)
    except ActionError:
        return False
    return True


def fuse_all(
    spec: Any,
    rest: list[str],
    spelled: Spelled,
    parses: Callable[[list[str]], T],
    quoted: bool,
) -> list[str]:
    """:func:`fuse_names` after each option word that names combatants
    (the longest run), then at the targets (unless the GM *quoted* them),
    where the line must parse."""
    if not spelled.spaced:
        return rest
    out: list[str] = []
    i = 0
    while i < len(rest):
        word = out[-1].lower() if len(out) >= 2 else ""
        ends = run_ends(rest, i, spelled) if word in NAME_OPTIONS and word in spec.options else []
        if ends:
            out.append(" ".join(rest[i : ends[-1][0]]))
            i = ends[-1][0]
        else:
            out.append(rest[i])
            i += 1
    start = targets_at(spec)
    if start is not None and not (quoted and start == 0):
        out = fuse_names(out, start, spelled, parses)
    return out


def begun_name(rest: Sequence[str], start: int, spelled: Spelled) -> int | None:
    """The end of the longest run of two words or more from ``rest[start]``
    whose last comma piece has a space and begins a name (``Brother Tom``
    of Brother Tomas), or None.  A piece is followed only while it could
    still begin one."""
    found = None
    text, grows, begins = "", True, False
    for at in range(start, len(rest)):
        for n, fragment in enumerate(rest[at].split(",")):
            if n > 0 or at == start:  # a piece begins
                text, grows = fragment.lstrip(), True
            elif not fragment.strip():  # the piece reads the same
                if not grows:
                    continue
                text = text + " " + fragment if text else ""
            elif grows:
                text = (text + " " + fragment).lstrip() if text else fragment.lstrip()
            else:
                begins = False  # it began no name, and it only got longer
                continue
            if fragment.strip() or n > 0 or at == start:
                key = name_key(text.rstrip())
                begins = " " in key and spelled.begins_some(key)
            grows = spelled.begins_some(name_key(text))
        if at > start and begins:
            found = at + 1
    return found


def misspelled_name(
    rest: Sequence[str],
    start: int,
    end: int,
    spelled: Spelled,
    parses: Callable[[list[str]], T],
) -> tuple[str, str] | None:
    """When the words from ``rest[start]`` to *end* begin a name but the
    line does not read with them as one (``damage Grukk the Warchif 5``:
    quoting "Grukk the" leaves "Warchif" where the amount goes), the longer
    run of words, up to the longest name's, that makes the line read and
    is close to a name of the fight: (what was typed, the name meant)."""
    for stop in range(end + 1, min(len(rest), start + spelled.most_words + 1) + 1):
        typed = " ".join(rest[start:stop])
        if "," in typed or not _parses(parses, _fused(rest, start, stop)):
            continue
        meant = closest(typed, spelled.shown)
        if meant is not None:
            return typed, meant
    return None
