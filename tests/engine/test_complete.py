"""Completion of the action language beyond verbs and names: conditions,
damage tags, movement kinds, each verb's keywords and a keyword's choices,
case-insensitive and quoted as names are.  Whatever is typed, a completed
line is still one action per ``;`` part, with its verb and targets kept."""

from __future__ import annotations

import random
import shlex

from hypothesis import given
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.complete import Known, completions, current_word, known_in
from rules.engine.words import split_batch

NAMES = ["Goblin 1", "Goblin 2", "Ogre", "Imp;next"]
FIGHT = Known(NAMES, ["fier", "cold"], ["Hexed"])


def done(value: str, known: Known = FIGHT) -> list[str]:
    return completions(value, known=known)


def test_condition_names_after_cond_and_uncond_and_a_target() -> None:
    assert done("cond Ogre pr") == ["cond Ogre prone"]
    assert done("cond Ogre PO") == ["cond Ogre poisoned"]  # case-insensitive
    assert done("uncond Ogre unc") == ["uncond Ogre unconscious"]
    # the fight's own conditions come first, as they are spelt there
    assert done("cond Goblin,Ogre he")[0] == "cond Goblin,Ogre Hexed"
    assert done('cond "Goblin 1" fri') == ['cond "Goblin 1" frightened']


def test_a_condition_with_spaces_is_quoted_into_one_word() -> None:
    fight = Known(NAMES, (), ["Held by vines"])
    assert done("cond Ogre Held", fight) == ['cond Ogre "Held by vines"']
    assert done('cond Ogre "held b', fight) == ['cond Ogre "Held by vines"']


def test_damage_tags_and_crit_after_the_amount() -> None:
    assert done("damage Ogre 5 c") == ["damage Ogre 5 crit", "damage Ogre 5 cold"]
    # tags the fight already uses, even misspelt ones, then the common list
    assert done("damage Ogre 2d6+3 fi") == ["damage Ogre 2d6+3 fier", "damage Ogre 2d6+3 fire"]
    # a dice expression typed with spaces is still the amount
    assert done("damage Ogre 2d6 + 3 sla") == ["damage Ogre 2d6 + 3 slashing"]
    assert done("damage Ogre 2d6 + ") == []
    assert done("damage Ogre 5 fire crit co") == ["damage Ogre 5 fire crit cold"]
    assert done("damage Ogre 5 crit cr") == []  # crit once
    assert done("persist Ogre 1d6 ble") == ["persist Ogre 1d6 bleed"]
    assert done("persist Ogre 1d6 bleed d") == ["persist Ogre 1d6 bleed dc"]


def test_no_tag_where_an_amount_or_a_target_belongs() -> None:
    assert done("damage Ogre fi") == []  # the amount comes first
    assert done("damage fi") == []  # a target, and nobody is called fi…


def test_movement_kinds_and_their_flags() -> None:
    assert done("move Ogre d") == ["move Ogre dash"]
    assert done("move Ogre S") == ["move Ogre sprint"]
    assert done("move Ogre dash n") == ["move Ogre dash nospend"]
    assert done("move Ogre dash ro") == ["move Ogre dash roll"]


def test_each_verbs_keywords_and_a_keywords_choices() -> None:
    assert done("attack Ogre c") == ["attack Ogre cover"]
    assert done("attack Ogre cover t") == [
        "attack Ogre cover three-quarters",
        "attack Ogre cover total",
    ]
    assert done("attack Ogre w") == ["attack Ogre with"]
    assert done("attack Ogre f") == []  # no tags before damage DICE
    assert done("attack Ogre damage 1d8 fi") == [
        "attack Ogre damage 1d8 fier",
        "attack Ogre damage 1d8 fire",
    ]
    assert done("temp Ogre 5 r") == ["temp Ogre 5 rounds"]
    assert done("temp Ogre 5 rounds 2 at e") == ["temp Ogre 5 rounds 2 at end"]
    assert done("cond Ogre prone of Og") == ["cond Ogre prone of Ogre"]
    assert done("cond Ogre prone of Im") == ['cond Ogre prone of "Imp;next"']
    assert done("persist Ogre 1d6 bleed of Og") == ["persist Ogre 1d6 bleed of Ogre"]
    assert done("persist Ogre 1d6 bleed dc 15 of Og") == ["persist Ogre 1d6 bleed dc 15 of Ogre"]
    assert done("order Ogre u") == ["order Ogre up"]
    assert done("set Ogre max_") == ["set Ogre max_hp"]
    assert done("bonus Ogre dod") == ["bonus Ogre dodge"]
    assert done("roll 1d20 dl her") == ["roll 1d20 dl heroic"]
    assert done("cinematic Ogre a") == ["cinematic Ogre adv"]
    assert done("add Goblin count 3 pl") == ["add Goblin count 3 player"]


