"""A second combat in one fight (``E``, then ``s``): the log pane draws a
rule naming it over its "Round 1", numbered as ``export`` heads it
("Combat 2"), through undo and redo, a resume, and a log whose first
combat began before the entries held in memory."""

from __future__ import annotations

import random
from pathlib import Path

from rules.encounter import Encounter, LogEntry
from rules.engine import Session
from saves.live import LiveEncounter, open_store
from tests.saves.test_combats_counted import two_combats
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.widgets.log import LogPane


def lines(app: CombatTrackerApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.screen.query_one(LogPane).lines]


def rules_over_round_one(shown: list[str]) -> list[str]:
    """Each combat rule, and that the line under it is the combat's Round 1."""
    found = []
    for i, line in enumerate(shown):
        if line.startswith("── "):
            assert shown[i + 1] == "R1 Round 1", shown[i : i + 2]
            found.append(line.strip("─ "))
    return found


def fresh() -> LiveEncounter:
    session = Session(Encounter("Ambush"), rng=random.Random(3))
    session.apply("add Ogre hp 30 al 12")
    session.apply("add Goblin hp 7 al 12")
    return LiveEncounter.in_memory(session)


async def test_a_new_combat_is_named_in_the_log_and_undo_takes_the_name_away() -> None:
    app = CombatTrackerApp(live=fresh(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "n", "n", "E", "y")
        assert rules_over_round_one(lines(app)) == []  # one combat: no rule, as export
        await pilot.press("s", "n")
        await pilot.pause()
        assert rules_over_round_one(lines(app)) == ["Combat 2"]
        assert lines(app).count("R1 Round 1") == 2
        await pilot.press("ctrl+z", "ctrl+z")  # the n and the second start
        assert rules_over_round_one(lines(app)) == []
        await pilot.press("ctrl+y", "ctrl+y")
        assert rules_over_round_one(lines(app)) == ["Combat 2"]
        await pilot.press("E", "y", "s")
        await pilot.pause()
        assert rules_over_round_one(lines(app)) == ["Combat 2", "Combat 3"]


async def test_a_resumed_fight_numbers_a_combat_whose_first_began_in_older_steps(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    two_combats(db)
    store = open_store(db)
    try:
        live = LiveEncounter.open(store, "Ambush")
        assert live.log_earlier > 0  # combat 1's Round 1 is only in the steps file
        app = CombatTrackerApp(store, live=live, config=Config())
        async with app.run_test(size=(100, 30)) as pilot:
            pane = app.screen.query_one(LogPane)
            await pilot.pause()
            assert rules_over_round_one(lines(app)) == ["Combat 2"]
            pane.scroll_to(y=0, animate=False, immediate=True)  # the whole window
            await pilot.pause()
            await pilot.pause()
            assert "earlier entries" in lines(app)[0]
            assert rules_over_round_one(lines(app)) == ["Combat 2"]
            # undo into the saved steps: their entries come back as combat 1's
            while app.live.log_earlier:
                await pilot.press("ctrl+z")
            await pilot.pause()
            assert rules_over_round_one(lines(app)) == []
            for _ in range(len(app.live.session.history.redo_steps)):
                await pilot.press("ctrl+y")
            await pilot.pause()
            assert rules_over_round_one(lines(app)) == ["Combat 2"]
    finally:
        store.close()


async def test_an_unknown_count_still_marks_the_new_combat() -> None:
    live = fresh()
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(LogPane)
        log = [
            LogEntry(1, 3, "", "Combat ends after 3 rounds (initiative cleared: …)"),
            LogEntry(2, 1, "", "Round 1"),
            LogEntry(2, 1, "Ogre", "Ogre's turn"),
        ]
        pane.show(log, 40, None)  # the older steps could not be read
        assert rules_over_round_one(lines(app)) == ["New combat"]
        pane.show(log, 40, 1)
        assert rules_over_round_one(lines(app)) == ["Combat 2"]
