"""A form field's hint (its placeholder) says what to type there: the GM
reads it whole at 120×40, 80×24 and 60×20, never ``fixed total (empty:``.
At 80 columns and more the add form keeps two fields a line, so every
field is on one screen; narrower, one a line, and the form scrolls."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from test_keys import fight, make_app
from test_picker_keys import picker_app
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tracker.app import CombatTrackerApp
from tracker.screens.form import FormScreen
from tracker.screens.picker import PickerScreen

SIZES = [(120, 40), (80, 24), (60, 20)]


def cut_hints(app: CombatTrackerApp) -> list[str]:
    """The placeholders of the open form that do not show whole."""
    cut = []
    for field in app.screen.query(Input):
        hint = field.placeholder
        first_line = field.render_line(0).text.split("\n")[0].rstrip()
        if hint and (cell_len(hint) > field.size.width or first_line != hint):
            cut.append(hint)
    return cut


async def open_form(pilot: Pilot, app: CombatTrackerApp, key: str) -> FormScreen:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(app.screen, FormScreen)
    return app.screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_every_hint_of_the_add_form_shows_whole(size: tuple[int, int]) -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=size) as pilot:
        form = await open_form(pilot, app, "a")
        assert len([f for f in form.query(Input) if f.placeholder]) > 15
        assert cut_hints(app) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_two_fields_a_line_from_80_columns_one_below(size: tuple[int, int]) -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=size) as pilot:
        form = await open_form(pilot, app, "a")
        name, count = (form.query_one(f"#field-{key}", Input) for key in ("name", "count"))
        assert (name.region.y == count.region.y) == (size[0] >= 80)
        await pilot.press("escape", "e")  # no hints: the edit form keeps two a line
        await pilot.pause()
        edit = app.screen
        assert isinstance(edit, FormScreen)
        al = edit.query_one("#field-al", Input)
        assert edit.query_one("#field-name", Input).region.y == al.region.y


async def test_the_new_encounter_form_shows_the_rulesets_whole_at_60x20(tmp_path: Path) -> None:
    with picker_app(tmp_path) as app:
        async with app.run_test(size=(60, 20)) as pilot:
            assert isinstance(app.screen, PickerScreen)
            form = await open_form(pilot, app, "n")
            form.query_one("#field-ruleset", Input).value = ""  # the hint shows
            await pilot.pause()
            assert cut_hints(app) == []
            assert "cinematic" in form.query_one("#field-ruleset", Input).placeholder


async def test_the_keys_row_offers_space_only_where_a_box_ticks(tmp_path: Path) -> None:
    def keys(app: CombatTrackerApp) -> str:
        return str(app.screen.query_one(".dialog-keys", Static).render())

    with picker_app(tmp_path) as app:
        async with app.run_test(size=(80, 24)) as pilot:
            await open_form(pilot, app, "n")  # name and ruleset: nothing to tick
            assert "Tab: next field" in keys(app) and "space" not in keys(app)
    app = make_app(fight())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, app, "a")  # player, average HP: boxes
        assert "space: tick" in keys(app)
