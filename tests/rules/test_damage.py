"""Damage, healing and temporary hit points (RULES.md §5, §6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combatant import Combatant
from rules.damage import Defenses, apply_damage, grant_temp_hp, heal, set_temp_hp
from rules.durations import Duration
from rules.rulesets import ruleset

CORE = ruleset("core")  # resistance: halve
FORGE = ruleset("forge")  # resistance: subtract


def ogre(**kw: object) -> Combatant:
    base: dict[str, object] = {"name": "Ogre", "max_hp": 40, "hp": 40}
    base.update(kw)
    return Combatant(**base)  # type: ignore[arg-type]


def test_spec_example_text() -> None:
    # §5: "Ogre takes 14 fire → weak ×2 = 28 → resist 5 = 23 (8 absorbed by temp HP, 15 HP lost, 25/40 left)"
    c = ogre(temp_hp=8, defenses=Defenses(weaknesses=frozenset({"fire"}), resistances={"fire": 5}))
    new, r = apply_damage(c, 14, ["fire"], FORGE)
    assert (
        r.text
        == "Ogre takes 14 fire → weak ×2 = 28 → resist 5 = 23 (8 absorbed by temp HP, 15 HP lost, 25/40 left)"
    )
    assert [s.value for s in r.steps] == [28, 23]
    assert (r.final, r.temp_absorbed, r.hp_lost) == (23, 8, 15)
    assert (new.temp_hp, new.hp) == (0, 25)
    assert c.hp == 40 and c.temp_hp == 8  # input untouched


def test_plain_damage() -> None:
    new, r = apply_damage(ogre(), 7, ["slashing"], CORE)
    assert (
        new.hp == 33 and r.steps == () and r.text == "Ogre takes 7 slashing (7 HP lost, 33/40 left)"
    )


def test_immunity_zeroes_and_skips_the_rest() -> None:
    c = ogre(defenses=Defenses(immunities=frozenset({"poison"}), weaknesses=frozenset({"poison"})))
    new, r = apply_damage(c, 12, ["poison"], CORE)
    assert r.final == 0 and new.hp == 40 and "immune = 0" in r.text


def test_all_tag_matches_any_damage_even_untagged() -> None:
    c = ogre(defenses=Defenses(resistances={"all": 3}))
    assert apply_damage(c, 10, ["fire"], FORGE)[1].final == 7
    assert apply_damage(c, 10, [], FORGE)[1].final == 7


def test_tags_are_case_insensitive() -> None:
    c = ogre(defenses=Defenses(immunities=frozenset({"fire"})))
    assert apply_damage(c, 10, ["FIRE"], CORE)[1].final == 0
    assert apply_damage(c, 10, "Fire", CORE)[1].final == 0  # one string is one tag


def test_susceptibility_rounds_down() -> None:
    c = ogre(defenses=Defenses(susceptibilities=frozenset({"cold"})))
    assert apply_damage(c, 7, ["cold"], CORE)[1].final == 10  # 10.5 → 10


def test_weakness_and_susceptibility_do_not_compound() -> None:
    c = ogre(
        defenses=Defenses(weaknesses=frozenset({"cold"}), susceptibilities=frozenset({"cold"}))
    )
    assert apply_damage(c, 10, ["cold"], CORE)[1].final == 20


def test_subtract_uses_largest_matching_resistance_never_below_zero() -> None:
    c = ogre(defenses=Defenses(resistances={"fire": 3, "all": 5, "cold": 9}))
    assert apply_damage(c, 12, ["fire"], FORGE)[1].final == 7
    assert apply_damage(c, 4, ["fire"], FORGE)[1].final == 0


def test_halve_once_however_many_match() -> None:
    c = ogre(defenses=Defenses(resistances={"fire": 3, "all": 5}))
    _, r = apply_damage(c, 15, ["fire", "slashing"], CORE)
    assert r.final == 7 and "resist ½ = 7" in r.text


def test_option_override_changes_resistance() -> None:
    c = ogre(defenses=Defenses(resistances={"fire": 5}))
    assert apply_damage(c, 14, ["fire"], ruleset("core", resistance="subtract"))[1].final == 9


def test_hp_never_below_zero_and_down() -> None:
    new, r = apply_damage(ogre(hp=5), 30, [], CORE)
    assert new.hp == 0 and new.down and r.hp_lost == 5 and r.down
    assert "Ogre is down" in r.text


def test_temp_hp_duration_cleared_when_used_up() -> None:
    c = ogre(temp_hp=3, temp_hp_duration=Duration(2, "end", "Cleric"))
    new, _ = apply_damage(c, 5, [], CORE)
    assert new.temp_hp == 0 and new.temp_hp_duration is None
    new, _ = apply_damage(c, 2, [], CORE)
    assert new.temp_hp == 1 and new.temp_hp_duration == Duration(2, "end", "Cleric")


@pytest.mark.parametrize("amount", [-1, 2.5, "3", True])
def test_bad_damage_amount(amount: object) -> None:
    with pytest.raises(ValueError, match="damage must be"):
        apply_damage(ogre(), amount, [], CORE)  # type: ignore[arg-type]


defenses = st.builds(
    Defenses,
    immunities=st.frozensets(st.sampled_from(["fire", "cold", "all"]), max_size=1),
    resistances=st.dictionaries(st.sampled_from(["fire", "cold", "all"]), st.integers(0, 10)),
    weaknesses=st.frozensets(st.sampled_from(["fire", "cold", "all"]), max_size=2),
    susceptibilities=st.frozensets(st.sampled_from(["fire", "cold"]), max_size=2),
)


@given(
    hp=st.integers(0, 100),
    temp=st.integers(0, 50),
    amount=st.integers(0, 200),
    tags=st.lists(st.sampled_from(["fire", "cold", "acid", "FIRE"]), max_size=3),
    d=defenses,
    rs=st.sampled_from([CORE, FORGE]),
)
def test_damage_properties(
    hp: int, temp: int, amount: int, tags: list[str], d: Defenses, rs: object
) -> None:
    # §5: damage never raises HP, HP never below 0, temp HP absorbs first.
    c = ogre(max_hp=100, hp=hp, temp_hp=temp, defenses=d)
    new, r = apply_damage(c, amount, tags, rs)  # type: ignore[arg-type]
    assert 0 <= new.hp <= c.hp
    assert 0 <= new.temp_hp <= c.temp_hp
    assert r.temp_absorbed == min(temp, r.final)
    if r.hp_lost > 0:
        assert new.temp_hp == 0
    assert c.hp - new.hp == r.hp_lost
    assert r.final >= 0


# Healing (§5 last line).
def test_heal_caps_at_max_and_leaves_temp() -> None:
    new, r = heal(ogre(hp=30, temp_hp=4), 25)
    assert new.hp == 40 and new.temp_hp == 4 and r.healed == 10
    assert r.text == "Ogre heals 10 (40/40 HP)"


def test_heal_at_full() -> None:
    new, r = heal(ogre(), 5)
    assert r.healed == 0 and "already at full HP" in r.text


def test_heal_from_down() -> None:
    new, _ = heal(ogre(hp=0), 3)
    assert new.hp == 3 and not new.down


def test_heal_rejects_negative() -> None:
    with pytest.raises(ValueError, match="healing must be 0 or more"):
        heal(ogre(), -2)


# Temp HP (§6).
def test_keep_higher_replaces_only_when_larger() -> None:
    c = ogre(temp_hp=5)
    same, text = grant_temp_hp(c, 4, CORE)
    assert same.temp_hp == 5 and "keeps 5 temp HP" in text
    dur = Duration(3, "end", "Cleric")
    new, text = grant_temp_hp(c, 8, CORE, duration=dur)
    assert new.temp_hp == 8 and new.temp_hp_duration == dur
    assert "replacing 5" in text and "Cleric's turn" in text


def test_add_option_adds_up() -> None:
    new, text = grant_temp_hp(ogre(temp_hp=5), 4, ruleset("core", temp_hp="add"))
    assert new.temp_hp == 9 and "9 temp" in text


def test_temp_hp_may_exceed_max() -> None:
    new, _ = grant_temp_hp(ogre(), 100, CORE)
    assert new.temp_hp == 100 and new.hp == 40


def test_set_temp_hp_directly() -> None:
    new, text = set_temp_hp(ogre(temp_hp=20), 3, Duration(1, "start", "Ogre"))
    assert new.temp_hp == 3 and new.temp_hp_duration == Duration(1, "start", "Ogre")
    cleared, text = set_temp_hp(new, 0)
    assert cleared.temp_hp == 0 and cleared.temp_hp_duration is None
    assert text == "Ogre has no temp HP"
    with pytest.raises(ValueError, match="temporary HP"):
        set_temp_hp(new, -1)
