"""A mistyped damage tag does not slip past the target's defenses (docs/rules.md
§5, "An unknown tag"): ``damage Grukk 5 slahsing`` on a boss that resists
slashing used to deal the full 5 with a log warning nobody reads in time.
A tag no target defends against but close to one a target does is refused
with one line naming the tag meant and who defends against it, nothing
changed; a homebrew tag far from every defended one is still taken, with
the warning.  The same for ``persist``, ``attack … damage`` and every part
of a hit."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.damage import COMMON_TAGS
from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.rulesets import ruleset
from tests.engine.test_typo_hints import refused


def fight() -> Session:
    s = Session(Encounter("Lair", ruleset("forge")), rng=random.Random(5))
    for line in (
        "add Mira hp 30 al 14 player",
        "add Grukk hp 80 al 15 resist slashing=5 immune poison weak cold susceptible radiant",
        "add Zombie count 3 hp 20 resist slashing=2 group Horde",
        "add Imp hp 12",
    ):
        s.apply(line)
    return s


def hp(s: Session, name: str) -> int:
    return next(c.hp for c in s.encounter.combatants if c.name == name)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "damage Grukk 5 slahsing",
            "damage: 'slahsing' is no tag Grukk defends against; did you mean slashing? "
            "(Grukk resists slashing)",
        ),
        (
            "damage Grukk 5 poision",
            "damage: 'poision' is no tag Grukk defends against; did you mean poison? "
            "(Grukk is immune to poison)",
        ),
        (
            "damage Grukk 5 colld",
            "damage: 'colld' is no tag Grukk defends against; did you mean cold? "
            "(Grukk is weak to cold)",
        ),
        (
            "damage Grukk 5 radiatn",
            "damage: 'radiatn' is no tag Grukk defends against; did you mean radiant? "
            "(Grukk is susceptible to radiant)",
        ),
    ],
)
def test_a_tag_near_one_the_target_defends_against_is_refused(line: str, message: str) -> None:
    assert refused(fight(), line) == message


def test_the_typo_is_caught_in_any_part_of_the_hit_and_any_case() -> None:
    s = fight()
    assert refused(s, "damage Grukk 1d8 slashing + 2d6 POISION").startswith(
        "damage: 'poision' is no tag Grukk defends against; did you mean poison?"
    )
    assert refused(s, "damage Grukk 8d6 slahsing half Grukk").startswith(
        "damage: 'slahsing' is no tag Grukk"
    )


def test_persistent_damage_with_a_mistyped_tag_is_refused() -> None:
    # every tick would bypass the immunity, round after round
    s = fight()
    assert refused(s, "persist Grukk 1d6 poision") == (
        "persist: 'poision' is no tag Grukk defends against; did you mean poison? "
        "(Grukk is immune to poison)"
    )
    assert hp(s, "Grukk") == 80 and not s.encounter.combatants[1].persistent


def test_an_attack_with_a_mistyped_damage_tag_rolls_nothing() -> None:
    s = fight()
    s.apply("start")
    assert refused(s, "attack Grukk roll 20 damage 1d8+4 slahsing") == (
        "attack: 'slahsing' is no tag Grukk defends against; did you mean slashing? "
        "(Grukk resists slashing)"
    )
    assert refused(s, "attack Grukk damage 1d8 slashing plus 1d6 colld").startswith(
        "attack: 'colld' is no tag Grukk defends against; did you mean cold?"
    )


def test_several_targets_name_who_defends() -> None:
    s = fight()
    assert refused(s, "damage Grukk,Horde 5 slahsing") == (
        "damage: 'slahsing' is no tag any of the 4 targets defends against; "
        "did you mean slashing? (Grukk, Zombie 1–3 resist slashing)"
    )
    s.apply("add Wight hp 30 resist poison=3")
    assert refused(s, "damage Grukk,Wight 5 poisin").endswith(
        "did you mean poison? (Grukk is immune to poison; Wight resists poison)"
    )


def test_the_same_typo_on_a_target_that_defends_against_nothing_is_warned() -> None:
    # the imp resists nothing: the tag bypasses nothing, so it is the
    # warning as before (the boss's resistance is not the imp's)
    s = fight()
    step = s.apply("damage Imp 5 slahsing")
    assert hp(s, "Imp") == 7
    assert [e.text for e in step.log if e.actor == "GM"] == [
        "no combatant here resists or is weak to 'slahsing'; did you mean slashing?"
    ]


def test_a_homebrew_tag_far_from_every_defense_is_taken_with_the_warning() -> None:
    s = fight()
    step = s.apply("damage Grukk 5 shadowflame")
    assert hp(s, "Grukk") == 75
    assert "no combatant here resists or is weak to 'shadowflame'" in [e.text for e in step.log]
    step = s.apply("persist Grukk 1d4 soulrot")
    assert [p.tags for p in s.encounter.combatants[1].persistent] == [("soulrot",)]


def test_a_common_tag_or_one_the_fight_defends_against_is_never_a_typo() -> None:
    # force is as near fire as a typo, and a real tag; icy is the GM's own
    # tag as soon as a combatant of the fight is weak to it
    s = fight()
    s.apply("add Salamander hp 30 resist fire=5")
    s.apply("damage Salamander 6 force")
    assert hp(s, "Salamander") == 24
    s.apply("add 'Frost Giant' hp 40 resist ice=5")
    assert refused(s, "damage 'Frost Giant' 9 icy").startswith("damage: 'icy' is no tag")
    s.apply("add Golem hp 40 weak icy")
    step = s.apply("damage 'Frost Giant' 9 icy")
    assert hp(s, "Frost Giant") == 31
    assert not [e for e in step.log if e.actor == "GM"]


def test_the_correct_tag_goes_through_the_defense() -> None:
    s = fight()
    s.apply("damage Grukk 12 slashing")
    assert hp(s, "Grukk") == 80 - (12 - 5)


#: Grukk's defended tags
DEFENDED = ("slashing", "poison", "cold", "radiant")


@given(
    st.sampled_from(DEFENDED),
    st.integers(0, 7),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
)
@settings(max_examples=300)
def test_one_letter_off_a_defended_tag_never_gets_past_the_defense(
    defended: str, at: int, letter: str
) -> None:
    tag = defended[:at] + letter + defended[at + 1 :]  # one letter changed (or added)
    s = fight()
    if tag == defended or tag in COMMON_TAGS:
        s.apply(f"damage Grukk 10 {tag}")
        return
    message = refused(s, f"damage Grukk 10 {tag}")
    assert message.startswith(f"damage: {tag!r} is no tag Grukk defends against; did you mean ")


@given(st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_word_as_a_tag_is_dealt_or_refused_in_one_line(tag: str) -> None:
    s = fight()
    try:
        s.apply(f"damage Grukk 10 {tag}")
    except ActionError:
        refused(s, f"damage Grukk 10 {tag}")  # one line, nothing changed
        assert tag not in (*DEFENDED, *COMMON_TAGS)
        return
    assert hp(s, "Grukk") < 80 or tag == "poison"  # dealt: through the defenses


def _styled(letter: str, style: int) -> str:
    """*letter* as it looks in a fullwidth (1) or mathematical bold (2)
    font, or plain (0): what an input method or a pasted sheet may give."""
    if style == 1:
        return chr(ord(letter) - ord("a") + 0xFF41)
    if style == 2:
        return chr(ord(letter) - ord("a") + 0x1D41A)
    return letter


@given(st.sampled_from(DEFENDED), st.lists(st.integers(0, 2), min_size=8, max_size=8))
@settings(max_examples=200)
def test_a_defended_tag_in_fullwidth_or_bold_letters_is_refused(
    defended: str, styles: list[int]
) -> None:
    # ｓｌａｓｈｉｎｇ reads as slashing on the GM's screen; taken as its own
    # tag it dealt the boss the full hit through its resistance
    tag = "".join(_styled(ch, style) for ch, style in zip(defended, styles, strict=False))
    s = fight()
    if tag == defended:
        return
    message = refused(s, f"damage Grukk 10 {tag}")
    assert message.startswith("damage: ") and f"did you mean {defended}?" in message
    assert hp(s, "Grukk") == 80


@given(
    st.integers(1, 8),
    st.integers(1, 60),
    st.integers(4, 58),
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_refusal_naming_many_long_defenses_stays_short(
    targets: int, name_length: int, tag_length: int
) -> None:
    # three equally near tags, each defended four ways by up to eight
    # combatants of long names: the refusal named them all, 1,500 characters
    from rules.engine.shell import quote_word

    s = Session(Encounter("Lair", ruleset("forge")), rng=random.Random(5))
    stem = "a" * (tag_length - 2)
    tags = [f"{stem}x{k}" for k in "abc"]
    for i in range(targets):
        name = quote_word((chr(ord("A") + i) * name_length)[:name_length])
        s.apply(
            f"add {name} hp 10 resist {','.join(f'{t}=1' for t in tags)} "
            f"immune {tags[0]} weak {tags[1]} susceptible {tags[2]}"
        )
    message = refused(s, f"damage all 5 {stem}xz")
    assert message.startswith(f"damage: '{stem}xz' is no tag ")
    assert "did you mean " in message
    assert len(message) <= 700


def test_the_tag_check_compares_each_tag_in_one_pass_over_a_horde(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 500 combatants of 30 tags each defend against 15,000: each typed tag
    # was compared to each in a matcher of its own, 8 s for one damage line
    import difflib

    s = Session(Encounter("Lair", ruleset("forge")), rng=random.Random(5))
    for i in range(500):
        s.apply(f"add M{i} hp 10 resist {','.join(f'k{i:03d}x{j:02d}=1' for j in range(30))}")
    made = 0
    real = difflib.SequenceMatcher

    def counted(*args: object, **kwargs: object) -> difflib.SequenceMatcher[str]:
        nonlocal made
        made += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib, "SequenceMatcher", counted)
    tags = " ".join(f"homebrew{j:02d}" for j in range(30))
    s.apply(f"damage all 5 {tags}")
    assert made <= 3 * 30 + 10  # a few matchers per typed tag, not one per defended tag


@given(st.lists(st.sampled_from(["Grukk", "Imp", "Mira", "Horde"]), min_size=2, max_size=6))
@settings(max_examples=40, deadline=None)
def test_a_homebrew_tag_is_warned_once_in_a_batch(targets: list[str]) -> None:
    # ``damage Grukk 5 shadowflame; damage Imp 5 shadowflame`` logged the
    # same warning once per part, a screenful on a long batch
    s = fight()
    line = "; ".join(f"damage {t} 1 shadowflame" for t in targets)
    step = s.apply(line)
    warnings = [e.text for e in step.log if "shadowflame'" in e.text]
    assert warnings == ["no combatant here resists or is weak to 'shadowflame'"]
