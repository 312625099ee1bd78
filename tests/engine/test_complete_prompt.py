"""A prompt's text completes as the tail of the line its key sends: the
engine completes ``cond 'Goblin 1' fri`` and the prompt gets ``frightened``
back.  Nothing completes into what the prompt's line would refuse: a name
under ``half`` / ``none`` that is not one of its targets, a second action,
a word holding a control character."""

from __future__ import annotations

import random
import shlex

from hypothesis import given
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.complete import Known, completions, known_in, tail_completes, tail_completions
from rules.engine.words import split_batch
from rules.text import first_unsafe


def crypt() -> Session:
    """Zalek, Goblin 1–2, an Ogre resisting fire and group Zombies; seeded."""
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    for line in (
        "add Zalek hp 30 player",
        "add Goblin count 2 hp 2d6",
        "add Ogre hp 59 resist fire=5 weak radiant",
        "add Zombie count 2 hp 2d8 group Zombies",
        "cond Ogre Hexed",
    ):
        session.apply(line)
    return session


KNOWN = known_in(crypt().encounter)
GOBLINS = "damage 'Goblin 1,Goblin 2' "


def tails(head: str, text: str, known: Known = KNOWN) -> list[str]:
    return tail_completions(head, text, known)


def test_the_condition_prompt_completes_a_condition() -> None:
    assert tails("cond 'Goblin 1' ", "fri") == ["frightened"]
    assert tails("cond 'Goblin 1' ", "he") == ["Hexed"]  # the fight's own first
    assert tails("cond 'Goblin 1' ", "poisoned 2 ro") == ["poisoned 2 rounds"]
    assert tails("cond 'Goblin 1' ", "prone of Og") == ["prone of Ogre"]


def test_the_persistent_damage_prompt_completes_its_source() -> None:
    assert tails("persist 'Goblin 1' ", "1d6 bleed of Og") == ["1d6 bleed of Ogre"]


def test_the_damage_prompt_completes_tags_the_fight_knows_then_common_ones() -> None:
    assert tails(GOBLINS, "2d6 fi") == ["2d6 fire"]
    assert tails(GOBLINS, "2d6 r") == ["2d6 radiant"]
    assert tails(GOBLINS, "2d6 fire c") == ["2d6 fire crit", "2d6 fire cold"]
    assert tails(GOBLINS, "fi") == []  # the amount comes first


def test_the_attack_prompt_completes_keywords_and_after_a_space_their_choices() -> None:
    head = "attack Ogre "
    assert tails(head, "co") == ["cover"]
    assert tails(head, "cover ") == ["cover half", "cover three-quarters", "cover total"]
    assert tails(head, "with +2 cover t") == ["with +2 cover three-quarters", "with +2 cover total"]
    assert tails(head, "damage 1d8 ne") == ["damage 1d8 necrotic"]
    assert tails("roll ", "1d20 dl he") == ["1d20 dl heroic"]


def test_nothing_to_complete_is_nothing() -> None:
    assert tails(GOBLINS, "") == []
    assert tails(GOBLINS, "2d6 ") == []  # after a space only a keyword's choices
    assert tails("attack Ogre ", "") == []
    assert tails("init Ogre ", "1") == []
    assert tails("cond Ogre ", "frightened") == []  # typed in full


def test_only_prompts_with_words_to_complete_offer_tab() -> None:
    # heal and init take a number or dice after their targets, nothing more
    assert not tail_completes("heal Ogre ")
    assert not tail_completes("init Ogre ")
    for head in ("damage Ogre ", "dmg Ogre ", "cond Ogre ", "persist Ogre ", "temp Ogre "):
        assert tail_completes(head), head
    assert tail_completes("attack Ogre ") and tail_completes("roll ")
    assert not tail_completes("") and not tail_completes("frobnicate Ogre ")


def test_half_and_none_offer_only_the_targets_not_yet_named() -> None:
    # the Ogre is no target: half Ogre would be refused
    assert tails(GOBLINS, "8d6 fire half O") == []
    assert tails(GOBLINS, "8d6 fire half Go") == [
        '8d6 fire half "Goblin 1"',
        '8d6 fire half "Goblin 2"',
    ]
    assert tails(GOBLINS, "8d6 half 'Goblin 1' none Go") == [
        "8d6 half 'Goblin 1' none \"Goblin 2\""
    ]
    assert tails(GOBLINS, '8d6 half "Goblin 1,Go') == ['8d6 half "Goblin 1,Goblin 2"']
    # a group or a side when every one it means is a target still open
    zombies = "damage 'Zombie 1,Zombie 2,Ogre' "
    assert tails(zombies, "8 none Zom") == [
        '8 none "Zombie 1"',
        '8 none "Zombie 2"',
        "8 none Zombies",
    ]
    assert tails(zombies, "8 half 'Zombie 1' none Zom") == ["8 half 'Zombie 1' none \"Zombie 2\""]
    assert tails("damage monsters ", "8 half m") == ["8 half monsters"]
    assert tails("damage monsters ", "8 half Za") == []  # a player


