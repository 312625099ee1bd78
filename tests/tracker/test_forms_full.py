"""The add and edit forms cover every field the action language has for a
combatant (RULES.md §4, §5, §8): HP, AL, initiative and its bonus, all
eight abilities, athletics, the four defenses, notes and player.  A value
the engine refuses is one message with the language's wording; the form
stays open with what was typed and nothing changes."""

from __future__ import annotations

from test_defenses_shown import pane_text
from test_keys import fight, make_app, select, type_text
from textual.widgets import Input, Static

from rules.combatant import Combatant
from tracker.app import CombatTrackerApp
from tracker.lines import ADD_FIELDS, EDIT_FIELDS
from tracker.screens.encounter import EncounterScreen
from tracker.screens.form import FormScreen

ABILITIES = ("dex", "per", "str", "con", "int", "wis", "cha", "luck")


def row(app: CombatTrackerApp, name: str) -> Combatant:
    return next(c for c in app.live.session.encounter.combatants if c.name == name)


def fill(app: CombatTrackerApp, values: dict[str, str]) -> None:
    for key, value in values.items():
        app.screen.query_one(f"#field-{key}", Input).value = value


def form_message(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one("#form-message", Static).render())


def test_the_forms_have_every_field_of_the_language() -> None:
    add = {key for key, _, _ in ADD_FIELDS}
    assert {*ABILITIES, "immune", "resist", "weak", "susceptible", "notes"} <= add
    assert {"hp", "al", "init", "bonus", "athletics", "count", "name"} <= add
    edit = {key for key, _ in EDIT_FIELDS}
    assert {*ABILITIES, "immunities", "resistances", "weaknesses", "susceptibilities"} <= edit
    assert {"initiative", "init_bonus", "athletics", "notes", "al", "hp", "max_hp"} <= edit


async def test_the_add_form_sets_every_field() -> None:
    app = make_app()
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, FormScreen)
        fill(
            app,
            {
                "name": "Wight",
                "hp": "30",
                "al": "14",
                "init": "12",
                "bonus": "2",
                **{a: str(10 + i) for i, a in enumerate(ABILITIES)},
                "athletics": "3",
                "immune": "poison, necrotic",
                "resist": "fire=3, cold=5",
                "weak": "radiant",
                "susceptible": "silver",
                "notes": "drains life; hates sunlight",
            },
        )
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        w = row(app, "Wight")
        assert (w.hp, w.max_hp, w.al, w.initiative, w.init_bonus) == (30, 30, 14, 12, 2)
        assert w.abilities == {a: 10 + i for i, a in enumerate(ABILITIES)}
        assert w.athletics == 3
        d = w.defenses
        assert d.immunities == {"poison", "necrotic"}
        assert dict(d.resistances) == {"fire": 3, "cold": 5}
        assert d.weaknesses == {"radiant"} and d.susceptibilities == {"silver"}
        assert w.notes == "drains life; hates sunlight"  # spaces and ';' kept, one action
        await select(pilot, app, "Wight")
        shown = pane_text(app)
        assert "immune necrotic, poison" in shown and "resist cold (halved), fire (halved)" in shown
        assert "STR 12" in shown and "LUCK 17" in shown and "drains life" in shown


async def test_a_refused_add_is_one_message_and_the_form_keeps_what_was_typed() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        before = app.live.session.encounter
        await pilot.press("a")
        await type_text(pilot, "Wight")
        fill(app, {"hp": "30", "resist": "fire=lots", "cha": "12"})
        await pilot.press("enter")
        assert isinstance(app.screen, FormScreen)
        message = form_message(app)
        assert "resist" in message and "fire" in message and "\n" not in message
        assert app.live.session.encounter is before
        assert app.screen.query_one("#field-resist", Input).value == "fire=lots"
        assert app.screen.query_one("#field-cha", Input).value == "12"
        fill(app, {"resist": "fire=3"})
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        assert dict(row(app, "Wight").defenses.resistances) == {"fire": 3}


async def test_the_edit_form_shows_and_changes_defenses_abilities_and_initiative() -> None:
    live = fight()
    live.do("add Wight hp 30 al 14 init 9 str 16 immune poison resist fire=3 weak radiant")
    app = make_app(live)
    async with app.run_test(size=(100, 40)) as pilot:
        await select(pilot, app, "Wight")
        await pilot.press("e")
        assert isinstance(app.screen, FormScreen)

        def field(key: str) -> str:
            return app.screen.query_one(f"#field-{key}", Input).value

        assert field("immunities") == "poison" and field("resistances") == "fire=3"
        assert field("weaknesses") == "radiant" and field("susceptibilities") == ""
        assert field("str") == "16" and field("luck") == "" and field("initiative") == "9"
        steps = len(app.live.session.log)
        fill(
            app,
            {
                "resistances": "fire=3,cold=2",
                "weaknesses": "",  # empty clears
                "susceptibilities": "silver",
                "str": "18",
                "int": "8",
                "luck": "11",
                "initiative": "15",
                "notes": "the crypt's lord",
            },
        )
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        w = row(app, "Wight")
        assert dict(w.defenses.resistances) == {"fire": 3, "cold": 2}
        assert w.defenses.weaknesses == frozenset() and w.defenses.susceptibilities == {"silver"}
        assert w.defenses.immunities == {"poison"}  # untouched
        assert (w.abilities["str"], w.abilities["int"], w.abilities["luck"]) == (18, 8, 11)
        assert w.initiative == 15 and w.notes == "the crypt's lord"
        await pilot.press("ctrl+z")  # one undoable step
        w = row(app, "Wight")
        assert w.initiative == 9 and w.abilities.get("int") is None
        assert w.defenses.weaknesses == {"radiant"}
        assert len(app.live.session.log) == steps  # the edit's log lines went with it


async def test_a_refused_edit_is_one_message_and_changes_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await select(pilot, app, "Ogre")
        before = app.live.session.encounter
        await pilot.press("e")
        fill(app, {"resistances": "fire=-4", "dex": "14"})
        await pilot.press("enter")
        assert isinstance(app.screen, FormScreen)
        message = form_message(app)
        assert "resist" in message and "\n" not in message
        assert app.live.session.encounter is before  # the dex in the same batch did not apply
        assert app.screen.query_one("#field-resistances", Input).value == "fire=-4"
        assert app.screen.query_one("#field-dex", Input).value == "14"
