"""One action on a horde does work in proportion to the horde, not to its
square: a line may hold 100 actions on all 500 combatants, and a
condition with a duration, temp HP or a bonus ``of`` someone, or an attack
that hits them all, each took 40-100 ms on 500, so such a line held the
tracker for 5-10 s.  The work is counted, not timed: the lines of Python
run while the action applies (``sys.settrace``), on a horde and on one
four times as large."""

from __future__ import annotations

import random
import sys
from types import FrameType
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session

#: four times the horde, four times the work (and some to spare); a cost
#: per target that grows with the horde makes it seven times or more
GROWTH = 5.0


def horde(size: int) -> Session:
    """*size* zombies (hundreds) in combat."""
    session = Session(Encounter("Crypt"), rng=random.Random(5))
    for _ in range(size // 100):  # Zombie 1-100, then 101-200, …
        session.apply("add Zombie count 100 hp 500 al 1")
    session.apply("start")
    return session


def lines_run(size: int, line: str) -> int:
    """The lines of Python run while *line* applies to a horde of *size*."""
    session = horde(size)
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        session.apply(line)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize(
    "line",
    [
        "damage all 5 fire",
        "cond all frightened value 2 rounds 3",
        "cond all prone rounds 2 of 'Zombie 2'",
        "temp all 5 rounds 2",
        "temp all 5 of 'Zombie 2'",
        "bonus all morale 1 rounds 2 of 'Zombie 2'",
        "attack all with +50 damage 1d6 fire",
    ],
)
def test_an_action_on_every_combatant_grows_with_the_horde(line: str) -> None:
    small, large = lines_run(100, line), lines_run(400, line)
    assert large <= GROWTH * small, f"{line}: {small:,} lines on 100, {large:,} on 400"
