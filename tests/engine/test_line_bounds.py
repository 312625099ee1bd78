"""What a line may hold beside its names, bounded because each lands on
every target (README, "The action language"): at most MAX_TAGS tags in one
list (a defense's, a hit's over its parts, persistent damage's), at most
MAX_PARTS parts in one hit whose dice together are one amount's, and one
line rolls at most ``rules.limits.MAX_ROLLED`` dice.  Past a bound is
one message, and nothing changes (the random source neither)."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.values import MAX_PARTS, MAX_TAGS
from rules.errors import ActionError


def small_fight() -> Session:
    session = Session(Encounter("Cave"), rng=random.Random(2))
    session.apply("add Ogre hp 500")
    session.apply("add Imp count 4 hp 10")
    return session


TAGS = ",".join(f"t{n}" for n in range(MAX_TAGS + 1))
SPACED = " ".join(f"t{n}" for n in range(MAX_TAGS + 1))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"add Golem immune {TAGS}", f"add immune: at most {MAX_TAGS} tags, not {MAX_TAGS + 1}"),
        (f"set Ogre immunities {TAGS}", f"set immunities: at most {MAX_TAGS} tags"),
        (f"set Ogre resistances {TAGS}", f"set resistances: at most {MAX_TAGS} tags"),
        (f"add Golem resist {TAGS}", f"add: resist: at most {MAX_TAGS} tags"),
        (f"damage Ogre 5 {SPACED}", f"damage tags: at most {MAX_TAGS} tags"),
        (f"persist Imp 1d6 {SPACED}", f"persist tags: at most {MAX_TAGS} tags"),
        (
            "damage Ogre 1 a" + " + 1 a" * MAX_PARTS,
            f"damage: at most {MAX_PARTS} damage parts in one hit",
        ),
        (
            "attack Ogre roll 20 damage 600d4 fire + 600d4 cold",
            "attack: the 2 damage parts roll 1,200 dice (an amount rolls at most 1,000)",
        ),
    ],
)
def test_a_list_past_its_bound_is_one_message_and_changes_nothing(line: str, message: str) -> None:
    session = small_fight()
    before = session.to_dict()
    with pytest.raises(ActionError) as caught:
        session.apply(line)
    assert str(caught.value).startswith(message)
    assert session.to_dict() == before


def test_lists_at_their_bound_are_taken() -> None:
    session = small_fight()
    tags = [f"t{n}" for n in range(MAX_TAGS)]
    # defenses far from the tags: one close to a defended tag is a typo, refused
    session.apply(f"set Ogre immunities {','.join(f'ward{n}' for n in range(MAX_TAGS))}")
    step = session.apply(f"damage Ogre 5 {' '.join(tags[:20])} + 1d4 {' '.join(tags[20:])}")
    assert step.action["tags"] == tags[:20] and step.action["extra"][0]["tags"] == tags[20:]
    assert session.encounter.combatants[0].hp == 500 - 5 - step.action["faces"][0]
    step = session.apply("damage 'Imp 1' 1 a" + " + 1 a" * (MAX_PARTS - 1))
    assert len(step.action["extra"]) == MAX_PARTS - 1
    assert session.encounter.combatants[1].hp == 10 - MAX_PARTS


def test_a_line_of_attacks_that_would_roll_millions_of_dice_is_refused() -> None:
    session = Session(Encounter("Horde"), rng=random.Random(3))
    for _ in range(5):
        session.apply("add Zombie count 100 hp 5000 group")
    one = "attack all roll 20 damage 1000d1000 fire"
    session.apply(one)  # one attack with the most dice on everyone is taken
    session.undo()
    before, state = session.to_dict(), session.rng.getstate()
    with pytest.raises(ActionError, match=r"part \d of 4 .*rolls more than 1,000,500 dice"):
        session.apply("; ".join([one] * 4))
    assert session.to_dict() == before and session.rng.getstate() == state
