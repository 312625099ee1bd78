"""The turn is always in view (issue 11): with a horde at 80×24, every turn
change (``n``, ``p``, ``s``, their undo and redo, removing the active
combatant) brings the active ``▶`` row into the initiative pane, the
selection follows the turn unless ``follow_turn = false``, ``g`` jumps to
the active combatant, and ``▷`` marks who is next."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.bindings import ENCOUNTER_KEYS
from tracker.config import Config, load_config
from tracker.screens.help import HelpScreen
from tracker.widgets.initiative import InitiativePane

ROOT = Path(__file__).resolve().parents[2]


def horde(count: int, started: bool = True) -> LiveEncounter:
    session = Session(Encounter("Horde"), rng=random.Random(11))
    session.apply("add Zalek hp 30 al 15 player init 25")
    for first in range(1, count, 100):  # at most 100 in one add
        session.apply(f"add Zombie count {min(100, count - first)} hp 2d8 al 8")
    if started:
        session.apply("start")
    return LiveEncounter.in_memory(session)


def make_app(live: LiveEncounter, follow_turn: bool = True) -> CombatTrackerApp:
    return CombatTrackerApp(live=live, config=Config(follow_turn=follow_turn))


def pane(app: CombatTrackerApp) -> InitiativePane:
    return app.screen.query_one(InitiativePane)


def shown_rows(app: CombatTrackerApp) -> list[str]:
    """The initiative pane's rows as drawn now (the header left out)."""
    table = pane(app)
    return [table.render_line(y).text for y in range(1, table.scrollable_content_region.height)]


def active_shown(app: CombatTrackerApp) -> str:
    """The drawn row with the ▶; fails when it is out of view."""
    rows = [row for row in shown_rows(app) if row.startswith("▶")]
    assert len(rows) == 1, shown_rows(app)
    return rows[0]


async def check_turn_in_view(pilot: Pilot, follow: bool = True) -> None:
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, CombatTrackerApp)
    enc = app.live.session.encounter
    assert enc.active is not None and enc.turn is not None
    assert f" {enc.active.name} " in active_shown(app) + " "
    if follow:
        assert pane(app).cursor_row == enc.turn
        assert app.live.ui_state["selected"] == enc.active.name
        assert str(app.screen.query_one("#combatant").border_title) == enc.active.name


@pytest.mark.parametrize("count", [40, 150])
async def test_n_keeps_the_active_row_in_view_round_after_round(count: int) -> None:
    app = make_app(horde(count))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await check_turn_in_view(pilot)
        for _ in range(count + 3):  # past the bottom and round to the top
            await pilot.press("n")
            await check_turn_in_view(pilot)
        assert app.live.session.encounter.round == 2


async def test_the_pane_scrolls_once_a_page_not_once_a_turn() -> None:
    app = make_app(horde(40))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tops = []
        for _ in range(39):
            await pilot.press("n")
            tops.append(int(pane(app).scroll_offset.y))
        assert len(set(tops)) < 8  # a few pages, never one scroll per n
        # the row before and after the active one stay in view as it pages
        enc = app.live.session.encounter
        rows = shown_rows(app)
        assert enc.turn is not None
        assert any(enc.combatants[enc.turn - 1].name in row for row in rows)


