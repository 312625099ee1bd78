"""The GM's marks (``space``): combatants marked on their own rows, and
groups marked whole on their collapsed row.

A group's mark stands for "the group's standing members" and is worked out
when an action is applied, as the unmarked row itself is: a member who went
down since (an area damage between two actions) drops out, one healed comes
back; when every member is down, it stands for all of them (a heal still
reaches them).  A mark on a combatant's own row stays as placed, down or
not.  A group is marked one way or the other, never both: marking its row
takes over its members' own marks, and marking one member on its own row
turns the group's mark into its standing members' own marks first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rules.text import name_key
from tracker.collapse import standing

if TYPE_CHECKING:
    from rules.combatant import Combatant


def _names(saved: object) -> list[str]:
    """A saved list of names, each once (anything else: none): a hand-edited
    snapshot may repeat one, and one ``space`` must unmark it."""
    if not isinstance(saved, list):
        return []
    return list(dict.fromkeys(n for n in saved if isinstance(n, str)))


def _members(combatants: Sequence[Combatant], key: str) -> list[Combatant]:
    """Group *key*'s (a ``name_key``) members, in the order of play."""
    return [c for c in combatants if c.group is not None and name_key(c.group) == key]


class Marks:
    """What ``space`` marked: :attr:`names` on their own rows, :attr:`groups` on their row."""

    def __init__(self, names: object = None, groups: object = None) -> None:
        """*names*, *groups*: as :meth:`saved` wrote them (anything else: none)."""
        #: combatants marked on their own rows, in the order they were marked
        self.names: list[str] = _names(names)
        #: groups marked on their collapsed row, as their members spell the
        #: name; each once, as a group's name is compared (``name_key``)
        once: dict[str, str] = {}
        for group in _names(groups):
            once.setdefault(name_key(group), group)
        self.groups: list[str] = list(once.values())

    def __bool__(self) -> bool:
        return bool(self.names or self.groups)

    def saved(self) -> dict[str, list[str]]:
        """For the encounter's UI state (a resume marks the same)."""
        return {"marked": list(self.names), "marked_groups": list(self.groups)}

    def _group_keys(self) -> set[str]:
        return {name_key(g) for g in self.groups}

    def resolve(self, combatants: Sequence[Combatant], every: bool = False) -> list[str]:
        """Whom the marks stand for now, in the order of play: the combatants
        marked on their own rows and each marked group's standing members
        (*every*: all its members, down ones too, as the players' view keys
        take a group)."""
        chosen = set(self.names)
        keys = self._group_keys()
        if keys:
            groups: dict[str, list[Combatant]] = {}
            for c in combatants:
                if c.group is not None and (key := name_key(c.group)) in keys:
                    groups.setdefault(key, []).append(c)
            for members in groups.values():
                chosen.update([c.name for c in members] if every else standing(members))
        return [c.name for c in combatants if c.name in chosen]

    def toggle_group(self, members: Sequence[Combatant]) -> None:
        """``space`` on a collapsed group's row (*members*: the row's): unmark
        it when it is marked (as a group, or each standing member on its own
        row), with every member's own mark; else mark the group, in place of
        its members' own marks."""
        group = members[0].group
        assert group is not None  # a collapsed row is a group's
        key = name_key(group)
        marked = key in self._group_keys() or all(n in self.names for n in standing(members))
        inside = {c.name for c in members}
        self.groups = [g for g in self.groups if name_key(g) != key]
        self.names = [n for n in self.names if n not in inside]
        if not marked:
            self.groups.append(group)

    def toggle(self, combatants: Sequence[Combatant], c: Combatant) -> None:
        """``space`` on *c*'s own row: mark or unmark it.  In a marked group
        the group's mark becomes its standing members' own marks first, so
        the rows keep showing what they showed and only *c* changes."""
        if c.group is not None and (key := name_key(c.group)) in self._group_keys():
            self.groups = [g for g in self.groups if name_key(g) != key]
            self.names += [n for n in standing(_members(combatants, key)) if n not in self.names]
        if c.name in self.names:
            self.names.remove(c.name)
        else:
            self.names.append(c.name)

    def clear(self) -> bool:
        """Forget every mark; False when there was none."""
        if not self:
            return False
        self.names, self.groups = [], []
        return True

    def renamed(self, renames: Mapping[str, str]) -> bool:
        """Combatants were renamed (old to new): their own marks follow; True: one did."""
        if not any(n in renames for n in self.names):
            return False
        self.names = [renames.get(n, n) for n in self.names]
        return True

    def prune(self, combatants: Sequence[Combatant]) -> None:
        """Forget the marks of combatants and groups that are gone."""
        names = {c.name for c in combatants}
        self.names = [n for n in self.names if n in names]
        if self.groups:
            present = {name_key(c.group) for c in combatants if c.group is not None}
            self.groups = [g for g in self.groups if name_key(g) in present]
