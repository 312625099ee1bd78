"""Typing as a GM does, in the app: Up/Down recall what each prompt and the
``:`` line took before (across restarts too), Tab completes
keywords, tags and conditions in the ``:`` line; a bad history file is one
notice, never a lost fight."""

from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import Input

from tests.tracker.test_keys import fight, hp, log_lines, make_app, names, select, type_text
from tracker.app import CombatTrackerApp
from tracker.history import FILE_NAME
from tracker.screens.prompt import PromptScreen


def shown(app: CombatTrackerApp, selector: str = "#prompt-input") -> str:
    return app.screen.query_one(selector, Input).value


def notices(app: CombatTrackerApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def flat_log(app: CombatTrackerApp) -> str:
    """The log's text, its wrapped lines joined again."""
    return log_lines(app).replace("\n", "")


def history_file() -> Path:
    return Path(os.environ["COMBAT_TRACKER_STATE"]) / FILE_NAME


async def test_up_recalls_the_last_damage_and_down_comes_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await pilot.press("up")  # nothing typed yet: nothing to recall
        assert shown(app) == ""
        await type_text(pilot, "2d6+3 fire")
        await pilot.press("enter")
        await pilot.press("d")
        await type_text(pilot, "1")
        await pilot.press("up")
        assert shown(app) == "2d6+3 fire"
        await pilot.press("down")
        assert shown(app) == "1"  # what was being typed
        await pilot.press("up", "enter")
        assert not isinstance(app.screen, PromptScreen)
        assert flat_log(app).count("Damage fire: 2d6") == 2
        # each prompt has its own history
        await pilot.press("h", "up")
        assert shown(app) == ""


async def test_the_prompts_history_survives_a_restart_and_a_bad_line_is_not_kept() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await type_text(pilot, "8 slashing")
        await pilot.press("enter")
        await pilot.press("d")
        await type_text(pilot, "banana")
        await pilot.press("enter")  # refused, shown inline
        await pilot.press("escape")
        await pilot.press("c")
        await type_text(pilot, "prone")
        await pilot.press("enter")
    again = make_app(fight(seed=8))
    async with again.run_test(size=(80, 24)) as pilot:
        await select(pilot, again, "Ogre")
        await pilot.press("d", "up")
        assert shown(again) == "8 slashing"
        await pilot.press("up")  # the oldest: stays
        assert shown(again) == "8 slashing"
        await pilot.press("enter")
        assert hp(again, "Ogre") == 51
        await pilot.press("c", "up")
        assert shown(again) == "prone"


async def test_the_command_line_recalls_its_lines_and_an_edit_changes_no_entry() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("damage Ogre 3", "heal Ogre 1"):
            await pilot.press("colon")
            await type_text(pilot, line)
            await pilot.press("enter")
        await pilot.press("colon")
        await type_text(pilot, "damage Nobody 5")
        await pilot.press("enter", "escape")  # refused: not kept
        await pilot.press("colon", "up")
        line = "#command-input"
        assert shown(app, line) == "heal Ogre 1"
        await pilot.press("up")
        assert shown(app, line) == "damage Ogre 3"
        await pilot.press("backspace", "5")  # edited: damage Ogre 5
        await pilot.press("down")
        assert shown(app, line) == "heal Ogre 1"
        await pilot.press("up")
        assert shown(app, line) == "damage Ogre 3"  # the entry is as it was
        await pilot.press("down", "down")
        assert shown(app, line) == ""
        await pilot.press("up", "up", "enter")
        assert hp(app, "Ogre") == 59 - 3 + 1 - 3


async def test_tab_completes_conditions_and_tags_in_the_command_line() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.live.do("add Wight hp 20 resist necrotic=5")
        await pilot.press("colon")
        await type_text(pilot, "cond Og")
        await pilot.press("tab")
        await type_text(pilot, "pr")
        await pilot.press("tab")
        assert shown(app, "#command-input") == "cond Ogre prone "
        await pilot.press("enter")
        assert [
            c.name for c in app.live.encounter.combatants[names(app).index("Ogre")].conditions
        ] == ["prone"]
        await pilot.press("colon")
        await type_text(pilot, "damage Wight 6 ne")
        await pilot.press("tab")  # a tag the fight knows
        assert shown(app, "#command-input") == "damage Wight 6 necrotic "
        await type_text(pilot, "c")
        await pilot.press("tab")
        assert shown(app, "#command-input") == "damage Wight 6 necrotic crit"
        await pilot.press("tab")  # cycles to the next match
        assert shown(app, "#command-input") == "damage Wight 6 necrotic cold"
        await pilot.press("escape")
        await pilot.press("colon")
        await type_text(pilot, "move Zalek s")
        await pilot.press("tab")
        assert shown(app, "#command-input") == "move Zalek sprint "


async def test_a_damaged_history_file_is_one_notice_and_the_fight_goes_on() -> None:
    history_file().parent.mkdir(parents=True, exist_ok=True)
    history_file().write_bytes(b"\xff\xfe\x00garbage")
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d", "up")
        assert shown(app) == ""
        await type_text(pilot, "4")
        await pilot.press("enter")
        await pilot.press("colon", "up")
        assert hp(app, "Ogre") == 55
        warned = [n for n in notices(app) if "history" in n]
        assert len(warned) == 1 and "damaged" in warned[0]
    assert b"garbage" not in history_file().read_bytes()  # rewritten with the new entry


async def test_an_unwritable_history_is_one_notice_and_nothing_is_lost() -> None:
    history_file().mkdir(parents=True)  # a directory where the file goes
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await select(pilot, app, "Ogre")
        for amount in ("4", "5"):
            await pilot.press("d")
            await type_text(pilot, amount)
            await pilot.press("enter")
        assert hp(app, "Ogre") == 50
        await pilot.press("d", "up")
        assert shown(app) == "5"  # kept in memory
        assert len([n for n in notices(app) if "history" in n]) == 1


async def test_tab_right_after_fast_typing_completes_all_that_was_typed() -> None:
    from textual import events

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        # a burst of keys (a fast typist, a terminal multiplexer), Tab last:
        # Tab is a priority binding and must not run before the letters land
        for key in [*"damage Og", "tab"]:
            char = key if len(key) == 1 else None
            app.post_message(events.Key("space" if key == " " else key, char))
        await pilot.pause()
        await pilot.pause()
        assert shown(app, "#command-input") == "damage Ogre "
