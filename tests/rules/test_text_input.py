"""Names a person typed are data: what the action language, the store and
the display helper do with text that holds markup, control, bidirectional or
invisible characters (issue 9)."""

from __future__ import annotations

import shlex
import unicodedata
from functools import partial
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.parse import parse_action
from rules.engine.work import resolve_name
from rules.errors import ActionError
from rules.limits import MAX_LINE
from rules.text import (
    MAX_TITLE,
    check_text,
    first_unsafe,
    is_unsafe,
    modifies_previous,
    name_key,
    nfc,
    possessive,
    visible,
)
from saves.store import SaveError, Store

HOSTILE = [
    "Imp \x1b]52;c;ZWNobyBwd25lZA==\x1b\\",  # OSC 52: sets the clipboard
    "Orc \x1b[2J",  # clears the screen
    "Shade\x9b31m",  # C1 control sequence introducer
    "evil\u202eknip",  # right-to-left override
    "Gob\u200blin",  # zero-width space
    "tab\there",
    "new\nline",
    "bell\x07",
    "del\x7f",
    "bom\ufeff",
    "iso\u2066late",
    "line\u2028sep",
]

#: text a person might type, with the awkward parts over-represented.
names = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from("[]/@=\\\"'$;,|*_#<>&\x1b\x9b\u202e\u200b\u0301\u00a0 é👹"),
    ),
    min_size=1,
    max_size=120,
)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_typed_name_with_a_control_character_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(ActionError) as err:
        parse_action(f"add {shlex.quote(name)} hp 7")
    message = str(err.value)
    assert "add name" in message
    assert first_unsafe(message) == -1  # the message itself is safe to print
    assert "U+" in message


@pytest.mark.parametrize(
    "line, field",
    [
        ("cond Goblin 'fright\x1bened'", "cond name"),
        ("damage Goblin 5 'fi\u202ere'", "damage tags"),
        ("add Imp notes 'see\x1b[2J'", "add notes"),
        ("set Goblin name 'Bob\x07'", "set value"),
        ("add Imp immune 'poi\u200bson'", "add immunities"),
        ("bonus Goblin 'sta\x9btus' 1", "bonus type"),
    ],
)
def test_every_text_field_is_checked(line: str, field: str) -> None:
    with pytest.raises(ActionError, match=field):
        parse_action(line)


def test_a_control_character_that_breaks_the_parse_is_named_not_echoed() -> None:
    # An unbalanced quote fails the parse; the message must not carry ESC.
    with pytest.raises(ActionError) as err:
        parse_action("add 'Imp \x1b[2J hp 7")
    assert "U+001B ESCAPE" in str(err.value)
    assert "\x1b" not in str(err.value)


def test_markup_is_just_characters_in_a_name() -> None:
    for name in ("[bold]Boss[/bold]", "Imp [/b]", "[@click=app.quit]x[/]", "[link=https://x]a"):
        assert parse_action(f"add {shlex.quote(name)}")["name"] == name


def test_names_are_nfc_normalised_so_two_spellings_are_one_name() -> None:
    decomposed = "Cafe\u0301"
    record = parse_action(f"add {decomposed}")
    assert record["name"] == "Café"
    assert resolve_name(["Café"], decomposed) == "Café"
    assert resolve_name(["Cafe\u0301 1"], "café") == "Cafe\u0301 1"  # older, unnormalised data


@settings(max_examples=150, deadline=None)
@given(names)
def test_any_name_is_either_kept_as_typed_or_refused_with_a_safe_message(name: str) -> None:
    try:
        record = parse_action(f"add {shlex.quote(name)}")
    except ActionError as exc:
        assert first_unsafe(str(exc)) == -1
        assert len(str(exc)) < 3000
        return
    typed = unicodedata.normalize("NFC", name).strip()
    assert record["name"] == typed
    assert first_unsafe(record["name"]) == -1


def test_a_name_starting_with_a_modifier_shows_that_character_spelled_out() -> None:
    assert visible("\U0001f3fb") == "\\U0001f3fb"  # a lone skin tone draws nothing
    assert visible("\u0301a") == "\\u0301a"  # nor does an accent on nothing
    assert (
        visible("a\u0301") == "a\u0301"
        and visible("\U0001f44d\U0001f3fb") == "\U0001f44d\U0001f3fb"
    )


def test_a_line_of_accents_on_nothing_is_spelled_out_however_long() -> None:
    # a pasted line of combining marks: each leading one is spelled out, in
    # one pass (no recursion per mark), and the action line is one message
    marks = "\u0301" * 5000
    assert visible(marks) == "\\u0301" * 5000
    assert visible(marks + "a\u0301") == "\\u0301" * 5000 + "a\u0301"
    with pytest.raises(ActionError, match="no combatant named"):
        Session(Encounter("Crypt")).apply("damage " + "\u0301" * (MAX_LINE - 10) + " 5")


