"""Ability modifiers, initiative and hit points (RULES.md §4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.abilities import (
    ABILITIES,
    hit_points,
    initiative_modifier,
    initiative_order,
    modifier,
    roll_initiative,
)
from rules.combatant import Combatant


def make(name: str, **kw: object) -> Combatant:
    return Combatant(name=name, max_hp=10, hp=10, **kw)  # type: ignore[arg-type]


# §4: the eight scores and 003's modifier table.
def test_eight_abilities() -> None:
    assert ABILITIES == ("dex", "per", "str", "con", "int", "wis", "cha", "luck")


@pytest.mark.parametrize(
    ("score", "mod"), [(1, -5), (3, -4), (8, -1), (9, -1), (10, 0), (11, 0), (17, 3), (30, 10)]
)
def test_modifier_table(score: int, mod: int) -> None:
    assert modifier(score) == mod


@given(st.integers(min_value=-50, max_value=100))
def test_modifier_is_floor_half(score: int) -> None:
    # §4: floor((score - 10) / 2), also for odd scores below 10.
    m = modifier(score)
    assert 2 * m <= score - 10 < 2 * m + 2


def test_modifier_rejects_non_numbers() -> None:
    with pytest.raises(ValueError, match="ability score"):
        modifier("ten")  # type: ignore[arg-type]


# §4 initiative: DEX + PER + WIS mods + GM bonus; missing scores count 0.
def test_initiative_modifier_sums_dex_per_wis_and_bonus() -> None:
    c = make("Zalek", abilities={"dex": 14, "per": 12, "wis": 8, "str": 18}, init_bonus=2)
    assert initiative_modifier(c) == 2 + 1 - 1 + 2


def test_initiative_modifier_flat_only() -> None:
    assert initiative_modifier(make("Goblin", init_bonus=3)) == 3


def test_roll_initiative_with_typed_face() -> None:
    c = make("Zalek", abilities={"dex": 14, "per": 12, "wis": 10})
    r = roll_initiative(c, random.Random(0), face=15)
    assert (r.face, r.modifier, r.total) == (15, 3, 18)
    assert r.text == "Zalek rolls initiative: d20 (15) + 3 = 18"


def test_roll_initiative_seeded_is_reproducible_and_in_range() -> None:
    c = make("Goblin", init_bonus=-2)
    a = [roll_initiative(c, random.Random(7)).total for _ in range(3)]
    b = [roll_initiative(c, random.Random(7)).total for _ in range(3)]
    assert a == b
    r = roll_initiative(c, random.Random(7))
    assert 1 <= r.face <= 20 and r.total == r.face - 2
    assert "- 2" in r.text


@pytest.mark.parametrize("face", [0, 21, "x", True])
def test_roll_initiative_rejects_impossible_face(face: object) -> None:
    with pytest.raises(ValueError, match="1 to 20"):
        roll_initiative(make("A"), random.Random(0), face=face)  # type: ignore[arg-type]


# §4 ties: initiative, then modifier, DEX score, players first, manual order.
def test_order_by_initiative_with_none_last() -> None:
    a, b, c = make("A", initiative=12), make("B"), make("C", initiative=18)
    assert [x.name for x in initiative_order([a, b, c])] == ["C", "A", "B"]


def test_tie_higher_initiative_modifier_first() -> None:
    a = make("A", initiative=15, init_bonus=1)
    b = make("B", initiative=15, init_bonus=4)
    assert [x.name for x in initiative_order([a, b])] == ["B", "A"]


def test_tie_then_higher_dex_score() -> None:
    # Same modifier (+2): A from DEX 14, B from DEX 15, C from a flat bonus.
    a = make("A", initiative=15, abilities={"dex": 14, "per": 10}, init_bonus=0)
    b = make("B", initiative=15, abilities={"dex": 15, "per": 10}, init_bonus=0)
    c = make("C", initiative=15, init_bonus=2)  # no DEX score: loses the DEX tie
    assert initiative_modifier(a) == initiative_modifier(b) == initiative_modifier(c) == 2
    assert [x.name for x in initiative_order([a, c, b])] == ["B", "A", "C"]


def test_tie_then_players_before_monsters_then_manual_order() -> None:
    m1 = make("Orc", initiative=10, order_key=0)
    p = make("Ayla", initiative=10, player=True, order_key=5)
    m2 = make("Wolf", initiative=10, order_key=-1)
    assert [x.name for x in initiative_order([m1, p, m2])] == ["Ayla", "Wolf", "Orc"]


@given(st.lists(st.integers(min_value=-5, max_value=30) | st.none(), max_size=12))
def test_order_is_a_permutation_sorted_by_initiative(inits: list[int | None]) -> None:
    cs = [make(f"C{i}", initiative=v, order_key=i) for i, v in enumerate(inits)]
    out = initiative_order(cs)
    assert sorted(x.name for x in out) == sorted(x.name for x in cs)
    values = [x.initiative for x in out]
    numbers = [v for v in values if v is not None]
    assert numbers == sorted(numbers, reverse=True)
    assert values == numbers + [None] * (len(values) - len(numbers))


# §4 hit points: fixed, rolled, or average rounded down; at least 1.
def test_fixed_hit_points() -> None:
    assert hit_points(27, random.Random(0)) == (27, "HP 27")
    assert hit_points("27", random.Random(0))[0] == 27


def test_average_hit_points_round_down() -> None:
    value, text = hit_points("2d8+2", random.Random(0), mode="average")
    assert value == 11
    assert "average 11" in text
    assert hit_points("1d6", random.Random(0), mode="average")[0] == 3  # 3.5 → 3


def test_rolled_hit_points_with_typed_faces() -> None:
    value, text = hit_points("2d8+2", random.Random(0), faces=[3, 5])
    assert value == 10
    assert "10" in text


def test_rolled_hit_points_seeded() -> None:
    a = hit_points("3d6", random.Random(42))
    assert a == hit_points("3d6", random.Random(42))
    assert 3 <= a[0] <= 18


def test_hit_points_at_least_one() -> None:
    value, text = hit_points("1d4-5", random.Random(0), faces=[1])
    assert value == 1 and "at least 1" in text
    assert hit_points("1d4-5", random.Random(0), mode="average")[0] == 1


@pytest.mark.parametrize(
    ("spec", "mode", "match"),
    [
        (0, "roll", "at least 1"),
        (-3, "roll", "at least 1"),
        ("-3", "average", "at least 1"),
        ("", "roll", "number or a dice"),
        ("2d8", "max", "'roll' or 'average'"),
        (True, "roll", "number or a dice"),
    ],
)
def test_hit_points_bad_input(spec: object, mode: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        hit_points(spec, random.Random(0), mode=mode)  # type: ignore[arg-type]


def test_hit_points_bad_dice_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError):
        hit_points("3d0", random.Random(0))


def test_hit_points_of_one_of_several_alike_leave_the_expression_to_their_line() -> None:
    # a horde's line says "HP 4d6kh3+2:" once, then each member's faces and total
    assert hit_points("2d8+2", random.Random(0), faces=[3, 5], alike=True) == (
        10,
        "(3, 5) + 2 = 10",
    )
    value, text = hit_points("4d6kh3", random.Random(0), faces=[2, 6, 1, 4], alike=True)
    assert (value, text) == (12, "(**2**, **6**, 1, **4**) = 12")
    assert hit_points("1d4-5", random.Random(0), faces=[2], alike=True) == (
        1,
        "(2) - 5 = -3 → at least 1",
    )
    assert hit_points("3+1d4", random.Random(0), faces=[4], alike=True) == (7, "3 + (4) = 7")
    # a number or an average is the same for each: said as for one
    assert hit_points(27, random.Random(0), alike=True) == (27, "HP 27")
    assert hit_points("2d8", random.Random(0), mode="average", alike=True) == (
        9,
        "HP 2d8 average 9",
    )
