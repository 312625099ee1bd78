"""An unquoted full name in a line that does not read (issue 11): the
error is about what the GM got wrong after the name, not a misreading of
the name's second word as the amount."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError


def fight() -> Session:
    s = Session(Encounter("Cave"), rng=random.Random(2))
    s.apply("add 'Goblin Boss' hp 20")
    s.apply("add Goblin hp 7")
    return s


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage Goblin Boss 0", "damage amount: 0; an amount is at least 1"),
        ("damage Goblin Boss", "damage: missing amount"),
        ("damage Goblin Boss fire", 'damage amount: "f"'),
        ("heal Goblin Boss", "heal: missing amount"),
        ("init Goblin Boss x", "init: value must be a whole number, not 'x'"),
    ],
)
def test_the_full_names_reading_gives_the_error(line: str, message: str) -> None:
    s = fight()
    before = s.encounter
    with pytest.raises(ActionError) as caught:
        s.apply(line)
    assert str(caught.value).startswith(message)
    assert '"B"' not in str(caught.value) and "Boss" not in str(caught.value)
    assert s.encounter == before


def test_a_line_that_reads_either_way_is_unchanged() -> None:
    s = fight()
    s.apply("damage Goblin Boss 5 fire")
    assert [c.hp for c in s.encounter.combatants] == [15, 7]
    with pytest.raises(ActionError, match="at least 1"):
        s.apply("damage Goblin 0")  # no full name with spaces: as before
