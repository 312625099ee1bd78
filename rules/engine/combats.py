"""The combats of one fight, as its log tells them: ``start`` logs "Round 1"
and ``end`` logs "Combat ends after N rounds" (RULES.md §4), so after an
``end`` a later ``start`` begins combat 2.  The app's log, ``show`` and
``export`` number combats from these entries alone, so a fight saved before
the numbering reads the same."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

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


def count_combats(entries: Iterable[tuple[str, str]]) -> int:
    """How many combats begin among *entries*, ``(actor, text)`` pairs."""
    return sum(1 for actor, text in entries if begins_combat(actor, text))


def openings(entries: Iterable[tuple[str, str]], before: int = 0) -> Iterator[int]:
    """For each of *entries* (``(actor, text)``), the number of the combat it
    begins, or 0; *before*: how many combats began before the first."""
    number = before
    for actor, text in entries:
        if begins_combat(actor, text):
            number += 1
            yield number
        else:
            yield 0
