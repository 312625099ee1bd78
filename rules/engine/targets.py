"""What a typed target means (README, "The action language"): a name, a
unique prefix of one, a group's name (every member, docs/rules.md §4
"Groups"), or a selector — ``all``, ``monsters`` (every non-player),
``players``, ``Zombie*`` (every name starting so, any case) — in a comma
list.  :func:`resolve_targets` turns them into full names (the
journaled action keeps those, so a replay is exact; ``rules.engine.fuse``
reads an unquoted full name with spaces, ``damage Hobgoblin 1 20``, as one
word).  A combatant literally named like a selector or a group is meant by
that word: an exact name wins, then a group's name, then a selector, then a
prefix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rules.errors import ActionError
from rules.text import name_key, shorten

if TYPE_CHECKING:
    from rules.combatant import Combatant

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
    out: dict[str, None] = {}  # in the order given, each once
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
        out.update(dict.fromkeys(found))
    return list(out)


def targets_at(spec: Any) -> int | None:
    """The word index of the verb's targets when every positional before
    them is one word (``group NAME T``: 1), else None."""
    for i, (_key, kind) in enumerate(spec.positional):
        if kind in ("targets", "target"):
            return i
        if kind in ("rest", "dice"):
            return None
    return None