async def test_p_undo_redo_and_start_bring_the_turn_back_into_view() -> None:
    app = make_app(horde(40, started=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")  # the GM looks at the bottom of the list
        await pilot.press("s")
        await check_turn_in_view(pilot)
        for _ in range(30):
            await pilot.press("n")
        await pilot.press("home")  # scrolls away from the turn
        await pilot.press("p")
        await check_turn_in_view(pilot)
        await pilot.press("home", "ctrl+z")  # undoes the prev
        await check_turn_in_view(pilot)
        await pilot.press("home", "ctrl+y")
        await check_turn_in_view(pilot)
        await pilot.press("home")
        while app.live.session.encounter.started:
            await pilot.press("ctrl+z")  # back to before start: nobody's turn
        assert not app.live.session.encounter.started
        assert not any(row.startswith("▶") for row in shown_rows(app))
        await pilot.press("ctrl+y")  # the start again
        await check_turn_in_view(pilot)


async def test_removing_the_active_combatant_brings_the_next_into_view() -> None:
    app = make_app(horde(40))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.press("n")
        gone = app.live.session.encounter.active
        assert gone is not None
        await pilot.press("home", "g")  # away, then back to the turn
        await check_turn_in_view(pilot)
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        names = [c.name for c in app.live.session.encounter.combatants]
        assert gone.name not in names
        await check_turn_in_view(pilot)


async def test_with_follow_turn_off_the_turn_shows_but_the_selection_stays() -> None:
    app = make_app(horde(40), follow_turn=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j", "j")
        kept = app.live.ui_state["selected"]
        for _ in range(25):
            await pilot.press("n")
            await check_turn_in_view(pilot, follow=False)
        assert app.live.ui_state["selected"] == kept
        assert str(app.screen.query_one("#combatant").border_title) == kept
        assert pane(app).selected_name == kept
        marks_before = list(app.live.ui_state.get("marked", []))
        await pilot.press("g")
        await check_turn_in_view(pilot)  # now the selection is on the turn too
        assert list(app.live.ui_state.get("marked", [])) == marks_before


async def test_following_the_turn_leaves_the_marks_alone() -> None:
    # kept until Esc: the default keep_marks clears them as the turn passes
    app = CombatTrackerApp(live=horde(10), config=Config(keep_marks="until-esc"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j", "j", "space", "j", "space")
        marked = list(app.live.ui_state["marked"])
        assert len(marked) == 2
        await pilot.press("n", "n", "n")
        await check_turn_in_view(pilot)
        assert app.live.ui_state["marked"] == marked
        assert sum("●" in row[:2] for row in shown_rows(app)) == 2


async def test_g_before_the_fight_says_why_it_does_nothing() -> None:
    app = make_app(horde(5, started=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("j", "g")
        await pilot.pause()
        assert pane(app).cursor_row == 1
        messages = [n.message for n in app._notifications]
        assert "the fight has not started: s starts it" in messages


async def test_on_deck_is_marked_and_named_in_the_title() -> None:
    live = horde(6)
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        enc = live.session.encounter
        zombies = [c.name for c in enc.combatants if c.name != "Zalek"]
        # the next zombie down: skipped, so the one after it is on deck
        await pilot.press("colon")
        for ch in f"damage '{zombies[0]}' 99":
            await pilot.press("space" if ch == " " else ch)
        await pilot.press("enter")
        await pilot.pause()
        deck = [row for row in shown_rows(app) if row.startswith("▷")]
        assert len(deck) == 1 and f" {zombies[1]} " in deck[0] + " "
        assert any(f" {zombies[0]} " in row and "down" in row for row in shown_rows(app))
        title = str(pane(app).border_title)
        assert title == f"Round 1 · Zalek's turn · next {zombies[1]}"
        await pilot.press("n")
        assert live.session.encounter.active is not None
        assert live.session.encounter.active.name == zombies[1]  # what ▷ said


async def test_g_is_in_the_help_screen_and_the_readme() -> None:
    key = next(k for k in ENCOUNTER_KEYS if k.id == "select.active")
    assert key.key == "g" and key.action == "select_active"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`select.active`" in readme and "follow_turn" in readme
    app = make_app(horde(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        cells = [str(c) for col in app.screen.table.columns for c in col.cells]
        assert "g" in cells and "select.active" in " ".join(cells)


def test_follow_turn_is_read_from_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert load_config(path).follow_turn is True  # no file: on
    path.write_text("[settings]\nfollow_turn = false\n", encoding="utf-8")
    assert load_config(path).follow_turn is False
    path.write_text('[settings]\nfollow_turn = "no"\n', encoding="utf-8")
    config = load_config(path)
    assert config.follow_turn is True
    assert config.problems == [f"{path}: follow_turn must be true or false"]
