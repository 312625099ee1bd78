"""A horde in the initiative pane (issue 11, "snappy with hordes"): the pane
repaints only the rows that changed and draws most rows straight to
segments, yet what it paints is the fight as it is now.  150 combatants in
two groups, a fireball on the marked first rows, the turn passing (the
marks clear), and undo: after each, every row in view reads its
combatant's HP, its mark and the turn, as Textual paints them."""

from __future__ import annotations

import random

from textual.geometry import Region
from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.initiative_rows import hp_text

MARKED = 12


def horde() -> LiveEncounter:
    session = Session(Encounter("Hordes"), rng=random.Random(3))
    session.apply("add Ayla hp 30 al 15 dex 14 player")
    session.apply("add Brom hp 38 al 17 con 16 player")
    session.apply("add Zombie count 100 hp 2d8 al 8 con 16")
    session.apply("add Skeleton count 46 hp 2d8 al 13 dex 14")
    session.apply("start")
    return LiveEncounter.in_memory(session)


def painted(pane: InitiativePane) -> dict[str, str]:
    """Each combatant row in view as Textual paints it (the styles cache's
    lines, so a row the pane forgot to repaint still shows its old text),
    by the name the row shows."""
    width, height = pane.outer_size
    lines = [strip.text for strip in pane.render_lines(Region(0, 0, width, height))]
    rows = lines[2:-1]  # the top border and the header; the bottom border
    top = int(pane.scroll_offset.y)
    combatants = pane.app.live.encounter.combatants  # type: ignore[attr-defined]
    shown = {}
    for i, line in enumerate(rows):
        if top + i < len(combatants):
            shown[combatants[top + i].name] = line
    return shown


def check(pane: InitiativePane, marked: set[str]) -> None:
    enc = pane.app.live.encounter  # type: ignore[attr-defined]
    shown = painted(pane)
    assert len(shown) > MARKED
    for c in enc.combatants:
        if c.name not in shown:
            continue
        line = shown[c.name]
        assert c.name in line
        assert hp_text(c)[0].strip() in line, (c.name, line)
        assert ("●" in line[:4]) is (c.name in marked), (c.name, line)
        assert ("▶" in line[:4]) is (c is enc.active), (c.name, line)


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def test_every_row_in_view_reads_the_fight_after_a_fireball_the_turn_and_undo() -> None:
    live = horde()
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(InitiativePane)
        before = {c.name: c.hp for c in live.encounter.combatants}
        for _ in range(MARKED):
            await pilot.press("space", "j")
        marked = {c.name for c in live.encounter.combatants[:MARKED]}
        await pilot.pause()
        check(pane, marked)
        await pilot.press("d")
        await type_text(pilot, "8d6 fire")
        await pilot.press("enter")
        await pilot.pause()
        hit = {c.name: c.hp for c in live.encounter.combatants}
        assert {n for n in marked if hit[n] != before[n]}  # the fireball changed HP
        check(pane, marked)  # new HP, marks kept for the next action
        await pilot.press("n")
        await pilot.pause()
        check(pane, set())  # the turn passed: the marks cleared
        await pilot.press("ctrl+z", "ctrl+z")
        await pilot.pause()
        assert {c.name: c.hp for c in live.encounter.combatants} == before
        check(pane, set())  # the HP before the fireball again
