"""Dice notation, rolling and breakdowns (RULES.md §1) and critical damage
(RULES.md §5 step 1)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.dice import (
    DiceError,
    Die,
    average,
    maximum,
    minimum,
    parse,
    roll,
    roll_damage,
)


class OnlyRandint:
    """A random source that only offers ``randint`` and records each call:
    proves the engine draws nothing else (RULES.md §1: injectable source)."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        return self.values.pop(0)


# --- §1 notation -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("d20", "1d20"),
        ("2d6+3", "2d6+3"),
        ("2D20KH1 + 5", "2d20kh1+5"),
        ("  4d6 kl 3 - 2 ", "4d6kl3-2"),
        ("d%", "1d100"),
        ("-1+d20", "-1+1d20"),
        ("2d20kh", "2d20kh1"),
        ("2d6+1d6!+3", "2d6+1d6!+3"),
    ],
)
def test_notation_is_normalised(text: str, normalised: str) -> None:
    # §1: N defaults to 1, d% is d100, whitespace ignored, case-insensitive.
    assert parse(text).text == normalised
    assert parse(normalised) == parse(text)


def test_parse_is_cached_and_immutable() -> None:
    # §1: the log re-rolls the same expressions; parsing once is enough.
    expr = parse("3d8+4")
    assert parse("3d8+4") is expr
    with pytest.raises(dataclasses.FrozenInstanceError):
        expr.text = "1d4"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("3d0", '"3d0": a die needs at least 2 sides', 0),
        ("2d1", '"2d1": a die needs at least 2 sides', 0),
        ("1d1001", '"1d1001": a die has at most 1000 sides', 0),
        ("2d6+0d6", '"0d6": roll at least one die', 4),
        ("2d6+", '"2d6+": a term is missing after "+"', 3),
        ("2d6 -", '"2d6 -": a term is missing after "-"', 4),
        ("d20kh3", '"d20kh3": cannot keep 3 of 1 die', 0),
        ("4d6kl0", '"4d6kl0": keep at least one die', 0),
        ("99999d6", '"99999d6": too many dice', 0),
        ("2d6x", '"x" (character 4) is not dice notation', 3),
        ("2d6++3", '"2d6++": two operators in a row', 4),
        ("2d6 3", '"2d6 3": unexpected number', 4),
        ("d", '"d": a die needs a number of sides', 0),
        ("1d6k2", '"k" (character 4): keep dice with kh or kl', 3),
        ("", "empty dice expression", 0),
        ("   ", "empty dice expression", 0),
    ],
)
def test_bad_notation_names_the_offending_part(text: str, message: str, position: int) -> None:
    # §1: rejected with a message that points at the offending part.
    with pytest.raises(DiceError) as caught:
        parse(text)
    assert str(caught.value).startswith(message)
    assert caught.value.position == position
    assert caught.value.expression == text
    assert isinstance(caught.value, ValueError)


def test_limits_dice_terms_and_length() -> None:
    # §1: at most 1000 dice, 100 terms, 200 characters; die sizes 2..1000.
    assert parse("1000d2").dice_count == 1000
    assert parse("500d6+500d8").dice_count == 1000
    with pytest.raises(DiceError, match="too many dice"):
        parse("500d6+501d8")
    assert len(parse("+".join(["1"] * 100)).terms) == 100  # 199 characters
    with pytest.raises(DiceError):  # 101 terms cannot fit in 200 characters
        parse("+".join(["1"] * 101))
    assert parse("d2+d1000").dice_count == 2
    assert parse("1" * 200).constant == int("1" * 200)
    with pytest.raises(DiceError, match=r"too long \(201 characters; at most 200\)"):
        parse("1" * 201)


def test_ten_kilobytes_of_text_is_rejected_without_parsing() -> None:
    # §1: never a hang; the length check comes before any tokenising.
    with pytest.raises(DiceError) as caught:
        parse("1d6+" * 2500)
    assert "too long (10000 characters" in caught.value.message
    assert len(caught.value.expression) == 200


def test_non_text_is_a_dice_error() -> None:
    with pytest.raises(DiceError, match="is text, not int"):
        parse(20)  # type: ignore[arg-type]


# --- §1 rolling and breakdowns ----------------------------------------------


def test_keep_highest_breakdown_from_typed_faces() -> None:
    # §1: every roll keeps its breakdown; kept dice shown bold when some drop.
    result = roll("2d20kh1+5", random.Random(0), faces=[5, 14])
    assert result.total == 19
    assert result.constant == 5
    assert result.dice == (Die(20, 5, False), Die(20, 14, True))
    assert result.render() == "2d20kh1 (5, **14**) + 5 = 19"


def test_plain_breakdown_lists_faces() -> None:
    result = roll("2d6+3", random.Random(0), faces=[3, 4])
    assert result.render() == "2d6 (3, 4) + 3 = 10"
    assert str(result) == result.render()


def test_keep_lowest_and_subtraction() -> None:
    result = roll("4d6kl2 - 1d4 - 2", random.Random(0), faces=[6, 2, 5, 2, 3])
    # kl2 keeps the two 2s (ties: the die rolled first), subtracts 3 and 2
    assert [d.kept for d in result.dice] == [False, True, False, True, True]
    assert result.total == 2 + 2 - 3 - 2
    assert result.constant == -2
    assert result.render() == "4d6kl2 (6, **2**, 5, **2**) - 1d4 (3) - 2 = -1"


def test_ties_keep_the_first_die() -> None:
    result = roll("3d20kh2", random.Random(0), faces=[7, 7, 7])
    assert [d.kept for d in result.dice] == [True, True, False]