#: combining marks of several classes (and the Tibetan vowels of class 0
#: that decompose into marks), precomposed letters, Hangul, plain letters
MARKED = st.text(
    st.sampled_from(
        [
            *"\u0301\u0316\u0308\u0344\u0345\u05b0\u0f71\u0f72\u0f73\u0f75\u0f81",
            "e",
            "é",
            "ǖ",
            "각",
            "ᄀ",
            "ᅡ",
            " ",
        ]
    ),
    min_size=25,
    max_size=120,
)


#: one character decomposed (captured before a test replaces normalize)
decomposed = partial(unicodedata.normalize, "NFD")


def unordered(text: str) -> int:
    """The swaps unicodedata's canonical ordering makes in *text*: it puts
    each run of combining marks (as decomposed) in order by insertion, one
    swap per pair out of order."""
    swaps, before = 0, dict[int, int]()
    for mark in "".join(map(decomposed, text)):
        ccc = unicodedata.combining(mark)
        if not ccc:
            before.clear()
            continue
        swaps += sum(n for c, n in before.items() if c > ccc)
        before[ccc] = before.get(ccc, 0) + 1
    return swaps


@settings(max_examples=500, deadline=None)
@given(MARKED, MARKED)
def test_nfc_is_unicodes_nfc(text: str, more: str) -> None:
    # a text as long as a pasted line, with 40 marks in a row out of order
    text = "a" * 1_000 + text + "\u0301" * 20 + "\u0316" * 20 + more
    assert nfc(text) == unicodedata.normalize("NFC", text)


@pytest.mark.parametrize(
    "marks",
    [
        "\u0301" * 65_000 + "\u0316" * 65_000,  # two classes, the later one lower
        "\u0f73" * 65_000,  # class 0, each two marks of falling class after the first
    ],
    ids=["two classes", "Tibetan vowels"],
)
def test_a_line_of_marks_out_of_order_is_never_reordered_one_swap_at_a_time(
    marks: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # unicodedata sorts each run of marks by insertion: 130,000 marks of
    # two classes in the wrong order held the line (and do, and a name in
    # a prepared file) for 26 s; nothing hands it such a run
    normalize = unicodedata.normalize

    def bounded(form: str, text: str) -> str:
        swaps = unordered(text) if len(text) > 1_000 else 0
        assert swaps <= len(text), f"{swaps:,} swaps to normalise {len(text):,} characters"
        return normalize(form, text)

    monkeypatch.setattr(unicodedata, "normalize", bounded)
    line = ("damage a" + marks)[: MAX_LINE - 2] + " 5"
    with pytest.raises(ActionError):
        Session(Encounter("Crypt")).apply(line)
    name_key(marks)  # a name compared (a hand-edited file's, a prefix typed to the CLI)
    with pytest.raises(ActionError, match="too long"):
        check_text("name", marks)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.text(max_size=20))
def test_visible_text_has_no_unsafe_character_and_keeps_safe_text(text: str, more: str) -> None:
    # (a first character that only modifies the one before it is spelled
    # out: see the next test)
    text, more = (t[1:] if t and modifies_previous(t[0]) else t for t in (text, more))
    assume(not (text and modifies_previous(text[0])) and not (more and modifies_previous(more[0])))
    shown = visible(text)
    assert first_unsafe(shown) == -1
    if first_unsafe(text) == -1:
        assert shown == text
    # character by character: a safe one is kept, an unsafe one becomes a
    # printable ASCII escape, so the order and every safe character survive
    assert visible(text + more) == shown + visible(more)
    for ch in text:
        if is_unsafe(ch):
            assert visible(ch).startswith("\\") and visible(ch).isascii()
            assert visible(ch).isprintable()
        else:
            assert visible(ch) == ch or modifies_previous(ch)  # alone: spelled out


