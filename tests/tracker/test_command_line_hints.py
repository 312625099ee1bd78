"""The ``:`` line shows the engine's typo hints as they are (one line, the
error style) and changes nothing; ``dmg`` is completed and explained as
``damage`` is."""

from __future__ import annotations

import random

from textual.widgets import Input, Static

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tests.tracker.test_keys import hp, make_app, type_text


def crypt() -> LiveEncounter:
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    for line in (
        "add Zalek hp 38 al 15 player",
        "add Ogre hp 59 al 11",
        "add 'Brother Tomas' hp 20 player",
    ):
        session.apply(line)
    return LiveEncounter.in_memory(session)


async def test_the_command_line_shows_each_typo_hint_and_changes_nothing() -> None:
    app = make_app(crypt())
    async with app.run_test(size=(100, 24)) as pilot:
        before = app.live.session.to_dict()
        for typed, shown in (
            ("damage Zalk 5", 'no combatant named "Zalk"; did you mean "Zalek"?'),
            ("hit Ogre 3", "unknown verb 'hit'; did you mean damage or attack?"),
            ("damage Ogre 5 crtl", "damage: unexpected 'crtl'; did you mean crit?"),
            (
                "heal Brother Tom 5",
                "heal: unexpected 'Tom'; a name with spaces goes in quotes "
                '(heal "Brother Tom" 5)',
            ),
        ):
            await pilot.press("colon")  # the line is mounted the first time
            hint = app.screen.query_one("#command-hint", Static)
            line = app.screen.query_one("#command-input", Input)
            await type_text(pilot, typed)
            await pilot.press("enter")
            assert hint.has_class("error")
            assert str(hint.render()).startswith(shown), str(hint.render())
            assert line.value == typed  # kept on screen to fix
            assert app.live.session.to_dict() == before
            await pilot.press("escape")


async def test_dmg_completes_and_applies_as_damage() -> None:
    app = make_app(crypt())
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "dmg Og")
        await pilot.press("tab")
        line = app.screen.query_one("#command-input", Input)
        assert line.value == "dmg Ogre "
        hint = str(app.screen.query_one("#command-hint", Static).render())
        assert hint.startswith("damage T AMOUNT|DICE")
        await type_text(pilot, "9")
        await pilot.press("enter")
        assert hp(app, "Ogre") == 50
