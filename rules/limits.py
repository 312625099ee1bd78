"""Bounds on what an action *produces*, against typos and hostile files, not
rules: the action language bounds every number typed (``MAX_NUMBER``); these
hold the same bound for a dice amount's highest possible total (decided
before rolling, so acceptance never depends on the dice; a critical hit may
still double it, RULES.md §5), a kept total such as temp HP (§6), the
roster (:data:`MAX_COMBATANTS`), the length of an action line
(:data:`MAX_LINE`, derived from the roster so that every key works on the
largest fight) and the dice one line rolls (:data:`MAX_ROLLED`)."""

from __future__ import annotations

from rules.dice import MAX_DICE
from rules.engine.values import MAX_FACES, MAX_NUMBER
from rules.errors import ActionError
from rules.text import MAX_NAME, shorten

#: the most combatants one encounter holds (many screenfuls of rows).
MAX_COMBATANTS = 500

#: the longest action line, in characters (131,000).  The longest line a key
#: builds is area damage through the saves form on every combatant: each
#: name twice (the targets, then after ``half`` or ``none``), each at its
#: longest, quoted at its longest (``rules.engine.shell.quote_word``: twice
#: its length) and followed by a comma.  The rest of that line (the verb,
#: the amount and its parts, tags, options) gets as much room again as the
#: faces of a physical roll take (MAX_FACES of four digits, each with its
#: comma).  Reading a line takes time linear in its length
#: (``bench/bench_long_lines.py``), so the bound is about memory, not time.
MAX_LINE = 2 * MAX_COMBATANTS * (2 * MAX_NAME + 1) + 2 * MAX_FACES * len("1000,")

#: the most dice one line (all its parts) rolls: an attack on every
#: combatant, each hit critical with the most dice an amount has doubled,
#: and its d20.  Every face is journaled with the line, and a line of a
#: hundred such attacks held the tracker for 40 s.
MAX_ROLLED = MAX_COMBATANTS * (2 * MAX_DICE + 1)


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
