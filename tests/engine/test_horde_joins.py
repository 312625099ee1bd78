"""A horde added at once is one log line (README, Decisions; docs/rules.md
§4 "Groups"): ``Zombie 1–50 join the encounter (HP 2d8: (3, 2) = 5, …;
AL 10, group Zombie)``, the HP each member rolled in name order, what they
share said once; members added mid-combat taking their group's initiative
are one line too.  A lone add reads as before; undo and redo take the line
away and bring it back with the combatants."""

from __future__ import annotations

import re

from tests.engine.test_log_wording import fight, texts


def rolled_hp(line: str) -> list[int]:
    """The HP a horde's line gives each member, in its order."""
    listed = re.search(r"\(HP [^:]+: (.*); AL", line)
    assert listed is not None, line
    return [int(total) for total in re.findall(r"= (\d+)(?:,|$)", listed.group(1))]


def test_a_horde_of_fifty_joins_in_one_line_with_each_ones_rolled_hp() -> None:
    s = fight("add Mira player hp 24 init 15")
    step = s.apply("add Zombie count 50 hp 2d8+1 al 8 group")
    (line,) = [e.text for e in step.log]
    assert line.startswith("Zombie 1–50 join the encounter (HP 2d8+1: (")
    assert line.endswith("; AL 8, group Zombie)")
    assert step.log[0].actor == "Zombie 1–50"  # the line's subject, bold in the log
    zombies = {c.name: c.max_hp for c in s.encounter.combatants if c.group}
    assert rolled_hp(line) == [zombies[f"Zombie {n}"] for n in range(1, 51)]
    # the faces are kept too: the first member's dice add up to its HP
    first = re.search(r"\((\d+), (\d+)\) \+ 1 = (\d+)", line)
    assert first is not None and int(first[1]) + int(first[2]) + 1 == zombies["Zombie 1"]


def test_fixed_or_average_hp_is_said_once_and_a_lone_add_reads_as_before() -> None:
    s = fight()
    assert texts(s, "add Skeleton count 3 hp 13 al 13 bonus 2 hidden") == [
        "Skeleton 1–3 join the encounter (HP 13, AL 13, hidden from the players)"
    ]
    assert texts(s, "add Ghoul count 2 hp 2d8 avg con 12 athletics 1") == [
        "Ghoul 1, Ghoul 2 join the encounter (HP 2d8 average 9, AL 10, endurance 13)"
    ]
    assert texts(s, "add Ogre hp 3d10") == [
        "Ogre joins the encounter (HP 3d10 (8, 10, 6) = 24, AL 10)"
    ]
    # a roll floored at 1 says so for that member
    assert texts(s, "add Rat count 3 hp 1d4-2") == [
        "Rat 1–3 join the encounter (HP 1d4-2: (3) - 2 = 1, (2) - 2 = 0 → at least 1, "
        "(2) - 2 = 0 → at least 1; AL 10)"
    ]


def test_added_mid_combat_the_members_taking_the_groups_initiative_are_one_line() -> None:
    s = fight("add Mira player hp 24 init 15", "add Zombie count 4 hp 22 group", "start")
    zombie_init = s.encounter.combatants[1].initiative
    assert texts(s, "add Zombie count 3 hp 22 group Zombie") == [
        "Zombie 5–7 join the encounter (HP 22, AL 10, group Zombie)",
        f"Zombie 5–7 take group Zombie's initiative of {zombie_init}",
    ]
    # a new group: its first member rolls, the rest take that roll
    log = texts(s, "add Imp count 3 hp 5 group Imps")
    assert log[0] == "Imp 1–3 join the encounter (HP 5, AL 10, group Imps)"
    assert log[1].startswith("Imp 1 rolls initiative: d20 (")
    imps = [c for c in s.encounter.combatants if c.group == "Imps"]
    assert log[2:] == [f"Imp 2, Imp 3 take group Imps' initiative of {imps[0].initiative}"]
    assert {c.initiative for c in imps} == {imps[0].initiative}
    # each one's initiative roll and entering-combat Dash check is its own
    # line (its own roll)
    log = texts(s, "add Wolf count 2 hp 11 con 12 athletics 2")
    assert log[0] == "Wolf 1, Wolf 2 join the encounter (HP 11, AL 10, endurance 14)"
    assert [line[:6] for line in log[1:3]] == ["Wolf 1", "Wolf 2"]
    assert all("rolls initiative" in line for line in log[1:3])
    assert [line[:6] for line in log[3:]] == ["Wolf 1", "Wolf 2"]
    assert all("entering-combat dash" in line for line in log[3:])


def test_undo_and_redo_take_the_line_away_and_bring_it_back() -> None:
    s = fight("add Mira player hp 24 init 15")
    step = s.apply("add Zombie count 12 hp 2d8 group")
    s.undo()
    assert [e.text for e in s.log] == ["Mira joins the encounter (HP 24, AL 10, initiative 15)"]
    assert [c.name for c in s.encounter.combatants] == ["Mira"]
    s.redo()
    assert s.log[-1:] == list(step.log) and len(s.encounter.combatants) == 13
