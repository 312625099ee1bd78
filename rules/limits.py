"""Bounds on what an action *produces*, not only on what it types.

The action language bounds every number typed (``rules.engine.grammar.bounded``:
amounts and hit points at most ``MAX_NUMBER``).  These checks hold the same
bounds for results, so no sum or roll slips past them:

- an amount rolled from dice (damage, healing, temp HP, persistent damage,
  the hit points of ``add``, an attack's damage) is refused when the
  expression's *highest possible total* is above ``MAX_NUMBER`` — decided
  from the expression before anything is rolled, so whether an action is
  accepted never depends on the dice (``1000d1000`` is at the bound and
  accepted; ``999999+999999`` is not).  The bound is on the expression as
  typed: a critical hit doubles it as the rules say (RULES.md §5 step 1),
  which changes no stored number beyond its bound, since damage is only ever
  taken off hit points and temp HP;
- a total kept on a combatant (temp HP adding up under ``temp_hp = add``,
  RULES.md §6) is refused when it would pass ``MAX_NUMBER``, rather than
  being cut down silently;
- an encounter holds at most :data:`MAX_COMBATANTS` combatants.

Not rules of RULES.md: guards against typos and hostile files.  Every check
raises :class:`~rules.errors.ActionError` before anything changes.
"""

from __future__ import annotations

from rules.engine.grammar import MAX_NUMBER
from rules.errors import ActionError
from rules.text import shorten

#: the most combatants one encounter holds (a screenful of initiative rows
#: many times over; a prepared file could otherwise build 20,000).
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


__all__ = ["MAX_COMBATANTS", "check_amount", "check_roster", "check_total"]