def test_visible_spells_out_what_would_act_on_a_terminal() -> None:
    assert visible("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert visible("x\u202ey") == "x\\u202ey"
    assert visible("bad\udcffbyte") == "bad\\xffbyte"  # surrogateescape'd 0xFF
    assert visible("Café 👹 [b]") == "Café 👹 [b]"


def test_check_text_limits_length_and_names_the_field() -> None:
    assert check_text("label", "x" * MAX_TITLE, MAX_TITLE) == "x" * MAX_TITLE
    with pytest.raises(ActionError, match="label is too long"):
        check_text("label", "x" * (MAX_TITLE + 1), MAX_TITLE)


def test_name_key_compares_as_a_person_reads() -> None:
    assert name_key("CAFE\u0301") == name_key("café")
    assert name_key("Straße") == name_key("STRASSE")


# -- the store: encounter names and save-point labels ----------------------

SNAP: dict = {"session": {}, "ui": {}}
ORIGIN: dict = {"encounter": {}}
SUMMARY: dict = {"round": 0, "combatants": 0}


@pytest.mark.parametrize("name", HOSTILE[:6] + ["x" * (MAX_TITLE + 1)])
def test_an_encounter_name_that_is_unsafe_or_too_long_is_refused(tmp_path: Path, name: str) -> None:
    with Store(tmp_path / "db.json") as store:
        with pytest.raises(SaveError) as err:
            store.create(name, ORIGIN, SNAP, SUMMARY)
        assert first_unsafe(str(err.value)) == -1
        assert store.list() == []


def test_a_save_point_label_that_is_unsafe_is_refused(tmp_path: Path) -> None:
    with Store(tmp_path / "db.json") as store:
        store.create("Crypt", ORIGIN, SNAP, SUMMARY)
        with pytest.raises(SaveError, match="save point label cannot contain"):
            store.save_point("Crypt", "before\x1b[2J", SNAP, SUMMARY, 0)
        assert store.save_points("Crypt") == []


def test_an_encounter_is_found_by_either_spelling(tmp_path: Path) -> None:
    with Store(tmp_path / "db.json") as store:
        store.create("Cafe\u0301 brawl", ORIGIN, SNAP, SUMMARY)
        assert store.list()[0].name == "Café brawl"
        assert store.exists("CAFÉ BRAWL")
        store.save_point("café brawl", "Before", SNAP, SUMMARY, 0)
        assert [label for label, _ in store.save_points("Cafe\u0301 Brawl")] == ["Before"]


# -- data saved before these checks (a hand-edited file, an older version) --


def test_a_combatant_saved_with_an_unsafe_name_can_still_be_targeted() -> None:
    import random
    from dataclasses import replace

    from rules.combatant import Combatant
    from rules.encounter import Encounter
    from rules.engine import Session
    from rules.rulesets import ruleset

    old = "Imp\x1b[2J"
    encounter = replace(
        Encounter("Old", ruleset("core")), combatants=(Combatant(name=old, max_hp=9, hp=9),)
    )
    session = Session(encounter, rng=random.Random(1))
    session.apply(f"damage {shlex.quote(old)} 3")
    session.apply("cond Imp frightened")
    session.apply("uncond Imp frightened")
    assert session.encounter.combatants[0].hp == 6
    with pytest.raises(ActionError) as err:
        session.apply("damage 'Orc\x1b]52;c;eA==\x1b\\' 3")
    assert "\x1b" not in str(err.value)
    assert "Imp\\x1b[2J" in str(err.value)  # the listing shows the name made visible


def test_open_finds_an_encounter_by_either_spelling() -> None:
    from tracker.commands.tui import resolve_name as resolve_encounter

    assert resolve_encounter("Cafe\u0301", ["Café brawl", "Crypt"]) == "Café brawl"
    assert resolve_encounter("STRASSE", ["Straße", "Crypt"]) == "Straße"


@settings(max_examples=150, deadline=None)
@given(names)
def test_a_completed_name_is_one_target_never_more_actions(name: str) -> None:
    """Tab on the command line inserts the name as one word: ``Imp;next``
    must not become a second action, ``O'Neil`` must not open a quote."""
    from rules.engine.complete import completions
    from rules.engine.targets import SIDES

    try:
        name = parse_action(f"add {shlex.quote(name)}")["name"]
    except ActionError:
        return  # not a name the tracker would hold
    if "," in name:
        return  # the engine refuses it: commas separate targets
    for line in completions(f"remove {name[0]}", [name, name + " 2"], ["remove"]):
        record = parse_action(line)
        assert record["verb"] == "remove" and len(record["targets"]) == 1
        assert record["targets"][0] in (name, name + " 2", *SIDES)  # a side is offered too


@pytest.mark.parametrize(
    "name", ["\u3164", "\u2800 \u2800", "\u115f\u1160", "\u3164 \u2800 \u3164"]
)
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(ActionError, match="add name shows nothing"):
        parse_action(f"add {shlex.quote(name)}")
    assert parse_action("add 'Orc \u2800'")["name"] == "Orc \u2800"  # something shows


def test_adding_and_renaming_compare_names_as_targets_do() -> None:
    import random

    from rules.engine import Session

    session = Session(rng=random.Random(1))
    session.apply("add Straße hp 5")
    session.apply("add Bob hp 5")
    with pytest.raises(ActionError, match="already a combatant called"):
        session.apply("set Bob name STRASSE")  # one name to a reader and to damage
    with pytest.raises(ActionError, match="already in the fight"):
        session.apply("add STRASSE hp 5")  # one name to a reader: asks first
    session.apply("add STRASSE count 1 hp 5")  # numbered on, never a second "Straße"
    names = [c.name for c in session.encounter.combatants]
    assert len({name_key(n) for n in names}) == len(names) == 3


@given(st.text(min_size=1, max_size=40))
def test_a_possessive_keeps_the_name_and_never_doubles_the_s(name: str) -> None:
    # one rule for every owner in the log and on screen: "Ghouls' initiative"
    owned = possessive(name)
    assert owned.startswith(name)
    ending = owned[len(name) :]
    assert ending == ("'" if name[-1] in "sS" else "'s")
    assert not owned.endswith("s's") and not owned.endswith("S's")


def test_possessives_as_the_log_writes_them() -> None:
    assert [possessive(n) for n in ("Mira", "Ghouls", "group ZOMBIES", "Goblin 2")] == [
        "Mira's",
        "Ghouls'",
        "group ZOMBIES'",
        "Goblin 2's",
    ]
