"""The attacker is the active combatant and never its own target
(docs/rules.md §9, RULES.md §3 and §9): left out of several targets (its
group, ``all``, a list naming it), refused when it is the only one; before
``start`` the GM attacks and anyone may be a target."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from tests.engine.test_verbs import c, state

CRYPT = (
    "add Mira player hp 24 al 13 init 20",
    "add 'Skeleton 3' hp 13 al 13 init 15",
    "add Zombie count 4 hp 10 al 8 init 12 group Zombies",
    "add Ogre hp 40 al 11 init 10",
)


def crypt(seed: int = 4, *, started: bool = True) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in (*CRYPT, *(["start"] if started else [])):
        s.apply(line)
    return s


def turn_of(s: Session, name: str) -> None:
    while s.encounter.active.name != name:
        s.apply("next")


def hp(s: Session, name: str) -> int:
    return int(c(s, name).hp)


@pytest.mark.parametrize("target", ["'Skeleton 3'", "skel", "Skeleton*"])
def test_the_attacker_as_its_only_target_is_refused_and_nothing_changes(target: str) -> None:
    s = crypt()
    turn_of(s, "Skeleton 3")
    s.apply("cinematic 'Skeleton 3' adv")  # its next attack would use it up
    before = state(s)
    with pytest.raises(ActionError) as caught:
        s.apply(f"attack {target} damage 1d6")
    assert str(caught.value) == (
        "attack: Skeleton 3 (whose turn it is) cannot attack itself: choose the target first"
    )
    assert state(s) == before  # the cinematic advantage is still there, nothing rolled


def test_a_member_attacking_its_group_leaves_itself_out_and_says_so() -> None:
    s = crypt()
    turn_of(s, "Zombie 2")
    step = s.apply("attack Zombies with +30 damage 3")  # critical hits: 6 each
    texts = [e.text for e in step.log]
    assert texts[0] == "Zombie 2 does not attack itself: left out of the targets"
    attacked = [t.split(":")[0] for t in texts if " attacks " in t]
    assert attacked == [f"Zombie 2 attacks Zombie {n}" for n in (1, 3, 4)]
    assert hp(s, "Zombie 2") == 10
    assert [hp(s, f"Zombie {n}") for n in (1, 3, 4)] == [4, 4, 4]


def test_all_leaves_the_attacker_out_and_replays_the_same() -> None:
    s = crypt()
    turn_of(s, "Ogre")
    step = s.apply("attack all")
    assert "Ogre attacks Ogre" not in " ".join(e.text for e in step.log)
    assert sum(" attacks " in e.text for e in step.log) == 6
    other = crypt()
    turn_of(other, "Ogre")
    assert other.apply(step.action).log == step.log  # the journal replays it exactly


def test_before_start_the_gm_attacks_anyone() -> None:
    s = crypt(started=False)
    step = s.apply("attack Ogre roll 12")
    assert step.log[0].text.startswith("GM attacks Ogre: ")
