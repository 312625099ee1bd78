"""Who is next ("on deck"): the combatant ``next`` would give the turn to,
by the same search, so the initiative pane's ▷ never points at someone
``next`` passes over (down monsters, those delaying)."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.turns import on_deck
from rules.rulesets import ruleset

SETUP = (
    "add Zalek hp 30 player init 19",
    "add Goblin count 3 hp 7 init 12",
    "add Ogre hp 59 init 8",
)


def fight(*lines: str) -> Session:
    session = Session(Encounter("Ambush"), rng=random.Random(3))
    for line in SETUP + lines:
        session.apply(line)
    return session


def deck_name(session: Session) -> str | None:
    enc = session.encounter
    index = on_deck(enc)
    return None if index is None else enc.combatants[index].name


def test_nobody_is_on_deck_before_the_fight_starts() -> None:
    assert deck_name(fight()) is None


def test_on_deck_is_the_next_in_order_and_wraps_to_the_top() -> None:
    session = fight("start")
    order = [c.name for c in session.encounter.combatants]
    assert order == ["Zalek", "Goblin 1", "Goblin 2", "Goblin 3", "Ogre"]
    seen = []
    for _ in range(len(order)):
        expected = deck_name(session)
        seen.append(expected)
        session.apply("next")
        assert session.encounter.active is not None
        assert session.encounter.active.name == expected  # next gives it to them
    assert seen == ["Goblin 1", "Goblin 2", "Goblin 3", "Ogre", "Zalek"]


def test_a_down_monster_and_a_delaying_combatant_are_passed_over() -> None:
    session = fight("start", "damage 'Goblin 1' 20")
    assert deck_name(session) == "Goblin 2"  # Goblin 1 is down: skipped
    session.apply("next")
    session.apply("delay 'Goblin 2'")
    assert session.encounter.active is not None
    assert session.encounter.active.name == "Goblin 3"
    assert deck_name(session) == "Ogre"
    session.apply("next")
    assert deck_name(session) == "Zalek"  # wraps past the down Goblin 1 too


def test_a_down_player_keeps_the_turn_and_is_on_deck() -> None:
    session = fight("start", "next", "damage Zalek 40")
    assert session.encounter.combatants[0].down
    for _ in range(3):
        session.apply("next")
    assert deck_name(session) == "Zalek"


def test_down_monsters_are_on_deck_when_the_ruleset_keeps_their_turns() -> None:
    session = Session(Encounter("Ambush", ruleset("core", down_turns="keep")), rng=random.Random(3))
    for line in (*SETUP, "start", "damage 'Goblin 1' 20"):
        session.apply(line)
    assert deck_name(session) == "Goblin 1"


def test_nobody_on_deck_when_the_active_one_is_the_only_one_acting() -> None:
    session = fight("start", "damage 'Goblin 1' 20", "damage 'Goblin 2' 20")
    session.apply("damage 'Goblin 3' 20")
    session.apply("damage Ogre 80")
    assert session.encounter.active is not None
    assert session.encounter.active.name == "Zalek"
    assert deck_name(session) is None
