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
