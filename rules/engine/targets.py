"""What a typed target means (README, "The action language"): a name, a
unique prefix of one, a group's name (every member, docs/rules.md §4
"Groups"), or a selector — ``all``, ``monsters`` (every non-player),
``players``, ``Zombie*`` (every name starting so, any case) — in a comma
list.  :func:`resolve_targets` turns them into full names (the
journaled action keeps those, so a replay is exact); :func:`fuse_names`
lets an unquoted full name with spaces (``damage Hobgoblin 1 20``) be read
as one word before the parser splits the rest.  A combatant literally
named like a selector or a group is meant by that word: an exact name
wins, then a group's name, then a selector, then a prefix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rules.errors import ActionError
from rules.text import name_key, shorten

if TYPE_CHECKING:
    from rules.combatant import Combatant

T = TypeVar("T")

#: the side selectors, each a test of a combatant.
SIDES: dict[str, Callable[[Combatant], bool]] = {
    "all": lambda c: True,
    "monsters": lambda c: not c.player,
    "players": lambda c: c.player,
}


def is_selector(word: str) -> bool:
    """Whether *word* is a group selector (a side, or a ``prefix*``)."""
    word = word.strip()
    return word.lower() in SIDES or (word.endswith("*") and len(word) > 1)


def _select(combatants: Sequence[Combatant], word: str) -> list[str]:
    side = SIDES.get(word.lower())
    if side is not None:
        found = [c.name for c in combatants if side(c)]
        if not found:
            who = "the encounter is empty" if not combatants else f"there are no {word.lower()}"
            raise ActionError(f'"{word.lower()}" matches no combatant: {who}')
        return found
    prefix = name_key(word[:-1].strip())
    found = [c.name for c in combatants if name_key(c.name).startswith(prefix)]
    if not found:
        raise ActionError(
            f'"{shorten(word)}" matches no combatant (no name starts with "{shorten(word[:-1])}")'
        )
    return found


def group_names(combatants: Sequence[Combatant]) -> list[str]:
    """Each group's name as its first member spells it, in the order of play."""
    seen: dict[str, str] = {}
    for c in combatants:
        if c.group is not None:
            seen.setdefault(name_key(c.group), c.group)
    return list(seen.values())


def group_members(combatants: Sequence[Combatant], word: str) -> list[str]:
    """The names of group *word*'s members (any case), in the order of play."""
    key = name_key(word.strip())
    return [c.name for c in combatants if c.group is not None and name_key(c.group) == key]


def resolve_targets(combatants: Sequence[Combatant], words: Sequence[str]) -> list[str]:
    """The full names *words* mean, in the order given, each once (a
    group's down members too); a selector matching nobody, or an unknown or
    ambiguous word, raises one ActionError."""
    from rules.engine.work import resolve_name

    names = [c.name for c in combatants]
    keys = {name_key(n): n for n in names}
    out: list[str] = []
    for word in words:
        exact = keys.get(name_key(word.strip()))
        members = [] if exact is not None else group_members(combatants, word)
        if exact is not None:
            found = [exact]
        elif members:
            found = members
        elif is_selector(word):
            found = _select(combatants, word.strip())
        else:
            found = [resolve_name(names, word, group_names(combatants))]
        out.extend(n for n in found if n not in out)
    return out


def _names_in(text: str, keys: set[str]) -> bool:
    """Whether every comma-separated piece of *text* is a full name or a
    selector, with at least one piece a full name with a space."""
    pieces = [p.strip() for p in text.split(",")]
    if not all(pieces):
        return False
    if not all(name_key(p) in keys or is_selector(p) for p in pieces):
        return False
    return any(" " in p and name_key(p) in keys for p in pieces)


def fuse_names(
    rest: Sequence[str],
    start: int,
    names: Sequence[str],
    parses: Callable[[list[str]], T] | None = None,
    groups: Sequence[str] = (),
) -> list[str]:
    """*rest* with the words from *start* joined into one when they spell a
    full name (or a comma list of them) with spaces in it — a combatant's,
    or a group's among *groups*: the longest such run whose line *parses*
    (that callable raising ActionError when not; without it, the longest
    run).
    When the words also read as a shorter combatant name that is itself
    exact and the line parses that way too, the reading is ambiguous: one
    ActionError asks for quotes.  A group's name never makes that doubt
    (``damage Zombie 2 1d4`` is Zombie 2 of group Zombie: the longer name
    wins).  When no reading parses, the longest full name's problem is
    raised.  Without a run, *rest* is unchanged."""
    keys = {name_key(n) for n in names}
    runs = []
    spelled = keys | {name_key(g) for g in groups}
    for end in range(len(rest), start + 1, -1):
        text = " ".join(rest[start:end])
        if _names_in(text, spelled):
            runs.append([*rest[:start], text, *rest[end:]])
    if parses is None:
        return runs[0] if runs else list(rest)
    first_error: ActionError | None = None
    for fused in runs:
        try:
            parses(fused)
        except ActionError as exc:
            first_error = first_error or exc
            continue
        plain = list(rest)
        if name_key(rest[start].strip()) in keys and _parses(parses, plain):
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


def _parses(parses: Callable[[list[str]], T], words: list[str]) -> bool:
    try:
        parses(words)
    except ActionError:
        return False
    return True


#: option words whose value names combatants (fused like the targets).
NAME_OPTIONS = frozenset({"half", "none", "of"})


def fuse_all(
    spec: Any,
    rest: list[str],
    names: Sequence[str],
    parses: Callable[[list[str]], T],
    quoted: bool,
    groups: Sequence[str] = (),
) -> list[str]:
    """:func:`fuse_names` after each option word that names combatants
    (the longest run), then at the targets (unless the GM *quoted* them),
    where the line must parse; *groups*: the groups' names."""
    i = 2
    while i < len(rest):
        if rest[i - 1].lower() in NAME_OPTIONS and rest[i - 1].lower() in spec.options:
            rest = fuse_names(rest, i, names, groups=groups)
        i += 1
    start = targets_at(spec)
    if start is not None and not (quoted and start == 0):
        rest = fuse_names(rest, start, names, parses, groups)
    return rest


def targets_at(spec: Any) -> int | None:
    """The word index of the verb's targets when every positional before
    them is one word (``group NAME T``: 1), else None."""
    for i, (_key, kind) in enumerate(spec.positional):
        if kind in ("targets", "target"):
            return i
        if kind in ("rest", "dice"):
            return None
    return None
