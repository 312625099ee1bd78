"""``add Zombie count 150 …`` is over the bound of one ``add`` (100): the
refusal says how to add that many, and what it says works: each ``add``
of the same name continues the numbering, into the same group when it
names one (README, "The action language")."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from tests.engine.test_typo_hints import refused


def hinted_lines(message: str, rest: str) -> list[str]:
    """The adds *message* tells the GM to type, ``…`` filled with *rest*."""
    steps = message.split("; ", 1)[1].split(" (each add")[0]
    lines: list[str] = []
    for part in steps.split(", then "):
        times = re.search(r", (\d+) times$", part)
        line = re.sub(r", \d+ times$", "", part).replace("…", rest)
        lines += [line] * (int(times.group(1)) if times else 1)
    return lines


def test_the_refusal_of_150_says_how_to_add_them() -> None:
    s = Session(Encounter("Field"), rng=random.Random(2))
    assert refused(s, "add Zombie count 150 hp 2d8 group Horde") == (
        "add: count 150 is too large (at most 100); "
        "add Zombie count 100 … group Horde, then add Zombie count 50 … group Horde "
        "(each add continues the numbering, in the same group)"
    )
    assert refused(s, "add 'Giant Rat' count 120 hp 3") == (
        "add: count 120 is too large (at most 100); "
        "add 'Giant Rat' count 100 …, then add 'Giant Rat' count 20 … "
        "(each add continues the numbering)"
    )


def test_doing_what_it_says_in_combat_makes_one_horde_of_150() -> None:
    s = Session(Encounter("Field"), rng=random.Random(2))
    s.apply("add Ana hp 30 player init 12")
    s.apply("start")
    message = refused(s, "add Zombie count 150 hp 2d8 group Horde")
    for line in hinted_lines(message, "hp 2d8"):
        s.apply(line)
    horde = [c for c in s.encounter.combatants if c.group == "Horde"]
    assert [c.name for c in horde] == [f"Zombie {k}" for k in range(1, 151)]
    assert len({c.initiative for c in horde}) == 1  # one group, one initiative


def test_past_the_roster_there_is_no_hint() -> None:
    s = Session(Encounter("Field"), rng=random.Random(2))
    assert "continues" not in refused(s, "add Zombie count 501 hp 3")
    assert "continues" not in refused(s, "add Zombie count 99999999999999999999 hp 3")


@given(st.integers(101, 500), st.sampled_from(["group", "group Horde", ""]))
@settings(max_examples=25, deadline=None)
def test_any_count_the_roster_holds_is_added_as_the_hint_says(count: int, group: str) -> None:
    s = Session(Encounter("Field"), rng=random.Random(count))
    message = refused(s, f"add Zombie count {count} hp 5 {group}".strip())
    for line in hinted_lines(message, "hp 5"):
        s.apply(line)
    zombies = s.encounter.combatants
    assert [c.name for c in zombies] == [f"Zombie {k}" for k in range(1, count + 1)]
    assert len({c.group for c in zombies}) == 1
    assert (zombies[0].group is not None) == bool(group)
