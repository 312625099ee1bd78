"""The saves form on a horde (issue 11, "snappy with hordes"): thirty marked
zombies, ``d``, ``8d6 fire``, ``ctrl+s``.  The form lists every target, as
Textual paints it, scrolling to the ones below its twelve lines; full,
half and none per target with their keys; Enter applies one line with each
save.  The damage prompt's title stays one line, saying how many."""

from __future__ import annotations

import random

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Label

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.screens.saves_form import DamagePromptScreen, SavesScreen
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.saves_list import SavesList

ZOMBIES = [f"Zombie {i}" for i in range(1, 31)]


def horde() -> LiveEncounter:
    session = Session(Encounter("Crypt"), rng=random.Random(7))
    session.apply("add Ayla hp 30 al 15 player init 20")
    session.apply("add Zombie count 30 hp 60 al 8 init 10")
    session.apply("start")
    return LiveEncounter.in_memory(session)


def painted(form: SavesList) -> list[str]:
    """The form's lines as Textual paints them (inside its border)."""
    width, height = form.outer_size
    lines = [strip.text for strip in form.render_lines(Region(0, 0, width, height))]
    return [line[2:-2].rstrip() for line in lines[1:-1]]


async def mark_zombies(pilot: Pilot, app: CombatTrackerApp) -> None:
    """Mark every zombie, one row at a time, as a GM would."""
    pane = app.screen.query_one(InitiativePane)
    pane.move_cursor(row=1)
    await pilot.pause()
    for _ in ZOMBIES:
        await pilot.press("space", "j")


async def open_form(pilot: Pilot, app: CombatTrackerApp) -> SavesList:
    await mark_zombies(pilot, app)
    await pilot.press("d")
    assert isinstance(app.screen, DamagePromptScreen)
    await pilot.press(*"8d6", "space", *"fire", "ctrl+s")
    assert isinstance(app.screen, SavesScreen)
    return app.screen.query_one(SavesList)


async def test_the_form_lists_thirty_targets_and_their_keys_set_each_save() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot, app)
        screen = app.screen
        assert isinstance(screen, SavesScreen)
        title = str(screen.query_one(".dialog-title", Label).render())
        assert "8d6 fire" in title and "30 targets" in title
        # every target, all full at first, the first screenful in view
        assert screen.rows == [f"■ full  {n}" for n in ZOMBIES]
        lines = painted(form)
        assert lines == [f"■ full  {n}" for n in ZOMBIES[: len(lines)]]
        shown = len(lines)
        assert 10 <= shown < 30
        await pilot.press("h", "n")  # Zombie 1 half, Zombie 2 none, the cursor on 3
        await pilot.press("space", "space", "left")  # Zombie 3: full → half → none → half
        await pilot.press("f")  # Zombie 3 back to full, on to Zombie 4
        await pilot.press("end", "h")  # the last one, scrolled into view
        lines = painted(form)
        assert lines[-1] == "◧ half  Zombie 30"
        assert lines[0] == f"■ full  Zombie {31 - shown}"  # scrolled: the first out of view
        await pilot.press("home", "j", "k", "j")  # back up: Zombie 2
        assert painted(form)[:3] == ["◧ half  Zombie 1", "□ none  Zombie 2", "■ full  Zombie 3"]
        assert screen.saves["Zombie 2"] == "none" and screen.saves["Zombie 30"] == "half"
        assert form.cursor == 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        action = app.live.session.undo_stack[-1].action
        assert action["targets"] == ZOMBIES
        assert action["half"] == ["Zombie 1", "Zombie 30"] and action["none"] == ["Zombie 2"]
        hp = {c.name: c.hp for c in app.live.encounter.combatants}
        rolled = sum(action["faces"])
        assert hp["Zombie 3"] == 60 - rolled and hp["Zombie 2"] == 60
        assert hp["Zombie 1"] == 60 - rolled // 2 and hp["Ayla"] == 30


