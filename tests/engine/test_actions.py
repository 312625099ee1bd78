"""The action language parser (rules/engine/parse.py): what a GM types becomes a
canonical record, and a mistake gets one clear message."""

from __future__ import annotations

import pytest

from rules.engine.complete import completions
from rules.engine.format import format_action
from rules.engine.grammar import HELP, VERBS
from rules.engine.parse import normalize_action, parse_action
from rules.errors import ActionError


def test_every_verb_has_a_usage_line() -> None:
    assert set(VERBS) == set(HELP)
    expected = (
        "add remove init order set start next prev damage heal temp persist unpersist "
        "cond uncond move bonus unbonus attack delay return roll luck cinematic undo redo"
    )
    for verb in expected.split(" "):
        assert verb in VERBS
        assert HELP[verb].startswith(verb)


def test_damage_with_quoted_multi_targets_tags_and_crit() -> None:
    assert parse_action('damage "Goblin 1,Goblin 3" 2d6+3 fire crit') == {
        "verb": "damage",
        "targets": ["Goblin 1", "Goblin 3"],
        "amount": "2d6+3",
        "tags": ["fire"],
        "crit": True,
    }


def test_single_quotes_and_case_insensitive_keywords() -> None:
    assert parse_action("DAMAGE 'Goblin 2' 8 FIRE CRIT") == {
        "verb": "damage",
        "targets": ["Goblin 2"],
        "amount": "8",
        "tags": ["fire"],
        "crit": True,
    }


def test_dice_typed_with_spaces_are_joined() -> None:
    assert parse_action("damage Ogre 2d6 + 3 slashing")["amount"] == "2d6+3"
    assert parse_action("heal Mira 1d8 +2")["amount"] == "1d8+2"
    assert parse_action("add Boss hp 6d10+ d4 al 17")["hp"] == "6d10+d4"


def test_dice_left_ending_in_a_sign_do_not_swallow_the_next_keyword() -> None:
    # The add form sends "add Boss hp 6d10+ al 17" for an HP typed "6d10+":
    # the GM must read what is wrong with what they typed, not with "6d10+al"
    # ('"a" (character 6) is not dice notation').
    with pytest.raises(ActionError, match=r'add hp: "6d10\+": a term is missing after "\+"'):
        parse_action("add Boss hp 6d10+ al 17")
    with pytest.raises(ActionError, match=r'roll expr: "2d6\+": a term is missing'):
        parse_action("roll 2d6+ dc 15")


def test_add_with_every_option() -> None:
    action = parse_action(
        "add Goblin count 4 hp 2d6 avg al 13 init 12 bonus 2 player dex 14 con 12 luck 10 "
        "athletics 2 immune poison,acid resist fire=5,cold weak radiant susceptible thunder "
        "notes 'Flees below 3 HP'"
    )
    assert action == {
        "verb": "add",
        "name": "Goblin",
        "count": 4,
        "hp": "2d6",
        "avg": True,
        "al": 13,
        "init": 12,
        "bonus": 2,
        "player": True,
        "abilities": {"dex": 14, "con": 12, "luck": 10},
        "athletics": 2,
        "immunities": ["poison", "acid"],
        "resistances": {"fire": 5, "cold": 0},
        "weaknesses": ["radiant"],
        "susceptibilities": ["thunder"],
        "notes": "Flees below 3 HP",
    }


def test_add_fixed_hp_is_a_number() -> None:
    assert parse_action("add Zalek hp 38 player")["hp"] == 38


def test_durations_at_and_of() -> None:
    assert parse_action("cond Ogre frightened value 2 rounds 3 at start of Mira") == {
        "verb": "cond",
        "targets": ["Ogre"],
        "name": "frightened",
        "value": 2,
        "rounds": 3,
        "at": "start",
        "of": "Mira",
    }
    assert parse_action("temp Zalek 8 rounds 1 of Mira")["of"] == "Mira"


def test_attack_line() -> None:
    assert parse_action(
        "attack Ogre with +5 adv 1 dis 2 cover half roll 17 damage 1d8 + 3 slashing magic"
    ) == {
        "verb": "attack",
        "targets": ["Ogre"],
        "modifier": 5,
        "adv": 1,
        "dis": 2,
        "cover": "half",
        "roll": 17,
        "damage": "1d8+3",
        "tags": ["slashing", "magic"],
    }


