"""The resume picker at every width: the GM still sees which fight is which
(the name) and when it was last played — at 60 columns the table cut the
"Last change" column to ``Las`` and its dates to ``202``.  A narrow table
gives up the save points, the combatants and the date's year first, the
round's long header and whose turn it is next, and cuts a name last, in
the middle.  Dates are local time, as ``combat-tracker list`` shows them."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from test_picker_keys import picker_app, saved_fights
from textual.widgets import DataTable

from rules.text import first_unsafe
from saves.live import open_store
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.widgets.encounter_list import (
    NAME_FLOOR,
    PADDING,
    Listed,
    Plan,
    column_width,
    plan,
    round_cell,
    row_cells,
    when,
)

PLAYED = datetime(2026, 12, 4, 22, 34, tzinfo=UTC)
FIGHTS = [
    Listed("Bridge", False, 0, None, 0, 0, PLAYED),
    Listed("Goblin ambush at the old mill", False, 2, None, 9, 0, PLAYED),
    Listed("Crypt", True, 1, "Zalek", 11, 1, PLAYED),
]


@pytest.fixture
def utc() -> Iterator[None]:
    """Local time is UTC for the test (the dates it expects)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "UTC")
        time.tzset()
        yield
    time.tzset()


def keys(width: int) -> list[str]:
    return [key for key, _ in plan(width, FIGHTS).columns]


def test_a_wide_table_shows_every_column_and_names_whole() -> None:
    assert keys(116) == ["name", "round", "turn", "combatants", "save_points", "updated"]
    assert plan(116, FIGHTS).name == len("Goblin ambush at the old mill")
    assert not plan(116, FIGHTS).short_date


def test_narrower_the_less_telling_columns_go_and_the_date_stays(utc: None) -> None:
    # 80 columns: the save points and combatants go before a name is cut
    assert keys(74) == ["name", "round", "turn", "updated"]
    assert plan(74, FIGHTS).name == len("Goblin ambush at the old mill")
    # 60 columns: the date without its year, an ended fight's round short
    # ("ended 2"), and whose turn it is before a name's last words
    shown = plan(54, FIGHTS)
    assert keys(54) == ["name", "round", "updated"]
    assert row_cells(FIGHTS[1], shown) == [
        "Goblin ambush at the old mill",
        "ended 2",
        "4 Dec 22:34",
    ]
    assert [header for _, header in shown.columns] == ["Name", "Rnd", "Last change"]
    # fights still under way keep whose turn it is at 60 columns
    ongoing = [FIGHTS[0], FIGHTS[2], FIGHTS[1]._replace(started=True)]
    assert [key for key, _ in plan(54, ongoing).columns] == ["name", "round", "turn", "updated"]
    assert row_cells(ongoing[2], plan(54, ongoing))[0] == "Goblin ambush at the old…"
    # 40 columns: the name cut in the middle, the date whole
    narrow = plan(34, FIGHTS)
    assert row_cells(FIGHTS[1], narrow) == ["Goblin am…", "ended 2", "4 Dec 22:34"]


def fitted(width: int, rows: list[Listed]) -> Plan:
    """The plan for *width*, checked to fit it."""
    shown = plan(width, rows)
    used = sum(
        PADDING + column_width(key, header, rows, shown.short_date, shown.short_round)
        for key, header in shown.columns
        if key != "name"
    )
    assert used + PADDING + shown.name <= width
    return shown


@pytest.mark.parametrize("width", [116, 74, 54, 34])
def test_the_columns_fit_the_table(width: int) -> None:
    shown = fitted(width, FIGHTS)
    assert shown.columns[0][0] == "name" and shown.columns[-1] == ("updated", "Last change")
    if width >= 54:  # a name is cut below its floor only on the narrowest tables
        assert shown.name >= min(NAME_FLOOR, len("Goblin ambush at the old mill"))


