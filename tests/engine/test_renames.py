"""``Session.renames``: which combatants a step renamed, old name to new,
so what follows combatants by name (the tracker's selection and marks)
follows them through the rename, its undo and its redo; and
``Session.reversed_step``, the step an undo or redo reversed (the tracker
says what it was)."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session


def make() -> Session:
    s = Session(Encounter("Renames"), rng=random.Random(3))
    for line in ("add Goblin count 2 hp 7", "add Ogre hp 40"):
        s.apply(line)
    return s


def test_a_rename_its_undo_and_its_redo_name_the_rename_each_way() -> None:
    s = make()
    done = s.apply("set Ogre name '  Big Ogre '")
    assert s.renames(done) == {"Ogre": "Big Ogre"}  # the name as set stores it
    assert s.renames(s.undo()) == {"Big Ogre": "Ogre"}
    assert s.renames(s.redo()) == {"Ogre": "Big Ogre"}
    assert s.renames(s.apply("undo")) == {"Big Ogre": "Ogre"}  # the typed undo too


def test_a_batch_chains_and_swaps_its_renames() -> None:
    s = make()
    chained = s.apply("set Ogre name Troll; set Troll hp 30; set Troll name Giant")
    assert s.renames(chained) == {"Ogre": "Giant"}
    assert s.renames(s.undo()) == {"Giant": "Ogre"}
    swap = s.apply("set 'Goblin 1' name X; set 'Goblin 2' name 'Goblin 1'; set X name 'Goblin 2'")
    assert s.renames(swap) == {"Goblin 1": "Goblin 2", "Goblin 2": "Goblin 1"}
    back = s.apply("set Ogre name Troll; set Troll name Ogre")
    assert s.renames(back) == {}  # given back: nobody was renamed


def test_steps_that_rename_nobody_name_nothing() -> None:
    s = make()
    assert s.renames(s.apply("set Ogre hp 20")) == {}
    assert s.renames(s.undo()) == {}
    s.apply("start")
    assert s.renames(s.apply("next")) == {}
    assert s.renames(s.apply("prev")) == {}  # an undo of that next


def test_an_undo_or_redo_names_the_step_it_reversed_with_its_log() -> None:
    s = make()
    done = s.apply("damage Ogre 5")
    assert s.reversed_step(done) is None  # an action reverses nothing
    undone = s.undo()
    assert s.reversed_step(undone) == done  # its log too: the undo's own is empty
    assert not undone.log and s.reversed_step(undone).log == done.log  # type: ignore[union-attr]
    assert s.reversed_step(s.redo()) == done
    s.apply("start")
    turn = s.apply("next")
    assert s.reversed_step(s.apply("prev")) == turn  # p: an undo of that next
