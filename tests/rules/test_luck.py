"""Luck points (RULES.md §11)."""

from __future__ import annotations

import pytest

from rules.combatant import Combatant
from rules.luck import luck_points, spend_luck


@pytest.mark.parametrize(
    ("score", "points"),
    [(None, None), (3, None), (10, None), (11, None), (12, 1), (15, 2), (20, 5)],
)
def test_luck_points_are_the_positive_modifier(score: int | None, points: int | None) -> None:
    assert luck_points(score) == points


def test_spend_until_empty() -> None:
    c = Combatant("Ayla", 20, 20, abilities={"luck": 14}, luck_points=2)
    c, text = spend_luck(c)
    assert c.luck_points == 1 and "1 left" in text and "one more d20" in text
    c, _ = spend_luck(c)
    assert c.luck_points == 0
    with pytest.raises(ValueError, match="no luck points left"):
        spend_luck(c)


def test_no_luck_at_all() -> None:
    with pytest.raises(ValueError, match="Goblin has no luck points"):
        spend_luck(Combatant("Goblin", 7, 7))
