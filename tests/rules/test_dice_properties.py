"""Property tests for the dice engine (RULES.md §1, §2, §5 step 1).

Any text either parses or raises DiceError (never another exception, never a
hang); well-formed generated expressions roll inside [minimum, maximum],
keep the right number of dice and reproduce under a seed.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.checks import advantage_dice, roll_d20
from rules.dice import DiceError, Expression, average, maximum, minimum, parse, roll, roll_damage
from rules.rulesets import ruleset

SIDES = st.one_of(st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]), st.integers(2, 1000))


@st.composite
def dice_term(draw: st.DrawFn) -> tuple[str, int, int, int]:
    """(text, dice rolled, dice kept, sides) for one dice term."""
    count = draw(st.integers(1, 6))
    sides = draw(SIDES)
    shown_count = "" if count == 1 and draw(st.booleans()) else str(count)
    shown_sides = "%" if sides == 100 and draw(st.booleans()) else str(sides)
    text = f"{shown_count}{draw(st.sampled_from(['d', 'D']))}{shown_sides}"
    kept = count
    keep = draw(st.sampled_from(["", "kh", "kl", "KH"]))
    if keep:
        kept = draw(st.integers(1, count))
        text += f"{keep}{kept}"
    if draw(st.booleans()):
        text += "!"
    return text, count, kept, sides


@st.composite
def expression(draw: st.DrawFn) -> tuple[str, int, int]:
    """(well-formed text, dice rolled, dice kept)."""
    parts: list[str] = []
    rolled = kept = 0
    for i in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 3)) == 0:
            text = str(draw(st.integers(0, 60)))
        else:
            text, n, k, _ = draw(dice_term())
            rolled += n
            kept += k
        space = draw(st.sampled_from(["", " ", "  "]))
        if i:
            parts.append(space + draw(st.sampled_from("+-")) + space)
        elif draw(st.integers(0, 5)) == 0:
            parts.append("-")
        parts.append(text)
    return "".join(parts), rolled, kept


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_arbitrary_text_parses_or_raises_dice_error(text: str) -> None:
    # §1: anything else is rejected with a message, never a traceback.
    try:
        expr = parse(text)
    except DiceError as exc:
        assert exc.message
        assert exc.position is None or 0 <= exc.position <= len(text)
    else:
        assert isinstance(expr, Expression)


@given(st.text(alphabet="0123456789dDkKhHlL%+-! \t", max_size=60))
def test_notation_like_text_parses_or_raises_dice_error(text: str) -> None:
    # Denser fuzz over the notation's own alphabet.
    try:
        expr = parse(text)
    except DiceError as exc:
        assert exc.message
    else:
        low, high = minimum(expr), maximum(expr)
        assert low <= roll(expr, random.Random(0)).total <= high


@given(expression(), st.integers(0, 2**32))
def test_rolls_stay_within_minimum_and_maximum(case: tuple[str, int, int], seed: int) -> None:
    text, rolled, kept = case
    result = roll(text, random.Random(seed))
    assert minimum(text) <= result.total <= maximum(text)
    assert minimum(text) <= average(text) <= maximum(text)
    # every die is recorded, dropped ones included; kept counts follow khK/klK
    assert len(result.dice) == rolled == parse(text).dice_count
    assert sum(d.kept for d in result.dice) == kept
    assert all(1 <= d.value <= d.sides for d in result.dice)


@given(expression(), st.integers(0, 2**32))
def test_seeded_rolls_reproduce(case: tuple[str, int, int], seed: int) -> None:
    text = case[0]
    assert roll(text, random.Random(seed)) == roll(text, random.Random(seed))


@given(expression())
def test_normalised_text_round_trips(case: tuple[str, int, int]) -> None:
    expr = parse(case[0])
    assert parse(expr.text) == expr


@given(expression(), st.integers(0, 2**32))
def test_typed_faces_reproduce_a_roll(case: tuple[str, int, int], seed: int) -> None:
    # §1: typing the faces that came up gives the same result as rolling them.
    text = case[0]
    rolled = roll(text, random.Random(seed))
    typed = roll(text, random.Random(seed + 1), faces=[d.value for d in rolled.dice])
    assert typed == rolled


@given(expression(), st.integers(0, 2**32))
def test_double_dice_adds_dice_not_modifiers(case: tuple[str, int, int], seed: int) -> None:
    # §5 step 1 double-dice: twice the damage dice; flat and "!" terms as typed.
    text = case[0]
    expr = parse(text)
    result = roll_damage(text, random.Random(seed), crit=True, mode="double-dice")
    doubled = sum(t.number for t in expr.terms if t.number and t.sign > 0 and not t.no_double)
    assert len(result.dice) == expr.dice_count + doubled
    assert max(minimum(text), 0) <= result.total
    assert result.render().startswith("crit ×2 dice")


@given(expression(), st.integers(0, 2**32))
def test_double_total_doubles_the_positive_part(case: tuple[str, int, int], seed: int) -> None:
    # §5 step 1 double-total: (dice + positive modifiers) × 2, then penalties
    # and "!" terms; never below 0.  Same faces as a plain roll.
    text = case[0]
    plain = roll(text, random.Random(seed))
    crit = roll_damage(
        text, random.Random(0), crit=True, mode="double-total", faces=[d.value for d in plain.dice]
    )
    positive = 0
    for term, group in zip(plain.terms, plain.groups, strict=True):
        if term.sign > 0 and not term.no_double:
            positive += sum(d.value for d in group if d.kept) if term.number else term.value
    assert crit.raw_total == plain.total + positive
    assert crit.total == max(plain.total + positive, 0)
    assert crit.render().startswith("crit ×2 total")


@given(
    st.integers(0, 12),
    st.integers(0, 12),
    st.sampled_from(["alternate", "stack", "cap2"]),
    st.integers(-10, 10),
    st.integers(0, 2**32),
)
def test_d20_rolls_keep_one_die(adv: int, dis: int, mode: str, mod: int, seed: int) -> None:
    # §2: net advantage rolls extra d20s and keeps exactly one of them.
    rules = ruleset("core", advantage=mode)
    dice, flat = advantage_dice(adv, dis, rules)
    result = roll_d20(mod, adv, dis, rules, random.Random(seed))
    assert len(result.result.dice) == dice
    assert sum(d.kept for d in result.result.dice) == 1
    assert result.natural is not None and 1 <= result.natural <= 20
    assert result.modifier == mod + flat
    assert result.total == result.natural + mod + flat
    kept_is_extreme = max if adv > dis else min
    assert result.natural == kept_is_extreme(d.value for d in result.result.dice)


@given(st.integers(1, 4), st.integers(2, 7), st.data())
def test_average_of_keep_is_exact(count: int, sides: int, data: st.DataObject) -> None:
    # §4/§7 compare averages: the keep-highest/lowest expectation is exact.
    from itertools import product

    keep = data.draw(st.integers(1, count))
    outcomes = list(product(range(1, sides + 1), repeat=count))
    high = sum(sum(sorted(o)[count - keep :]) for o in outcomes) / len(outcomes)
    low = sum(sum(sorted(o)[:keep]) for o in outcomes) / len(outcomes)
    assert abs(average(f"{count}d{sides}kh{keep}") - high) < 1e-9
    assert abs(average(f"{count}d{sides}kl{keep}") - low) < 1e-9
