"""A second combat in one fight (``E``, then ``s``): the log pane draws a
rule naming it over the first line its ``start`` logged (its initiative
rolls and Dash checks come before its "Round 1"), numbered and placed as
``export`` heads it ("Combat 2"), through undo and redo, a resume, and a
log whose first combat began before the entries held in memory."""

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


def combat_rules(shown: list[str]) -> list[str]:
    """Each combat rule, checking it is over what its start logged: its
    initiative first, its Dash checks before its round 1, and none of that
    above it, after the combat that ended."""
    found = []
    for i, line in enumerate(shown):
        if line.startswith("── "):
            opening = " ".join(shown[i + 1 : shown.index("R1 Round 1", i)])
            assert "initiative" in shown[i + 1] and "Dash check" in opening, shown[i : i + 3]
            between = " ".join(shown[:i]).rsplit("Combat ends after", 1)[-1]
            assert "rolls initiative" not in between and "Dash check" not in between, between
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
        assert combat_rules(lines(app)) == []  # one combat: no rule, as export
        await pilot.press("s", "n")
        await pilot.pause()
        assert combat_rules(lines(app)) == ["Combat 2"]
        assert lines(app).count("R1 Round 1") == 2
        await pilot.press("ctrl+z", "ctrl+z")  # the n and the second start
        assert combat_rules(lines(app)) == []
        await pilot.press("ctrl+y", "ctrl+y")
        assert combat_rules(lines(app)) == ["Combat 2"]
        await pilot.press("E", "y", "s")
        await pilot.pause()
        assert combat_rules(lines(app)) == ["Combat 2", "Combat 3"]


async def test_the_rule_sits_above_the_new_combats_initiative_not_below_it() -> None:
    app = CombatTrackerApp(live=fresh(), config=Config())
    async with app.run_test(size=(200, 40)) as pilot:  # wide: no entry wraps
        await pilot.press("s", "n", "n", "E", "y")
        await pilot.press("d")  # a hit between the combats: before the rule
        await pilot.pause()
        await pilot.press("2", "enter")
        await pilot.press("s")
        await pilot.pause()
        shown = lines(app)
        rule = next(i for i, line in enumerate(shown) if line.startswith("── Combat 2 "))
        assert shown[rule - 2].startswith("R2 Combat ends after 2 rounds")
        assert shown[rule - 1] == "–  Goblin takes 2 (2 HP lost, 5/7 left)"
        rolls = shown[rule + 1 : rule + 3]
        assert all(" rolls initiative: d20 " in line for line in rolls), rolls
        assert {line.split()[1] for line in rolls} == {"Ogre", "Goblin"}
        assert shown[rule + 3].startswith("–  No start-of-combat Dash check")
        assert shown[rule + 4] == "R1 Round 1"


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
            assert combat_rules(lines(app)) == ["Combat 2"]
            pane.scroll_to(y=0, animate=False, immediate=True)  # the whole window
            await pilot.pause()
            await pilot.pause()
            assert "earlier entries" in lines(app)[0]
            assert combat_rules(lines(app)) == ["Combat 2"]
            # undo into the saved steps: their entries come back as combat 1's
            while app.live.log_earlier:
                await pilot.press("ctrl+z")
            await pilot.pause()
            assert combat_rules(lines(app)) == []
            for _ in range(len(app.live.session.history.redo_steps)):
                await pilot.press("ctrl+y")
            await pilot.pause()
            assert combat_rules(lines(app)) == ["Combat 2"]
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
            LogEntry(2, 0, "Ogre", "Ogre rolls initiative: d20 (4) + 0 = 4"),
            LogEntry(2, 0, "", "No start-of-combat Dash check (no CON and Athletics): Ogre"),
            LogEntry(2, 1, "", "Round 1"),
            LogEntry(2, 1, "Ogre", "Ogre's turn"),
        ]
        pane.show(log, 40, None)  # the older steps could not be read
        assert combat_rules(lines(app)) == ["New combat"]
        pane.show(log, 40, 1)
        assert combat_rules(lines(app)) == ["Combat 2"]
