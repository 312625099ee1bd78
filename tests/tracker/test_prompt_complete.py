"""Tab in the key prompts completes as the ``:`` line does, the prompt's
text being the tail of the line its key sends: ``c`` then ``fri`` Tab is
``frightened``, ``d`` then ``2d6 fi`` Tab is ``2d6 fire``, ``A`` then
``co`` Tab is ``cover`` and ``cover `` Tab its choices, again to cycle.
Up/Down still recall; Tab with nothing to complete leaves the prompt as
it was, its focus in the line."""

from __future__ import annotations

from textual import events
from textual.widgets import Static

from tests.tracker.test_keys import hp, make_app, names, select, type_text
from tests.tracker.test_typing import shown
from tracker.app import CombatTrackerApp
from tracker.screens.prompt import PromptScreen


def message(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one("#prompt-message", Static).render())


def conditions(app: CombatTrackerApp, name: str) -> list[str]:
    enc = app.live.session.encounter
    return [c.name for c in enc.combatants[names(app).index(name)].conditions]


async def test_tab_completes_a_condition_in_the_condition_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("c")
        await type_text(pilot, "fri")
        await pilot.press("tab")
        assert shown(app) == "frightened"
        await type_text(pilot, " 2 ro")
        await pilot.press("tab")
        assert shown(app) == "frightened 2 rounds"
        await type_text(pilot, " 3")
        await pilot.press("enter")
        assert not isinstance(app.screen, PromptScreen)
        assert conditions(app, "Ogre") == ["frightened"]


async def test_tab_completes_a_damage_tag_and_cycles_in_the_damage_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.live.do("add Wight hp 20 resist cold=5")
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await type_text(pilot, "2d6 fi")
        await pilot.press("tab")
        assert shown(app) == "2d6 fire"
        await type_text(pilot, " c")
        await pilot.press("tab")
        assert shown(app) == "2d6 fire crit"
        assert "1 of 2 matches · Tab: next" in message(app)
        await pilot.press("tab")  # again: the next match, a tag the fight knows
        assert shown(app) == "2d6 fire cold"
        assert "2 of 2 matches" in message(app)
        await pilot.press("backspace")
        assert "matches" not in message(app)  # the usage again
        await type_text(pilot, "d")
        await pilot.press("enter")
        assert hp(app, "Ogre") < 59


async def test_half_in_the_damage_prompt_completes_only_its_targets() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for name in ("Goblin 1", "Goblin 2"):
            await select(pilot, app, name)
            await pilot.press("space")
        await pilot.press("d")
        await type_text(pilot, "8 half O")  # the Ogre is no target here
        await pilot.press("tab")
        assert shown(app) == "8 half O"
        await pilot.press("backspace")
        await type_text(pilot, "Gob")
        await pilot.press("tab", "tab")
        assert shown(app) == '8 half "Goblin 2"'
        await pilot.press("enter")
        assert (hp(app, "Goblin 1"), hp(app, "Goblin 2")) == (0, 3)


async def test_tab_completes_cover_then_its_choices_in_the_attack_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("A")
        await type_text(pilot, "co")
        await pilot.press("tab")
        assert shown(app) == "cover"
        await type_text(pilot, " ")
        await pilot.press("tab")
        assert shown(app) == "cover half"
        await pilot.press("tab")
        assert shown(app) == "cover three-quarters"
        await pilot.press("tab", "tab")  # round to the first again
        assert shown(app) == "cover half"


async def test_tab_with_nothing_to_complete_keeps_the_prompt_as_it_was() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        usage = message(app)
        await pilot.press("tab")
        await type_text(pilot, "5")
        await pilot.press("tab")
        screen = app.screen
        assert isinstance(screen, PromptScreen)
        assert shown(app) == "5"
        assert screen.focused is not None and screen.focused.id == "prompt-input"
        assert message(app) == usage
        await pilot.press("i")  # still typing into the prompt
        assert shown(app) == "5i"


async def test_up_and_down_still_recall_after_a_completion() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("c")
        await type_text(pilot, "prone")
        await pilot.press("enter")
        await pilot.press("c")
        await type_text(pilot, "fri")
        await pilot.press("tab", "up")
        assert shown(app) == "prone"
        await pilot.press("down")
        assert shown(app) == "frightened"  # what was being typed, completed
        await pilot.press("tab")  # nothing more to complete
        assert shown(app) == "frightened"


async def test_a_burst_of_keys_opening_the_prompt_completes_all_that_was_typed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        # ``c`` and the letters and Tab before the prompt is shown (held keys)
        for key in ["c", *"fri", "tab"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert shown(app) == "frightened"


async def test_the_prompts_say_tab_completes_only_where_it_can() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        for key, completes in (("h", False), ("i", False), ("d", True), ("c", True)):
            await pilot.press(key)
            await pilot.pause()
            row = str(app.screen.query_one(".dialog-keys", Static).render())
            assert ("Tab completes" in row) is completes, (key, row)
            await pilot.press("escape")
            await pilot.pause()