def test_typed_faces_come_first_then_the_rng() -> None:
    # §1: the GM can type the faces a player rolled; the rest is rolled.
    rng = OnlyRandint([6, 1])
    result = roll("3d6", rng, faces=[4])  # type: ignore[arg-type]
    assert [d.value for d in result.dice] == [4, 6, 1]
    assert rng.calls == [(1, 6), (1, 6)]


def test_only_randint_is_called() -> None:
    rng = OnlyRandint([3, 17, 2, 8])
    result = roll("2d20kh1+1d4+1d8", rng)  # type: ignore[arg-type]
    assert rng.calls == [(1, 20), (1, 20), (1, 4), (1, 8)]
    assert result.total == 17 + 2 + 8


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([7], "typed face 7 is not on a d6 (1..6)"),
        ([0], "typed face 0 is not on a d6"),
        ([True], "typed face True is not a whole number"),
        ([2.5], "typed face 2.5 is not a whole number"),
        ([1, 2, 3], "3 faces typed but only 2 dice rolled"),
    ],
)
def test_bad_typed_faces_are_rejected(faces: list[object], message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        roll("2d6", random.Random(0), faces=faces)  # type: ignore[arg-type]


def test_same_seed_same_roll() -> None:
    # §1: tests and --seed runs are reproducible.
    first = roll("8d6kh3+1d%", random.Random(42))
    again = roll("8d6kh3+1d%", random.Random(42))
    assert first == again
    assert first.render() == again.render()


def test_roll_accepts_a_parsed_expression() -> None:
    expr = parse("1d8+2")
    assert roll(expr, random.Random(1), faces=[5]).total == 7


def test_d3_works() -> None:
    # §1: a GM may type d3 and expect it to work.
    rng = random.Random(3)
    assert {roll("d3", rng).total for _ in range(200)} == {1, 2, 3}


# --- §1 statistics -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "avg", "low", "high"),
    [
        ("2d6+3", 10.0, 5, 15),
        ("d20", 10.5, 1, 20),
        ("d%", 50.5, 1, 100),
        ("2d20kh1", 13.825, 1, 20),
        ("2d20kl1", 7.175, 1, 20),
        ("4d6kh3", 12.244598765432098, 3, 18),
        ("1d20-1d4-2", 10.5 - 2.5 - 2, 1 - 4 - 2, 20 - 1 - 2),
        ("7", 7.0, 7, 7),
    ],
)
def test_average_minimum_maximum(text: str, avg: float, low: int, high: int) -> None:
    # §4: average HP ("rounded down"); §7: compare persistent damage averages.
    assert average(text) == pytest.approx(avg)
    assert minimum(text) == low
    assert maximum(text) == high


def test_average_of_keep_matches_brute_force() -> None:
    from itertools import product

    faces = list(product(range(1, 7), repeat=4))
    brute = sum(sum(sorted(f)[:3]) for f in faces) / len(faces)
    assert average("4d6kl3") == pytest.approx(brute)
    brute_mid = sum(sum(sorted(f)[2:]) for f in faces) / len(faces)
    assert average("4d6kh2") == pytest.approx(brute_mid)


# --- §5 step 1: critical damage ----------------------------------------------


def test_no_crit_is_a_plain_roll() -> None:
    result = roll_damage("2d6+3", random.Random(0), faces=[3, 4])
    assert result.total == 10
    assert result.render() == "2d6 (3, 4) + 3 = 10"


def test_double_dice_rolls_twice_the_dice_not_the_modifier() -> None:
    # §5 step 1, double-dice (000): flat modifiers are not doubled.
    result = roll_damage("2d6+3", random.Random(0), crit=True, faces=[1, 2, 3, 4])
    assert len(result.dice) == 4
    assert result.total == 13
    assert result.render() == "crit ×2 dice: 4d6 (1, 2, 3, 4) + 3 = 13"


def test_not_doubled_term_is_marked_with_a_bang() -> None:
    # §5 step 1: a term can be marked as not doubled (e.g. Precise Strike).
    result = roll_damage("2d6+1d6!+3", random.Random(0), crit=True, faces=[1, 1, 1, 1, 5])
    assert [d.sides for d in result.dice] == [6] * 5
    assert result.total == 4 + 5 + 3
    assert "1d6! (5)" in result.render()


def test_double_dice_doubles_a_keep_suffix_too() -> None:
    result = roll_damage("2d20kh1", random.Random(0), crit=True, faces=[1, 20, 19, 2])
    assert result.total == 39
    assert result.render().startswith("crit ×2 dice: 4d20kh2 (1, **20**, **19**, 2)")


def test_double_total_doubles_after_positive_modifiers() -> None:
    # §5 step 1, double-total (003): "doubled after all positive modifiers".
    result = roll_damage(
        "2d6+3-1+1d6!", random.Random(0), crit=True, mode="double-total", faces=[3, 4, 5]
    )
    # (3 + 4 + 3) × 2, then the penalty, then the not-doubled term
    assert result.total == 20 - 1 + 5
    assert result.render() == "crit ×2 total: (2d6 (3, 4) + 3) ×2 - 1 + 1d6! (5) = 24"


def test_damage_never_goes_below_zero() -> None:
    result = roll_damage("1d4-5", random.Random(0), faces=[2])
    assert result.total == 0
    assert result.raw_total == -3
    assert result.render() == "1d4 (2) - 5 = -3 → 0"


def test_unknown_crit_mode_is_a_dice_error() -> None:
    with pytest.raises(DiceError, match="unknown critical damage mode"):
        roll_damage("1d6", random.Random(0), crit=True, mode="triple")  # type: ignore[arg-type]
