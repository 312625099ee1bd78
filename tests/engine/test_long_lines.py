"""The longest lines the keys build (``rules.limits.MAX_LINE``): area damage
through the saves form on every one of the most combatants an encounter
holds, each name at its longest and quoted at its longest, is one line the
engine takes, one roll and one step, with a physical roll's faces too
(what a line holds beside its names is bounded: test_line_bounds)."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.parse import normalize_action, parse_action
from rules.engine.targets import group_names
from rules.errors import ActionError
from rules.limits import MAX_COMBATANTS, MAX_LINE
from rules.text import MAX_NAME
from tracker.lines import saves_line

#: five kinds whose names (``KIND 100``) are MAX_NAME long and as long as
#: names get once quoted: a single quote makes the list double-quoted, and
#: every double quote and backslash in it is then escaped
KINDS = [
    "'" + '"' * 55,
    "'" + "\\" * 55,
    "Zombie of the Sunken Crypt " + '"' * 29,
    "A'" * 28,
    "B" * 56,
]


def largest_fight() -> Session:
    session = Session(Encounter("Largest"), rng=random.Random(11))
    for kind in KINDS:
        assert len(f"{kind} 100") == MAX_NAME
        session.apply(f"add {saves_word(kind)} count 100 hp 1000 group Horde")
    assert len(session.encounter.combatants) == MAX_COMBATANTS
    session.apply("start")
    return session


def saves_word(name: str) -> str:
    from rules.engine.shell import quote_word

    return quote_word(name)


def names(session: Session) -> list[str]:
    return [c.name for c in session.encounter.combatants]


def test_the_saves_form_on_every_combatant_with_the_longest_names_is_one_line() -> None:
    session = largest_fight()
    everyone = names(session)
    saves = {n: ("half" if i % 3 == 1 else "none") for i, n in enumerate(everyone) if i % 3}
    line = saves_line(everyone, "8d6 fire", saves)
    assert len(line) <= MAX_LINE
    hp = {c.name: c.hp for c in session.encounter.combatants}
    step = session.apply(line)
    assert step.action["targets"] == everyone
    assert step.action["half"] == [n for n in everyone if saves.get(n) == "half"]
    assert step.action["none"] == [n for n in everyone if saves.get(n) == "none"]
    rolled = sum(step.action["faces"])
    after = {c.name: c.hp for c in session.encounter.combatants}
    taken = {"full": rolled, "half": rolled // 2, "none": 0}
    assert all(after[n] == hp[n] - taken[saves.get(n, "full")] for n in everyone)
    session.undo()
    assert {c.name: c.hp for c in session.encounter.combatants} == hp


def test_the_longest_line_with_a_physical_rolls_faces_is_taken_too() -> None:
    # the app sends a typed roll's faces as a record, which is written as a
    # line and read again: the faces of the most dice an amount has fit
    session = largest_fight()
    everyone = names(session)
    saves = dict.fromkeys(everyone[1::2], "half") | dict.fromkeys(everyone[::2], "none")
    saves[everyone[0]] = "full"
    line = saves_line(everyone, "1000d1000 fire", saves)
    action = parse_action(line, everyone, group_names(session.encounter.combatants))
    record = normalize_action({**action, "faces": [1000] * 1000})
    assert record["faces"] == [1000] * 1000
    step = session.apply(record)
    assert next(c for c in session.encounter.combatants if c.name == everyone[0]).hp == 0
    assert step.action["faces"] == [1000] * 1000


def test_a_line_one_character_past_the_bound_is_refused_unread() -> None:
    session = largest_fight()
    before = session.to_dict()
    line = "damage Horde 5" + " " * (MAX_LINE + 1 - len("damage Horde 5"))
    with pytest.raises(ActionError) as caught:
        session.apply(line)
    assert str(caught.value) == (
        f"the line is too long ({MAX_LINE + 1:,} characters; at most {MAX_LINE:,})"
    )
    assert session.to_dict() == before
    assert session.apply(line.rstrip()[:MAX_LINE]).action["targets"] == names(session)


def test_the_bound_is_every_name_twice_quoted_at_its_longest() -> None:
    assert MAX_LINE >= 2 * MAX_COMBATANTS * (2 * MAX_NAME + 1)
