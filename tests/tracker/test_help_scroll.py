"""The help screen (``?``) is longer than any terminal: a GM scrolls it
with ``j`` / ``k`` as every list of the tracker, or the arrows, and its keys
are rebindable by id like the rest.  The notices shown at start (repairs,
recovery) scroll with the same keys."""

from __future__ import annotations

import random
from pathlib import Path

from test_keys import make_app
from test_picker_keys import picker_app
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static

from saves.live import LiveEncounter, open_store
from saves.store import Store
from tracker.app import CombatTrackerApp
from tracker.bindings import key_ids
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.screens.picker import PickerScreen
from tracker.screens.prompt import NoticeScreen


async def open_help(pilot: Pilot, app: CombatTrackerApp) -> VerticalScroll:
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    return app.screen.query_one(VerticalScroll)


async def scrolled(pilot: Pilot, scroll: VerticalScroll, *keys: str) -> float:
    """Where the help is scrolled to once *keys* are pressed."""
    await pilot.press(*keys)
    await pilot.pause()
    return scroll.scroll_y


async def test_j_and_k_scroll_the_help_screen_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        scroll = await open_help(pilot, app)
        assert scroll.scroll_y == 0 and scroll.max_scroll_y > 3
        assert await scrolled(pilot, scroll, "j", "j", "j") == 3
        assert await scrolled(pilot, scroll, "k") == 2
        assert await scrolled(pilot, scroll, "down") == 3
        assert await scrolled(pilot, scroll, "up", "up", "up", "k") == 0  # stays at the top
        assert isinstance(app.screen, HelpScreen)  # j / k moved nothing behind it


async def test_keys_in_one_burst_scroll_a_line_each() -> None:
    """A held j, or j j j typed in one read, must not scroll one line:
    each key scrolls from where the last one left the list, arrows too."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        scroll = await open_help(pilot, app)
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        for key, lines in (("j", 1), ("down", 1), ("k", -1), ("up", -1)):
            assert screen.active_bindings[key].binding.action == f"scroll_keys({lines})"
        for _ in range(3):  # no pause between: the keys of one burst
            screen.action_scroll_keys(1)
        await pilot.pause()
        assert scroll.scroll_y == 3


async def test_the_help_keys_row_names_the_scroll_keys_and_they_rebind_by_id() -> None:
    assert {"help.down", "help.up", "help.close"} <= key_ids()
    app = make_app(keymap={"help.down": "n", "help.up": "p"})
    async with app.run_test(size=(80, 24)) as pilot:
        scroll = await open_help(pilot, app)
        row = app.screen.query_one(".dialog-keys", Static)
        assert str(row.render()) == "↑↓ n p: scroll · Esc: close"
        assert await scrolled(pilot, scroll, "n", "n") == 2
        assert await scrolled(pilot, scroll, "p") == 1
        await pilot.press("escape")
        assert isinstance(app.screen, EncounterScreen)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_help(pilot, app)
        row = app.screen.query_one(".dialog-keys", Static)
        assert str(row.render()) == "↑↓ j k: scroll · Esc: close"


async def test_the_pickers_help_scrolls_with_j_too(tmp_path: Path) -> None:
    with picker_app(tmp_path) as app:
        async with app.run_test(size=(60, 20)) as pilot:
            assert isinstance(app.screen, PickerScreen)
            scroll = await open_help(pilot, app)
            assert await scrolled(pilot, scroll, "j", "j") == 2
            await pilot.press("escape")
            assert isinstance(app.screen, PickerScreen)


def store_with_notices(tmp_path: Path, count: int) -> Store:
    """A database whose opening found *count* things to repair."""
    store = open_store(tmp_path / "e.json")
    LiveEncounter.create(store, "Bridge trolls").close()
    store.notices.extend(
        f"The journal of 'Bridge trolls {n}' was damaged at line {n}; the steps "
        "before it were kept and the damaged copy set aside."
        for n in range(1, count + 1)
    )
    return store


async def test_j_and_k_scroll_the_notices_as_they_do_the_help(tmp_path: Path) -> None:
    store = store_with_notices(tmp_path, 12)
    try:
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, NoticeScreen)
            scroll = app.screen.query_one(VerticalScroll)
            assert scroll.scroll_y == 0 and scroll.max_scroll_y > 3
            assert await scrolled(pilot, scroll, "j", "j", "j") == 3
            assert await scrolled(pilot, scroll, "k") == 2
            assert await scrolled(pilot, scroll, "down") == 3
            assert await scrolled(pilot, scroll, "up", "up", "up", "k") == 0
            row = app.screen.query_one(".dialog-keys", Static)
            assert str(row.render()) == "Enter / Esc: close · ↑↓ j k: scroll"
            await pilot.press("enter")
            assert isinstance(app.screen, PickerScreen)  # j / k moved nothing behind it
    finally:
        store.close()


async def test_the_notices_scroll_keys_rebind_with_the_helps(tmp_path: Path) -> None:
    store = store_with_notices(tmp_path, 12)
    try:
        keymap = {"help.down": "n", "help.up": "p"}
        app = CombatTrackerApp(store, config=Config(keymap=keymap), rng=random.Random(1))
        async with app.run_test(size=(60, 20)) as pilot:
            assert isinstance(app.screen, NoticeScreen)
            scroll = app.screen.query_one(VerticalScroll)
            assert await scrolled(pilot, scroll, "n", "n") == 2
            assert await scrolled(pilot, scroll, "p") == 1
            row = app.screen.query_one(".dialog-keys", Static)
            assert str(row.render()) == "Enter / Esc: close · ↑↓ n p: scroll"
    finally:
        store.close()
