"""Bounds on what an action *produces*, against typos and hostile files, not
rules: the action language bounds every number typed (``MAX_NUMBER``); these
hold the same bound for a dice amount's highest possible total (decided
before rolling, so acceptance never depends on the dice; a critical hit may
still double it, RULES.md §5), a kept total such as temp HP (§6), and the
roster (:data:`MAX_COMBATANTS`)."""

from __future__ import annotations

from rules.engine.values import MAX_NUMBER
from rules.errors import ActionError
from rules.text import shorten

#: the most combatants one encounter holds (many screenfuls of rows).
MAX_COMBATANTS = 500


def check_roster(current: int, adding: int) -> None:
    """Refuse growing an encounter of *current* combatants by *adding* past
    :data:`MAX_COMBATANTS`."""
    total = current + adding
    if total > MAX_COMBATANTS:
        raise ActionError(
            f"an encounter holds at most {MAX_COMBATANTS} combatants; this would make {total:,}"
        )


def check_amount(what: str, expression: object) -> None:
    """Refuse a dice expression (or number) whose highest possible total is
    above ``MAX_NUMBER``; *what* names the field (``temp amount``)."""
    from rules.dice import DiceError, maximum

    text = str(expression)
    try:
        highest = maximum(text)
    except DiceError as exc:  # the parser checked it already; say it anyway
        raise ActionError(f"{what}: {exc}") from None
    if highest > MAX_NUMBER:
        raise ActionError(
            f"{what} {shorten(text, 40)} can total {highest:,} (amounts are at most {MAX_NUMBER:,})"
        )


def check_total(what: str, total: int) -> None:
    """Refuse a kept total (``Ogre's temp HP``) above ``MAX_NUMBER``."""
    if total > MAX_NUMBER:
        raise ActionError(f"{what} would be {total:,} (at most {MAX_NUMBER:,})")
