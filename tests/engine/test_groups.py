"""Groups (issue 11; docs/rules.md §4, "Groups"): combatants that share one
initiative roll and one slot in the order, each member still taking its own
turn there, in name-number order.  Joining, splitting and adding as a group
are one logged, undoable step each, and a group is saved with the fight."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.format import format_action
from rules.engine.parse import parse_action
from rules.errors import ActionError


def fight(*lines: str, seed: int = 7) -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in lines:
        session.apply(line)
    return session


def names(session: Session) -> list[str]:
    return [c.name for c in session.encounter.combatants]


def groups(session: Session) -> dict[str, str | None]:
    return {c.name: c.group for c in session.encounter.combatants}


def inits(session: Session) -> dict[str, int | None]:
    return {c.name: c.initiative for c in session.encounter.combatants}


def log_texts(session: Session) -> list[str]:
    return [e.text for e in session.full_log()]


ROSTER = (
    "add Zalek hp 30 player dex 14",
    "add Zombie count 12 hp 22 dex 6",
    "add Ogre hp 59",
)


def test_group_joins_targets_by_selector_and_undo_splits_them() -> None:
    session = fight(*ROSTER)
    session.apply("group Horde Zombie*")
    g = groups(session)
    assert all(g[f"Zombie {k}"] == "Horde" for k in range(1, 13))
    assert g["Zalek"] is None and g["Ogre"] is None
    assert log_texts(session)[-1] == "group Horde: Zombie 1–12 join"  # one line, not 12
    session.undo()
    assert set(groups(session).values()) == {None}


def test_an_existing_group_grows_and_keeps_its_spelling() -> None:
    session = fight(*ROSTER, "group Horde 'Zombie 1','Zombie 2'")
    session.apply("group horde 'Zombie 3'")
    assert groups(session)["Zombie 3"] == "Horde"
    with pytest.raises(ActionError, match="already in group"):
        session.apply("group Horde 'Zombie 3'")


def test_ungroup_one_member_or_the_whole_group_by_its_name() -> None:
    session = fight(*ROSTER, "group Horde Zombie*")
    session.apply("ungroup 'Zombie 4'")
    assert groups(session)["Zombie 4"] is None
    assert groups(session)["Zombie 5"] == "Horde"
    session.apply("ungroup Horde")
    assert set(groups(session).values()) == {None}
    assert "Zombie 4 leaves group Horde" in log_texts(session)  # alone: its own line
    assert log_texts(session)[-1] == "group Horde: Zombie 1–3, Zombie 5–12 leave"
    session.undo()
    assert groups(session)["Zombie 5"] == "Horde"
    assert groups(session)["Zombie 4"] is None
    with pytest.raises(ActionError, match="not in a group"):
        session.apply("ungroup Ogre")


def test_add_as_a_group_and_undo() -> None:
    session = fight("add Zalek hp 30 player")
    session.apply("add Zombie count 30 hp 22 grouped")
    g = groups(session)
    assert [g[f"Zombie {k}"] for k in range(1, 31)] == ["Zombie"] * 30
    assert "group Zombie" in log_texts(session)[-1]
    session.undo()
    assert names(session) == ["Zalek"]
    session.apply("add Zombie count 2 hp 22 group")  # either word
    session.apply("add Zombie count 1 hp 22 group")  # more join the same group
    assert groups(session)["Zombie 3"] == "Zombie"


def test_start_rolls_one_d20_for_the_group_with_the_best_modifier() -> None:
    session = fight(
        "add Zalek hp 30 player init 15",
        "add Ghoul hp 22 dex 10",
        "add Ghoul hp 22 dex 16 count 1",
        "add Ghoul hp 22 dex 12 count 1",
        "group Pack Ghoul*",
    )
    session.apply("start")
    i = inits(session)
    assert i["Ghoul"] == i["Ghoul 2"] == i["Ghoul 3"]
    rolls = [t for t in log_texts(session) if "rolls initiative" in t]
    assert len(rolls) == 1  # one roll for the pack, none for Zalek (set)
    assert rolls[0].startswith("group Pack rolls initiative: d20 (")
    assert "Ghoul 2's modifier" in rolls[0]  # DEX 16: +3, the best
    face = int(rolls[0].split("(")[1].split(")")[0])
    assert i["Ghoul"] == face + 3


def test_a_horde_s_initiative_roll_names_its_members_as_runs() -> None:
    session = fight("add Zalek hp 30 player init 15", "add Goblin count 9 hp 7 group")
    session.apply("start")
    roll = next(t for t in log_texts(session) if "rolls initiative" in t)
    assert "(Goblin 1–9; Goblin 1's modifier)" in roll, roll


def test_members_sit_together_in_name_number_order_and_take_turns() -> None:
    for seed in range(12):
        lines = (
            "add Zalek hp 30 player",
            "add Mira hp 24 player",
            "add Zombie count 12 hp 22 group",
            "add Ogre hp 59",
        )
        session = fight(*lines, "start", seed=seed)
        order = names(session)
        at = order.index("Zombie 1")
        assert order[at : at + 12] == [f"Zombie {k}" for k in range(1, 13)]
        assert len({inits(session)[f"Zombie {k}"] for k in range(1, 13)}) == 1
        # each member still has its own turn, in the slot, in order
        while session.encounter.active is not None and session.encounter.active.name != "Zombie 1":
            session.apply("next")
        seen = []
        for _ in range(12):
            assert session.encounter.active is not None
            seen.append(session.encounter.active.name)
            session.apply("next")
        assert seen == [f"Zombie {k}" for k in range(1, 13)]


def test_a_member_set_before_start_gives_the_group_its_initiative() -> None:
    session = fight(*ROSTER, "group Horde Zombie*", "init 'Zombie 5' 17", "start")
    assert {inits(session)[f"Zombie {k}"] for k in range(1, 13)} == {17}
    assert any("initiative of 17" in t and "group Horde" in t for t in log_texts(session))


def test_init_on_a_member_moves_the_whole_group_and_undo() -> None:
    session = fight(*ROSTER, "group Horde Zombie*", "start")
    before = names(session)
    session.apply("init 'Zombie 7' 30")
    order = names(session)
    assert order[:12] == [f"Zombie {k}" for k in range(1, 13)]
    assert {inits(session)[f"Zombie {k}"] for k in range(1, 13)} == {30}
    assert any(t.startswith("group Horde shares it") for t in log_texts(session))
    session.undo()
    assert names(session) == before


def test_joining_in_combat_takes_the_groups_initiative_and_slot() -> None:
    session = fight(*ROSTER, "add Ghoul hp 20", "group Horde Zombie*", "start")
    horde = inits(session)["Zombie 1"]
    session.apply("group Horde Ghoul")
    assert inits(session)["Ghoul"] == horde
    order = names(session)
    at = order.index("Ghoul")  # name-number order: Ghoul before Zombie 1
    assert order[at : at + 13] == ["Ghoul", *[f"Zombie {k}" for k in range(1, 13)]]
    session.undo()
    assert groups(session)["Ghoul"] is None


def test_added_mid_combat_to_a_group_takes_its_initiative_and_slot() -> None:
    session = fight(*ROSTER, "group Zombie Zombie*", "start")
    horde = inits(session)["Zombie 1"]
    session.apply("add Zombie count 1 hp 22 group")
    assert inits(session)["Zombie 13"] == horde
    order = names(session)
    assert order.index("Zombie 13") == order.index("Zombie 12") + 1


def test_a_group_is_saved_and_reloaded() -> None:
    session = fight(*ROSTER, "group Horde Zombie*", "start")
    again = Session.from_dict(session.to_dict())
    assert groups(again) == groups(session)
    assert again.encounter == session.encounter
    again.undo()  # start, then the group: the history holds it too
    assert again.encounter.started is False
    assert set(groups(again).values()) == {"Horde", None}
    again.undo()
    assert set(groups(again).values()) == {None}


def test_an_old_save_reads_as_no_group() -> None:
    data = fight(*ROSTER).encounter.to_dict()
    for c in data["combatants"]:
        del c["group"]
    assert set(c.group for c in Encounter.from_dict(data).combatants) == {None}


@pytest.mark.parametrize(
    "line",
    [
        "group Horde 'Zombie*'",
        "group 'Big Ones' Ogre,Troll",
        "ungroup Horde",
        "ungroup 'Zombie 1,Zombie 2'",
        "add Zombie count 30 hp 22 group",
    ],
)
def test_format_parse_round_trip(line: str) -> None:
    action = parse_action(line)
    assert parse_action(format_action(action)) == action
    assert format_action(action) == line


def test_grouped_is_written_as_group() -> None:
    action = parse_action("add Zombie count 3 hp 22 grouped")
    assert action["group"] is True
    assert format_action(action) == "add Zombie count 3 hp 22 group"


def test_group_joins_unquoted_full_names_with_spaces() -> None:
    session = fight('add "Goblin Boss" hp 12', "add Orc hp 15", 'add "Orc Chief" hp 20')
    session.apply("group Warband Goblin Boss,Orc")
    session.apply("group Pack Orc Chief")
    assert groups(session) == {"Goblin Boss": "Warband", "Orc": "Warband", "Orc Chief": "Pack"}


def test_order_moves_a_whole_group_and_never_splits_it() -> None:
    session = fight("add Zalek hp 30 player", "add Zombie count 3 hp 22 group", "add Ogre hp 59")
    session.apply("init Zalek 20")
    session.apply("init 'Zombie 1' 15")
    session.apply("init Ogre 15")
    session.apply("order Ogre up")  # past the whole group, not into it
    assert names(session) == ["Zalek", "Ogre", "Zombie 1", "Zombie 2", "Zombie 3"]
    assert log_texts(session)[-1] == "Ogre moves up, before group Zombie"
    session.apply("order 'Zombie 2' up")  # a member moves its group's slot
    assert names(session) == ["Zalek", "Zombie 1", "Zombie 2", "Zombie 3", "Ogre"]
    session.undo()
    assert names(session) == ["Zalek", "Ogre", "Zombie 1", "Zombie 2", "Zombie 3"]
    session.apply("order Ogre down")
    session.apply("start")  # a re-sort keeps the GM's order among the ties
    assert names(session)[1:] == ["Zombie 1", "Zombie 2", "Zombie 3", "Ogre"]
    session.apply("order 'Zombie 3' up")
    assert names(session) == ["Zombie 1", "Zombie 2", "Zombie 3", "Zalek", "Ogre"]
    with pytest.raises(ActionError, match="group Zombie is already first"):
        session.apply("order 'Zombie 2' up")


def test_order_takes_a_groups_name_for_its_slot() -> None:
    session = fight("add Zalek hp 30 player init 20", "add Zombie count 3 hp 22 group init 10")
    session.apply("add Ogre hp 59 init 10")
    session.apply("order zombie down")  # the group's name, any case
    assert names(session) == ["Zalek", "Ogre", "Zombie 1", "Zombie 2", "Zombie 3"]
    assert log_texts(session)[-1] == "group Zombie moves down, after Ogre"
    session.undo()
    assert names(session) == ["Zalek", "Zombie 1", "Zombie 2", "Zombie 3", "Ogre"]


def test_order_on_a_name_shared_by_a_combatant_and_a_group_means_the_combatant() -> None:
    session = fight("add Ogre hp 59 init 10", "add Zombie count 2 hp 22 init 10")
    session.apply("group Ogre Zombie*")  # group Ogre, beside a combatant named Ogre
    assert names(session) == ["Ogre", "Zombie 1", "Zombie 2"]
    session.apply("order Ogre down")  # the exact name: the combatant moves
    assert names(session) == ["Zombie 1", "Zombie 2", "Ogre"]
    assert log_texts(session)[-1] == "Ogre moves down, after group Ogre"