def test_dates_are_local_time_and_short_without_the_year(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert when(PLAYED) == "2026-12-05 07:34"  # as `list` shows it
        now = datetime(2026, 12, 6, tzinfo=UTC)
        assert when(PLAYED, short=True, now=now) == "5 Dec 07:34"
        assert when(PLAYED, short=True, now=datetime(2027, 1, 2, tzinfo=UTC)) == "5 Dec 2026"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert when("2026-11-30T07:15:00+00:00") == "2026-11-30 07:15"  # a save point's text


def test_the_round_reads_the_same_facts_short() -> None:
    assert [round_cell(f) for f in FIGHTS] == ["—", "ended, round 2", "1"]
    assert [round_cell(f, short=True) for f in FIGHTS] == ["—", "ended 2", "1"]


#: the same fights in their second combat (``end``, then ``start`` again)
AGAIN = [
    Listed("Goblin ambush at the old mill", True, 3, "Zalek", 9, 0, PLAYED, combat=2),
    Listed("Crypt", False, 1, None, 11, 1, PLAYED, combat=12),
]


def test_a_later_combat_is_named_beside_its_round() -> None:
    assert [round_cell(f) for f in AGAIN] == ["combat 2 · round 3", "combat 12 · ended, round 1"]
    assert [round_cell(f, short=True) for f in AGAIN] == ["C2 · R3", "C12 · ended 1"]
    # the first combat reads as a fight of one combat always did
    for fight in FIGHTS:
        assert round_cell(fight._replace(combat=1)) == round_cell(fight)
        assert round_cell(fight._replace(combat=1), short=True) == round_cell(fight, short=True)


@pytest.mark.parametrize("width", [116, 74, 54])
def test_a_later_combat_gives_up_columns_before_a_name(width: int) -> None:
    shown = fitted(width, [*FIGHTS, *AGAIN])
    assert shown.name >= min(NAME_FLOOR, len("Goblin ambush at the old mill"))
    assert ("round", "Rnd" if shown.short_round else "Round") in shown.columns


NAMES = st.one_of(
    st.sampled_from(["Crypt 2", "Crypt 12", "[bold]x[/]", "a\x1b[2Jb", "ゴブリンの砦"]),
    st.text(min_size=1, max_size=80),
)


@given(st.lists(NAMES, min_size=1, max_size=6, unique=True), st.integers(20, 200))
def test_typed_names_fit_their_column_as_plain_text(names: list[str], width: int) -> None:
    rows = [Listed(n, True, 3, n, 4, 0, PLAYED) for n in names]
    shown = plan(width, rows)
    assert ("updated", "Last change") in shown.columns
    for row in rows:
        cells = row_cells(row, shown)
        assert cell_len(cells[0]) <= shown.name
        assert all(first_unsafe(text) < 0 for text in cells)  # spelled out, never sent


async def test_the_picker_at_60x20_shows_each_fight_and_when(tmp_path: Path, utc: None) -> None:
    names = ("Goblin ambush at the old mill", "Bridge", "Crypt")
    with picker_app(tmp_path, names) as app:
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen.query_one(DataTable)
            await pilot.press("j")  # the second newest: "Bridge"
            headers = [str(c.label) for c in table.columns.values()]
            assert headers[-2:] == ["Save points", "Last change"]
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
            lines = [table.render_line(y).text for y in range(1 + len(names))]
            assert "Last change" in lines[0] and "Las " not in lines[0]
            today = when(datetime.now(UTC), short=True)[:-6]  # "4 Dec"
            for line in lines[1:]:
                assert today in line, line
            shown = [str(table.get_row_at(r)[0]) for r in range(3)]
            assert shown == ["Crypt", "Bridge", "Goblin ambush at the old…"]
            assert str(table.get_row_at(table.cursor_row)[0]) == "Bridge"  # kept


async def test_the_picker_at_60x20_says_which_combat_a_fight_is_in(
    tmp_path: Path, utc: None
) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        cast = ["add A hp 5", "add B hp 5", "start"]
        saved_fights(
            store,
            [
                ("Goblin ambush at the old mill", [*cast, "next", "end", "start", "next", "next"]),
                ("Crypt", [*cast, "end", "start", "next", "end"]),
                ("Bridge", [*cast, "next", "next"]),
            ],
        )
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            rows = {str(table.get_row_at(r)[0]): str(table.get_row_at(r)[1]) for r in range(3)}
            assert rows == {
                "Bridge": "2",
                "Crypt": "C2 · ended 1",
                "Goblin ambush at the old…": "C2 · R2",  # cut no shorter than a one-combat row
            }
            lines = [table.render_line(y).text for y in range(4)]
            assert lines[0].split() == ["Name", "Rnd", "Last", "change"]
            today = when(datetime.now(UTC), short=True)
            assert all(line.rstrip().endswith(today) for line in lines[1:]), lines
    finally:
        store.close()
