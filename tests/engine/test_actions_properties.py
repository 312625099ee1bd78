"""Property tests for the action language: whatever a GM types, the parser
answers with a record or one ActionError (never a traceback), and every
canonical record survives format → parse unchanged (so journaled actions can
be shown as lines and typed back)."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.abilities import ABILITIES as ABILITY_KEYS
from rules.engine.damage_parts import misspelled_keyword
from rules.engine.format import format_action
from rules.engine.grammar import SET_FIELDS, SET_NUMERIC, SPECS, VERBS
from rules.engine.parse import normalize_action, parse_action
from rules.engine.words import PLUS_WORDS
from rules.errors import ActionError

KEYWORDS = {w for spec in SPECS.values() for w in spec.options} | {"faces"}


@given(st.text(max_size=300))
@settings(max_examples=600)
def test_arbitrary_text_gives_a_record_or_action_error(text: str) -> None:
    try:
        action = parse_action(text)
    except ActionError as exc:
        assert str(exc)
    else:
        if action["verb"] == "batch":  # text with ';' between actions
            assert len(action["actions"]) >= 2
            assert all(a["verb"] in VERBS for a in action["actions"])
        else:
            assert action["verb"] in VERBS
        assert parse_action(format_action(action)) == action


WORD = st.sampled_from(
    sorted(KEYWORDS)
    + list(VERBS)
    + [
        "Goblin",
        "'Goblin 2'",
        '"Ogre',
        "2d6+3",
        "d20",
        "3d0",
        "+",
        "-5",
        "12",
        ",",
        "1,2",
        "=",
        "x=1",
        ";",
        "'a;b'",
    ]
)


@given(st.sampled_from(VERBS), st.lists(WORD, max_size=12))
@settings(max_examples=800)
def test_verb_with_random_words_gives_a_record_or_action_error(verb: str, words: list[str]) -> None:
    try:
        action = parse_action(" ".join([verb, *words]))
    except ActionError as exc:
        assert str(exc)
    else:
        first = action["actions"][0] if action["verb"] == "batch" else action
        assert first["verb"] == verb
        # a parsed record is canonical: formatting and parsing again is stable
        assert parse_action(format_action(action)) == action


# ---------------------------------------------------------------------------
# generated canonical records

NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9' ]{0,12}[A-Za-z0-9]", fullmatch=True).filter(
    lambda s: "  " not in s
)
#: ``plus`` and ``and`` join damage parts, never a tag; nor is a word one
#: letter off a keyword of the verbs that take tags (``crtl``: crit)
TAG = st.from_regex(r"[a-z]{1,8}", fullmatch=True).filter(
    lambda t: (
        t not in KEYWORDS
        and t not in PLUS_WORDS
        and not any(misspelled_keyword(v, t) for v in ("damage", "attack", "persist"))
    )
)
#: text a name or note may hold (rules.text: no control, format, surrogate
#: or separator characters), NFC as the parser keeps it.
TEXT = (
    st.text(
        st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Cf", "Zl", "Zp"]),
        min_size=1,
        max_size=60,
    )
    .map(lambda t: unicodedata.normalize("NFC", t))
    .filter(lambda t: t.strip())
)  # blank: refused
DICE = st.sampled_from(["1d6", "2d6+3", "d20", "4d6kh3", "1d8+1d6!+2", "12", "2d20kl1-1", "d%"])
HP = st.one_of(st.integers(1, 500), st.sampled_from(["2d6", "7d10+21", "1d8+2"]))
SMALL = st.integers(-50, 50)
COUNT = st.integers(0, 10)
POS = st.integers(1, 100)
FACES = st.lists(st.integers(1, 20), min_size=1, max_size=5)


def targets(single: bool = False) -> st.SearchStrategy[list[str]]:
    if single:
        return st.lists(NAME, min_size=1, max_size=1)
    return st.lists(NAME, min_size=1, max_size=3, unique_by=str.lower).filter(
        lambda ns: len({n.strip() for n in ns}) == len(ns)
    )


TAGS = st.lists(TAG, min_size=1, max_size=3, unique=True)
DURATION = {"rounds": POS, "at": st.sampled_from(["start", "end"]), "of": NAME}


def record(verb: str, required: dict[str, Any], optional: dict[str, Any] | None = None) -> Any:
    return st.fixed_dictionaries(
        {"verb": st.just(verb), **required}, optional={"faces": FACES, **(optional or {})}
    )


ACTIONS = st.one_of(
    record(
        "add",
        {"name": NAME},
        {
            "count": st.integers(1, 100),
            "hp": HP,
            "avg": st.just(True),
            "al": SMALL,
            "init": SMALL,
            "bonus": SMALL,
            "player": st.just(True),
            "abilities": st.dictionaries(
                st.sampled_from(ABILITY_KEYS), st.integers(1, 30), min_size=1
            ),
            "athletics": st.integers(0, 10),
            "immunities": TAGS,
            "resistances": st.dictionaries(TAG, st.integers(0, 20), min_size=1, max_size=3),
            "weaknesses": TAGS,
            "susceptibilities": TAGS,
            "notes": TEXT,
            "group": st.just(True),
        },
    ).flatmap(
        lambda a: st.sampled_from([None, "visible", "masked", "hidden"]).map(
            lambda shown: a if shown is None else {**a, shown: True}
        )
    ),
    record("remove", {"targets": targets()}),
    record("init", {"targets": targets(True), "value": SMALL}),
    record("order", {"targets": targets(True), "direction": st.sampled_from(["up", "down"])}),
    record(
        "set",
        {
            "targets": targets(True),
            "field": st.sampled_from(
                [f for f in SET_FIELDS if f not in SET_NUMERIC and f != "resistances"]
            ),
            "value": TEXT,
        },
    ),
    record(
        "set",
        {
            "targets": targets(True),
            "field": st.sampled_from(sorted(SET_NUMERIC)),
            "value": st.integers(1, 30).map(str),
        },
    ),
    record("start", {}),
    record("next", {}),
    record("prev", {}),
    record(
        "damage",
        {"targets": targets(), "amount": DICE},
        {"tags": TAGS, "crit": st.just(True), "half": targets(), "none": targets()},
    ),
    record("heal", {"targets": targets(), "amount": DICE}),
    record("temp", {"targets": targets(), "amount": DICE}, DURATION),
    record("persist", {"targets": targets(), "dice": DICE, "tags": TAGS}, {"dc": POS, "of": NAME}),
    record("unpersist", {"targets": targets(), "tag": TAG}),
    record("cond", {"targets": targets(), "name": NAME}, {"value": SMALL, **DURATION}),
    record("uncond", {"targets": targets(), "name": NAME}),
    record(
        "move",
        {"targets": targets(), "movement": st.sampled_from(["dash", "run", "sprint"])},
        {"roll": st.integers(1, 20), "nospend": st.just(True)},
    ),
    record(
        "bonus",
        {"targets": targets(), "type": TAG, "value": SMALL},
        {"to": st.sampled_from(["al", "checks", "attacks"]), **DURATION},
    ),
    record("unbonus", {"targets": targets(), "type": TAG}),
    record(
        "attack",
        {"targets": targets()},
        {
            "modifier": SMALL,
            "adv": COUNT,
            "dis": COUNT,
            "cover": st.sampled_from(["half", "three-quarters", "total"]),
            "roll": st.integers(1, 20),
            "damage": DICE,
        },
    ),
    record("delay", {"targets": targets()}),
    record("return", {"targets": targets()}),
    record("group", {"name": NAME, "targets": targets()}),
    record("ungroup", {"targets": targets()}),
    record("roll", {"expr": DICE}, {"adv": COUNT, "dis": COUNT, "dc": POS}),
    record("roll", {"expr": DICE, "dl": st.sampled_from(["heroic", "simple"])}),
    record("luck", {"targets": targets()}, {"roll": st.integers(1, 20)}),
    record("cinematic", {"targets": targets(), "mode": st.sampled_from(["adv", "dis"])}),
    record("hide", {"targets": targets()}),
    record("mask", {"targets": targets()}),
    record("reveal", {"targets": targets()}),
    record(
        "view",
        {
            "setting": st.sampled_from(["monster_hp", "player_hp"]),
            "value": st.sampled_from(["band", "exact", "hidden"]),
        },
    ),
    record(
        "view",
        {
            "setting": st.sampled_from(["show_al", "show_initiative", "reveal_on_turn"]),
            "value": st.sampled_from(["on", "off"]),
        },
    ),
    record(
        "view",
        {
            "setting": st.just("new_monsters"),
            "value": st.sampled_from(["visible", "masked", "hidden"]),
        },
    ),
    record("undo", {}),
    record("redo", {}),
)


@given(ACTIONS)
@settings(max_examples=1500)
def test_generated_records_round_trip_through_a_line(action: dict[str, Any]) -> None:
    line = format_action(action)
    assert parse_action(line) == action
    assert normalize_action(action) == action


BATCHABLE = ACTIONS.filter(lambda a: a["verb"] not in ("undo", "redo", "prev"))


@given(st.lists(BATCHABLE, min_size=2, max_size=4))
@settings(max_examples=400)
def test_batches_round_trip_through_one_line(actions: list[dict[str, Any]]) -> None:
    batch = {"verb": "batch", "actions": actions}
    line = format_action(batch)
    assert parse_action(line) == batch
    assert normalize_action(batch) == batch


@given(ACTIONS, TAGS)
def test_attack_tags_round_trip_with_damage(action: dict[str, Any], tags: list[str]) -> None:
    if action["verb"] != "attack":
        return
    action = {**action, "damage": "1d8+3", "tags": tags}
    assert parse_action(format_action(action)) == action


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    st.sampled_from(VERBS),
    st.dictionaries(
        st.sampled_from(
            ["targets", "amount", "name", "hp", "tags", "value", "faces", "roll", "crit", "x"]
        ),
        JSONISH,
        max_size=5,
    ),
)
@settings(max_examples=800)
def test_built_dicts_give_a_record_or_action_error(verb: str, fields: dict[str, Any]) -> None:
    """The UI and loaders build dicts directly: junk in them is reported as
    one ActionError, never a crash."""
    try:
        action = normalize_action({"verb": verb, **fields})
    except ActionError as exc:
        assert str(exc)
    else:
        assert action["verb"] == verb


# ---------------------------------------------------------------------------
# targeting (issue 11): saves, typed parts, unquoted names, selectors

PART = st.fixed_dictionaries({"amount": DICE, "tags": TAGS})
SELECTOR = st.sampled_from(["all", "monsters", "players", "Zombie*", "og*"])
TARGET_WORDS = st.lists(st.one_of(NAME, SELECTOR), min_size=1, max_size=3, unique_by=str.lower)

DAMAGE = st.fixed_dictionaries(
    {"verb": st.just("damage"), "targets": TARGET_WORDS, "amount": DICE, "tags": TAGS},
    optional={
        "crit": st.just(True),
        "half": TARGET_WORDS,
        "none": TARGET_WORDS,
        "extra": st.lists(PART, min_size=1, max_size=3),
        "faces": FACES,
    },
)


@given(DAMAGE)
@settings(max_examples=600)
def test_damage_with_saves_and_parts_round_trips(action: dict[str, Any]) -> None:
    line = format_action(action)
    assert parse_action(line) == action
    assert normalize_action(action) == action


@given(st.lists(PART, min_size=1, max_size=3), TAGS)
def test_attack_damage_parts_round_trip(extra: list[dict[str, Any]], tags: list[str]) -> None:
    action = {"verb": "attack", "targets": ["Ogre"], "damage": "1d8+3", "tags": tags}
    action["extra"] = extra
    assert parse_action(format_action(action)) == action


SPACED = st.from_regex(r"[A-Z][a-z]{1,6} [A-Za-z0-9]{1,4}", fullmatch=True)


@given(st.lists(SPACED, min_size=1, max_size=5, unique_by=str.lower), st.data())
def test_an_unquoted_full_name_is_read_as_one_target(names: list[str], data: Any) -> None:
    """Typed without quotes, a name with a space is the target when it is
    one of the fight's names; the rest of the line reads as before."""
    name = data.draw(st.sampled_from(names))
    amount = data.draw(st.sampled_from(["7", "2d6+3", "1d8"]))
    try:
        action = parse_action(f"damage {name} {amount} fire", names)
    except ActionError as exc:  # only when a shorter name reads the line too
        assert "quote the name" in str(exc)
        return
    assert action["targets"] == [name]
    assert action["amount"] == amount and action["tags"] == ["fire"]


@given(st.lists(SPACED, min_size=1, max_size=5, unique_by=str.lower), st.lists(WORD, max_size=8))
@settings(max_examples=400)
def test_lines_read_with_names_give_a_record_or_action_error(
    names: list[str], words: list[str]
) -> None:
    line = " ".join(["damage", *names[:2], *words])
    try:
        action = parse_action(line, names)
    except ActionError as exc:
        assert str(exc)
    else:
        assert parse_action(format_action(action)) == action
