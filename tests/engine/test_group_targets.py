"""A group's name as a target (issue 11; README, "Decisions": targets):
``damage Zombies 8d6 fire`` hits every member of group Zombies, the
journaled action keeps the members' names (so a replay does not depend on
who is in the group later), and a combatant's exact name still wins over a
group's name, which wins over a selector and a prefix.  Seeded rolls."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError


def fight(*lines: str, seed: int = 11) -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in lines:
        session.apply(line)
    return session


def hp(session: Session, name: str) -> int:
    return next(c.hp for c in session.encounter.combatants if c.name == name)


ROSTER = (
    "add Zalek hp 30 player",
    "add Zombie count 4 hp 40",
    "add Ogre hp 59",
    "group Zombies Zombie*",
)


def test_a_group_name_hits_every_member_and_the_record_names_them() -> None:
    session = fight(*ROSTER)
    step = session.apply("damage Zombies 8d6 fire")
    members = ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]
    assert step.action["targets"] == members
    rolled = 40 - hp(session, "Zombie 1")
    assert rolled >= 8 and all(hp(session, n) == 40 - rolled for n in members)  # one roll
    assert hp(session, "Ogre") == 59 and hp(session, "Zalek") == 30
    session.undo()
    assert all(hp(session, n) == 40 for n in members)


def test_the_record_replays_the_same_after_the_group_changes() -> None:
    session = fight(*ROSTER)
    step = session.apply("damage zombies 5")  # any case
    record = dict(step.action)
    session.undo()
    session.apply("ungroup 'Zombie 4'")
    again = session.apply(record)  # the journaled record, as a replay reads it
    assert again.action["targets"] == ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]
    assert hp(session, "Zombie 4") == 35


def test_down_members_are_members_too() -> None:
    session = fight(*ROSTER, "damage 'Zombie 2' 40")
    step = session.apply("heal Zombies 3")
    assert "Zombie 2" in step.action["targets"] and hp(session, "Zombie 2") == 3


def test_a_group_name_in_a_list_and_after_half_and_none() -> None:
    session = fight(*ROSTER)
    step = session.apply("damage Zombies,Ogre 10 half Zombies none Ogre")
    assert step.action["targets"] == ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4", "Ogre"]
    assert step.action["half"] == ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]
    assert hp(session, "Zombie 3") == 35 and hp(session, "Ogre") == 59


def test_a_group_name_with_spaces_needs_no_quotes() -> None:
    session = fight(*ROSTER, "group 'Big Ones' Ogre,Zalek")
    step = session.apply("damage Big Ones 4")
    assert sorted(step.action["targets"]) == ["Ogre", "Zalek"]
    assert hp(session, "Ogre") == 55


def test_a_group_named_like_its_members_beats_the_ambiguous_prefix() -> None:
    session = fight("add Zombie count 3 hp 20 group", "add 'Zombie Lord' hp 50")
    step = session.apply("damage Zombie 6")  # before groups: "matches 4 combatants"
    assert step.action["targets"] == ["Zombie 1", "Zombie 2", "Zombie 3"]
    assert hp(session, "Zombie Lord") == 50


def test_a_members_full_name_still_means_that_member() -> None:
    session = fight("add Zombie count 3 hp 20 group")
    step = session.apply("damage Zombie 2 1d4")  # not: the group, 2, tag "1d4"
    assert step.action["targets"] == ["Zombie 2"]
    assert hp(session, "Zombie 1") == 20


def test_an_exact_combatant_name_beats_a_group_of_that_name() -> None:
    session = fight(*ROSTER, "add Zombies hp 12")
    step = session.apply("damage Zombies 2")
    assert step.action["targets"] == ["Zombies"]
    assert hp(session, "Zombie 1") == 40


def test_a_group_name_beats_a_selector_word() -> None:
    session = fight(*ROSTER, "group monsters Ogre")
    step = session.apply("damage monsters 3")  # the group the GM named, not every monster
    assert step.action["targets"] == ["Ogre"]
    assert hp(session, "Zombie 1") == 40


def test_a_prefix_of_a_group_name_is_not_the_group() -> None:
    session = fight(*ROSTER)
    with pytest.raises(ActionError, match="matches 4 combatants"):
        session.apply("damage Zomb 3")  # a prefix of names: ambiguous, as before
    assert all(hp(session, f"Zombie {k}") == 40 for k in range(1, 5))


def test_a_single_target_verb_refuses_a_whole_group() -> None:
    session = fight(*ROSTER)
    with pytest.raises(ActionError, match="takes one combatant"):
        session.apply("set Zombies hp 3")
