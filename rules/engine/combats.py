"""The combats of one fight, as its log tells them: ``start`` logs "Round 1"
and ``end`` logs "Combat ends after N rounds" (RULES.md §4), so after an
``end`` a later ``start`` begins combat 2.  A combat *opens* with the first
entry its ``start`` logged, its initiative rolls and Dash checks, which come
before "Round 1": the entries of one action share its sequence number, so
that is the action's first entry, or in a batch ``end; start`` the first
after the ``end``.  The app's log, ``show`` and ``export`` number combats
and place their openings from these entries alone, so a fight saved before
the numbering reads the same."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from rules.encounter import LogEntry

#: the entry ``start`` logs once the order is set (and nothing else logs)
COMBAT_BEGINS = "Round 1"
#: how ``end``'s entry begins
COMBAT_ENDS = "Combat ends after "


def begins_combat(actor: str, text: str) -> bool:
    """Whether the entry (*actor*, *text*) is the one ``start`` logs."""
    return not actor and text == COMBAT_BEGINS


def ends_combat(actor: str, text: str) -> bool:
    """Whether the entry (*actor*, *text*) is the one ``end`` logs (a
    combatant named "Combat ends after …" is its entries' actor)."""
    return not actor and text.startswith(COMBAT_ENDS)


def count_combats(entries: Iterable[LogEntry]) -> int:
    """How many combats begin among the log *entries*."""
    return sum(1 for e in entries if begins_combat(e.actor, e.text))


def opens_combat(log: Sequence[LogEntry], index: int) -> bool:
    """Whether ``log[index]`` is the first entry a ``start`` logged: its
    action's first (or the first after that action's ``end``), with the
    action's "Round 1" still to come and no ``end`` before it.  Only an
    action's first entries look further, so a pass over the log reads each
    entry about once."""
    entry = log[index]
    if index > 0:
        before = log[index - 1]
        if before.seq == entry.seq and not ends_combat(before.actor, before.text):
            return False
    for at in range(index, len(log)):
        later = log[at]
        if later.seq != entry.seq or ends_combat(later.actor, later.text):
            return False
        if begins_combat(later.actor, later.text):
            return True
    return False


def openings(log: Sequence[LogEntry], before: int = 0) -> Iterator[int]:
    """For each entry of *log*, the number of the combat it opens
    (:func:`opens_combat`), or 0; *before*: how many combats began before
    the first."""
    number = before
    for index in range(len(log)):
        if opens_combat(log, index):
            number += 1
            yield number
        else:
            yield 0