def test_the_command_line_offers_the_same_targets_after_half() -> None:
    assert completions("damage Ogre 8d6 half G", known=KNOWN) == []
    assert completions("damage Ogre,Zalek 8d6 half Z", known=KNOWN) == [
        "damage Ogre,Zalek 8d6 half Zalek"
    ]


def test_a_second_action_is_never_completed_in_a_prompt() -> None:
    assert completions("damage Ogre 5; co", known=KNOWN) == ["damage Ogre 5; cond"]
    assert tails("damage Ogre ", "5; co") == []
    assert tails("damage Ogre ", "5; damage Og") == []
    assert tails("damage 'Imp;next' ", "5 fi") == ["5 fire"]  # ; inside quotes


def test_a_name_no_gm_could_type_is_never_offered() -> None:
    known = Known(["Imp\x1b[31m", "Imp", "Ogre\u202e"])
    assert completions("damage I", known=known) == ["damage Imp"]
    assert completions("damage O", known=known) == []


def test_a_target_named_with_a_double_quote_completes_as_any_other() -> None:
    # the key quotes such a name in single quotes: its double quote opens
    # no word, so the prompt's text still completes (it used to offer nothing)
    session = crypt()
    session.apply("add 'Ogre\"s Pet' hp 9")
    session.apply("add '\"' hp 9")
    known = known_in(session.encounter)
    head = "damage " + shlex.quote('Ogre"s Pet') + " "
    assert tails(head, "2d6 fi", known) == ["2d6 fire"]
    assert tails(head, "2d6 fire c", known) == ["2d6 fire crit", "2d6 fire cold"]
    assert tails("cond " + shlex.quote('"') + " ", "fri", known) == ["frightened"]
    assert tails("attack " + shlex.quote('"') + " ", "co", known) == ["cover"]
    # and a word typed in double quotes after it is still one word
    assert tails(head, '2d6 "fi', known) == ["2d6 fire"]


def test_a_target_a_hand_edit_named_with_a_control_character_completes_too() -> None:
    # the name is the prompt's, not typed: what the GM types still completes
    known = Known(["Imp\x1b[31m", "Ogre"])
    head = "damage " + shlex.quote("Imp\x1b[31m") + " "
    assert tails(head, "2d6 fi", known) == ["2d6 fire"]
    assert tails(head, "2d6 fi\x1b", known) == []  # typed, it is not a word


# -- properties ----------------------------------------------------------------

#: prompt heads as the keys build them (names quoted by shlex, as tracker.lines does)
HEADS = st.sampled_from(
    [
        "damage " + shlex.quote("Goblin 1,Goblin 2") + " ",
        "cond Ogre ",
        "persist " + shlex.quote("Zombie 1") + " ",
        "attack Zalek ",
        "temp Ogre ",
        "heal Ogre ",
        "init Ogre ",
        "roll ",
        "damage " + shlex.quote("Imp;next") + " ",
        "damage " + shlex.quote("O'Brien") + " ",
        "damage " + shlex.quote('Ogre"s Pet') + " ",
    ]
)
TYPED = st.text(max_size=20) | st.text(
    alphabet=st.sampled_from(list("acfhinorstuv ,;\"'\\-+12d")), max_size=20
)
NAMES = st.lists(st.text(min_size=1, max_size=8), max_size=4)


@given(HEADS, TYPED, NAMES, NAMES)
def test_completing_any_text_never_fails_and_never_writes_a_control_character(
    head: str, typed: str, names: list[str], tags: list[str]
) -> None:
    for known in (KNOWN, Known([*names, "Imp;next", "O'Brien"], tags, names)):
        for tail in tail_completions(head, typed, known):
            assert first_unsafe(tail) < 0
            line = head + tail
            assert len(split_batch(line)) == 1  # one action: the prompt's own
            # the verb and targets the key fixed are the line's still
            assert shlex.split(line)[: len(shlex.split(head))] == shlex.split(head)
