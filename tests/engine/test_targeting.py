"""Targeting in the action language (issue 11): unquoted full names, group
selectors, saves for half or none per target, several typed damage parts,
and the warning for an unknown damage tag — each through ``Session.apply``
with a seeded random source, with undo restoring the state exactly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.parse import parse_action
from rules.errors import ActionError
from rules.rulesets import ruleset

CAST = [
    "add Ayla player hp 30",
    "add Bram player hp 30",
    "add Zombie count 3 hp 20",
    "add Hobgoblin count 2 hp 20",
    "add Ogre hp 60 resist fire=5 weak cold immune poison",
]


def make(rules: str = "core", seed: int = 3) -> Session:
    s = Session(Encounter("Crypt", ruleset(rules)), rng=random.Random(seed))
    for line in CAST:
        s.apply(line)
    return s


def hp(s: Session, name: str) -> int:
    return next(c.hp for c in s.encounter.combatants if c.name == name)


def state(s: Session) -> dict[str, Any]:
    return {"encounter": s.to_dict()["encounter"], "log": [e.to_dict() for e in s.log]}


def texts(step: Any) -> list[str]:
    return [e.text for e in step.log]


# -- unquoted full names ------------------------------------------------------


def test_unquoted_full_name_is_one_target() -> None:
    s = make()
    step = s.apply("damage Hobgoblin 1 7")
    assert step.action["targets"] == ["Hobgoblin 1"]
    assert hp(s, "Hobgoblin 1") == 13 and hp(s, "Hobgoblin 2") == 20


def test_unquoted_names_in_a_comma_list_and_after_half() -> None:
    s = make()
    step = s.apply("damage Zombie 1, Zombie 2 10 half Zombie 2")
    assert step.action["targets"] == ["Zombie 1", "Zombie 2"]
    assert step.action["half"] == ["Zombie 2"]
    assert (hp(s, "Zombie 1"), hp(s, "Zombie 2")) == (10, 15)


def test_a_shorter_reading_that_also_parses_is_refused_with_one_message() -> None:
    s = Session(Encounter("Cave", ruleset("core")), rng=random.Random(1))
    s.apply("add Ogre hp 30")
    s.apply("add 'Ogre 2' hp 30")
    before = state(s)
    with pytest.raises(ActionError, match="quote the name"):
        s.apply("damage Ogre 2 + 1d4 fire")  # Ogre 2 takes 1d4, or Ogre takes 2+1d4?
    assert state(s) == before
    s.apply("damage 'Ogre' 2 fire")  # quoted: the literal short name
    assert [c.hp for c in s.encounter.combatants] == [28, 30]


def test_dice_after_a_name_is_never_a_tag_so_the_longer_name_is_meant() -> None:
    s = Session(Encounter("Cave", ruleset("core")), rng=random.Random(1))
    s.apply("add Ogre hp 30")
    s.apply("add 'Ogre 2' hp 30")
    s.apply("damage Ogre 2 2d6 fire")  # "2d6" cannot be a tag of Ogre's 2 damage
    assert s.encounter.combatants[0].hp == 30
    assert s.encounter.combatants[1].hp < 30


def test_the_longest_name_that_leaves_a_valid_line_wins() -> None:
    s = Session(Encounter("Cave", ruleset("core")), rng=random.Random(1))
    s.apply("add Ogre hp 30")
    s.apply("add 'Ogre 2' hp 30")
    s.apply("damage Ogre 2 5")  # a number is never a tag: Ogre 2 takes 5
    s.apply("damage Ogre 2 fire")  # "fire" is no amount: Ogre takes 2
    assert [c.hp for c in s.encounter.combatants] == [28, 25]


def test_without_the_names_an_unquoted_full_name_reads_as_before() -> None:
    assert parse_action("damage 'Hobgoblin 1' 20")["targets"] == ["Hobgoblin 1"]
    with pytest.raises(ActionError, match="is a number"):
        parse_action("damage Hobgoblin 1 20")


# -- group selectors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("all", ["Ayla", "Bram", "Zombie 1", "Zombie 2", "Zombie 3", "Hobgoblin 1"]),
        ("monsters", ["Zombie 1", "Zombie 2", "Zombie 3", "Hobgoblin 1", "Hobgoblin 2", "Ogre"]),
        ("players", ["Ayla", "Bram"]),
        ("zombie*", ["Zombie 1", "Zombie 2", "Zombie 3"]),
        ("Ogre,Zombie*", ["Ogre", "Zombie 1", "Zombie 2", "Zombie 3"]),
        ("Zombie 2,Zombie*", ["Zombie 2", "Zombie 1", "Zombie 3"]),
    ],
)
def test_selectors_record_the_full_names(selector: str, expected: list[str]) -> None:
    s = make()
    step = s.apply(f"cond '{selector}' prone")
    assert step.action["targets"][: len(expected)] == expected
    if selector != "all":
        assert step.action["targets"] == expected
    # replaying the journaled action is exact: it names every combatant
    assert "*" not in str(step.action["targets"])


def test_all_names_every_combatant() -> None:
    s = make()
    s.apply("damage all 2")  # a heal at full HP is refused
    step = s.apply("heal all 1")
    assert len(step.action["targets"]) == len(s.encounter.combatants)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage Orc* 3", 'no name starts with "Orc"'),
        ("init monsters 3", "init: takes one combatant"),
        ("cond Nobody prone", 'no combatant named "Nobody"'),
    ],
)
def test_a_selector_matching_wrongly_is_one_message(line: str, message: str) -> None:
    s = make()
    before = state(s)
    with pytest.raises(ActionError, match=message):
        s.apply(line)
    assert state(s) == before


def test_players_with_no_players_is_one_message() -> None:
    s = Session(Encounter("Cave", ruleset("core")), rng=random.Random(1))
    s.apply("add Ogre hp 30")
    with pytest.raises(ActionError, match='"players" matches no combatant'):
        s.apply("damage players 3")


def test_a_combatant_literally_named_like_a_selector_is_meant_by_it() -> None:
    s = Session(Encounter("Cave", ruleset("core")), rng=random.Random(1))
    s.apply("add Ogre hp 30")
    s.apply("add all hp 30")
    s.apply("add 'Ogre*' hp 30")
    assert s.apply("damage all 3").action["targets"] == ["all"]
    assert s.apply("damage 'Ogre*' 3").action["targets"] == ["Ogre*"]
    assert [c.hp for c in s.encounter.combatants] == [30, 27, 27]


def test_a_selector_in_of_must_name_one() -> None:
    s = make()
    s.apply("start")
    with pytest.raises(ActionError, match="of: takes one combatant"):
        s.apply("cond Ogre prone rounds 1 of players")


# -- saves: half and none ----------------------------------------------------


def test_area_damage_with_saves_is_one_roll_one_step_one_undo() -> None:
    s = make()
    before = state(s)
    step = s.apply(
        "damage 'Zombie 1,Zombie 2,Ogre' 4d6 fire half 'Zombie 2' none Ogre faces 6,5,4,3"
    )
    assert (hp(s, "Zombie 1"), hp(s, "Zombie 2"), hp(s, "Ogre")) == (2, 11, 60)
    lines = texts(step)
    assert "Zombie 1 takes 18 fire (18 HP lost, 2/20 left)" in lines
    assert "Zombie 2 takes 9 fire (9 HP lost, 11/20 left) (half: saved)" in lines
    assert "Ogre takes no damage (none: saved)" in lines
    assert step.action["faces"] == [6, 5, 4, 3]
    s.undo()
    assert state(s) == before


def test_half_goes_through_the_targets_own_defenses() -> None:
    s = make()  # Ogre: resist fire 5 (core: halve), weak cold
    step = s.apply("damage 'Ogre,Zombie 1' 21 fire half Ogre")
    assert "Ogre takes 10 fire → resist ½ = 5 (5 HP lost, 55/60 left) (half: saved)" in texts(step)
    assert hp(s, "Ogre") == 55 and hp(s, "Zombie 1") == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage Ogre 5 half Ayla", "half names Ayla, who is not a target"),
        ("damage 'Ogre,Ayla' 5 half Ayla none Ayla", "Ayla is under both half and none"),
        ("damage Ogre 5 half Nobody", 'no combatant named "Nobody"'),
    ],
)
def test_bad_saves_are_one_message(line: str, message: str) -> None:
    s = make()
    before = state(s)
    with pytest.raises(ActionError, match=message):
        s.apply(line)
    assert state(s) == before


def test_half_takes_a_selector() -> None:
    s = make()
    step = s.apply("damage monsters 10 half zombie*")
    assert step.action["half"] == ["Zombie 1", "Zombie 2", "Zombie 3"]
    assert hp(s, "Zombie 3") == 15 and hp(s, "Hobgoblin 1") == 10


# -- several typed parts -------------------------------------------------------


def test_each_part_through_the_defenses_by_its_own_tags() -> None:
    s = make()  # Ogre: resist fire (halve), weak cold, immune poison
    before = state(s)
    step = s.apply("damage Ogre 1d8+4 slashing + 2d6 cold + 3 poison faces 4,2,3")
    assert hp(s, "Ogre") == 60 - (8 + 10)
    assert step.action["extra"] == [
        {"amount": "2d6", "tags": ["cold"]},
        {"amount": "3", "tags": ["poison"]},
    ]
    assert texts(step)[-1] == (
        "Ogre takes 8 slashing + [5 cold → weak ×2 = 10] + [3 poison → immune = 0] = 18 (18 HP lost, 42/60 left)"
    )
    s.undo()
    assert state(s) == before


def test_parts_with_half_halve_each_part() -> None:
    s = make()
    step = s.apply("damage Ogre 9 slashing + 7 cold half Ogre")
    assert hp(s, "Ogre") == 60 - (4 + 6)
    assert texts(step)[-1].endswith("(half: saved)")


def test_attack_damage_takes_parts() -> None:
    s = make()
    s.apply("start")
    step = s.apply("attack Ogre roll 15 damage 4 slashing + 3 cold")
    assert hp(s, "Ogre") == 60 - (4 + 6)
    hit = "Ogre takes 4 slashing + [3 cold → weak ×2 = 6] = 10 (10 HP lost, 50/60 left)"
    assert hit in texts(step)


def test_temp_hp_soaks_the_sum_once() -> None:
    s = make()
    s.apply("temp Ayla 5")
    step = s.apply("damage Ayla 3 fire + 4 cold")
    c = next(c for c in s.encounter.combatants if c.name == "Ayla")
    assert (c.temp_hp, c.hp) == (0, 28)
    assert len([t for t in texts(step) if t.startswith("Ayla takes")]) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage Ogre 1d8 slashing +", r"\+ needs a damage part"),
        ("damage Ogre 1d8 slashing + 2d6", "needs a tag"),
        ("damage Ogre 1d8 slashing + 0", "at least 1"),
    ],
)
def test_bad_parts_are_one_message(line: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        parse_action(line)


def test_untyped_dice_joined_by_plus_are_one_part() -> None:
    assert parse_action("damage Ogre 1d8 + 4 fire") == {
        "verb": "damage",
        "targets": ["Ogre"],
        "amount": "1d8+4",
        "tags": ["fire"],
    }


# -- unknown tags ----------------------------------------------------------------


def test_an_unknown_tag_is_accepted_with_a_did_you_mean() -> None:
    # the zombie defends against nothing: "fier" bypasses nothing on it (a
    # tag near one the target defends against is refused, test_tag_typos)
    s = make()
    step = s.apply("damage Zombie 1 10 fier")
    assert "no combatant here resists or is weak to 'fier'; did you mean fire?" in texts(step)
    assert hp(s, "Zombie 1") == 10


def test_an_attack_on_many_warns_of_an_unknown_tag_once() -> None:
    s = make()
    step = s.apply("attack all with +60 damage 1d6 shadowflame")  # every target hit
    hits = [t for t in texts(step) if " takes " in t]
    assert len(hits) >= 3
    warning = "no combatant here resists or is weak to 'shadowflame'"
    assert texts(step).count(warning) == 1
    assert texts(step).index(warning) < texts(step).index(hits[0])  # before the first hit


def test_an_attack_on_many_refuses_a_tag_near_one_a_target_defends_against() -> None:
    s = make()
    before = s.encounter
    with pytest.raises(ActionError, match="did you mean fire"):
        s.apply("attack all with +60 damage 1d6 fier")  # the Ogre resists fire
    assert s.encounter == before


def test_persistent_damage_warns_of_an_unknown_tag_like_damage() -> None:
    s = make()
    step = s.apply("persist Zombie 1 1d6 fier")
    warning = "no combatant here resists or is weak to 'fier'; did you mean fire?"
    assert [e.actor for e in step.log if e.text == warning] == ["GM"]
    assert [
        p.tags for p in next(c for c in s.encounter.combatants if c.name == "Zombie 1").persistent
    ] == [("fier",)]
    step = s.apply("persist Ogre 1d4 fire")
    assert not [t for t in texts(step) if "resists or is weak" in t]


def test_a_tag_from_the_fight_or_a_common_one_is_not_warned() -> None:
    s = make()
    step = s.apply("damage Ogre 10 slashing + 2 poison")
    assert not [t for t in texts(step) if "resists or is weak" in t]


def test_did_you_mean_uses_the_fights_own_tags() -> None:
    s = make()
    s.apply("add Wraith hp 20 resist shadowflame=3")
    step = s.apply("damage Zombie 1 10 shadowflme")
    assert "did you mean shadowflame?" in texts(step)[0]


def test_the_save_note_comes_before_down() -> None:
    s = make()
    step = s.apply("damage 'Zombie 1,Zombie 2' 40 half 'Zombie 2'")
    saved = "Zombie 2 takes 20 (20 HP lost, 0/20 left) (half: saved); Zombie 2 is down"
    assert saved in texts(step)


# -- misspelled conditions -------------------------------------------------------


def test_a_misspelled_condition_is_taken_with_a_did_you_mean() -> None:
    s = make()
    step = s.apply("cond Ogre frightend value 1")
    assert "'frightend' is not a common condition; did you mean frightened?" in texts(step)
    ogre = next(c for c in s.encounter.combatants if c.name == "Ogre")
    assert [c.name for c in ogre.conditions] == ["frightend"]


def test_a_gms_own_or_a_present_condition_is_not_warned() -> None:
    s = make()
    assert not [t for t in texts(s.apply("cond Ogre marked")) if "common condition" in t]
    s.apply("cond Ogre 'hunters mark'")
    step = s.apply("cond 'Zombie 1' 'hunters mark'")
    assert not [t for t in texts(step) if "common condition" in t]
    step = s.apply("cond 'Zombie 2' 'hunters marc'")
    assert "did you mean hunters mark?" in texts(step)[-1]
