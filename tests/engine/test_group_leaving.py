"""Leaving a group mid-fight (issue 11; docs/rules.md §4, "Groups"): the
member moves out of the group's slot, so the slot is never split by
someone outside the group, no turn of this round is skipped or repeated,
and undo restores the order exactly."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError


def horde(seed: int = 4) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    s.apply("add Ana hp 30 player init 20")
    s.apply("add Zombie count 10 hp 22 group")
    s.apply("add Ogre hp 59 init 1")
    s.apply("start")
    return s


def order(s: Session) -> list[str]:
    return [c.name for c in s.encounter.combatants]


def zombies(*ks: int) -> list[str]:
    return [f"Zombie {k}" for k in ks]


def runs(s: Session) -> list[str | None]:
    """The order as runs of one group (None: a combatant of none)."""
    out: list[str | None] = []
    previous: object = object()
    for c in s.encounter.combatants:
        if c.group is None or c.group != previous:
            out.append(c.group)
        previous = c.group
    return out


def active(s: Session) -> str:
    assert s.encounter.active is not None
    return s.encounter.active.name


def test_a_member_from_the_middle_moves_right_after_the_group() -> None:
    s = horde()
    assert active(s) == "Ana"
    before = s.encounter
    step = s.apply("ungroup 'Zombie 5'")
    assert order(s) == ["Ana", *zombies(1, 2, 3, 4, 6, 7, 8, 9, 10), "Zombie 5", "Ogre"]
    assert runs(s) == [None, "Zombie", None, None]  # the group is one row
    z5 = s.encounter.combatants[10]
    assert (z5.group, z5.initiative) == (None, before.combatants[1].initiative)
    assert active(s) == "Ana"
    assert [e.text for e in step.log] == ["Zombie 5 leaves group Zombie"]
    s.undo()
    assert s.encounter == before


def test_inside_the_slots_turn_no_turn_is_skipped_or_repeated() -> None:
    s = horde()
    for _ in range(4):
        s.apply("next")
    assert active(s) == "Zombie 4"
    s.apply("ungroup 'Zombie 2','Zombie 8'")
    # Zombie 2 has acted this round: before the slot; Zombie 8 has not: after
    assert order(s) == ["Ana", "Zombie 2", *zombies(1, 3, 4, 5, 6, 7, 9, 10), "Zombie 8", "Ogre"]
    assert active(s) == "Zombie 4"
    turns = []
    while active(s) != "Ana":
        s.apply("next")
        turns.append(active(s))
    assert turns == [*zombies(5, 6, 7, 9, 10, 8), "Ogre", "Ana"]


def test_the_active_member_leaves_from_either_end_of_the_slot() -> None:
    s = horde()
    s.apply("next")
    assert active(s) == "Zombie 1"
    s.apply("ungroup 'Zombie 1'")  # acts first of those left: it stays first
    assert order(s)[1:3] == ["Zombie 1", "Zombie 2"] and active(s) == "Zombie 1"
    assert runs(s) == [None, None, "Zombie", None]
    for _ in range(9):
        s.apply("next")
    assert active(s) == "Zombie 10"
    s.apply("ungroup 'Zombie 10'")  # the last: it stays last
    assert order(s)[-2:] == ["Zombie 10", "Ogre"] and active(s) == "Zombie 10"


def test_the_active_member_in_the_middle_is_refused_and_nothing_changes() -> None:
    s = horde()
    for _ in range(5):
        s.apply("next")
    assert active(s) == "Zombie 5"
    before = s.encounter
    with pytest.raises(ActionError, match="skip or repeat a turn"):
        s.apply("ungroup 'Zombie 5'")
    assert s.encounter == before
    s.apply("next")
    s.apply("ungroup 'Zombie 5'")  # its turn is over: before the slot
    assert order(s)[1:3] == ["Zombie 5", "Zombie 1"] and active(s) == "Zombie 6"


def test_the_whole_group_leaving_keeps_the_order() -> None:
    s = horde()
    before = order(s)
    s.apply("ungroup Zombie")
    assert order(s) == before
    assert all(c.group is None for c in s.encounter.combatants)


def test_before_the_fight_a_leaving_member_goes_after_the_group_too() -> None:
    s = Session(Encounter("Crypt"), rng=random.Random(2))
    s.apply("add Zombie count 4 hp 22 group")
    s.apply("add Ogre hp 59")
    s.apply("ungroup 'Zombie 2'")
    assert order(s) == [*zombies(1, 3, 4, 2), "Ogre"]


# -- a delayed member returning -------------------------------------------------


def test_a_member_returning_outside_the_slot_leaves_the_group_in_the_same_step() -> None:
    s = horde()
    for _ in range(4):
        s.apply("next")
    s.apply("delay 'Zombie 4'")  # on its own turn
    while active(s) != "Ogre":
        s.apply("next")
    before = s.encounter
    step = s.apply("return 'Zombie 4'")
    assert [e.text for e in step.log] == [
        "Zombie 4 returns after Ogre (initiative 1) and leaves group Zombie"
    ]
    assert order(s)[-2:] == ["Ogre", "Zombie 4"]
    assert runs(s) == [None, "Zombie", None, None]  # one row for the group
    hit = s.apply("damage Zombie 1")
    assert hit.action["targets"] == zombies(1, 2, 3, 5, 6, 7, 8, 9, 10)
    s.undo()
    s.undo()  # the return and the leaving are one step
    assert s.encounter == before


def test_a_member_returning_inside_its_slot_stays_in_the_group() -> None:
    s = horde()
    for _ in range(2):
        s.apply("next")
    s.apply("delay 'Zombie 2'")
    while active(s) != "Zombie 6":
        s.apply("next")
    shared = s.encounter.combatants[1].initiative
    step = s.apply("return 'Zombie 2'")
    assert [e.text for e in step.log] == [f"Zombie 2 returns after Zombie 6 (initiative {shared})"]
    assert runs(s) == [None, "Zombie", None]
    s.apply("next")
    assert active(s) == "Zombie 2"


def test_a_whole_group_delays_and_returns_together_as_one_group() -> None:
    s = horde()
    s.apply("next")
    assert active(s) == "Zombie 1"
    s.apply("delay Zombie")  # every member: Zombie 1's turn ends, Ogre's starts
    assert active(s) == "Ogre"
    step = s.apply("return Zombie")
    assert all("leaves group" not in e.text for e in step.log)
    assert order(s) == ["Ana", "Ogre", *zombies(*range(1, 11))]
    assert {c.initiative for c in s.encounter.combatants if c.group} == {1}
    assert runs(s) == [None, None, "Zombie"]


def test_part_of_a_delaying_group_returning_alone_leaves_it() -> None:
    s = horde()
    s.apply("delay Zombie")  # on Ana's turn: all of them wait
    s.apply("next")
    assert active(s) == "Ogre"
    s.apply("return 'Zombie 1','Zombie 2'")
    assert order(s)[-2:] == ["Zombie 1", "Zombie 2"]
    assert [c.group for c in s.encounter.combatants[-2:]] == [None, None]
    assert runs(s) == [None, "Zombie", None, None, None]
