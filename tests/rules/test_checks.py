"""Advantage (RULES.md §2), checks, degrees, flat checks, DLs and opposed
rolls (RULES.md §3)."""

from __future__ import annotations

import random

import pytest

from rules.checks import (
    DIFFICULTY_LEVELS,
    CheckError,
    Degree,
    advantage_dice,
    apply_natural,
    check,
    degree_of,
    difficulty_level,
    flat_check,
    roll_d20,
    roll_expression_with_advantage,
)
from rules.dice import DiceError
from rules.rulesets import ruleset

# --- §2 advantage table ------------------------------------------------------

# |n| → (dice, flat bonus) per mode, straight from the §2 table.
TABLE = {
    "stack": {1: (2, 0), 2: (3, 0), 3: (4, 0), 4: (5, 0), 7: (8, 0)},
    "cap2": {1: (2, 0), 2: (3, 0), 3: (3, 0), 4: (3, 0), 7: (3, 0)},
    "alternate": {1: (2, 0), 2: (2, 2), 3: (3, 2), 4: (3, 4), 7: (3, 10)},
}


@pytest.mark.parametrize("mode", TABLE)
@pytest.mark.parametrize("k", [1, 2, 3, 4, 7])
def test_advantage_table(mode: str, k: int) -> None:
    rules = ruleset("core", advantage=mode)
    dice, flat = TABLE[mode][k]
    assert advantage_dice(k, 0, rules) == (dice, flat)
    # disadvantage mirrors it: same dice, the bonus becomes a penalty
    assert advantage_dice(0, k, rules) == (dice, -flat)


def test_advantage_and_disadvantage_cancel_one_for_one() -> None:
    # §2: only the net count matters.
    for mode in TABLE:
        rules = ruleset("core", advantage=mode)
        assert advantage_dice(3, 3, rules) == (1, 0)
        assert advantage_dice(5, 2, rules) == advantage_dice(3, 0, rules)
        assert advantage_dice(1, 4, rules) == advantage_dice(0, 3, rules)


def test_stack_is_capped_at_stack_cap() -> None:
    # §2: stack has no cap in 000; cap it at 10 extra dice (option stack_cap).
    assert advantage_dice(25, 0, "forge") == (11, 0)
    assert advantage_dice(25, 0, ruleset("forge", stack_cap=4)) == (5, 0)


def test_shipped_rulesets_pick_their_advantage_mode() -> None:
    assert advantage_dice(2, 0, "core") == (2, 2)  # alternate
    assert advantage_dice(2, 0, "forge") == (3, 0)  # stack
    assert advantage_dice(4, 0, "cinematic") == (3, 0)  # cap2
    assert advantage_dice(2, 0, None) == (2, 2)  # default ruleset is core


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_bad_advantage_counts_are_rejected(bad: object) -> None:
    with pytest.raises(CheckError, match="advantage count must be a whole number"):
        advantage_dice(bad, 0, "core")  # type: ignore[arg-type]


def test_unknown_ruleset_name_is_one_clear_error() -> None:
    with pytest.raises(CheckError, match="unknown ruleset 'homebrew'"):
        advantage_dice(1, 0, "homebrew")


# --- §2 rolling with advantage ------------------------------------------------


def test_advantage_keeps_the_highest_d20() -> None:
    roll = roll_d20(5, 1, 0, "core", random.Random(0), faces=[5, 14])
    assert roll.natural == 14
    assert roll.total == 19
    assert roll.modifier == 5
    assert [(d.sides, d.value, d.kept) for d in roll.result.dice] == [
        (20, 5, False),
        (20, 14, True),
    ]
    assert roll.text == "2d20kh1 (5, **14**) + 5 = 19"


def test_disadvantage_keeps_the_lowest_d20() -> None:
    roll = roll_d20(3, 0, 1, "forge", random.Random(0), faces=[5, 14])
    assert roll.natural == 5
    assert roll.total == 8


def test_alternate_second_advantage_adds_two_shown_in_breakdown() -> None:
    # §2 alternate: the 2nd advantage adds +2; modifier includes it.
    roll = roll_d20(5, 2, 0, "core", random.Random(0), faces=[5, 14])
    assert roll.total == 14 + 5 + 2
    assert roll.modifier == 7
    assert roll.text == "2d20kh1 (5, **14**) + 5 + 2 = 21"


def test_alternate_fourth_disadvantage_subtracts_four() -> None:
    roll = roll_d20(0, 0, 4, "core", random.Random(0), faces=[12, 3, 18])
    assert roll.natural == 3
    assert roll.modifier == -4
    assert roll.total == -1
    assert roll.text == "3d20kl1 (12, **3**, 18) - 4 = -1"


def test_cinematic_advantage_is_one_more_advantage() -> None:
    # §2: cinematic advantage is just one more advantage count.
    plain = roll_d20(2, 1, 0, "cinematic", random.Random(9))
    cinematic = roll_d20(2, 1 + 1, 0, "cinematic", random.Random(9))
    assert len(plain.result.dice) == 2
    assert len(cinematic.result.dice) == 3


def test_roll_d20_is_reproducible_with_a_seed() -> None:
    first = roll_d20(4, 3, 1, "forge", random.Random(77))
    assert first == roll_d20(4, 3, 1, "forge", random.Random(77))


def test_expression_with_advantage_gives_the_d20_term_the_dice() -> None:
    # `combat-tracker roll 1d20+1d4+5 --adv 1`
    roll = roll_expression_with_advantage(
        "1d20+1d4+5", 1, 0, "core", random.Random(0), faces=[3, 17, 2]
    )
    assert roll.result.expression == "2d20kh1+1d4+5"
    assert roll.natural == 17
    assert roll.total == 17 + 2 + 5
    assert [d.sides for d in roll.result.dice] == [20, 20, 4]


