"""A group acting together is one log line (docs/rules.md §4, "Groups"):
``delay`` and ``return`` of a horde, ``group`` and ``ungroup``, ``hide``,
``mask``, ``reveal`` and ``remove`` (``remove defeated`` too) write
``group Zombie: Zombie 1–12 delay``, not twelve lines; a lone combatant's
line is as before, and undo, redo and replay carry the lines unchanged."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.groups import name_runs


def horde(started: bool = False) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(4))
    s.apply("add Ana hp 30 player init 20")
    s.apply("add Zombie count 12 hp 22 group")
    s.apply("add Ogre hp 59 init 1")
    if started:
        s.apply("start")
    return s


def texts(step: object) -> list[str]:
    return [e.text for e in step.log]  # type: ignore[attr-defined]


def test_a_group_delaying_and_returning_is_one_line_each() -> None:
    s = horde()
    assert texts(s.apply("delay Zombie")) == ["group Zombie: Zombie 1–12 delay"]
    assert texts(s.apply("return Zombie")) == ["group Zombie: Zombie 1–12 return to the order"]
    s.apply("start")
    s.apply("next")  # Zombie 1's turn: the horde holds its action
    step = s.apply("delay Zombie")
    assert texts(step)[0] == "group Zombie: Zombie 1–12 delay"
    assert not any(t.startswith("Zombie ") and "delays" in t for t in texts(step))
    s.apply("next")
    step = s.apply("return Zombie")
    assert texts(step) == ["group Zombie: Zombie 1–12 return after Ana (initiative 20)"]
    assert step.log[0].actor == "group Zombie"  # bold where the line starts


def test_a_group_and_a_lone_combatant_delaying_together() -> None:
    s = horde()
    step = s.apply("delay Ogre,Zombie")
    assert texts(step) == ["Ogre delays", "group Zombie: Zombie 1–12 delay"]  # as typed
    assert texts(s.apply("delay Ana")) == ["Ana delays"]  # alone: as it always was


def test_members_returning_outside_the_slot_leave_in_one_line() -> None:
    s = horde(started=True)
    while s.encounter.active is None or s.encounter.active.name != "Zombie 4":
        s.apply("next")
    s.apply("delay Zombie 4, Zombie 5")
    while s.encounter.active is None or s.encounter.active.name != "Ogre":
        s.apply("next")
    step = s.apply("return Zombie 4, Zombie 5")
    assert texts(step) == [
        "group Zombie: Zombie 4, Zombie 5 return after Ogre (initiative 1) and leave the group"
    ]
    assert [c.group for c in s.encounter.combatants[-2:]] == [None, None]


def test_grouping_and_ungrouping_a_horde_is_one_line() -> None:
    s = horde(started=True)
    assert texts(s.apply("ungroup Zombie")) == ["group Zombie: Zombie 1–12 leave"]
    step = s.apply("group Horde " + ", ".join(f"Zombie {k}" for k in (1, 2, 3, 5, 6, 7)))
    shared = s.encounter.combatants[[c.name for c in s.encounter.combatants].index("Zombie 1")]
    assert texts(step)[:2] == [
        "group Horde: Zombie 1–3, Zombie 5–7 join",
        f"group Horde shares initiative {shared.initiative}",
    ]
    step = s.apply("group Pack Zombie 1, Zombie 2, Ogre")
    assert texts(step)[:2] == [
        "group Horde: Zombie 1, Zombie 2 leave",
        "group Pack: Zombie 1, Zombie 2, Ogre join",
    ]


def test_undo_redo_and_replay_carry_the_one_line() -> None:
    s = horde()
    done = s.apply("delay Zombie")
    s.undo()
    assert all("delay" not in e.text for e in s.log)
    redone = s.redo()
    assert redone.log == done.log and s.log[-1].text == "group Zombie: Zombie 1–12 delay"
    replayed = horde()
    for step in (done, s.apply("ungroup Zombie")):
        replayed.replay(step.to_dict())
    assert [e.text for e in replayed.log] == [e.text for e in s.log]


def test_name_runs_shorten_numbered_runs_only() -> None:
    assert name_runs([f"Zombie {k}" for k in range(1, 13)]) == "Zombie 1–12"
    assert name_runs(["Zombie 1", "Zombie 2"]) == "Zombie 1, Zombie 2"
    assert name_runs(["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 5"]) == "Zombie 1–3, Zombie 5"
    assert name_runs(["Zombie 01", "Zombie 02", "Zombie 03"]) == "Zombie 01, Zombie 02, Zombie 03"
    assert name_runs(["Rat 1", "Rat 2", "Rat 3", "Bat 4"]) == "Rat 1–3, Bat 4"
    many = [f"Thing {k}" for k in range(1, 40, 2)]  # no run: cut after six
    assert name_runs(many) == ", ".join(many[:6]) + ", … (20 in all)"


# -- the players' view and removal: a horde of 150 is one line, not 150 ----------


def big_horde() -> Session:
    """150 zombies in one group, added as ``add`` allows: 100, then 50 more."""
    s = Session(Encounter("Field"), rng=random.Random(9))
    s.apply("add Ana hp 30 player init 20")
    s.apply("add Zombie count 100 hp 10 group Horde")
    s.apply("add Zombie count 50 hp 10 group Horde")
    s.apply("add Ogre hp 59 init 1")
    s.apply("start")
    return s


def test_hiding_masking_and_revealing_a_horde_is_one_line_each() -> None:
    s = big_horde()
    step = s.apply("hide Horde")
    assert texts(step) == ["group Horde: Zombie 1–150 are hidden from the players"]
    assert step.log[0].actor == "group Horde"
    assert all(c.visibility == "hidden" for c in s.encounter.combatants if c.group)
    assert texts(s.apply("mask Horde")) == [
        'group Horde: Zombie 1–150 show to the players as "Unknown creature"'
    ]
    assert texts(s.apply("reveal Horde,Ana")) == [
        "group Horde: Zombie 1–150 are revealed to the players"
    ]


def test_the_line_names_only_the_members_that_change_and_a_lone_one_as_before() -> None:
    s = big_horde()
    assert texts(s.apply("hide Zombie 7")) == ["Zombie 7 is hidden from the players"]
    assert texts(s.apply("hide Ogre,Horde")) == [
        "Ogre is hidden from the players",
        "group Horde: Zombie 1–6, Zombie 8–150 are hidden from the players",
    ]


def test_remove_defeated_on_a_horde_is_one_line_and_one_undo() -> None:
    s = big_horde()
    s.apply("damage Horde,Ogre 100")
    s.apply("heal Zombie 40 5")  # one zombie gets up again
    before = [e.text for e in s.log]
    step = s.apply("remove defeated")
    assert texts(step) == [
        "group Horde: Zombie 1–39, Zombie 41–150 are removed",
        "Ogre is removed",
    ]
    assert [c.name for c in s.encounter.combatants] == ["Ana", "Zombie 40"]
    s.undo()
    assert [e.text for e in s.log] == before and len(s.encounter.combatants) == 152
    assert s.redo().log == step.log
    assert [c.name for c in s.encounter.combatants] == ["Ana", "Zombie 40"]


def test_removing_two_members_by_name_is_one_line() -> None:
    s = big_horde()
    step = s.apply("remove Zombie 3, Zombie 4, Ogre")
    assert texts(step) == ["group Horde: Zombie 3, Zombie 4 are removed", "Ogre is removed"]
