"""Undo and redo of a rename carry the marks and the selection back and
forth, as the rename itself does: a GM who marked the Ogre, renamed it
Troll and undid that still has the Ogre marked and selected."""

from __future__ import annotations

from test_keys import make_app, names, select
from textual.pilot import Pilot
from textual.widgets import Input

from tracker.app import CombatTrackerApp
from tracker.controller import EncounterController
from tracker.screens.encounter import EncounterScreen


async def rename_in_edit_form(app: CombatTrackerApp, pilot: Pilot, new: str, **fields: str) -> None:
    await pilot.press("e")
    app.screen.query_one("#field-name", Input).value = new
    for key, value in fields.items():
        app.screen.query_one(f"#field-{key}", Input).value = value
    await pilot.press("enter")
    assert isinstance(app.screen, EncounterScreen)


async def mark(app: CombatTrackerApp, pilot: Pilot, *names: str) -> EncounterController:
    """Mark *names* with space, the last one left selected; the controller."""
    screen = app.screen
    assert isinstance(screen, EncounterScreen)
    for name in names:
        await select(pilot, app, name)
        await pilot.press("space")
    return screen.controller


async def test_undo_and_redo_of_a_rename_carry_its_mark_and_the_selection() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        ctl = await mark(app, pilot, "Goblin 2", "Ogre")
        assert ctl.marks.names == ["Goblin 2", "Ogre"]
        await rename_in_edit_form(app, pilot, "Troll")
        assert ctl.marks.names == ["Goblin 2", "Troll"] and ctl.selected_name == "Troll"
        await pilot.press("ctrl+z")
        assert "Ogre" in names(app)
        assert ctl.marks.names == ["Goblin 2", "Ogre"] and ctl.selected_name == "Ogre"
        assert app.live.ui_state["marked"] == ["Goblin 2", "Ogre"]  # a resume keeps them
        await pilot.press("ctrl+y")
        assert ctl.marks.names == ["Goblin 2", "Troll"] and ctl.selected_name == "Troll"
        assert app.live.ui_state["selected"] == "Troll"


async def test_a_rename_that_moves_the_row_keeps_the_selection_on_it_through_undo() -> None:
    # the edit form changed the initiative too: the row moves, the selection with it
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        ctl = await mark(app, pilot, "Ogre")
        before = names(app).index("Ogre")
        await rename_in_edit_form(app, pilot, "Troll", initiative="25")
        assert names(app).index("Troll") != before
        assert ctl.marks.names == ["Troll"] and ctl.selected_name == "Troll"
        assert ctl.selected() is not None and ctl.selected().name == "Troll"
        await pilot.press("ctrl+z")
        assert ctl.marks.names == ["Ogre"] and ctl.selected_name == "Ogre"
        assert ctl.selected() is not None and ctl.selected().name == "Ogre"
        await pilot.press("ctrl+y")
        assert ctl.marks.names == ["Troll"]
        assert ctl.selected() is not None and ctl.selected().name == "Troll"


async def test_a_rename_typed_on_the_command_line_carries_the_mark_too() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        ctl = await mark(app, pilot, "Ogre")
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.apply("set Ogre name Troll") is None
        assert ctl.marks.names == ["Troll"]
        await pilot.press("ctrl+z")
        assert ctl.marks.names == ["Ogre"]
