"""The log pane by key (a GM QA pass: after a big action the fight's history
was reachable only by the mouse or ``export``): ``{`` / ``}`` page it, ``G``
goes back to the newest entry, each by its id in the keymap.  Paging to the
top of its tail widens it to the window as the mouse wheel does, from
memory: nothing is read from the steps file while the GM scrolls.  Seeded
fights, driven with Pilot at 80x24."""

from __future__ import annotations

import math
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from saves.store import Store
from tests.tracker.test_resume import resumed_fight
from tracker.app import CombatTrackerApp
from tracker.bindings import ENCOUNTER_KEYS
from tracker.config import Config
from tracker.screens.help import HelpScreen
from tracker.widgets.log import LogPane

UP, DOWN = "left_curly_bracket", "right_curly_bracket"


def rolled(entries: int) -> LiveEncounter:
    """A started fight whose log holds *entries* rolls and more, in memory;
    no two rolls have one total, so a line wrapped to its total alone
    (``= 114``) is on one page only."""
    session = Session(Encounter("Long fight"), rng=random.Random(5))
    session.apply("add Goblin count 3 hp 7 al 13")
    session.apply("add Zalek hp 30 al 15 player init 19")
    session.apply("start")
    bonus = 0
    while len(session.log) < entries:
        bonus += 20
        session.apply(f"roll 1d20+{bonus}")
    return LiveEncounter.in_memory(session)


def view(pane: LogPane) -> list[str]:
    """The log lines in view, top to bottom."""
    top = int(pane.scroll_y)
    return [strip.text for strip in pane.lines[top : top + pane.scrollable_content_region.height]]


def reads(lines: list[str], text: str) -> bool:
    """Whether *text* is among *lines*, wrapped or not (spaces aside)."""
    return text.replace(" ", "") in "".join(lines).replace(" ", "")


async def press(pilot: Pilot, *keys: str) -> None:
    """*keys*, then the widening a key at the top of the tail brings (after a refresh)."""
    await pilot.press(*keys)
    await pilot.pause()
    await pilot.pause()


