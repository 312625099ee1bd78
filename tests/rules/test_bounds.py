"""Bounds hold for results, not only for what is typed (issue 9): a rolled or
summed amount past the bound, an encounter past 500 combatants, a rule
option that makes no sense — each is refused before anything changes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.values import MAX_NUMBER
from rules.errors import ActionError
from rules.limits import MAX_COMBATANTS, check_amount
from rules.rulesets import Ruleset, RulesetError, ruleset


def make(**options: Any) -> Session:
    s = Session(Encounter("Bounds", ruleset("core", **options)), rng=random.Random(5))
    s.apply("add Ogre hp 40 al 11")
    s.apply("add Zalek player hp 38 al 15")
    return s


def refused(s: Session, line: str, match: str) -> None:
    before = s.to_dict()
    with pytest.raises(ActionError, match=match):
        s.apply(line)
    assert s.to_dict() == before


@pytest.mark.parametrize(
    "line",
    [
        "temp Ogre 999999+999999+999999",
        "damage Ogre 1000d1000+1",
        "heal Ogre 999999+2",
        "persist Ogre 1000d1000+1 fire",
        "add Giant hp 1000d1000+1",
        "add Giant hp 999999+999999 avg",
        "damage Ogre,Zalek 1000000+1000000 fire",
        "attack Ogre damage 1000d1000+1",
    ],
)
def test_an_amount_that_can_total_past_the_bound_changes_nothing(line: str) -> None:
    s = make()
    s.apply("start")
    refused(s, line, "at most 1,000,000")


def test_the_message_says_what_the_expression_can_total() -> None:
    with pytest.raises(ActionError) as info:
        make().apply("temp Ogre 999999+999999+999999")
    assert str(info.value) == (
        "temp amount 999999+999999+999999 can total 2,999,997 (amounts are at most 1,000,000)"
    )


def test_an_expression_at_the_bound_is_accepted() -> None:
    s = make()
    s.apply("damage Ogre 1000d1000")
    assert next(c for c in s.encounter.combatants if c.name == "Ogre").hp == 0
    s.apply("temp Zalek 1000000")
    s.apply("heal Ogre 999999+1")
    s.apply("add Giant hp 1000d1000 avg")
    assert check_amount("damage", "1000d1000") is None


def test_the_bound_is_on_the_typed_expression_a_critical_hit_may_double_it() -> None:
    # The decision (rules/limits.py): a critical hit doubles what was typed,
    # as RULES.md §5 says; damage only ever comes off bounded hit points.
    s = make(critical_damage="double-total")
    s.apply("add Titan hp 1000000")
    s.apply("damage Titan 999999+1 crit")
    assert next(c for c in s.encounter.combatants if c.name == "Titan").hp == 0


def test_the_decision_holds_without_rolling_so_it_never_depends_on_the_dice() -> None:
    for seed in range(5):
        s = Session(rng=random.Random(seed))
        s.apply("add Ogre hp 10")
        with pytest.raises(ActionError):
            s.apply("damage Ogre 1000d1000+1")  # could roll low; refused anyway


def test_temp_hp_that_add_up_past_the_bound_are_refused_not_cut_down() -> None:
    s = make(temp_hp="add")
    s.apply("temp Ogre 600000")
    refused(s, "temp Ogre 400001", "Ogre's temp HP would be 1,000,001")
    s.apply("temp Ogre 400000")
    assert next(c for c in s.encounter.combatants if c.name == "Ogre").temp_hp == MAX_NUMBER


def test_the_sixth_hundred_goblins_is_refused_at_500() -> None:
    s = Session(rng=random.Random(1))
    for _ in range(5):
        s.apply("add Goblin count 100 hp 7")
    assert len(s.encounter.combatants) == MAX_COMBATANTS
    refused(s, "add Goblin count 100 hp 7", "at most 500 combatants; this would make 600")
    refused(s, "add Boss hp 50", "this would make 501")


def test_a_batch_past_the_cap_changes_nothing() -> None:
    s = Session(rng=random.Random(1))
    s.apply("add Goblin count 100 hp 7")
    line = "; ".join(f"add Orc{k} count 100 hp 9" for k in range(5))
    refused(s, line, "this would make 600")
    assert len(s.encounter.combatants) == 100


# -- rule options --------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("stack_cap", float("inf"), "whole number, not inf"),
        ("stack_cap", float("nan"), "whole number, not nan"),
        ("stack_cap", 2.5, "whole number, not 2.5"),
        ("stack_cap", 3.0, "whole number, not 3.0"),
        ("stack_cap", "2.5", "whole number, not '2.5'"),
        ("stack_cap", "inf", "whole number, not 'inf'"),
        ("stack_cap", -1, "from 1 to 100, not -1"),
        ("stack_cap", "0", "from 1 to 100, not 0"),
        ("cover_half", -2, "from 0 to 1,000, not -2"),
        ("cover_three_quarters", "-5", "from 0 to 1,000"),
        ("persistent_dc", 0, "from 1 to 1,000, not 0"),
        ("persistent_dc", 10**30, "from 1 to 1,000"),
        ("persistent_dc", "9" * 5000, "whole number"),
        ("persistent_dc", "\u0663", "whole number"),  # an Arabic-Indic 3
        ("resistance", 3, "one of halve, subtract, not 3"),
        ("resistance", ["halve"], "not a list"),
        ("resistance", {"a": 1}, "not a table"),
        ("advantage", "x" * 10_000_000, "one of"),
    ],
)
def test_an_option_that_does_not_fit_is_refused(key: str, value: Any, match: str) -> None:
    with pytest.raises(RulesetError, match=match) as info:
        ruleset("core", **{key: value})
    assert len(str(info.value)) < 200 and "\n" not in str(info.value)


def test_option_text_from_the_command_line_is_read_as_a_number() -> None:
    rs = ruleset("forge", stack_cap="3", cover_half="+1", persistent_dc=" 15 ")
    assert (rs["stack_cap"], rs["cover_half"], rs["persistent_dc"]) == (3, 1, 15)


def test_an_unknown_ruleset_or_option_is_refused_whatever_its_type() -> None:
    with pytest.raises(RulesetError, match="unknown ruleset a list"):
        ruleset([])  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="unknown ruleset '\\\\x1b"):
        ruleset("\x1b[2J")
    with pytest.raises(RulesetError) as info:
        ruleset("y" * 1_000_000)
    assert len(str(info.value)) < 200


def test_a_saved_encounter_keeps_options_from_before_the_bounds() -> None:
    old = Ruleset.from_dict({"name": "core", "options": {"cover_half": -1, "stack_cap": 0}})
    assert (old["cover_half"], old["stack_cap"]) == (-1, 0)


@pytest.mark.parametrize(
    "line",
    [
        "heal Ogre -5",
        "damage Ogre -5",
        "damage Ogre 0 fire",
        "temp Ogre -7 rounds 3",
        "heal Ogre 2d6-20",
        "persist Ogre 1-2 fire",
        "attack Ogre damage 0",
    ],
)
def test_an_amount_that_cannot_come_to_1_changes_nothing(line: str) -> None:
    s = make()
    s.apply("start")
    refused(s, line, "an amount is at least 1 hit point")


def test_an_amount_that_may_roll_below_1_is_still_an_amount() -> None:
    s = make()
    s.apply("damage Ogre 1d4-3 faces 4")  # 4 - 3 = 1
    assert {c.name: c.hp for c in s.encounter.combatants}["Ogre"] == 39
