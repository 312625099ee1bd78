"""Which rows the initiative pane shows: a group (docs/rules.md §4) is one
row until the GM expands it.  The controller and the pane read the same
:class:`Span` list, so a row index means the same to both."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, NamedTuple

from rules.text import name_key

if TYPE_CHECKING:
    from rules.combatant import Combatant


class Span(NamedTuple):
    """One row of the pane: the combatants ``start`` to ``start + size`` of the order."""

    start: int
    size: int = 1
    #: the collapsed group's name as its first member spells it (None: one combatant)
    group: str | None = None

    @property
    def collapsed(self) -> bool:
        return self.group is not None

    def covers(self, index: int) -> bool:
        return self.start <= index < self.start + self.size

    def lead(self, turn: int | None) -> int:
        """Whom the row stands for when selected: the member whose turn it is, else the first."""
        return turn if turn is not None and self.covers(turn) else self.start


def spans(combatants: Sequence[Combatant], expanded: Collection[str]) -> tuple[Span, ...]:
    """The rows for *combatants* in the order of play: each run of two or
    more members of one group is one row unless its ``name_key`` is in
    *expanded*; everyone else (a member moved out of the run too) is a row."""
    out: list[Span] = []
    # each group's key worked out once: a horde's members all spell it alike
    keys: dict[str, str] = {}

    def key_of(group: str | None) -> str | None:
        if group is None:
            return None
        key = keys.get(group)
        if key is None:
            key = keys[group] = name_key(group)
        return key

    i, n = 0, len(combatants)
    while i < n:
        group = combatants[i].group
        j = i + 1
        if group is not None:
            key = key_of(group)
            if key not in expanded:
                while j < n and key_of(combatants[j].group) == key:
                    j += 1
        out.append(Span(i, j - i, group if j - i > 1 else None))
        i = j
    return tuple(out)


def row_of(rows: Sequence[Span], index: int) -> int:
    """The row showing the combatant at *index* in the order."""
    starts = [s.start for s in rows]
    return max(0, bisect_right(starts, index) - 1)


def standing(members: Sequence[Combatant]) -> list[str]:
    """Whom a key on a collapsed group acts on: its members that are not
    down, or every member when all are (a heal still reaches them)."""
    up = [c.name for c in members if not c.down]
    return up or [c.name for c in members]


class Collapse:
    """Which groups are expanded, and their rows (worked out again only on a change)."""

    def __init__(self, expanded: object = None) -> None:
        """*expanded*: the saved ``name_key`` list (anything else: none)."""
        from rules.limits import MAX_COMBATANTS

        saved = expanded if isinstance(expanded, list) and len(expanded) <= MAX_COMBATANTS else []
        #: the groups shown member by member, by ``name_key``
        self.expanded: set[str] = {str(k) for k in saved}
        self._rows: tuple[Span, ...] = ()
        self._of: tuple[Sequence[Combatant], frozenset[str]] | None = None

    def rows(self, combatants: Sequence[Combatant]) -> tuple[Span, ...]:
        key = frozenset(self.expanded)
        if self._of is None or self._of[0] is not combatants or self._of[1] != key:
            self._rows = spans(combatants, self.expanded)
            self._of = (combatants, key)
        return self._rows

    def why_not(self, combatants: Sequence[Combatant], index: int) -> str | None:
        """Why the row of the combatant at *index* cannot toggle (None: it can)."""
        c = combatants[index]
        if c.group is None:
            return f"{c.name} is in no group (group NAME T joins one)"
        key = name_key(c.group)
        around = spans(combatants, self.expanded - {key})
        if not around[row_of(around, index)].collapsed:
            return f"group {c.group} has no other member beside {c.name}: nothing to collapse"
        return None

    def toggle(self, combatants: Sequence[Combatant], index: int) -> bool:
        """Expand or collapse the group of the combatant at *index* (False: :meth:`why_not`)."""
        if self.why_not(combatants, index) is not None:
            return False
        group = combatants[index].group
        assert group is not None  # why_not
        self.expanded ^= {name_key(group)}
        present = {name_key(c.group) for c in combatants if c.group is not None}
        self.expanded &= present  # forget groups that are gone
        return True

    def saved(self) -> list[str]:
        return sorted(self.expanded)
