"""Fixtures shared by the tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from rules.encounter import Encounter
from rules.engine import Session


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Crash reports a test provokes go to a temporary folder, never to the
    real user state directory (a test may set its own)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("COMBAT_TRACKER_STATE", str(state))
    return state


@pytest.fixture
def crypt_fight() -> Callable[[], Session]:
    """Builds the crypt fight, a new Session each call: Zalek's turn against
    twelve goblin archers (Goblin Archer 3 down, Goblin Archer 1 poisoned)
    and an ogre, seed 5.  The screen-size tests and the initiative rows
    both use it."""

    def build() -> Session:
        session = Session(Encounter("Crypt"), rng=random.Random(5))
        for line in (
            "add Zalek hp 38 al 15 init 19 player",
            "add 'Goblin Archer' count 12 hp 38 al 13",
            "add Ogre hp 59 init 2",
            "start",
            "damage 'Goblin Archer 3' 40",
            "cond 'Goblin Archer 1' poisoned value 2 rounds 3",
        ):
            session.apply(line)
        return session

    return build


def unredacted_view(encounter: Encounter) -> dict[str, object]:
    """A stand-in for the redaction core (rules.players_view) in the server's
    tests: the players' view's shape, everybody visible, HP exact."""
    from rules.engine.turns import on_deck

    deck = on_deck(encounter)
    active = encounter.turn if encounter.started else None
    rows = []
    for index, c in enumerate(encounter.combatants):
        rows.append(
            {
                "id": index,
                "name": c.name,
                "player": c.player,
                "masked": False,
                "active": index == active,
                "next": index == deck,
                "delayed": c.name in encounter.delayed,
                "down": c.down,
                "hp": {"kind": "exact", "hp": c.hp, "max": c.max_hp, "temp": c.temp_hp},
                "al": c.al,
                "initiative": c.initiative,
                "conditions": [{"name": cond.name, "duration": None} for cond in c.conditions],
                "persistent": [tag for p in c.persistent for tag in p.tags],
            }
        )
    return {
        "name": encounter.name,
        "round": encounter.round,
        "started": encounter.started,
        "ended": not encounter.started and encounter.round > 0,
        "combatants": rows,
        "active": active,
        "next": deck,
    }


@pytest.fixture
def fake_view() -> Callable[[Encounter], dict[str, object]]:
    """The stand-in players' view (:func:`unredacted_view`)."""
    return unredacted_view
