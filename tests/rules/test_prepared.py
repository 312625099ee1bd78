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


# -- hostile and mistaken files (issue 9) ----------------------------------------

OGRE = '[[combatant]]\nname = "Ogre"\nhp = 10\n'


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("ruleset = []\n", 'ruleset must be text like "core", not a list'),
        ("ruleset = 3\n", "ruleset must be text"),
        (
            "[options]\nstack_cap = inf\n",
            "[options] option 'stack_cap' takes a whole number, not inf",
        ),
        ("[options]\nstack_cap = nan\n", "whole number, not nan"),
        ("[options]\nstack_cap = 2.5\n", "whole number, not 2.5"),
        ("[options]\nstack_cap = -3\n", "'stack_cap' is a whole number from 1 to 100, not -3"),
        ("[options]\ncover_half = -2\n", "'cover_half' is a whole number from 0 to 1,000"),
        ("[options]\npersistent_dc = true\n", "whole number, not true"),
        ("[options]\nresistance = { a = 1 }\n", "one of halve, subtract, not a table"),
        ("options = 3\n", "[options] must be a table"),
        (OGRE + 'abilities = { dex = "x" }\n', "'Ogre': abilities: dex must be a score"),
        (OGRE + "abilities = [1]\n", "'Ogre': abilities must be a table"),
        (OGRE + "abilities = { dex = 14, DEX = 12 }\n", "dex is given twice"),
        (OGRE + "resistances = { fire = { a = 1 } }\n", "resistances fire must be a whole number"),
        (OGRE + 'resistances = { "fire,cold" = 2 }\n', "a tag cannot contain ','"),
        (OGRE + 'resistances = { "fire=2" = 2 }\n', "a tag cannot contain '='"),
        (OGRE + "resistances = { Fire = 1, fire = 2 }\n", "'fire' is given twice"),
        (OGRE + "resistances = { fire = -1 }\n", "resistances fire -1 is too small"),
        (OGRE + 'weaknesses = ["cold,fire"]\n', "weaknesses #1: a tag cannot contain ','"),
        (OGRE + 'immunities = "poison"\n', "immunities must be a list of tags"),
        (OGRE + "al = 2.5\n", "'Ogre': al must be a whole number, not a decimal number"),
        (OGRE + "count = 2.0\n", "count must be a whole number"),
        (OGRE + "al = -1001\n", "al -1,001 is too small (at least -1,000)"),
        (OGRE + "bonus = 99999999999999999999\n", "bonus 99,999,999,999"),
        (OGRE + "count = true\n", "count must be a whole number, not true/false"),
        (OGRE.replace("hp = 10", "hp = true"), "hp must be a number or dice"),
        (OGRE.replace("hp = 10", 'hp = "0"'), "hp 0 is too small"),
        (OGRE.replace("hp = 10", 'hp = "1000d1000+1"'), "can total 1,000,001"),
        (OGRE + "player = 1\n", "player must be true or false"),
        (OGRE + "notes = 1979-05-27\n", "notes must be text, not a date/time"),
        (OGRE + "speed = 3\n", "'Ogre': unknown key 'speed'"),
        (OGRE + 'conditions = ["frightened"]\n', "unknown key 'conditions'"),
        (OGRE.replace('"Ogre"', '"Orc, Chief"'), "cannot contain a comma"),
        (OGRE.replace('"Ogre"', "[1]"), "combatant #1: name must be text, not a list"),
        ("combatant = 3\n", "[[combatant]] table"),
        ("combatant = [1]\n", "combatant #1: expected a table"),
        ('x = "a\x1b"\n', "not valid TOML: Illegal character '\\x1b' (at line 1"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("a" + ".a" * 100_000 + " = 1\n", "line 1: keys nested too deeply"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_key(toml: str, message: str) -> None:
    with pytest.raises(PreparedError) as info:
        parse_prepared(toml)
    assert message in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) <= 300


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("name", "Imp\x1b]52;c;cm0gLXJmIH4=\x07"),
        ("name", "Imp\x1b[2J"),
        ("name", "Gob\u202elin"),
        ("name", "Gob\u200blin"),
        ("notes", "Flees.\x1b[2J"),
        ("notes", "line one\nline two"),
        ("weaknesses", ["cold\x07"]),
        ("immunities", ["\u2066poison"]),
        ("resistances", {"fire\x1b": 2}),
    ],
)
def test_control_and_bidi_characters_are_one_error_naming_the_key(key: str, value: object) -> None:
    entry: dict[str, object] = {"name": "Ogre", "hp": 10, key: value}
    with pytest.raises(PreparedError) as info:
        parse_prepared(_toml_escaped(entry))
    text = str(info.value)
    assert text.startswith("combatant #1") and f"{key}" in text
    assert "no control, bidirectional or invisible characters" in text
    assert not any(ch in text for ch in "\x1b\x07\u202e\u200b\u2066\n")