@asynccontextmanager
async def opened(live: LiveEncounter, **settings: Any) -> AsyncIterator[tuple[Pilot, LogPane]]:
    """The app on *live* at 80x24, drawn; its pilot and log pane."""
    app = CombatTrackerApp(live=live, config=Config(**settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        yield pilot, app.screen.query_one(LogPane)


async def to_top(pilot: Pilot, pane: LogPane) -> None:
    """``{`` until the pane is at the top of its window (a burst, then the widening)."""
    for _ in range(20):
        page = pane.scrollable_content_region.height - 1
        await pilot.press(*[UP] * math.ceil(pane.scroll_y / page))
        await pilot.pause()
        await pilot.pause()
        if pane.scroll_y == 0:
            return
    raise AssertionError("{ never reached the top of the log")


def test_the_log_keys_have_ids_and_keys_of_their_own() -> None:
    keys = {k.id: k.key for k in ENCOUNTER_KEYS if k.id.startswith("log.")}
    assert keys == {"log.up": UP, "log.down": DOWN, "log.newest": "G"}
    bound = [key for k in ENCOUNTER_KEYS for key in k.key.split(",")]
    assert all(bound.count(key) == 1 for key in keys.values())


async def test_braces_page_the_log_a_line_kept_and_g_goes_back_to_the_newest() -> None:
    live = rolled(120)
    async with opened(live) as (pilot, pane):
        assert pane.screen.focused is not pane  # the keys work from the order of play
        newest = view(pane)
        assert pane.scroll_y == pane.max_scroll_y > 0
        assert reads(newest[-2:], live.log[-1].text)
        await press(pilot, UP)
        older = view(pane)
        assert older[-1] == newest[0]  # a page up: the top line stays, at the bottom
        assert not set(older[:-1]) & set(newest)
        await press(pilot, UP)
        assert view(pane)[-1] == older[0]
        await press(pilot, DOWN)
        assert view(pane) == older
        await press(pilot, DOWN)
        assert view(pane) == newest
        await press(pilot, UP, UP, UP)
        assert pane.scroll_y < pane.max_scroll_y
        await press(pilot, "G")
        assert view(pane) == newest and pane.scroll_y == pane.max_scroll_y
        await press(pilot, DOWN)  # at the newest already: nothing moves
        assert view(pane) == newest


async def test_paging_to_the_top_brings_the_window_and_keeps_the_view() -> None:
    live = rolled(400)
    async with opened(live) as (pilot, pane):
        tail = len(pane.lines)
        assert reads([line.text for line in pane.lines[:2]], "scroll up for more")
        page = pane.scrollable_content_region.height - 1
        await pilot.press(*[UP] * math.ceil(pane.scroll_y / page))
        seen = view(pane)
        await pilot.pause()
        await pilot.pause()
        assert len(pane.lines) > tail  # the window came in by key, as by the wheel
        assert view(pane) == seen  # and the view did not jump
        await to_top(pilot, pane)
        assert reads(view(pane)[:2], "earlier entries (all: combat-tracker export)")
        # an action while scrolled up: the log shows what it did
        await press(pilot, "r", "d", "2", "0", "enter")
        assert pane.scroll_y == pane.max_scroll_y
        assert reads(view(pane)[-2:], live.log[-1].text)


async def test_paging_a_resumed_log_reads_nothing_from_the_steps_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, resumed = resumed_fight(tmp_path, ["roll 1d20"] * 400)
    assert resumed.log_earlier > 0  # the oldest entries are only on disk
    asked: list[object] = []
    monkeypatch.setattr(Store, "read_steps", lambda self, *args: asked.append(args))
    app = CombatTrackerApp(store, resumed, Config(), random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(LogPane)
        await to_top(pilot, pane)
        drawn = sum(1 for line in pane.lines if "Roll: 1d20" in line.text)
        earlier = resumed.log_earlier + len(resumed.log) - drawn
        assert reads(view(pane)[:2], f"… {earlier} earlier entries (all: combat-tracker export)")
        await press(pilot, "G")
        assert pane.scroll_y == pane.max_scroll_y
    assert asked == []  # the UI thread never waited on the disk


async def test_the_log_keys_follow_the_keymap_and_the_help_lists_them() -> None:
    keymap = {"log.up": "f7", "log.down": "f8", "log.newest": "f9"}
    async with opened(rolled(120), keymap=keymap) as (pilot, pane):
        app = pane.app
        newest = view(pane)
        await press(pilot, UP)  # no longer bound
        assert view(pane) == newest
        await press(pilot, "f7", "f7")
        older = view(pane)
        assert pane.scroll_y < pane.max_scroll_y and not set(older) & set(newest)
        await press(pilot, "f8")
        assert view(pane)[0] == older[-1]  # a page down: the bottom line, now at the top
        await press(pilot, "f9")
        assert view(pane) == newest
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = [str(cell) for cell in app.screen.table.columns[0].cells]
        assert {"f7", "f8", "f9"} <= set(keys)
    app = CombatTrackerApp(live=rolled(10), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = [str(cell) for cell in app.screen.table.columns[0].cells]
        assert {"{", "}", "G"} <= set(keys)


async def test_the_title_says_when_the_newest_lines_are_out_of_view() -> None:
    """Scrolled back with ``{``, the pane looked as it does at the bottom:
    a GM glancing at it took old lines for the latest.  Its title says
    ``↑ · G: newest`` until ``G`` (or a step) shows the newest again."""
    async with opened(rolled(60)) as (pilot, pane):
        assert str(pane.border_title) == "Log"
        await press(pilot, UP)
        assert str(pane.border_title) == "Log ↑ · G: newest"
        await press(pilot, "G")
        assert str(pane.border_title) == "Log"
        await press(pilot, UP, "ctrl+z")  # a step: the newest again, the title too
        assert pane.scroll_y == pane.max_scroll_y
        assert str(pane.border_title) == "Log"
