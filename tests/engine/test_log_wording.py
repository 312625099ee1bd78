"""What the log says, which the app, ``show`` and ``export`` all read:
a heal from 0 HP says the combatant is back up (RULES.md §4, §5), a name
ending in s owns with a bare apostrophe (``rules.text.possessive``), and a
total called out and applied with ``start`` in one step is said once."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session


def fight(*lines: str, seed: int = 9) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in lines:
        s.apply(line)
    return s


def texts(s: Session, line: str) -> list[str]:
    return [e.text for e in s.apply(line).log]


# -- possessives ---------------------------------------------------------------


def test_names_ending_in_s_own_with_a_bare_apostrophe() -> None:
    s = fight(
        "add Ghoul count 2 hp 9 init 3 group Ghouls",
        "add Boris hp 10 init 8",
        "add Mira player hp 24 init 20",
        "start",
    )
    assert texts(s, "next")[-1] == "Boris' turn"
    assert texts(s, "add Ghast hp 7 group Ghouls")[-1] == (
        "Ghast takes group Ghouls' initiative of 3"
    )
    assert texts(s, "next")[-1] == "Ghoul 1's turn"
    assert "group Ghouls's" not in " ".join(e.text for e in s.log)