def test_faces_at_the_end_of_any_line() -> None:
    assert parse_action("damage Ogre 2d6 fire faces 3,4") == {
        "verb": "damage",
        "targets": ["Ogre"],
        "amount": "2d6",
        "tags": ["fire"],
        "faces": [3, 4],
    }
    assert parse_action("start faces 12,5")["faces"] == [12, 5]
    # a combatant called "faces" is still a combatant
    assert parse_action("init faces 12") == {"verb": "init", "targets": ["faces"], "value": 12}


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("", "empty line"),
        ("   ", "empty line"),
        ("frobnicate Ogre", "unknown verb"),
        ("damage", "missing targets"),
        ("damage Ogre", "missing amount"),
        ("damage Ogre 3d0", "at least 2 sides"),
        ("damage Ogre 2d6+", "damage amount"),
        ('damage "Ogre 8', "quotes"),
        ("add Goblin count 0 hp 5", "at least 1"),
        ("add Goblin count 500 hp 5", "at most 100"),
        ("add Goblin hp 0", "at least 1"),
        ("add Goblin hp 5 dex 40", "1 to 30"),
        ("init Ogre,Mira 12", "exactly one"),
        ("init Ogre twelve", "whole number"),
        ("order Ogre sideways", "up or down"),
        ("move Zalek fly", "dash or run or sprint"),
        ("move Zalek sprint roll 25", "1 to 20"),
        ("attack Ogre cover partial", "half or three-quarters or total"),
        ("attack Ogre fire", "unexpected 'fire'"),
        ("roll 1d20 dc 10 dl hard", "not both"),
        ("persist Ogre 1d6", "damage tag"),
        ("damage Ogre 5 crit crit", "given twice"),
        ("cond Ogre prone rounds", "needs a value"),
        ("cond Ogre prone rounds 0", "at least 1"),
        ("damage ,Ogre 5", "empty combatant name"),
        ("start now", "unexpected"),
        ("damage Ogre 5 faces 0", "faces"),
    ],
)
def test_bad_lines_name_the_problem(line: str, fragment: str) -> None:
    with pytest.raises(ActionError) as info:
        parse_action(line)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_verb_suggests_close_ones() -> None:
    with pytest.raises(ActionError, match="did you mean damage"):
        parse_action("dam Ogre 5")


def test_format_round_trips_lines_with_quoting() -> None:
    for line in [
        'damage "Goblin 1,Goblin 3" 8 fire',
        "add 'Old Tom' hp 2d8+2 al 12 dex 14 notes 'it''s late'",
        "set Ogre notes 'Has the key'",
        "attack Ogre with -1 roll 3 damage 1d8+3 slashing",
        "roll 1d20+5 adv 2 dl formidable",
        "temp Mira 2d4 rounds 2 at end of Zalek",
    ]:
        action = parse_action(line)
        assert parse_action(format_action(action)) == action


def test_normalize_checks_built_dicts_like_typed_lines() -> None:
    built = {"verb": "damage", "targets": ["Ogre"], "amount": "2d6", "tags": ["Fire"]}
    assert normalize_action(built)["tags"] == ["fire"]
    with pytest.raises(ActionError, match="unknown field 'colour'"):
        normalize_action({"verb": "heal", "targets": ["Ogre"], "amount": "5", "colour": "red"})
    with pytest.raises(ActionError, match="unknown verb"):
        normalize_action({"verb": 3})
    with pytest.raises(ActionError, match="whole number"):
        normalize_action({"verb": "init", "targets": ["Ogre"], "value": "high"})
    with pytest.raises(ActionError):
        normalize_action({"verb": "damage", "targets": ["Ogre"], "amount": None})


def test_prepared_encounter_keys_are_add_fields() -> None:
    # the TOML loader builds add actions from the same keys (rules/prepared.py)
    built = {
        "verb": "add",
        "name": "Ogre",
        "hp": "7d10+21",
        "al": 11,
        "abilities": {"dex": 8, "con": 16},
        "athletics": 2,
        "resistances": {"fire": 5},
        "weaknesses": ["cold"],
        "immunities": ["poison"],
    }
    assert normalize_action(built) == built


def test_completions_of_verbs_and_names() -> None:
    assert completions("da") == ["damage"]
    assert completions("damage Gob", ["Goblin 1", "Goblin 2", "Ogre"]) == [
        'damage "Goblin 1"',
        'damage "Goblin 2"',
    ]


