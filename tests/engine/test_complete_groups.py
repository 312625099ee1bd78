"""Tab completion of the group verbs and of the targets of ``half`` and
``none`` (issue 11): combatant names, the fight's group names, and every
completed line still reads as the target the GM picked."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.complete import Known, completions, known_in
from rules.engine.parse import parse_action

NAMES = ["Zombie 1", "Zombie 2", "Ogre", "Zalek"]
FIGHT = Known(NAMES, (), (), ["Zombies", "Big Ones"])


def done(value: str, known: Known = FIGHT) -> list[str]:
    return completions(value, known=known)


def test_group_completes_an_existing_groups_name_then_the_targets() -> None:
    assert done("group Z") == ["group Zombies"]
    assert done("group b") == ['group "Big Ones"']  # quoted: one word
    assert done("group Zombies O") == ["group Zombies Ogre"]
    assert done("group Zombies Ogre,Za") == ["group Zombies Ogre,Zalek"]


def test_add_group_completes_a_groups_name_or_the_next_keyword() -> None:
    assert done("add Ghoul count 2 group Z") == ["add Ghoul count 2 group Zombies"]
    assert done("add Ghoul group B") == ['add Ghoul group "Big Ones"']
    assert done("add Ghoul group count 2 hp 9 pl") == ["add Ghoul group count 2 hp 9 player"]
    assert done("add Ghoul group Zombies co") == [
        "add Ghoul group Zombies count",
        "add Ghoul group Zombies con",
    ]


def test_ungroup_offers_the_groups_first_then_the_combatants() -> None:
    assert done("ungroup Z") == [
        "ungroup Zombies",
        'ungroup "Zombie 1"',
        'ungroup "Zombie 2"',
        "ungroup Zalek",
    ]
    assert done("ungroup Big") == ['ungroup "Big Ones"']


def test_a_group_is_a_target_of_every_verb() -> None:
    assert done("damage Zombies") == []  # typed in full
    assert done("damage Big") == ['damage "Big Ones"']
    assert done("cond Zo") == ['cond "Zombie 1"', 'cond "Zombie 2"', "cond Zombies"]
    assert done('heal "Ogre,Bi') == ['heal "Ogre,Big Ones"']


def test_half_and_none_complete_names_and_groups() -> None:
    assert done("damage Ogre,Zalek 8 h") == ["damage Ogre,Zalek 8 half"]
    assert done("damage Ogre,Zalek 8 half Za") == ["damage Ogre,Zalek 8 half Zalek"]
    assert done("damage Zombies,Ogre 8d6 fire half O") == ["damage Zombies,Ogre 8d6 fire half Ogre"]
    assert done("damage Zombies,Ogre 8 none Zombies,O") == [
        "damage Zombies,Ogre 8 none Zombies,Ogre"
    ]
    assert done("damage Zombies,Ogre 8 half Ogre none Zom") == [
        'damage Zombies,Ogre 8 half Ogre none "Zombie 1"',
        'damage Zombies,Ogre 8 half Ogre none "Zombie 2"',
        "damage Zombies,Ogre 8 half Ogre none Zombies",
    ]
    assert done("damage Ogre 8 half Ogre n") == [
        "damage Ogre 8 half Ogre none",
        "damage Ogre 8 half Ogre necrotic",
    ]


def test_the_fights_groups_as_their_first_member_spells_them() -> None:
    session = Session(Encounter("Crypt"), rng=random.Random(1))
    for line in (
        "add Zombie count 2 hp 9 group",
        "add Ogre hp 30",
        "group 'Big Ones' Ogre",
        "group big Zombie*",
    ):
        session.apply(line)
    known = known_in(session.encounter)
    # in the order of play; group Zombie has no member left once they moved
    assert list(known.groups) == ["big", "Big Ones"]


#: group names as ``group NAME`` keeps them: stripped, no comma
GROUP = (
    st.text(alphabet=st.sampled_from(list("aZ é;\"'\\-1[]")), max_size=12)
    .map(str.strip)
    .filter(lambda g: len(g) >= 2 and "," not in g)
)


@given(GROUP)
def test_a_completed_group_name_reads_back_as_that_group(group: str) -> None:
    known = Known(["Ogre"], (), (), [group])
    for verb, tail in (("ungroup", ""), ("damage", " 5")):
        lines = done(f"{verb} {group[0]}", known)
        assert [group] in [parse_action(line + tail)["targets"] for line in lines]


def test_the_sides_are_offered_where_several_targets_are_taken() -> None:
    known = Known(["Mira", "Ogre", "Ana"], groups=["Zombie"])
    assert completions("damage m", known=known) == ["damage Mira", "damage monsters"]
    assert completions("damage a", known=known) == ["damage Ana", "damage all"]
    assert completions('damage "Ogre,p', known=known) == ['damage "Ogre,players"']
    assert completions("damage Ogre 8d6 fire half m", known=known) == [
        "damage Ogre 8d6 fire half Mira",
        "damage Ogre 8d6 fire half monsters",
    ]
    assert completions("cond p", known=known) == ["cond players"]
    # one combatant only: no side
    assert completions("init a", known=known) == ["init Ana"]
    assert completions("temp Ogre 5 of a", known=known) == ["temp Ogre 5 of Ana"]


def test_a_combatant_named_like_a_side_is_offered_once() -> None:
    known = Known(["All", "Ogre"])
    assert completions("damage a", known=known) == ["damage All"]
