"""The keys for the action language's turn and attack verbs: ``A`` opens a
prompt with the attack line on the targets, ``w`` makes the active
combatant delay and ``W`` brings the selected delaying one back, ``p``
steps back, each greyed with a reason when it does not apply."""

from __future__ import annotations

import random
from pathlib import Path

from saves.live import LiveEncounter, open_store
from tests.tracker.test_keys import SETUP, fight, hp, make_app, select, type_text
from tests.tracker.test_typing import flat_log, notices, shown
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.prompt import PromptScreen
from tracker.widgets.footer import KeyFooter


async def test_shift_a_attacks_the_selection_with_the_attack_line() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("A")
        assert isinstance(app.screen, PromptScreen)
        assert "Attack: Ogre" in str(app.screen.query_one(".dialog-title").render())
        await type_text(pilot, "with +5 roll 15 damage 2d6+3 slashing")
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        assert hp(app, "Ogre") == 51
        assert "GM attacks Ogre: 1d20 (15) + 5 = 20 vs AL 11: success" in flat_log(app)
        await pilot.press("A", "enter")  # Enter alone: a plain attack
        assert isinstance(app.screen, EncounterScreen)
        assert flat_log(app).count("GM attacks Ogre: 1d20") == 2
        await pilot.press("A", "up")  # the attack prompt has its history too
        assert shown(app) == "with +5 roll 15 damage 2d6+3 slashing"


async def test_w_delays_the_active_combatant_and_shift_w_returns_the_selected_one() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        enc = app.live.encounter
        first = enc.active.name
        await pilot.press("W")  # nobody delays: says why
        assert any("nobody is delaying" in n for n in notices(app))
        await pilot.press("w")
        enc = app.live.encounter
        assert enc.delayed == (first,) and enc.active.name != first
        assert f"{first} delays" in flat_log(app)
        await select(pilot, app, first)
        after = enc.active.name
        await pilot.press("W")
        enc = app.live.encounter
        assert enc.delayed == ()
        assert f"{first} returns after {after}" in flat_log(app)


async def test_delay_and_return_say_why_not() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.unavailable("delay") == "the fight has not started: s starts it"
        await pilot.press("w")
        assert app.live.encounter.delayed == ()
        assert any("has not started" in n for n in notices(app))
        app.live.do("start")
        app.live.do("delay 'Goblin 2'")
        await select(pilot, app, "Ogre")
        assert screen.unavailable("return") == "Ogre is not delaying; select one delaying: Goblin 2"
        await select(pilot, app, "Goblin 2")
        assert screen.unavailable("return") is None


def prev_key(app: CombatTrackerApp) -> bool:
    """Whether the footer shows ``p`` as applying (not greyed)."""
    footer = app.screen.query_one(KeyFooter)
    return next(on for key, _shown, label, on in footer.items if label == "Prev")


async def test_p_is_greyed_at_round_ones_first_turn_and_applies_after_n() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert not prev_key(app)
        before = app.live.encounter
        await pilot.press("p")  # greyed: says why, nothing happens
        assert app.live.encounter is before
        assert notices(app)[-1] == "prev: already at the first turn of round 1"
        await pilot.press("n")
        await pilot.pause()
        assert prev_key(app)  # it undoes that next
        await pilot.press("p")
        await pilot.pause()
        assert app.live.encounter.turn == before.turn
        assert not prev_key(app)
        await pilot.press("ctrl+y")  # the next again
        await pilot.pause()
        assert prev_key(app)


async def test_p_is_greyed_after_a_resume_at_round_ones_first_turn(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        LiveEncounter.create(store, "Road", rng=random.Random(3), actions=[*SETUP, "start"])

    async def resumed() -> tuple[bool, bool]:
        """``p`` as the footer shows it after a resume, and after pressing n once."""
        with open_store(db) as store:
            app = CombatTrackerApp(store, live=LiveEncounter.open(store, "Road"), config=Config())
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                on = prev_key(app)
                await pilot.press("n")
                await pilot.pause()
                return on, prev_key(app)

    assert await resumed() == (False, True)
    assert await resumed() == (True, True)  # the next saved on top: p undoes it