def test_a_built_add_action_with_empty_defenses_means_none() -> None:
    # A prepared file may say `weaknesses = []`: that is "no weaknesses".
    from rules.engine.parse import normalize_action

    action = normalize_action(
        {"verb": "add", "name": "Ogre", "hp": 30, "weaknesses": [], "resistances": {}}
    )
    assert action["name"] == "Ogre"
    assert not action.get("weaknesses") and not action.get("resistances")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (
            "damage Ogre 99999999999999999999",
            "99999999999999999999 is too large (at most 1,000,000)",
        ),
        ("damage Ogre 2d6+1000001", "1000001 is too large (at most 1,000,000)"),
        ("temp Ogre 100000000000000000000", "is too large (at most 1,000,000)"),
        ("heal Ogre 1000001", "is too large (at most 1,000,000)"),
        ("add Ogre hp 1000001", "hp 1000001 is too large (at most 1,000,000)"),
        ("set Ogre max_hp 99999999999999999999", "is too large (at most 1,000,000)"),
        ("set Ogre hp 1000001", "is too large (at most 1,000,000)"),
        ("set Ogre al 1001", "al 1001 is too large (at most 1,000)"),
        ("set Ogre init -1001", "initiative -1001 is too small (at least -1,000)"),
        ("set Ogre bonus 5000", "is too large (at most 1,000)"),
        ("set Ogre luck_points 101", "is too large (at most 100)"),
        ("set Ogre resist fire=2000000", "is too large (at most 1,000,000)"),
        ("set Ogre dex 31", "1 to 30"),
        ("set Ogre hp lots", "whole number"),
        ("init Ogre 1001", "is too large (at most 1,000)"),
        ("add Ogre hp 5 al 99999999999999999999", "is too large (at most 1,000)"),
        ("persist Ogre 1d6 fire dc 1001", "is too large (at most 1,000)"),
        ("bonus Ogre item 1001", "is too large (at most 1,000)"),
        ("attack Ogre with 1001", "is too large (at most 1,000)"),
        ("attack Ogre adv 101", "is too large (at most 100)"),
        ("cond Ogre prone rounds 1001", "is too large (at most 1,000)"),
        ("add Goblin count 101 hp 5", "is too large (at most 100)"),
    ],
)
def test_every_whole_number_has_one_bound_and_one_message(line: str, fragment: str) -> None:
    with pytest.raises(ActionError) as info:
        parse_action(line)
    assert fragment in str(info.value)


def test_bounds_hold_for_built_dicts_too() -> None:
    with pytest.raises(ActionError, match=r"too large \(at most 1,000,000\)"):
        normalize_action({"verb": "damage", "targets": ["Ogre"], "amount": 10**20})
    with pytest.raises(ActionError, match=r"too large \(at most 1,000\)"):
        normalize_action({"verb": "init", "targets": ["Ogre"], "value": 10**20})
    # the largest accepted values still parse
    assert parse_action("damage Ogre 1000000")["amount"] == "1000000"
    assert parse_action("set Ogre hp 0")["value"] == "0"
    assert parse_action("set Ogre init none")["value"] == "none"
    assert parse_action("init Ogre -1000")["value"] == -1000


def test_semicolons_outside_quotes_make_one_batch_record() -> None:
    line = "set Goblin max_hp 30; set Goblin hp 20;set Goblin al 14"
    action = parse_action(line)
    assert action["verb"] == "batch"
    assert [(a["field"], a["value"]) for a in action["actions"]] == [
        ("max_hp", "30"),
        ("hp", "20"),
        ("al", "14"),
    ]
    assert format_action(action) == "set Goblin max_hp 30; set Goblin hp 20; set Goblin al 14"
    assert parse_action(format_action(action)) == action
    # a ';' inside quotes is text; empty parts are ignored; one part is no batch
    assert parse_action("set Ogre notes 'flees; at 3 HP'")["value"] == "flees; at 3 HP"
    assert parse_action("damage Ogre 5;")["verb"] == "damage"
    assert parse_action('set Ogre notes "a \\" ; b"; heal Ogre 1')["actions"][0]["value"] == (
        'a " ; b'
    )


def test_a_bad_part_of_a_batch_is_named() -> None:
    with pytest.raises(ActionError, match=r"^part 2 of 3 \(heal Ogre\): heal: missing amount"):
        parse_action("damage Ogre 5; heal Ogre; next")
    with pytest.raises(ActionError, match="undo cannot be part of a batch"):
        parse_action("damage Ogre 5; undo")
    with pytest.raises(ActionError, match="do not nest"):
        normalize_action({"verb": "batch", "actions": [{"verb": "batch", "actions": []}, {}]})
    with pytest.raises(ActionError, match="non-empty list"):
        normalize_action({"verb": "batch", "actions": []})
    one = normalize_action({"verb": "batch", "actions": [{"verb": "next"}]})
    assert one == {"verb": "next"}


def test_faces_is_a_keyword_never_a_tag() -> None:
    # a tag "faces" would be written before crit and read back as the faces
    # keyword: the line is refused instead of saved unreadable
    with pytest.raises(ActionError, match="faces comes last"):
        parse_action("damage 'Aa 1' 1 crit faces", ["Aa 1"])
    action = parse_action("damage Goblin 1d6 fire crit faces 3")
    assert action["tags"] == ["fire"] and action["faces"] == [3]
    assert parse_action(format_action(action)) == action


def test_add_with_an_unquoted_name_of_two_words_says_to_quote_it() -> None:
    # "add Brother Tuck hp 30" said only "unexpected 'Tuck'", when other
    # verbs take such a name unquoted: the GM is told what to type.
    with pytest.raises(ActionError) as caught:
        parse_action("add Brother Tuck hp 30 player")
    assert str(caught.value).startswith(
        "add: unexpected 'Tuck'; a name with spaces goes in quotes (add \"Brother Tuck\" …)"
    )
    with pytest.raises(ActionError) as caught:  # a number there is not a name's
        parse_action("add Goblin 3 hp 7")
    assert "quotes" not in str(caught.value)
