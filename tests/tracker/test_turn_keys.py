"""The keys for the action language's turn and attack verbs: ``A`` opens a
prompt with the attack line on the targets, ``w`` makes the active
combatant delay and ``W`` brings the selected delaying one back, each
greyed with a reason when it does not apply."""

from __future__ import annotations

from tests.tracker.test_keys import fight, hp, make_app, select, type_text
from tests.tracker.test_typing import flat_log, notices, shown
from tracker.screens.encounter import EncounterScreen
from tracker.screens.prompt import PromptScreen


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
