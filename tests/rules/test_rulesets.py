"""Rulesets and options (RULES.md preamble table)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.rulesets import OPTIONS, RULESETS, Ruleset, RulesetError, ruleset


def test_shipped_values_match_the_table() -> None:
    table = {
        "advantage": ("alternate", "stack", "cap2"),
        "natural": ("step", "crit", "crit"),
        "resistance": ("halve", "subtract", "subtract"),
        "critical_damage": ("double-total", "double-dice", "double-dice"),
        "persistent_dc": (20, 20, 20),
        "temp_hp": ("keep-higher", "keep-higher", "keep-higher"),
    }
    for i, name in enumerate(("core", "forge", "cinematic")):
        rs = ruleset(name)
        assert rs.name == name
        for key, values in table.items():
            assert rs[key] == values[i], (name, key)
        assert set(rs.options) == set(OPTIONS)


def test_default_is_core() -> None:
    assert Ruleset() == ruleset("core") == ruleset()


def test_cover_and_stack_cap_defaults() -> None:
    rs = ruleset("forge")
    assert (rs["cover_half"], rs["cover_three_quarters"], rs["stack_cap"]) == (2, 5, 10)


def test_override_single_option() -> None:
    rs = ruleset("core", resistance="subtract", persistent_dc="15")
    assert rs["resistance"] == "subtract" and rs["persistent_dc"] == 15
    assert rs["advantage"] == "alternate"
    assert RULESETS["core"]["resistance"] == "halve"  # shipped data untouched


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"name": "homebrew"}, "unknown ruleset 'homebrew'"),
        ({"colour": "red"}, "unknown rule option 'colour'"),
        ({"resistance": "double"}, "'resistance' is one of halve, subtract"),
        ({"persistent_dc": "high"}, "whole number"),
        ({"persistent_dc": True}, "whole number"),
    ],
)
def test_bad_overrides_are_clear(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(RulesetError, match=match):
        ruleset(**kwargs)  # type: ignore[arg-type]


def test_with_options_validates_too() -> None:
    with pytest.raises(RulesetError, match="natural"):
        ruleset().with_options(natural="always")


choices = {
    k: st.sampled_from(v) if isinstance(v, tuple) else st.integers(1, 30)
    for k, (v, _) in OPTIONS.items()
}


@given(st.sampled_from(sorted(RULESETS)), st.fixed_dictionaries({}, optional=choices))
def test_round_trip(name: str, overrides: dict[str, object]) -> None:
    rs = ruleset(name, **overrides)
    assert Ruleset.from_dict(rs.to_dict()) == rs


def test_old_save_missing_options_gets_defaults_and_unknown_dropped() -> None:
    rs = Ruleset.from_dict({"name": "forge", "options": {"resistance": "halve", "gone": 1}})
    assert rs["resistance"] == "halve" and rs["advantage"] == "stack"
    assert "gone" not in rs.options