def _toml_escaped(entry: dict) -> str:
    def s(text: str) -> str:
        return '"' + "".join(ch if ch.isprintable() else f"\\u{ord(ch):04X}" for ch in text) + '"'

    lines = ["[[combatant]]"]
    for k, v in entry.items():
        if isinstance(v, str):
            lines.append(f"{k} = {s(v)}")
        elif isinstance(v, list):
            lines.append(f"{k} = [{', '.join(s(t) for t in v)}]")
        elif isinstance(v, dict):
            lines.append(f"{k} = {{ {', '.join(f'{s(t)} = {n}' for t, n in v.items())} }}")
        else:
            lines.append(f"{k} = {v}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "toml",
    [
        OGRE.replace('"Ogre"', '"' + "N" * 3_000_000 + '"'),
        OGRE + 'notes = "' + "n" * 3_000_000 + '"\n',
        OGRE + 'weaknesses = ["' + "w" * 3_000_000 + '"]\n',
        OGRE.replace("hp = 10", 'hp = "' + "9" * 3_000_000 + '"'),
        'ruleset = "' + "r" * 3_000_000 + '"\n',
        '[options]\nresistance = "' + "o" * 3_000_000 + '"\n',
        '"' + "k" * 3_000_000 + '" = 1\n',
        OGRE + 'notes = "' + "n" * 10_000_000 + '"\n',  # past the file limit
    ],
    ids=["name", "notes", "tag", "hp", "ruleset", "option", "key", "10MB"],
)
def test_a_huge_field_is_quoted_by_a_short_excerpt(toml: str) -> None:
    with pytest.raises(PreparedError) as info:
        parse_prepared(toml)
    assert len(str(info.value)) <= 300


def test_a_file_past_500_combatants_is_refused_before_any_is_checked() -> None:
    goblins = '[[combatant]]\nname = "Goblin"\ncount = 100\nhp = 1\n' * 6
    extra = '[[combatant]]\nname = "Boss"\ncount = 12\nhp = "x"\n'
    with pytest.raises(PreparedError) as info:
        parse_prepared(goblins + extra)
    assert str(info.value) == (
        "an encounter holds at most 500 combatants; this file would make 612"
    )
    assert len(parse_prepared(goblins[: len(goblins) * 5 // 6]).combatants) == 5


def test_a_numbered_name_too_long_is_refused_in_the_file() -> None:
    twice = ('[[combatant]]\nname = "' + "x" * 59 + '"\nhp = 1\n') * 2
    with pytest.raises(PreparedError, match=r"combatant #2 .*at most 60 characters"):
        parse_prepared(twice)


def test_checked_values_are_kept_not_altered() -> None:
    prepared = parse_prepared(
        '[options]\nstack_cap = "3"\n'
        '[[combatant]]\nname = "Cafe\\u0301"\nhp = "12"\n'
        'weaknesses = ["Cold", "cold"]\nresistances = { Fire = 5 }\n'
    )
    assert prepared.options == {"stack_cap": 3}
    (entry,) = prepared.combatants
    assert entry["name"] == "Café" and entry["hp"] == 12
    assert entry["weaknesses"] == ["cold"] and entry["resistances"] == {"fire": 5}


@pytest.mark.parametrize(
    "first, second",
    [
        ('name = "Gob"\ncount = 3', 'name = "Gob 2"'),  # would become "Gob 2 2"
        ('name = "Gob"\ncount = 2', 'name = "GOB 1"'),  # in any case
    ],
)
def test_an_entry_whose_name_an_earlier_one_makes_is_refused(first: str, second: str) -> None:
    text = f"[[combatant]]\n{first}\nhp = 5\n\n[[combatant]]\n{second}\nhp = 5\n"
    with pytest.raises(PreparedError, match=r"combatant #2 .*combatant #1 already makes that name"):
        parse_prepared(text)


def test_distinct_names_and_repeated_groups_are_named_as_the_engine_does() -> None:
    text = (
        '[[combatant]]\nname = "Gob"\ncount = 2\nhp = 5\n\n'
        '[[combatant]]\nname = "Gob Archer"\nhp = 5\n\n'
        '[[combatant]]\nname = "Gob"\ncount = 2\nhp = 9\n'  # a second group numbers on
    )
    session = Session(rng=random.Random(1))
    for action in add_actions(parse_prepared(text)):
        session.apply(action)
    assert sorted(c.name for c in session.encounter.combatants) == [
        "Gob 1",
        "Gob 2",
        "Gob 3",
        "Gob 4",
        "Gob Archer",
    ]


def test_a_prepared_horde_can_be_a_group_and_hidden_from_the_players() -> None:
    text = (
        '[[combatant]]\nname = "Zombie"\ncount = 4\nhp = 12\ngroup = true\nview = "hidden"\n\n'
        '[[combatant]]\nname = "Ghoul"\nhp = 20\ngroup = "Zombie"\nview = "masked"\n\n'
        '[[combatant]]\nname = "Wight"\nhp = 40\n'
    )
    session = Session(rng=random.Random(1))
    for action in add_actions(parse_prepared(text)):
        session.apply(action)
    by_name = {c.name: c for c in session.encounter.combatants}
    zombies = [by_name[f"Zombie {n}"] for n in range(1, 5)]
    assert {c.group for c in zombies} == {"Zombie"} and by_name["Ghoul"].group == "Zombie"
    assert {c.visibility for c in zombies} == {"hidden"}
    assert by_name["Ghoul"].visibility == "masked"
    assert by_name["Wight"].group is None and by_name["Wight"].visibility == "visible"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("group = 3", "group must be true or a group's name, not a whole number"),
        ('view = "invisible"', "view must be one of visible, masked, hidden, not 'invisible'"),
        ("view = true", "view must be one of visible, masked, hidden, not"),
    ],
)
def test_a_bad_group_or_view_is_one_line_naming_the_key(line: str, message: str) -> None:
    text = f'[[combatant]]\nname = "Zombie"\nhp = 12\n{line}\n'
    with pytest.raises(PreparedError, match=message.replace("(", r"\(")) as caught:
        parse_prepared(text)
    assert "'Zombie'" in str(caught.value)
