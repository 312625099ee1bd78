"""What an adversarial GM found in issue 11's engine flows: each line is
refused with one message and changes nothing, through ``Session.apply``
with a seeded random source."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError


def fight(seed: int = 3) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in ("add Ogre hp 500 resist fire=3", "add Mira hp 30 player"):
        s.apply(line)
    return s


@pytest.mark.parametrize(
    "line",
    [
        "damage Ogre 1000d1000 fire + 1000d1000 cold",
        "damage Ogre 1d8 fire + 600000 cold + 600000 acid",
        "attack Ogre roll 20 damage 1000d1000 slashing + 1d4 fire",
    ],
)
def test_damage_parts_together_keep_the_amount_bound(line: str) -> None:
    """The README: dice that could roll past 1,000,000 are refused before
    anything is rolled; several typed parts are one amount."""
    s = fight()
    before = s.to_dict()
    state = s.rng.getstate()
    with pytest.raises(ActionError, match="at most 1,000,000"):
        s.apply(line)
    assert s.to_dict() == before
    assert s.rng.getstate() == state  # nothing rolled
