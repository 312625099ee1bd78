"""``A`` attacks for the active combatant (docs/rules.md §9): never at
itself.  Right after ``n`` the selection follows the turn onto the
attacker, so ``A`` is greyed there and says why; on a group's row on a
member's turn the title names the attacker and that it is left out."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tests.tracker.test_keys import make_app, select
from tests.tracker.test_typing import flat_log, notices
from tracker.screens.encounter import EncounterScreen
from tracker.screens.prompt import PromptScreen
from tracker.widgets.footer import KeyFooter


def crypt(*extra: str) -> LiveEncounter:
    """Mira (player, 20), Skeleton 3 (15), an Ogre (10), started: Mira's turn."""
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    for line in (
        "add Mira player hp 24 al 13 init 20",
        "add 'Skeleton 3' hp 13 al 13 init 15",
        "add Ogre hp 40 al 11 init 10",
        *extra,
        "start",
    ):
        session.apply(line)
    return LiveEncounter.in_memory(session)


def footer_key(app: object, key: str) -> bool:
    """Whether *key* shows enabled in the footer."""
    footer = app.screen.query_one(KeyFooter)  # type: ignore[attr-defined]
    return next(enabled for k, _shown, _label, enabled in footer.items if k == key)


def title(app: object) -> str:
    return str(app.screen.query_one(".dialog-title").render())  # type: ignore[attr-defined]


async def test_after_n_a_is_greyed_on_the_attacker_and_says_why() -> None:
    app = make_app(crypt())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("n")  # Skeleton 3's turn; the selection follows it
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert app.live.encounter.active.name == "Skeleton 3"
        assert screen.check_action("attack", ()) is None
        await pilot.pause()
        assert not footer_key(app, "A")
        await pilot.press("A")
        assert isinstance(app.screen, EncounterScreen)  # no prompt opened
        assert notices(app) == [
            "Skeleton 3 (whose turn it is) cannot attack itself: "
            "select (j/k) or mark (space) a target first"
        ]
        assert "attacks" not in flat_log(app)
        await select(pilot, app, "Ogre")
        assert footer_key(app, "A")
        await pilot.press("A")
        assert isinstance(app.screen, PromptScreen)
        assert title(app) == "Skeleton 3 attacks: Ogre"
        await pilot.press("enter")
        assert "Skeleton 3 attacks Ogre: 1d20" in flat_log(app)


async def test_before_start_the_gm_attacks_anyone() -> None:
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    session.apply("add Ogre hp 40 al 11")
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("A")
        assert title(app) == "Attack: Ogre"


async def test_a_on_its_own_group_row_leaves_the_attacker_out_and_says_so() -> None:
    app = make_app(crypt("add Zombie count 4 hp 10 al 8 init 12 group Zombies"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("n", "n")  # Zombie 1's turn: its group's row is selected
        assert app.live.encounter.active.name == "Zombie 1"
        await pilot.press("A")
        assert isinstance(app.screen, PromptScreen)
        assert title(app) == "Zombie 1 attacks: group Zombies (3 standing, not Zombie 1)"
        await pilot.press("enter")
        log = flat_log(app)
        assert "Zombie 1 attacks Zombie 1" not in log
        assert all(f"Zombie 1 attacks Zombie {n}:" in log for n in (2, 3, 4))
