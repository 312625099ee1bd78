"""Any terminal size is safe (issue 9).

Below 40×12 the encounter screen says how big to make the terminal; from
there up every pane is legible, and at 60 columns HP (``38/38``) and
``down`` stay whole and the monsters can be told apart.  Dialogs and the
picker never crash at any size; quitting while keys still arrive, or
pasting into the command line, never crashes either.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.geometry import Region
from textual.widgets import Input

from rules.engine import Session
from saves.live import LiveEncounter, open_store
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.initiative_rows import fit_name
from tracker.widgets.too_small import MESSAGE, MIN_HEIGHT, MIN_WIDTH

WIDTHS = (1, 2, 5, 10, 20, 30, 37, 38, 40, 50, 60, 80, 120, 200)
HEIGHTS = (1, 3, 5, 10, 11, 12, 15, 24, 40, 60)


def screen_text(app: CombatTrackerApp) -> str:
    lines = []
    for widget in app.screen.query("*"):
        if widget.display and widget.size.area:
            region = Region(0, 0, *widget.outer_size)
            lines += [strip.text for strip in widget.render_lines(region)]
    return "\n".join(lines)


def rows(app: CombatTrackerApp) -> list[str]:
    pane = app.screen.query_one(InitiativePane)
    return [pane.render_line(y).text for y in range(1, min(pane.size.height, pane.row_count + 1))]


async def test_every_size_shows_the_message_or_legible_panes(
    crypt_fight: Callable[[], Session],
) -> None:
    app = CombatTrackerApp(live=LiveEncounter.in_memory(crypt_fight()), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        for i, width in enumerate(WIDTHS):
            # every height for a few widths, a sample for the others
            heights = HEIGHTS if width in (1, 40, 60, 200) else HEIGHTS[i % 3 :: 3]
            for height in heights:
                await pilot.resize_terminal(width, height)
                await pilot.pause()
                assert isinstance(app.screen, EncounterScreen)
                text = screen_text(app)
                small = width < MIN_WIDTH or height < MIN_HEIGHT
                pane = app.screen.query_one(InitiativePane)
                assert pane.display is not small, (width, height)
                if small:
                    if width * height >= len(MESSAGE) * 2:
                        assert "".join(MESSAGE.split()) in "".join(text.split())
                    continue
                shown = rows(app)
                assert shown, (width, height)
                for line in shown:
                    # HP whole: every number pair or "down" is complete
                    assert " 38/38" in line or " 59/59" in line or " down" in line, line
                names = [line[5:].split(" 38/38")[0].split(" down")[0].strip() for line in shown]
                assert len(set(names)) == len(names), names  # told apart
        assert app.return_code is None


async def test_at_60_columns_hp_and_down_stay_whole_and_names_differ(
    crypt_fight: Callable[[], Session],
) -> None:
    app = CombatTrackerApp(live=LiveEncounter.in_memory(crypt_fight()), config=Config())
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        shown = rows(app)
        assert any(" down" in line for line in shown)
        assert sum(" 38/38" in line for line in shown) >= len(shown) - 2
        assert "█" not in "".join(shown)  # the bar went first
        assert any("Archer 12" in line or "… 12" in line for line in shown) or len(shown) < 13


def test_names_are_cut_in_the_middle_keeping_their_number() -> None:
    assert fit_name("Goblin Archer 12", 9) == "Gobli… 12"
    assert fit_name("Goblin Archer", 9) == "Goblin A…"
    assert fit_name("Goblin Archer B", 9) == "Goblin… B"  # a short last word stays too
    assert fit_name("Goblin Archer A", 9) != fit_name("Goblin Archer B", 9)
    assert fit_name("Zalek", 9) == "Zalek"
    assert fit_name("漢字漢字漢字", 5) == "漢字…"  # cells, not characters
    assert fit_name("Ogre", 0) == ""


async def test_dialogs_and_the_picker_survive_tiny_terminals(tmp_path: Path) -> None:
    store = open_store(tmp_path / "db.json")
    live = LiveEncounter.create(store, "Crypt", rng=random.Random(1))
    live.do("add Goblin hp 7")
    live.close()
    app = CombatTrackerApp(store, config=Config(), rng=random.Random(2))
    async with app.run_test(size=(80, 24)) as pilot:
        for size in ((1, 1), (5, 3), (20, 5), (39, 11)):
            await pilot.resize_terminal(*size)
            await pilot.press("n")  # the new-encounter form over the picker
            await pilot.pause()
            await pilot.press("escape")
        await pilot.resize_terminal(80, 24)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        for size in ((1, 1), (10, 4), (45, 12), (30, 30)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            # a dialog open as the terminal shrinks under it
        await pilot.resize_terminal(80, 24)
        await pilot.press("d")
        for size in ((1, 1), (10, 4), (45, 12)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.press("escape")
        assert app.return_code is None
    store.close()


async def test_quitting_with_keys_still_arriving_never_crashes(
    crypt_fight: Callable[[], Session],
) -> None:
    for burst in (
        ["q", "j", "d", "5", "enter", "colon", "a"],
        ["d", "ctrl+q", "5", "enter", "j"],
        ["ctrl+p", "d", "a", "ctrl+q", "m", "enter"],
        ["m", "q", "d", "q"],
        ["colon", "n", "e", "x", "t", "enter", "ctrl+q", "j", "e"],
    ):
        app = CombatTrackerApp(live=LiveEncounter.in_memory(crypt_fight()), config=Config())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in burst:  # queued at once, as a fast typist's keys are
                app.post_message(events.Key(key, key if len(key) == 1 else None))
            for _ in range(20):
                if app.return_code is not None:
                    break
                await pilot.pause(0.05)
            app.exit()
        assert app.return_code == 0, burst


async def test_a_paste_into_the_command_line_is_text_in_order_controls_dropped(
    crypt_fight: Callable[[], Session],
) -> None:
    app = CombatTrackerApp(live=LiveEncounter.in_memory(crypt_fight()), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        line = app.screen.query_one("#command-input", Input)
        app.screen.query_one("#command-input").post_message(
            events.Paste("damage Ogre\x1b[2J 5\nheal\x1b]52;c;eA==\x07 Ogre\t2\r\nq")
        )
        await pilot.pause()
        assert line.value == "damage Ogre[2J 5 heal]52;c;eA== Ogre 2 q"
        assert app.return_code is None and isinstance(app.screen, EncounterScreen)
        ogre = next(c for c in app.live.session.encounter.combatants if c.name == "Ogre")
        assert ogre.hp == 59  # nothing pasted ran as a key or an action
