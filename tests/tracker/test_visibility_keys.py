"""The GM's side of the players' view (issue 12): the initiative row says
which combatants the players do not see (``(hidden)``, ``(masked)``, cut
to ``(h)``/``(m)`` before the name on a narrow pane), and ``V``/``M``/``v``
hide, mask and reveal the marked combatants, else the selection, as one
undoable action each; a player is never hidden."""

from __future__ import annotations

import random

from textual.pilot import Pilot

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.bindings import ENCOUNTER_KEYS
from tracker.config import Config
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.initiative_rows import RowState, content_of, name_cell, row_cells


def test_the_row_names_what_the_players_do_not_see() -> None:
    assert name_cell("Assassin", False, 24, "hidden") == " Assassin (hidden)"
    assert name_cell("Lurker", False, 24, "masked") == " Lurker (masked)"
    assert name_cell("Ogre", False, 24, "visible") == " Ogre"
    assert name_cell("Assassin", True, 30, "hidden") == " Assassin (delayed, hidden)"


def test_the_note_shortens_then_goes_before_the_name_is_cut() -> None:
    assert name_cell("Assassin", False, 14, "hidden") == " Assassin (h)"
    assert name_cell("Assassin", True, 15, "hidden") == " Assassin (d,h)"
    assert name_cell("Goblin Archer 12", False, 9, "masked") == " Gobl… 12"  # no room
    assert name_cell("Zalek", True, 10) == " Zalek (d)"  # delayed alone: as before


def test_the_name_column_makes_room_for_the_note_and_the_whole_row_says_it() -> None:
    spy = Combatant("Spy", 9, 9, visibility="hidden")
    row = RowState(spy, False, False, False)
    assert content_of([row]).name == len("Spy (hidden)")
    assert "Spy (hidden)" in str(row_cells(row)[2])


def test_the_keys_are_data_with_stable_ids_and_no_clash() -> None:
    keys = {k.id: k.key for k in ENCOUNTER_KEYS}
    assert (keys["players.hide"], keys["players.mask"], keys["players.reveal"]) == ("V", "M", "v")
    every = [part for k in ENCOUNTER_KEYS for part in k.key.split(",")]
    assert len(every) == len(set(every))


def fight() -> LiveEncounter:
    session = Session(Encounter("Crypt"), rng=random.Random(4))
    for line in ("add Zalek hp 30 player init 19", "add Goblin count 2 hp 7", "add Ogre hp 59"):
        session.apply(line)
    return LiveEncounter.in_memory(session)


def shown(app: CombatTrackerApp) -> dict[str, str]:
    return {c.name: c.visibility for c in app.live.session.encounter.combatants}


async def select(pilot: Pilot, app: CombatTrackerApp, name: str) -> None:
    names = [c.name for c in app.live.session.encounter.combatants]
    app.screen.query_one(InitiativePane).move_cursor(row=names.index(name))
    await pilot.pause()


def row_text(app: CombatTrackerApp, name: str) -> str:
    names = [c.name for c in app.live.session.encounter.combatants]
    table = app.screen.query_one(InitiativePane)
    return " ".join(str(cell) for cell in table.get_row_at(names.index(name)))


async def test_shift_v_m_and_v_hide_mask_and_reveal_the_selection() -> None:
    app = CombatTrackerApp(live=fight(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("V")
        assert shown(app)["Ogre"] == "hidden"
        assert "(hidden)" in row_text(app, "Ogre")
        await pilot.press("M")
        assert shown(app)["Ogre"] == "masked"
        assert "(masked)" in row_text(app, "Ogre")
        await pilot.press("v")
        assert shown(app)["Ogre"] == "visible"
        assert "(" not in row_text(app, "Ogre")
        await pilot.press("ctrl+z")  # each was one action
        assert shown(app)["Ogre"] == "masked"


async def test_the_keys_act_on_every_marked_combatant() -> None:
    app = CombatTrackerApp(live=fight(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        for name in ("Goblin 1", "Goblin 2"):
            await select(pilot, app, name)
            await pilot.press("space")
        await pilot.press("V")
        assert shown(app) == {
            "Zalek": "visible",
            "Goblin 1": "hidden",
            "Goblin 2": "hidden",
            "Ogre": "visible",
        }


async def test_hiding_a_player_is_greyed_and_says_why() -> None:
    app = CombatTrackerApp(live=fight(), config=Config())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await select(pilot, app, "Zalek")
        before = app.live.session.to_dict()
        await pilot.press("V")
        assert app.live.session.to_dict() == before
        reason = app.screen.unavailable("hide")  # type: ignore[attr-defined]
        assert reason == "players are always shown on the players' view (mark monsters only)"
        await select(pilot, app, "Ogre")
        await pilot.press("v")  # already visible: nothing to do, and it says so
        assert app.screen.unavailable("reveal") == "Ogre: visible already"  # type: ignore[attr-defined]
