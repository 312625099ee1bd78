"""The panes with a big fight (issue 4, "Snappy with a big fight"): what the
GM sees is complete although only what is visible is drawn.

50 combatants and a 10,000-entry log, seeded and in memory.  The initiative
pane repaints only the rows an action changed; the log is first written with
its visible tail and gets the full window when the GM scrolls to the top;
the footer greys the keys that do not apply.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.footer import KeyFooter
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import WINDOW, LogPane


def big_fight(entries: int = 10_000, started: bool = True) -> LiveEncounter:
    session = Session(Encounter("Big fight"), rng=random.Random(5))
    session.apply("add Goblin count 49 hp 2d6+2 al 13")
    session.apply("add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player")
    if started:
        session.apply("start")
    while len(session.log) < entries:
        session.apply("roll 1d20")
    return LiveEncounter.in_memory(session)


def app_for(live: LiveEncounter, follow_turn: bool = True) -> CombatTrackerApp:
    return CombatTrackerApp(live=live, config=Config(follow_turn=follow_turn))


def title(widget: Widget, bottom: bool = False) -> str:
    """A border title (or subtitle) as drawn (tests/tracker/test_hostile_names.py)."""
    y = widget.outer_size.height - 1 if bottom else 0
    line = widget.render_lines(Region(0, y, widget.outer_size.width, 1))[0].text
    if bottom:
        return line[1:-3].lstrip("─").strip()
    return line[3:].rstrip("─╮").removesuffix(" ")


def shown(pane: LogPane) -> list[str]:
    return [strip.text for strip in pane.lines]


async def test_damage_redraws_only_the_hit_row_and_the_row_shows_it() -> None:
    app = app_for(big_fight(entries=100))
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(InitiativePane)
        await pilot.press("d", "3", "enter")
        target = table.selected_index
        assert target is not None
        hit = app.live.session.encounter.combatants[target]
        assert f"{hit.hp}/{hit.max_hp}" in " ".join(str(c) for c in table.get_row_at(target))
        assert table.show(app.live.session.encounter) == 0  # nothing left to redraw
        drawn = list(table._strips)
        await pilot.press("d", "2", "enter")
        # the hit row was drawn again; every other drawn row kept its lines
        kept = [i for i, strip in enumerate(drawn) if strip is not None]
        assert len(kept) > 10
        redrawn = [i for i in kept if table._strips[i] is not drawn[i]]
        assert redrawn == [target]


async def test_arrows_home_and_end_move_the_selection_and_scroll_to_it() -> None:
    app = app_for(big_fight(entries=10))
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(InitiativePane)
        names = [c.name for c in app.live.session.encounter.combatants]
        await pilot.press("end")
        assert table.cursor_row == 49 and app.live.ui_state["selected"] == names[49]
        assert table.scroll_offset.y > 0  # the last row is in view
        await pilot.press("up")
        assert app.live.ui_state["selected"] == names[48]
        await pilot.press("home", "down")
        assert app.live.ui_state["selected"] == names[1] and table.scroll_offset.y == 0


async def test_the_log_opens_on_its_newest_entries_and_scrolling_up_brings_the_window() -> None:
    live = big_fight()
    app = app_for(live)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(LogPane)
        await pilot.pause()
        last = live.session.log[-1].text
        assert shown(pane)[-1].endswith(last[-20:])  # newest at the bottom
        assert pane.scroll_y == pane.max_scroll_y  # followed
        written = len(pane.lines)
        assert written < WINDOW  # only the visible tail was drawn
        assert "earlier entries" in shown(pane)[0]
        top_entry = shown(pane)[1]  # under the one-line "earlier entries" note
        pane.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        await pilot.pause()
        assert len(pane.lines) > written  # the window arrived
        view = int(pane.scroll_y)
        assert shown(pane)[view + 1] == top_entry  # and the view did not jump
        await pilot.press("n")  # new entries still follow at the bottom
        assert pane.scroll_y == pane.max_scroll_y
        assert shown(pane)[-1].endswith("turn")


async def test_footer_greys_what_does_not_apply_and_updates_after_start() -> None:
    app = app_for(big_fight(entries=0, started=False))
    async with app.run_test(size=(120, 40)) as pilot:
        footer = app.screen.query_one(KeyFooter)
        enabled = {label: on for _key, _shown, label, on in footer.items}
        assert enabled["Start"] and not enabled["Next"] and not enabled["Prev"]
        await pilot.press("s", "enter")  # Zalek's row left blank: rolled
        enabled = {label: on for _key, _shown, label, on in footer.items}
        assert enabled["Next"] and enabled["Undo"] and not enabled["Start"]


async def test_keys_typed_faster_than_the_screen_updates_keep_the_selection() -> None:
    """``down down n`` arriving in one burst: next turn must not put the
    selection back where it was before the arrows (the arrows' Selected
    messages are still queued when ``n`` runs), when the selection does not
    follow the turn (tests/tracker/test_turn_in_view.py: when it does)."""
    app = app_for(big_fight(entries=10), follow_turn=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        names = [c.name for c in app.live.session.encounter.combatants]
        table = screen.query_one(InitiativePane)
        table.action_cursor_down()  # as the down arrow does, message not yet handled
        table.action_cursor_down()
        screen.action_next_turn()
        await pilot.pause()
        assert table.cursor_row == 2
        assert app.live.ui_state["selected"] == names[2]
        assert str(screen.query_one("#combatant").border_title) == names[2]


async def test_new_log_lines_move_the_scrollbars_without_a_layout_pass() -> None:
    # a line count that neither shows nor hides a scrollbar changes no size on
    # screen: the pane moves its scrollbar itself (no layout pass of the whole
    # screen per key), and a layout pass afterwards finds every scrollbar as
    # the panes left it
    app = app_for(big_fight(entries=100))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        panes = [screen.query_one(InitiativePane), screen.query_one(LogPane)]
        bars = [pane.vertical_scrollbar for pane in panes]
        assert all(pane.show_vertical_scrollbar for pane in panes)

        def geometry() -> list[tuple[int, int, float]]:
            return [(b.window_size, b.window_virtual_size, b.position) for b in bars]

        layouts: list[object] = []
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
        before = geometry()
        await pilot.press("n")
        await pilot.pause()
        assert layouts == []
        moved = geometry()
        assert moved[1][1] > before[1][1] and moved[1][2] > before[1][2]  # the log grew, followed
        assert moved[0] == before[0]
        screen.refresh(layout=True)
        await pilot.pause()
        assert layouts and geometry() == moved
        # a real size change still reaches them
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert geometry() != moved


@pytest.mark.parametrize("follow_turn", [False, True])
async def test_next_turn_repaints_what_changed_not_the_screen_or_whole_panes(
    monkeypatch: pytest.MonkeyPatch, follow_turn: bool
) -> None:
    # issue 10: n writes only what changed to the terminal (bench/bench_repaint.py
    # measures the bytes).  A refresh without regions repaints a widget whole
    # (border included), the screen's repaints every cell: n changes the
    # order's title (its top border row), two rows and the log's lines, and
    # nothing else of the screen
    calls: list[tuple[str, tuple[Region, ...]]] = []
    watched = (EncounterScreen, InitiativePane, CombatantPane, LogPane)
    refresh = Widget.refresh  # what every refresh comes to, as it asks to repaint

    def counting(self: Widget, *regions: Region, **kw: Any) -> Any:
        if isinstance(self, watched) and kw.get("repaint", True):
            calls.append((type(self).__name__, regions))
        return refresh(self, *regions, **kw)

    monkeypatch.setattr(Widget, "refresh", counting)
    # (following the turn, the combatant pane shows the new active
    # combatant: only its rows that read differently are repainted)
    app = app_for(big_fight(entries=300), follow_turn=follow_turn)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        table, log = screen.query_one(InitiativePane), screen.query_one(LogPane)
        for _ in range(3):
            active = app.live.session.encounter.active
            calls.clear()
            await pilot.press("n")
            await pilot.pause()
            now = app.live.session.encounter.active
            now_index = app.live.session.encounter.turn
            assert now is not active and now is not None and now_index is not None
            whole = {name for name, regions in calls if not regions}
            assert whole == set()  # the screen, or a pane with its border
            pane_rows = [r for name, rs in calls if name == "CombatantPane" for r in rs]
            assert all(r.height == 1 for r in pane_rows)
            assert bool(pane_rows) is follow_turn
            table_rows = [r for name, rs in calls if name == "InitiativePane" for r in rs]
            assert table_rows and all(r.height == 1 for r in table_rows)
            log_regions = [r for name, rs in calls if name == "LogPane" for r in rs]
            assert log_regions and all(log.size.region.contains_region(r) for r in log_regions)
            # what the narrowed repaints draw is the new state
            deck = app.live.session.encounter.combatants[now_index + 1].name
            assert title(table) == f"Round 1 · {now.name}'s turn · next {deck}"
            assert title(table, bottom=True) == "Big fight"
            assert screen.sub_title == f"Big fight · Round 1 · {now.name}'s turn"
            assert (table.cursor_row == now_index) is follow_turn


async def test_one_action_of_thousands_of_entries_wraps_only_the_window() -> None:
    # a ``:`` line of 100 actions on a horde logs 50,000 entries at once:
    # the pane wraps the window it keeps, not every entry it would trim
    live = big_fight(entries=10)
    app = app_for(live)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(LogPane)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        before = len(live.session.log)
        screen.apply("; ".join(["cond all prone rounds 2"] * 100))
        await pilot.pause()
        added = len(live.session.log) - before
        assert added == 100 * 50
        log = live.session.log
        pane.show(log[:before])  # the log as it was before the action
        wrapped = pane.show(log)
        assert wrapped <= WINDOW, f"{wrapped} entries wrapped for a window of {WINDOW}"
        assert shown(pane)[-1].endswith(log[-1].text[-20:])  # the newest at the bottom
        earlier = int(shown(pane)[0].split()[1])  # "… N earlier entries (…)"
        assert len(log) - WINDOW <= earlier < len(log)
        assert pane.scroll_y == pane.max_scroll_y
