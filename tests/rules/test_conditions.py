"""Conditions and durations (RULES.md §10; durations also §6 temp HP, §9 bonuses)."""

from __future__ import annotations

import pytest

from rules.bonuses import Bonus
from rules.combatant import Combatant
from rules.conditions import Condition, add_condition, remove_condition
from rules.durations import Duration, tick_durations


def goblin(name: str = "Goblin 1", **kw: object) -> Combatant:
    return Combatant(name, 7, 7, **kw)  # type: ignore[arg-type]


def test_add_condition_with_value_and_duration() -> None:
    c, text = add_condition(goblin(), Condition("poisoned", 2, Duration(3, "end", "Ogre")))
    assert c.conditions == (Condition("poisoned", 2, Duration(3, "end", "Ogre")),)
    assert text == "Goblin 1 is poisoned 2 for 3 rounds (counts down at the end of Ogre's turn)"


def test_same_name_replaces_any_case() -> None:
    c, _ = add_condition(goblin(), Condition("Poisoned", 2))
    c, _ = add_condition(c, Condition("prone"))
    c, text = add_condition(c, Condition("poisoned", 1))
    assert [(x.name, x.value) for x in c.conditions] == [("poisoned", 1), ("prone", None)]
    assert "replaces Poisoned 2" in text


def test_add_rejects_empty_name_and_zero_duration() -> None:
    with pytest.raises(ValueError, match="needs a name"):
        add_condition(goblin(), Condition("  "))
    with pytest.raises(ValueError, match="at least 1 round"):
        add_condition(goblin(), Condition("dazed", duration=Duration(0)))


def test_remove_condition_case_insensitive() -> None:
    c, _ = add_condition(goblin(), Condition("Frightened", 1))
    c, text = remove_condition(c, "frightened")
    assert c.conditions == () and text == "Goblin 1 is no longer Frightened"


def test_remove_absent_is_clear_error() -> None:
    with pytest.raises(ValueError, match="Goblin 1 is not stunned"):
        remove_condition(goblin(), "stunned")


def test_tick_counts_down_matching_durations_only() -> None:
    frightened = Condition("frightened", None, Duration(2, "end", "Ogre"))
    other_tick = Condition("slowed", None, Duration(2, "start", "Ogre"))
    other_whose = Condition("blinded", None, Duration(2, "end", "Ayla"))
    forever = Condition("prone")
    g = goblin(conditions=(frightened, other_tick, other_whose, forever))
    (g2,), lines = tick_durations([g], "Ogre", "end")
    assert lines == []
    assert g2.conditions[0].rounds_left == 1
    assert g2.conditions[1:] == (other_tick, other_whose, forever)
    (g3,), lines = tick_durations([g2], "Ogre", "end")
    assert lines == ["Goblin 1 is no longer frightened"]
    assert [x.name for x in g3.conditions] == ["slowed", "blinded", "prone"]


def test_tick_every_combatant_bonuses_and_temp_hp() -> None:
    shield = Bonus("deflection", 2, "al", Duration(1, "end", "Cleric"), "Shield of Faith")
    a = goblin("Goblin 1", bonuses=(shield,))
    b = goblin("Ayla", temp_hp=5, temp_hp_duration=Duration(1, "end", "Cleric"))
    c = goblin("Cleric")
    out, lines = tick_durations([a, b, c], "Cleric", "end")
    assert [x.name for x in out] == ["Goblin 1", "Ayla", "Cleric"]
    assert out[0].bonuses == ()
    assert (out[1].temp_hp, out[1].temp_hp_duration) == (0, None)
    assert out[2] is c
    assert lines == [
        "Goblin 1 loses +2 deflection to AL (Shield of Faith)",
        "Ayla's 5 temp HP expire",
    ]


def test_tick_bad_when() -> None:
    with pytest.raises(ValueError, match="'start' or 'end'"):
        tick_durations([goblin()], "Ogre", "middle")
