"""Prepared encounters (TOML, README "Prepared encounters"): whatever the GM
writes, the tracker either builds the encounter or names the mistake."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Session
from rules.prepared import PreparedError, add_actions, parse_prepared


@given(st.text(max_size=300))
@settings(max_examples=300)
def test_arbitrary_text_is_accepted_or_rejected_with_a_message(text: str) -> None:
    try:
        parse_prepared(text)
    except PreparedError as exc:
        assert str(exc)


names = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True)
entries = st.fixed_dictionaries(
    {"name": names, "hp": st.one_of(st.integers(1, 200), st.sampled_from(["2d6", "3d8+4", "d20"]))},
    optional={
        "count": st.integers(1, 4),
        "al": st.integers(5, 25),
        "bonus": st.integers(-3, 8),
        "player": st.booleans(),
        "athletics": st.integers(0, 6),
        "abilities": st.fixed_dictionaries(
            {}, optional={"dex": st.integers(3, 20), "con": st.integers(3, 20)}
        ),
        "resistances": st.dictionaries(st.sampled_from(["fire", "cold"]), st.integers(0, 10)),
        "weaknesses": st.lists(st.sampled_from(["radiant", "cold"]), unique=True),
    },
)


def _toml(entry: dict) -> str:
    lines = ["[[combatant]]"]
    for key, value in entry.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, str)):
            lines.append(f"{key} = {value!r}".replace("'", '"'))
        elif isinstance(value, list):
            lines.append(f"{key} = [{', '.join(repr(v).replace(chr(39), chr(34)) for v in value)}]")
        else:
            inner = ", ".join(f"{k} = {v}" for k, v in value.items())
            lines.append(f"{key} = {{ {inner} }}")
    return "\n".join(lines)


@given(st.lists(entries, min_size=1, max_size=4, unique_by=lambda e: e["name"].lower()))
@settings(max_examples=60, deadline=None)
def test_generated_files_build_every_combatant(batch: list[dict]) -> None:
    text = "\n\n".join(_toml(e) for e in batch)
    prepared = parse_prepared(text)
    session = Session(rng=random.Random(1))
    for action in add_actions(prepared):
        session.apply(action)
    expected = sum(e.get("count", 1) for e in batch)
    assert len(session.encounter.combatants) == expected
    for entry in batch:
        name = entry["name"]
        matches = [
            c
            for c in session.encounter.combatants
            if c.name == name or c.name.startswith(name + " ")
        ]
        assert matches
        if "al" in entry:
            assert all(c.al == entry["al"] for c in matches)
        if "resistances" in entry:
            assert all(dict(c.defenses.resistances) == entry["resistances"] for c in matches)


def test_a_wrong_ability_names_the_combatant_and_the_key() -> None:
    with pytest.raises(PreparedError, match=r"'Ogre'.*unknown ability 'dexterity'"):
        parse_prepared('[[combatant]]\nname = "Ogre"\nhp = 5\nabilities = { dexterity = 12 }\n')