async def test_on_a_60x20_screen_the_forms_keys_stay_in_view() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(60, 20)) as pilot:
        form = await open_form(pilot, app)
        assert 3 <= len(painted(form)) < 30  # fewer rows, scrolled
        for keys in app.screen.query(".dialog-keys"):
            assert keys.region.bottom <= 20 and keys.region.height >= 1


async def test_the_damage_prompt_on_thirty_says_how_many_on_one_line() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot, app)
        await pilot.press("escape")  # back to the amount
        screen = app.screen
        assert isinstance(screen, DamagePromptScreen)
        label = screen.query_one(".dialog-title", Label)
        title = str(label.render())
        assert title.startswith("Damage → 30 targets: Zombie 1, Zombie 2")
        assert title.endswith("…") and label.size.height == 1
        assert form.saves == dict.fromkeys(ZOMBIES, "full")


async def test_a_click_moves_the_cursor_and_the_form_still_applies() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot, app)
        await pilot.click(SavesList, offset=(4, 3))  # the border, then row 2: Zombie 3
        assert form.cursor == 2
        await pilot.press("n", "enter")
        await pilot.pause()
        action = app.live.session.undo_stack[-1].action
        assert action["none"] == ["Zombie 3"] and "half" not in action


async def test_a_sets_every_row_as_the_highlighted_one_then_the_few_differ() -> None:
    """Most of the horde saved: ``h`` on one row, ``a`` for all thirty,
    then the one that failed back to full; one line, one roll."""
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot, app)
        await pilot.press("j", "j", "h", "k")  # Zombie 3 half, the cursor back on it
        assert form.cursor == 2
        await pilot.press("a")
        screen = app.screen
        assert isinstance(screen, SavesScreen)
        assert screen.rows == [f"◧ half  {n}" for n in ZOMBIES]
        assert painted(form) == [f"◧ half  {n}" for n in ZOMBIES[: len(painted(form))]]
        assert form.cursor == 2  # a moves nothing
        await pilot.press("escape")  # back to the amount: the choices are kept
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SavesScreen)
        assert app.screen.rows == [f"◧ half  {n}" for n in ZOMBIES]
        await pilot.press("end", "f", "enter")  # Zombie 30 failed: full
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        action = app.live.session.undo_stack[-1].action
        assert action["half"] == ZOMBIES[:-1] and "none" not in action
        rolled = sum(action["faces"])
        hp = {c.name: c.hp for c in app.live.encounter.combatants}
        assert hp["Zombie 1"] == 60 - rolled // 2 and hp["Zombie 30"] == 60 - rolled


async def test_h_then_a_is_every_row_half_as_the_readme_says() -> None:
    """``h`` sets the first row and moves on; ``a`` right after copies the
    half just set, not the next row's full (which undid the ``h``)."""
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, app)
        await pilot.press("h", "a")
        screen = app.screen
        assert isinstance(screen, SavesScreen)
        assert screen.rows == [f"◧ half  {n}" for n in ZOMBIES]
        assert form.cursor == 1
        await pilot.press("n", "j", "k", "a")  # moved since: the highlighted row's
        assert screen.rows == [f"◧ half  {n}" for n in ZOMBIES]
        await pilot.press("f", "space", "a")  # cycled since: the highlighted row's
        assert screen.rows == [f"□ none  {n}" for n in ZOMBIES]


async def test_the_all_alike_key_rebinds_by_id_and_help_lists_it() -> None:
    app = CombatTrackerApp(live=horde(), config=Config(keymap={"saves.all": "A"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_form(pilot, app)
        await pilot.press("n", "k", "a")  # a is no key here now: nothing changes
        screen = app.screen
        assert isinstance(screen, SavesScreen)
        assert screen.rows[:2] == ["□ none  Zombie 1", "■ full  Zombie 2"]
        await pilot.press("A")
        assert screen.rows == [f"□ none  {n}" for n in ZOMBIES]
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        key, does, ids = ([str(c) for c in col.cells] for col in app.screen.table.columns)
        row = ids.index("saves.all")
        assert key[row] == "a" and does[row].startswith("saves: every row as the one just set")
