"""``add … group NAME`` (issue 11; docs/rules.md §4, "Groups"): the new
combatants join group NAME (an existing one, any case, or a new one), where
``group`` alone names the group after them; a keyword of ``add`` after
``group`` is that keyword, not a name.  Seeded rolls; the record survives
format → parse."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.format import format_action
from rules.engine.parse import parse_action
from rules.errors import ActionError


def fight(*lines: str) -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(5))
    for line in lines:
        session.apply(line)
    return session


def groups(session: Session) -> dict[str, str | None]:
    return {c.name: c.group for c in session.encounter.combatants}


def test_add_joins_the_named_group() -> None:
    session = fight("add Zombie count 3 hp 2d8 group Zombies")
    assert set(groups(session).values()) == {"Zombies"}
    assert "group Zombies" in session.log[-1].text
    session.apply("add Ghoul count 2 hp 9 group zombies")  # any case: the same group
    assert groups(session)["Ghoul 2"] == "Zombies"
    session.undo()
    assert "Ghoul 1" not in groups(session)


def test_group_alone_or_before_a_keyword_names_it_after_them() -> None:
    session = fight("add Imp group count 2 hp 3", "add Bat count 2 hp 3 group player")
    assert groups(session) == {"Imp 1": "Imp", "Imp 2": "Imp", "Bat 1": "Bat", "Bat 2": "Bat"}
    assert all(c.player for c in session.encounter.combatants if c.group == "Bat")


def test_added_in_combat_to_a_named_group_takes_its_initiative() -> None:
    session = fight(
        "add Zalek hp 30 player init 12", "add Zombie count 2 hp 9 group Horde", "start"
    )
    shared = next(c.initiative for c in session.encounter.combatants if c.group == "Horde")
    session.apply("add Ghoul hp 9 group Horde")
    ghoul = next(c for c in session.encounter.combatants if c.name == "Ghoul")
    assert ghoul.group == "Horde" and ghoul.initiative == shared
    names = [c.name for c in session.encounter.combatants]
    assert names.index("Ghoul") - names.index("Zombie 2") == 1  # in the group's slot


@pytest.mark.parametrize(
    "line",
    [
        "add Zombie count 12 hp 2d8 group Zombies",
        "add Z hp 3 group 'Big Ones'",
        "add Z hp 3 group",
    ],
)
def test_format_parse_round_trip(line: str) -> None:
    action = parse_action(line)
    assert format_action(action) == line
    assert parse_action(format_action(action)) == action


def test_a_bad_group_name_is_one_message_and_nothing_is_added() -> None:
    session = fight("add Ogre hp 30")
    with pytest.raises(ActionError, match="cannot contain a comma"):
        session.apply("add Imp count 2 hp 3 group 'a,b'")
    with pytest.raises(ActionError, match="control"):
        session.apply("add Imp count 2 hp 3 group 'Horde\x1b[2J'")
    assert list(groups(session)) == ["Ogre"]
