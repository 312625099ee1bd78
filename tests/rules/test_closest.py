"""``rules.text.closest``, the one did-you-mean of the language: a guess
only when one choice is clearly nearest."""

from __future__ import annotations

from rules.text import closest


def test_the_nearest_choice_any_case_spelled_as_given() -> None:
    assert closest("zalk", ["Ogre", "Zalek", "Brother Tomas"]) == "Zalek"
    assert closest("FIER", ["cold", "fire"]) == "fire"


def test_no_guess_below_the_cutoff_or_between_equals() -> None:
    assert closest("hit", ["hide", "init", "heal"]) is None  # 0.57 each: too far
    assert closest("Goblin 7", ["Goblin 1", "Goblin 2", "Ogre"]) is None  # a tie
    assert closest("frightend", ["frightened"], cutoff=0.85) == "frightened"
    assert closest("frigtnd", ["frightened"], cutoff=0.85) is None


def test_a_choice_given_twice_is_no_tie() -> None:
    # a combatant and a group may share a name
    assert closest("Zombis", ["Zombies", "zombies", "Ogre"]) == "Zombies"
