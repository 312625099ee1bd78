"""The warnings of an order change mid-round (issue 11; docs/rules.md §4):
the engine knows where a combatant now sits against the active one, not
whether it has acted, so the log says only that — and names a group once
when all its members move alike."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session


def fight(*lines: str) -> Session:
    s = Session(Encounter("Hall"), rng=random.Random(3))
    for line in lines:
        s.apply(line)
    return s


def notes(s: Session, line: str) -> list[str]:
    return [e.text for e in s.apply(line).log if e.actor == "GM"]


def test_up_twice_then_down_twice_never_claims_a_turn_was_taken() -> None:
    s = fight("add A hp 9 init 20", "add B hp 9 init 15", "add C hp 9 init 10", "start", "next")
    assert s.encounter.active is not None and s.encounter.active.name == "B"
    assert notes(s, "order C up") == [
        "C now acts before B, whose turn it is: C gets no turn in the rest of this round"
    ]
    assert notes(s, "order C up") == []  # before A: still before B
    assert notes(s, "order C down") == []
    assert notes(s, "order C down") == [
        "C now acts after B, whose turn it is: C takes a turn later this round"
    ]
    assert not any("again" in e.text for e in s.full_log())


def test_a_whole_group_moving_is_one_note() -> None:
    s = fight(
        "add Ana hp 30 player init 20",
        "add Zombie count 4 hp 22 group init 12",
        "add Ogre hp 59 init 5",
        "start",
    )
    assert notes(s, "init 'Zombie 2' 25") == [
        "group Zombie now acts before Ana, whose turn it is: "
        "its members get no turn in the rest of this round"
    ]
    assert notes(s, "order 'Zombie 1' down") == [
        "group Zombie now acts after Ana, whose turn it is: "
        "its members take a turn later this round"
    ]


def test_members_moving_unlike_the_rest_are_named_one_by_one() -> None:
    s = fight(
        "add Ana hp 30 player init 20",
        "add Zombie count 2 hp 22 init 12",
        "add Ogre hp 59 init 5",
        "group Pair 'Zombie 1'",
        "start",
    )
    # a group of one is its member's name
    assert notes(s, "init 'Zombie 1' 25") == [
        "Zombie 1 now acts before Ana, whose turn it is: "
        "Zombie 1 gets no turn in the rest of this round"
    ]