def test_expression_without_advantage_rolls_as_typed() -> None:
    roll = roll_expression_with_advantage("2d6+3", 0, 0, "core", random.Random(0), faces=[1, 2])
    assert roll.natural is None
    assert roll.total == 6
    assert roll.modifier == 3
    typed_keep = roll_expression_with_advantage(
        "2d20kh1+1", 0, 0, "core", random.Random(0), faces=[8, 11]
    )
    assert typed_keep.natural == 11


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6+3", "need a d20"),
        ("2d20+3", "exactly one plain 1d20"),
        ("1d20+1d20", "exactly one plain 1d20"),
        ("2d20kh1", "exactly one plain 1d20"),
    ],
)
def test_advantage_needs_one_plain_d20(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        roll_expression_with_advantage(text, 1, 0, "core", random.Random(0))


# --- §3 degrees ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "degree"),
    [
        (25, Degree.CRITICAL_SUCCESS),
        (24, Degree.SUCCESS),
        (15, Degree.SUCCESS),
        (14, Degree.FAILURE),
        (6, Degree.FAILURE),
        (5, Degree.CRITICAL_FAILURE),
        (-3, Degree.CRITICAL_FAILURE),
    ],
)
def test_degree_boundaries_against_dc_15(total: int, degree: Degree) -> None:
    # §3: ≥ DC+10 crit success; ≥ DC success; > DC−10 failure; else crit failure.
    assert degree_of(total, 15) is degree


def test_degree_labels_and_steps() -> None:
    assert [d.label for d in Degree] == [
        "critical failure",
        "failure",
        "success",
        "critical success",
    ]
    assert Degree.FAILURE.step_up() is Degree.SUCCESS
    assert Degree.CRITICAL_SUCCESS.step_up() is Degree.CRITICAL_SUCCESS
    assert Degree.SUCCESS.step_down() is Degree.FAILURE
    assert Degree.CRITICAL_FAILURE.step_down() is Degree.CRITICAL_FAILURE
    assert Degree.SUCCESS.succeeded and not Degree.FAILURE.succeeded


@pytest.mark.parametrize(
    ("degree", "natural", "mode", "expected"),
    [
        (Degree.FAILURE, 20, "step", Degree.SUCCESS),
        (Degree.CRITICAL_FAILURE, 20, "step", Degree.FAILURE),
        (Degree.SUCCESS, 1, "step", Degree.FAILURE),
        (Degree.CRITICAL_SUCCESS, 1, "step", Degree.SUCCESS),
        (Degree.CRITICAL_FAILURE, 20, "crit", Degree.CRITICAL_SUCCESS),
        (Degree.CRITICAL_SUCCESS, 1, "crit", Degree.CRITICAL_FAILURE),
        (Degree.FAILURE, 19, "crit", Degree.FAILURE),
        (Degree.SUCCESS, None, "step", Degree.SUCCESS),
    ],
)
def test_naturals(degree: Degree, natural: int | None, mode: str, expected: Degree) -> None:
    # §3 option natural: crit (000) vs step (003).
    assert apply_natural(degree, natural, mode) is expected


def test_unknown_natural_mode() -> None:
    with pytest.raises(CheckError, match="unknown natural mode"):
        apply_natural(Degree.SUCCESS, 20, "double")


def test_core_natural_20_turns_a_failure_into_a_success() -> None:
    result = check(2, 25, 0, 0, "core", random.Random(0), faces=[20])
    assert result.degree is Degree.SUCCESS
    assert result.success
    assert result.text == "1d20 (20) + 2 = 22 vs DC 25: success (natural 20: failure → success)"


def test_forge_natural_1_is_always_a_critical_failure() -> None:
    result = check(30, 15, 0, 0, "forge", random.Random(0), faces=[1])
    assert result.degree is Degree.CRITICAL_FAILURE
    assert result.roll.total == 31


def test_natural_is_the_kept_d20_not_a_dropped_one() -> None:
    # Disadvantage drops the 20: no natural 20 step.
    result = check(0, 15, 0, 1, "core", random.Random(0), faces=[20, 9])
    assert result.roll.natural == 9
    assert result.degree is Degree.FAILURE


# --- §3 flat checks, DLs, opposed rolls ------------------------------------------


def test_flat_check_is_a_bare_face_against_the_dc() -> None:
    # §3: success when the face ≥ DC; natural 20/1 rules do not apply.
    assert flat_check(15, random.Random(0), face=15).success
    assert not flat_check(21, random.Random(0), face=20).success
    assert flat_check(1, random.Random(0), face=1).success
    result = flat_check(20, random.Random(0), face=7)
    assert (result.face, result.dc, result.success) == (7, 20, False)
    assert result.text == "flat check d20 (7) vs DC 20: failure"


def test_flat_check_rejects_a_face_off_the_die() -> None:
    with pytest.raises(DiceError, match="not on a d20"):
        flat_check(15, random.Random(0), face=21)


def test_flat_check_is_seeded() -> None:
    assert flat_check(11, random.Random(5)) == flat_check(11, random.Random(5))


def test_difficulty_levels_by_name() -> None:
    # §3 (003): Routine 0 … Impossible 30, in steps of 3.
    assert list(DIFFICULTY_LEVELS.values()) == list(range(0, 31, 3))
    assert difficulty_level("Challenging") == 15
    assert difficulty_level("  heroic ") == 24
    assert difficulty_level("IMPOSSIBLE") == 30


def test_unknown_difficulty_level_lists_the_names() -> None:
    with pytest.raises(CheckError) as caught:
        difficulty_level("hard")
    message = str(caught.value)
    assert "unknown difficulty level 'hard'" in message
    assert all(name in message for name in DIFFICULTY_LEVELS)
