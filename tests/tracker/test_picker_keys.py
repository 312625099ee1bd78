"""The resume picker's keys: ``j``/``k`` move like the arrows, ``g``/``G``
jump to the first/last row, and Delete asks a question naming the
highlighted encounter, so "j six times then Delete" deletes what the GM
saw highlighted, never the newest fight unseen."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, Static

from saves.live import LiveEncounter, open_store
from saves.store import Store
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.help import HelpScreen
from tracker.screens.picker import PickerScreen
from tracker.screens.prompt import ConfirmScreen

NAMES = [f"Fight {n}" for n in range(1, 8)]


@contextmanager
def picker_app(tmp_path: Path, names: Sequence[str] = ("Crypt",)) -> Iterator[CombatTrackerApp]:
    """The app on its resume picker, over a new store holding encounters *names*."""
    store = open_store(tmp_path / "e.json")
    try:
        for name in names:
            LiveEncounter.create(store, name).close()
        yield CombatTrackerApp(store, config=Config(), rng=random.Random(1))
    finally:
        store.close()


def highlighted(app: CombatTrackerApp) -> str:
    table = app.screen.query_one(DataTable)
    return str(table.get_row_at(table.cursor_row)[0])


def shown_order(app: CombatTrackerApp) -> list[str]:
    table = app.screen.query_one(DataTable)
    return [str(table.get_row_at(r)[0]) for r in range(table.row_count)]


async def test_j_k_g_and_G_move_the_highlight(tmp_path: Path) -> None:
    with picker_app(tmp_path, NAMES) as app:
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, PickerScreen)
            order = shown_order(app)
            assert sorted(order) == NAMES
            assert highlighted(app) == order[0]
            await pilot.press("j", "j")
            assert highlighted(app) == order[2]
            await pilot.press("k")
            assert highlighted(app) == order[1]
            await pilot.press("G")
            assert highlighted(app) == order[-1]
            await pilot.press("j")  # past the last row: stays there
            assert highlighted(app) == order[-1]
            await pilot.press("g")
            assert highlighted(app) == order[0]
            await pilot.press("k")  # above the first row: stays there
            assert highlighted(app) == order[0]


async def test_j_six_times_then_delete_asks_about_that_encounter(tmp_path: Path) -> None:
    with picker_app(tmp_path, NAMES) as app:
        async with app.run_test(size=(80, 24)) as pilot:
            order = shown_order(app)
            await pilot.press(*["j"] * 6, "delete")
            assert isinstance(app.screen, ConfirmScreen)
            question = str(app.screen.query_one(".dialog-title", Label).render())
            assert question == f"Delete {order[6]}?"
            detail = str(app.screen.query_one(".dialog-hint", Static).render())
            assert "not started · 0 combatants" in detail and "cannot be undone" in detail
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, PickerScreen)
            assert sorted(s.name for s in app.store.list()) == sorted(order[:6])
            assert shown_order(app) == order[:6]


async def test_an_ended_fight_shows_its_last_round_not_a_dash(tmp_path: Path) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        for name, lines in (
            ("Ended", ["add A hp 5", "add B hp 5", "start", "next", "next", "end"]),
            ("Going", ["add A hp 5", "start"]),
            ("Fresh", []),
        ):
            live = LiveEncounter.create(store, name)
            for line in lines:
                live.do(line)
            live.close()
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.query_one(DataTable)
            rounds = {str(table.get_row_at(r)[0]): str(table.get_row_at(r)[1]) for r in range(3)}
            assert rounds == {"Ended": "ended, round 2", "Going": "1", "Fresh": "—"}
            while highlighted(app) != "Ended":
                await pilot.press("j")
            await pilot.press("delete")
            detail = str(app.screen.query_one(".dialog-hint", Static).render())
            assert detail.startswith("combat ended, round 2 · 2 combatants")
    finally:
        store.close()


async def test_the_picker_help_lists_its_keys(tmp_path: Path) -> None:
    with picker_app(tmp_path, ["Old fight"]) as app:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            keys = app.screen.query_one("#help-keys", Static)
            region = Region(0, 0, *keys.outer_size)
            text = "\n".join(strip.text for strip in keys.render_lines(region))
            for key_id in ("picker.down", "picker.up", "picker.top", "picker.bottom"):
                assert key_id in text


def saved_fights(store: Store, fights: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Each fight (name, its action lines) created, played and closed, oldest first."""
    for name, lines in fights:
        live = LiveEncounter.create(store, name)
        for line in lines:
            live.do(line)
        live.close()


def three_fights(store: Store) -> None:
    saved_fights(
        store,
        [
            ("Ended", ["add A hp 5", "add B hp 5", "start", "next", "next", "end"]),
            ("Going", ["add A hp 5", "add B hp 5", "add C hp 5", "start", *["next"] * 6]),
            ("Fresh", ["add A hp 5"]),
        ],
    )


async def delete_question(app: CombatTrackerApp, pilot: Pilot, name: str) -> str:
    """The delete question's detail for *name*, answered No."""
    while highlighted(app) != name:
        await pilot.press("j")
    await pilot.press("delete")
    assert isinstance(app.screen, ConfirmScreen)
    detail = str(app.screen.query_one(".dialog-hint", Static).render())
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(app.screen, PickerScreen)
    return detail


EXPECTED = {
    "Fresh": "not started · 1 combatant",
    "Going": "round 3 · 3 combatants",
    "Ended": "combat ended, round 2 · 2 combatants",
}


async def test_the_delete_question_names_the_round_of_each_fight(tmp_path: Path) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        three_fights(store)
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            for name, said in EXPECTED.items():
                detail = await delete_question(app, pilot, name)
                assert detail.startswith(said + " · last change 20"), detail
            assert sorted(s.name for s in store.list()) == sorted(EXPECTED)  # all kept
    finally:
        store.close()


async def test_the_delete_question_names_a_later_combat(tmp_path: Path) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        cast = ["add A hp 5", "add B hp 5"]
        saved_fights(
            store,
            [
                ("Again", [*cast, "start", "next", "next", "end", "start", "next", "next"]),
                ("Over", [*cast, "start", "end", "start", "next", "end"]),
            ],
        )
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            detail = await delete_question(app, pilot, "Over")  # the newest, first
            assert detail.startswith("combat 2 ended, round 1 · 2 combatants"), detail
            detail = await delete_question(app, pilot, "Again")
            assert detail.startswith("combat 2, round 2 · 2 combatants · last change 20"), detail
    finally:
        store.close()


async def test_the_delete_question_reads_the_listing_not_the_round_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the Round column may be worded any way: the question still says the round
    import tracker.widgets.encounter_list as columns

    monkeypatch.setattr(
        columns, "round_shown", lambda started, n, combat=0: f"R{n}" if started else f"({n})"
    )
    store = open_store(tmp_path / "e.json")
    try:
        three_fights(store)
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.query_one(DataTable)
            assert {str(table.get_row_at(r)[1]) for r in range(3)} == {"R3", "(2)", "(0)"}
            for name, said in EXPECTED.items():
                assert (await delete_question(app, pilot, name)).startswith(said)
    finally:
        store.close()
