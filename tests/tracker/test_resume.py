"""Quit and relaunch: the GM comes back to the same fight, selection and log.

Runs the app on a real database in a temporary directory (``saves``), the
way ``combat-tracker --db PATH`` does, and checks the start-up paths: first
run, resume picker (newest first, Enter resumes, ``n`` new, ``delete``),
``open NAME``, and a locked or missing database/encounter as one clear line.
"""

from __future__ import annotations

import argparse
import gc
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from saves.live import LiveEncounter, open_store
from saves.store import Store
from tracker.app import FIRST_ENCOUNTER, CombatTrackerApp
from tracker.commands import tui
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.picker import PickerScreen
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def command(pilot: Pilot, line: str) -> None:
    await pilot.press("colon")
    await type_text(pilot, line)
    await pilot.press("enter")


def pane_text(app: CombatTrackerApp) -> str:
    """The initiative pane's lines as the GM sees them (inside its border)."""
    pane = app.screen.query_one(InitiativePane)
    return "\n".join(pane.render_line(y).text for y in range(pane.size.height))


def log_text(app: CombatTrackerApp) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(LogPane).lines)


async def test_first_run_quit_and_relaunch_resumes_everything(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    store = open_store(db)
    app = CombatTrackerApp(store, config=Config(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, EncounterScreen)
        assert app.live.name == FIRST_ENCOUNTER
        assert "No combatants yet. Press a to add some" in pane_text(app)  # the hint
        await command(pilot, "add Goblin count 3 hp 7 al 13")
        await command(pilot, "add Zalek hp 30 init 25 player")
        assert app.screen.query_one(InitiativePane).row_count == 4
        assert "No combatants yet" not in pane_text(app)
        await pilot.press("s", "n")
        await pilot.press("j", "j")
        selected = str(app.screen.query_one(CombatantPane).border_title)
        await pilot.press("d")
        await type_text(pilot, "4")
        await pilot.press("enter")
        state = app.live.session.encounter.to_dict()
        log = [e.to_dict() for e in app.live.session.log]
        await pilot.press("q")
    store.close()

    store = open_store(db)
    try:
        again = CombatTrackerApp(store, config=Config(), rng=random.Random(4))
        async with again.run_test(size=(80, 24)) as pilot:
            assert isinstance(again.screen, PickerScreen)
            table = again.screen.query_one(DataTable)
            assert FIRST_ENCOUNTER in str(table.get_row_at(0)[0])
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(again.screen, EncounterScreen)
            assert again.live.session.encounter.to_dict() == state
            assert [e.to_dict() for e in again.live.session.log] == log
            assert str(again.screen.query_one(CombatantPane).border_title) == selected
            assert f"{selected} takes 4" in log_text(again) or selected in log_text(again)
            assert "Round 1" in str(again.screen.query_one("#initiative").border_title)
    finally:
        store.close()


async def test_picker_new_and_delete(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    store = open_store(db)
    try:
        CombatTrackerApp  # noqa: B018 - the app makes the first encounter below
        from saves.live import LiveEncounter

        LiveEncounter.create(store, "Old fight").close()
        LiveEncounter.create(store, "Bridge trolls").close()
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.query_one(DataTable)
            assert str(table.get_row_at(0)[0]) == "Bridge trolls"  # newest first
            await pilot.press("delete", "y")
            assert [s.name for s in store.list()] == ["Old fight"]
            await pilot.press("n")
            await type_text(pilot, "Dragon")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
            assert app.live.name == "Dragon"
    finally:
        store.close()


def test_open_a_missing_encounter_is_one_line_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(db=str(tmp_path / "e.json"), seed=None, name="Nope")
    assert tui.run(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Nope" in err


def test_a_locked_database_is_one_line_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.json"
    holder = open_store(db)
    try:
        assert tui.run(argparse.Namespace(db=str(db), seed=None)) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in use" in err


@pytest.fixture
def gc_on():  # type: ignore[no-untyped-def]
    """The collector on, as in a fresh interpreter; restored after."""
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


@pytest.mark.usefixtures("gc_on")
async def test_open_name_builds_the_fight_and_the_collector_is_back_on_once_it_shows(
    tmp_path: Path,
) -> None:
    """``open NAME`` (build_app, as the CLI runs it): the named fight on
    screen; the garbage collector held off for start-up only."""
    db = tmp_path / "encounters.json"
    store = open_store(db)
    live = LiveEncounter.create(store, "Bridge trolls")
    live.do("add Troll count 2 hp 30 al 15")
    live.close()
    store.close()
    args = argparse.Namespace(db=str(db), seed=1, name="bridge")
    app = tui.build_app(args)
    try:
        assert not gc.isenabled()  # loading builds objects that all stay alive
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
            assert app.live.name == "Bridge trolls"
            assert app.screen.table.row_count == 2
            assert gc.isenabled()
    finally:
        app.store.close()
        gc.unfreeze()


@pytest.mark.usefixtures("gc_on")
def test_a_failed_start_leaves_the_collector_on(tmp_path: Path) -> None:
    args = argparse.Namespace(db=str(tmp_path / "e.json"), seed=None, name="Nope")
    with pytest.raises(tui.StartError, match="Nope"):
        tui.build_app(args)
    assert gc.isenabled()


def resumed_fight(tmp_path: Path, lines: list[str]) -> tuple[Store, LiveEncounter]:
    """An Ogre's fight "Long" played with *lines*, closed, and opened again
    from its files as a resume does (the store is the caller's to close)."""
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Long", rng=random.Random(2), actions=["add Ogre hp 40"])
        for line in lines:
            live.do(line)
        live.close()
    store = open_store(db)
    return store, LiveEncounter.open(store, "Long")


async def test_a_resumed_long_fight_counts_the_log_entries_kept_only_on_disk(
    tmp_path: Path,
) -> None:
    store, resumed = resumed_fight(tmp_path, ["roll 1d20"] * 400)
    total = len(resumed.full_log())
    assert resumed.log_earlier > 0  # most of the log stayed in the steps file
    app = CombatTrackerApp(store, resumed, Config(), random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(LogPane)
        drawn = sum(1 for strip in pane.lines if "Roll: 1d20" in strip.text)
        note = next(strip.text for strip in pane.lines if "earlier entries" in strip.text)
        assert f"… {total - drawn} earlier entries" in note


async def test_the_first_undo_after_resuming_keeps_the_newest_entry_in_view(
    tmp_path: Path,
) -> None:
    # Resuming wraps only the tail that fills the log pane; an undo cuts it
    # one line short, and widening it then left the view a line above the
    # bottom: the GM no longer saw the entry now last ("R2 Vex's turn").
    store, resumed = resumed_fight(tmp_path, [f"roll 1d20+{bonus}" for bonus in range(40)])
    app = CombatTrackerApp(store, resumed, Config(), random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        pane = app.screen.query_one(LogPane)
        bottom = pane.render_line(pane.size.height - 1).text
        assert "+ 38 =" in bottom
        assert pane.scroll_y == pane.max_scroll_y
    store.close()