def test_nothing_after_a_number_a_value_or_free_text() -> None:
    assert done("damage Ogre 5 crit ") == []  # nothing typed yet
    assert done("cond Ogre prone rounds 2") == []
    assert done("set Ogre notes f") == []
    assert done("add Fi") == []  # a new name
    assert done("xyzzy Ogre f") == []


def test_after_a_semicolon_a_new_action_starts() -> None:
    assert done("damage Ogre 5; co") == ["damage Ogre 5; cond"]
    assert done("damage Ogre 5; cond Ogre pro") == ["damage Ogre 5; cond Ogre prone"]
    assert done('damage "a;b" 5 fi')[0] == 'damage "a;b" 5 fier'  # ; inside quotes


def test_the_fights_names_tags_and_conditions() -> None:
    session = Session(Encounter("Crypt"), rng=random.Random(1))
    for line in (
        "add Ogre hp 59 resist fire=5 weak Radiant",
        "add 'Goblin 1' hp 7 immune poison",
        "cond Ogre Hexed",
        "persist 'Goblin 1' 1d4 bleed",
    ):
        session.apply(line)
    known = known_in(session.encounter)
    assert list(known.names) == ["Ogre", "Goblin 1"]
    assert list(known.tags) == ["bleed", "fire", "poison", "radiant"]
    assert list(known.conditions) == ["Hexed"]


# -- properties ----------------------------------------------------------------

TEXT = st.text(alphabet=st.sampled_from(list("aAbz ,;\"'\\-+1d#é\t")), max_size=16)
WORDS = st.lists(st.text(min_size=1, max_size=10), max_size=4)
LINES = st.builds(
    lambda verb, rest: verb + rest,
    st.sampled_from(["damage ", "cond ", "move ", "attack ", "persist ", "set ", "", "x "]),
    TEXT,
)


def words_of_last_action(line: str) -> list[str] | None:
    try:
        return shlex.split(split_batch(line)[-1])
    except ValueError:
        return None


@given(LINES, WORDS, WORDS, WORDS)
def test_a_completed_line_is_one_more_word_of_the_same_actions(
    value: str, names: list[str], tags: list[str], conditions: list[str]
) -> None:
    head, _ = current_word(value)
    for line in completions(value, known=Known(names, tags, conditions)):
        assert line.startswith(head)  # what was typed before the word is kept
        assert len(split_batch(line)) == len(split_batch(head + "w"))  # no new action
        before = words_of_last_action(head + "w")
        after = words_of_last_action(line)
        assert before is not None and after is not None
        # the verb and every earlier word (the targets) are kept, and the
        # completion is one word: the last one (or a longer list of targets)
        assert len(after) == len(before)
        assert after[:-1] == before[:-1]
        if head.endswith(","):
            assert after[-1].startswith(before[-1][:-1])


def test_a_name_already_in_the_list_is_not_offered_again() -> None:
    """Marks by hand in the ``:`` line: ``cond "Goblin 1",Gob`` Tab gave
    Goblin 1 again, a Tab wasted on every name of a long list."""
    assert done('cond "Goblin 1",Gob') == ['cond "Goblin 1","Goblin 2"']
    assert done("cond Ogre,") == []  # nothing typed: no whole list
    assert done('cond "Goblin 1,Gob') == ['cond "Goblin 1,Goblin 2"']
    assert done('cond "GOBLIN 2",Gob') == ['cond "GOBLIN 2","Goblin 1"']
    assert done("cond Ogre,O") == []  # its only match is listed: nothing
