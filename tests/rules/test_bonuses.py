"""Bonus stacking, cover and effective AL (RULES.md §9)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.bonuses import (
    STACKING,
    Bonus,
    CoverError,
    cover_bonus,
    effective_al,
    stack,
)
from rules.combatant import Combatant
from rules.rulesets import ruleset

CORE = ruleset("core")


def test_stacking_table_as_data() -> None:
    rules = {k: (r.limit, r.al_only) for k, r in STACKING.items()}
    assert rules == {
        "deflection": (None, True),
        "dodge": (1, True),
        "insight": (None, False),
        "assist": (3, False),
        "luck": (1, False),
        "morale": (1, False),
        "item": (2, False),
        "untyped": (None, False),
    }


def test_dodge_highest_only_and_deflection_all_add() -> None:
    bs = [Bonus("dodge", 1), Bonus("dodge", 3), Bonus("deflection", 2), Bonus("deflection", 1)]
    r = stack(bs, "al")
    assert r.total == 6
    assert Bonus("dodge", 1) in r.ignored and len(r.counted) == 3
    assert "ignored: +1 dodge" in r.text


def test_deflection_and_dodge_only_for_al() -> None:
    r = stack([Bonus("dodge", 2, "attacks"), Bonus("insight", 1, "attacks")], "attacks")
    assert r.total == 1 and "AL only" in r.text


def test_limits_per_type() -> None:
    bs = [Bonus("assist", v, "checks") for v in (1, 4, 2, 3)]
    bs += [Bonus("luck", 2, "checks"), Bonus("luck", 1, "checks")]
    bs += [Bonus("morale", 1, "checks"), Bonus("morale", 2, "checks")]
    bs += [Bonus("item", v, "checks") for v in (1, 3, 2)]
    bs += [
        Bonus("insight", 1, "checks"),
        Bonus("insight", 1, "checks"),
        Bonus("untyped", 2, "checks"),
    ]
    r = stack(bs, "checks")
    assert r.total == (4 + 3 + 2) + 2 + 2 + (3 + 2) + 2 + 2
    assert sorted((b.type, b.value) for b in r.ignored) == [
        ("assist", 1),
        ("item", 1),
        ("luck", 1),
        ("morale", 1),
    ]


def test_penalties_always_apply() -> None:
    # Documented choice: negative values add in full, and do not use up a slot.
    bs = [Bonus("luck", -2, "checks"), Bonus("luck", 1, "checks"), Bonus("luck", -1, "checks")]
    assert stack(bs, "checks").total == -2


def test_other_targets_skipped_and_advantage_ignored() -> None:
    bs = [Bonus("untyped", 5, "attacks"), Bonus("advantage", 1, "al")]
    r = stack(bs, "al")
    assert r.total == 0 and r.ignored == (Bonus("advantage", 1, "al"),)


def test_unknown_type_is_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown bonus type 'sacred'"):
        stack([Bonus("sacred", 1)], "al")


@given(st.lists(st.tuples(st.sampled_from(sorted(STACKING)), st.integers(-5, 10)), max_size=15))
def test_stacking_only_drops_bonuses_never_penalties(pairs: list[tuple[str, int]]) -> None:
    bs = [Bonus(t, v, "al") for t, v in pairs]
    r = stack(bs, "al")
    assert len(r.counted) + len(r.ignored) == len(bs)
    assert all(b.value >= 0 for b in r.ignored)
    assert r.total == sum(b.value for b in r.counted)
    assert sum(v for _, v in pairs if v < 0) <= r.total <= sum(v for _, v in pairs if v > 0)


def test_cover_degrees() -> None:
    assert cover_bonus("none", CORE) == 0
    assert cover_bonus(None, CORE) == 0
    assert cover_bonus("half", CORE) == 2
    assert cover_bonus("Three-Quarters", CORE) == 5
    assert cover_bonus("3/4", ruleset("core", cover_three_quarters=4)) == 4
    with pytest.raises(CoverError, match="cannot be targeted"):
        cover_bonus("total", CORE)
    with pytest.raises(ValueError, match="unknown cover 'lots'"):
        cover_bonus("lots", CORE)


def test_effective_al_explains_sum_and_takes_best_cover() -> None:
    c = Combatant(
        "Ayla",
        20,
        20,
        al=14,
        bonuses=(
            Bonus("deflection", 2, source="Shield of Faith"),
            Bonus("dodge", 1),
            Bonus("dodge", 2),
            Bonus("insight", 3, "checks"),
        ),
    )
    total, text = effective_al(c, CORE, cover=["half", "three-quarters"])
    assert total == 14 + 2 + 2 + 5
    assert text == (
        "Ayla AL 23 = 14 base +2 deflection (Shield of Faith) +2 dodge +5 three-quarters cover"
        " (not stacking: +1 dodge)"
    )
    assert effective_al(c, CORE)[0] == 18
    with pytest.raises(CoverError):
        effective_al(c, CORE, cover=["half", "total"])
