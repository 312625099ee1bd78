"""Tab in the key prompts completes as the ``:`` line does, the prompt's
text being the tail of the line its key sends: ``c`` then ``fri`` Tab is
``frightened``, ``d`` then ``2d6 fi`` Tab is ``2d6 fire``, ``A`` then
``co`` Tab is ``cover`` and ``cover `` Tab its choices, again to cycle.
Up/Down still recall; Tab with nothing to complete leaves the prompt as
it was, its focus in the line.  Tab completes the word at the cursor, and
the only match is followed by a space (several are cycled without one)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual import events
from textual.widgets import Input, Static

from tests.tracker.test_keys import hp, make_app, names, select, type_text
from tests.tracker.test_typing import shown
from tracker.app import CombatTrackerApp
from tracker.screens.prompt import PromptScreen
from tracker.widgets.completing_input import taken


def message(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one("#prompt-message", Static).render())


async def test_tab_completes_a_condition_in_the_condition_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("c")
        await type_text(pilot, "fri")
        await pilot.press("tab")
        assert shown(app) == "frightened "  # the only one: the next word at once
        await type_text(pilot, "2 ro")
        await pilot.press("tab")
        assert shown(app) == "frightened 2 rounds "
        await type_text(pilot, "3")  # no space typed before a word: Tab gave it
        await pilot.press("enter")
        assert not isinstance(app.screen, PromptScreen)
        ogre = app.live.session.encounter.combatants[names(app).index("Ogre")]
        assert [(c.name, c.value, c.rounds_left) for c in ogre.conditions] == [("frightened", 2, 3)]


async def test_tab_completes_a_damage_tag_and_cycles_in_the_damage_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.live.do("add Wight hp 20 resist cold=5")
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await type_text(pilot, "2d6 fi")
        await pilot.press("tab")
        assert shown(app) == "2d6 fire "
        await type_text(pilot, "c")
        await pilot.press("tab")  # crit or cold: still choosing, so no space
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
        assert shown(app) == "cover "
        await pilot.press("tab")  # after the space: its choices
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
        assert shown(app) == "frightened "  # what was being typed, completed
        await pilot.press("tab")  # nothing more to complete
        assert shown(app) == "frightened "


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
        assert shown(app) == "frightened "


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


# -- where Tab completes, and the space after a finished word -------------------------------


def cursor(app: CombatTrackerApp, selector: str = "#prompt-input") -> int:
    return app.screen.query_one(selector, Input).cursor_position


async def test_tab_completes_the_word_at_the_cursor_in_the_middle_of_the_line() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await type_text(pilot, "2d6 crit")
        await pilot.press(*["left"] * 5)  # back before the space before crit
        await type_text(pilot, " fi")
        await pilot.press("tab")
        assert shown(app) == "2d6 fire crit"  # not completed at the end
        assert cursor(app) == len("2d6 fire ")  # onto the next word, no second space
        await pilot.press(*["left"] * 3)  # inside a word: ``fi|re``
        await pilot.press("backspace")
        assert shown(app) == "2d6 fre crit"
        await pilot.press("i", "tab")  # ``fi|re`` completes to fire, not firere
        assert shown(app) == "2d6 fire crit"
        await pilot.press("end")
        await type_text(pilot, " c")
        await pilot.press("tab")  # at the end again: crit is there, so only cold
        assert shown(app) == "2d6 fire crit cold "
        await pilot.press("enter")
        assert hp(app, "Ogre") < 59


async def test_the_command_line_completes_a_target_before_the_amount() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "damage  9")
        await pilot.press("left", "left")
        await type_text(pilot, "Og")
        await pilot.press("tab")
        assert shown(app, "#command-input") == "damage Ogre 9"
        assert cursor(app, "#command-input") == len("damage Ogre ")
        await pilot.press("enter")
        assert hp(app, "Ogre") == 50


async def test_a_comma_after_a_completed_target_goes_on_with_the_list() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "damage Og")
        await pilot.press("tab")
        assert shown(app, "#command-input") == "damage Ogre "
        await type_text(pilot, ",Goblin 2 3")  # the space Tab added gives way
        assert shown(app, "#command-input") == "damage Ogre,Goblin 2 3"
        await pilot.press("enter")
        assert (hp(app, "Ogre"), hp(app, "Goblin 2")) == (56, 4)


@given(st.text(max_size=12), st.text(max_size=12))
def test_taking_the_only_completion_keeps_what_follows_the_cursor(
    completed: str, after: str
) -> None:
    before, rest = taken(completed, after)
    assert before.startswith(completed)
    assert before + rest == completed + (" " if not after else "") + after
    # the cursor is after one space at most, and never inside the next word
    assert before[len(completed) :] in ("", " ", after[:1])
    assert not after or rest == after or after[0].isspace()
