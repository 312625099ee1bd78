"""The TUI's pure parts: completion, keymap/settings file, action lines, faces.

These are what a GM types into: the command line's completion must never
crash on odd text, a broken config file must never stop the tracker, and the
lines the keys build must mean what the GM asked for (checked by parsing
them with the engine's own parser).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combatant import Combatant
from rules.engine.complete import complete
from rules.engine.grammar import VERBS
from rules.engine.parse import parse_action
from tracker import lines
from tracker.bindings import ENCOUNTER_KEYS, LINE_KEYS, PICKER_KEYS, key_ids, key_tables
from tracker.config import load_config
from tracker.screens.faces import check_face
from tracker.screens.help import key_text

NAMES = ["Goblin 1", "Goblin 2", "Ogre", "Zalek"]

# -- command-line completion ----------------------------------------------


def test_first_word_completes_to_a_verb() -> None:
    assert complete("dam", NAMES, VERBS) == "damage"
    assert complete("unc", NAMES, VERBS) == "uncond"


def test_later_words_complete_to_names_quoted_when_they_have_spaces() -> None:
    assert complete("damage Og", NAMES, VERBS) == "damage Ogre"
    assert complete("damage gob", NAMES, VERBS) == 'damage "Goblin 1"'
    assert complete('damage "Goblin 1,Og', NAMES, VERBS) == 'damage "Goblin 1,Ogre"'


def test_nothing_to_complete() -> None:
    assert complete("", NAMES, VERBS) is None
    assert complete("damage ", NAMES, VERBS) is None
    assert complete("xyzzy", NAMES, VERBS) is None
    assert complete("damage Ogre", NAMES, VERBS) is None  # already complete


@given(st.text(max_size=60), st.lists(st.text(max_size=12), max_size=6))
def test_completion_never_fails_and_only_extends_the_earlier_words(
    value: str, names: list[str]
) -> None:
    completed = complete(value, names, VERBS)
    if completed is not None:
        assert isinstance(completed, str)
        # whatever was typed before the word being completed is kept as is
        head = value[: max(value.rfind(" "), value.rfind(","), 0)]
        if value.count('"') % 2 == 0:
            assert completed.startswith(head)


# -- keymap and settings file -------------------------------------------------


def test_missing_config_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path / "none.toml", key_ids())
    assert config.keymap == {} and config.physical_rolls is False and config.problems == []


def test_keymap_and_settings_are_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[keys]\n"encounter.next_turn" = "n,enter"\n"combatant.damage" = "D"\n'
        '[settings]\nphysical_rolls = true\ntheme = "textual-light"\n'
    )
    config = load_config(path, key_ids())
    assert config.keymap == {"encounter.next_turn": "n,enter", "combatant.damage": "D"}
    assert config.physical_rolls is True
    assert config.theme == "textual-light"
    assert config.problems == []


def test_config_problems_are_named_and_the_rest_is_used(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[keys]\n"encounter.next_tern" = "x"\n"combatant.heal" = "H"\n'
        '[settings]\nphysical_rolls = "yes"\n'
    )
    config = load_config(path, key_ids())
    assert config.keymap == {"combatant.heal": "H"}
    assert any("encounter.next_tern" in p for p in config.problems)
    assert any("physical_rolls" in p for p in config.problems)


@given(st.text(max_size=200))
def test_any_config_text_never_raises(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.toml"
        path.write_text(text, encoding="utf-8")
        config = load_config(path, key_ids())
        assert set(config.keymap) <= key_ids()
        assert all(isinstance(p, str) and p for p in config.problems)


def test_every_binding_id_is_unique_and_namespaced() -> None:
    ids = [k.id for k in ENCOUNTER_KEYS + PICKER_KEYS]
    assert len(ids) == len(set(ids))
    assert all("." in i for i in ids)
    assert all(": " in k.title for k in ENCOUNTER_KEYS)


def test_key_text_shows_keycaps() -> None:
    assert key_text("question_mark,f1") == "? / f1"
    assert key_text("colon") == ":"


# -- action lines --------------------------------------------------------------


def test_damage_on_marked_targets_is_one_area_action() -> None:
    line = lines.on_targets("damage", ["Goblin 1", "Goblin 3"], "2d6+3 fire crit")
    action = parse_action(line)
    assert action["targets"] == ["Goblin 1", "Goblin 3"]
    assert action["amount"] == "2d6+3" and action["tags"] == ["fire"] and action["crit"] is True


def test_add_form_builds_an_add_line() -> None:
    line = lines.add_line(
        {
            "name": "Goblin",
            "count": "3",
            "hp": "2d6 + 2",
            "al": "13",
            "con": "12",
            "athletics": "2",
        },
        {"player": False, "avg": True},
    )
    action = parse_action(line)
    assert action["name"] == "Goblin" and action["count"] == 3 and action["hp"] == "2d6+2"
    assert action["al"] == 13 and action["avg"] is True
    assert "player" not in action


def test_add_form_needs_a_name() -> None:
    try:
        lines.add_line({"name": " "}, {})
    except ValueError as exc:
        assert "name" in str(exc)
    else:
        raise AssertionError("an empty name was accepted")


def test_edit_form_sends_only_changed_fields_rename_last() -> None:
    c = Combatant("Goblin 2", 7, 5, al=13, notes="scared")
    values = lines.edit_values(c) | {"hp": "3", "name": "Gob the Brave", "notes": ""}
    sent = [parse_action(line) for line in lines.edit_lines(c, values)]
    assert [(a["field"], a["value"]) for a in sent] == [
        ("hp", "3"),
        ("notes", ""),
        ("name", "Gob the Brave"),
    ]
    assert all(a["targets"] == ["Goblin 2"] for a in sent)


def test_move_line_carries_the_previewed_face() -> None:
    declined = parse_action(lines.move_line("Zalek", "sprint", 12, spend=False))
    assert declined == {
        "verb": "move",
        "targets": ["Zalek"],
        "movement": "sprint",
        "roll": 12,
        "nospend": True,
    }
    spent = parse_action(lines.move_line("Zalek", "sprint", 12, spend=True))
    assert spent["roll"] == 12 and "nospend" not in spent


def test_condition_value_shorthand() -> None:
    assert lines.with_value("poisoned 2 rounds 3") == "poisoned value 2 rounds 3"
    assert lines.with_value("prone rounds 1") == "prone rounds 1"


# -- physical faces --------------------------------------------------------------


def test_faces_are_checked_against_the_die() -> None:
    assert check_face("12", 20) == 12
    assert "1 to 6" in str(check_face("7", 6))
    assert "not a number" in str(check_face("x", 20))


@pytest.mark.parametrize(
    "typed",
    ["1_0", "\u0661\u0660", "+5", "9" * 5000, "[b]x" * 500],
    ids=["underscore", "arabic-indic", "sign", "5000-digits", "long-text"],
)
def test_a_face_is_ascii_digits_and_its_error_quotes_a_short_excerpt(typed: str) -> None:
    error = check_face(typed, 20)
    assert isinstance(error, str) and len(error) < 120  # not the whole paste
    assert check_face(" 7 ", 20) == 7


@pytest.mark.parametrize("key", ["ctrl+", "[b]", ",", "q,,w", "ctrl+shft+z", "qestion_mark", "f99"])
def test_a_key_no_keyboard_sends_is_named_and_the_default_kept(tmp_path: Path, key: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[keys]\n"combatant.damage" = {json.dumps(key)}\n"combatant.heal" = "H"\n')
    config = load_config(path, key_ids())
    assert config.keymap == {"combatant.heal": "H"}  # damage keeps its own key
    (problem,) = config.problems
    assert "combatant.damage" in problem and ("not a key name" in problem or "empty" in problem)


def test_every_default_key_and_the_documented_names_pass_the_check(tmp_path: Path) -> None:
    tables = [*key_tables(), [(k.id, k.key) for k in LINE_KEYS]]
    names = {key for table in tables for _, keys in table for key in keys.split(",")}
    names |= {"question_mark", "comma", "ctrl+shift+z", "alt+x", "minus", "slash", "f5", "enter"}
    path = tmp_path / "config.toml"
    path.write_text("[keys]\n" + f'"combatant.damage" = {json.dumps(",".join(sorted(names)))}\n')
    assert load_config(path, key_ids()).problems == []
