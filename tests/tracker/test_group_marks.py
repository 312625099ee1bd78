"""A mark made on a collapsed group's row stands for the group's standing
members when an action applies (``tracker.marks``): members downed after
the marking drop out, a healed one comes back, as the unmarked row itself
targets them; marks placed on members' own rows stay as placed; the
players' view keys take every member; the mark is saved with the
encounter.  The controller without Textual, then Pilot and a resume."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter, open_store
from tests.tracker.test_controller import Cursor, one_action
from tests.tracker.test_group_rows import ZOMBIES, horde, pane, row_of, rows, to_row
from tests.tracker.test_keys import make_app, type_text
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.controller import EncounterController
from tracker.screens.encounter import EncounterScreen

SETUP = (
    "add Zalek hp 30 al 15 player init 19",
    "add Zombie count 4 hp 10 al 8 group",
    "add Ogre hp 59 al 11 init 2",
    "start",
)


def fight() -> tuple[EncounterController, Cursor, LiveEncounter]:
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    for line in SETUP:
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    cursor = Cursor(live)
    return EncounterController(live, cursor), cursor, live


def on_group_row(ctl: EncounterController, cursor: Cursor) -> None:
    cursor.row = ctl.row_of(ctl.names().index("Zombie 1"))
    assert ctl.selected_group(), "the zombies are one row"


def group_marked() -> tuple[EncounterController, Cursor, LiveEncounter]:
    """The fight, ``space`` pressed on the zombies' one row."""
    ctl, cursor, live = fight()
    on_group_row(ctl, cursor)
    assert ctl.toggle_mark()
    return ctl, cursor, live


def conditions(live: LiveEncounter) -> dict[str, list[str]]:
    return {c.name: [k.name for k in c.conditions] for c in live.session.encounter.combatants}


# -- the controller ---------------------------------------------------------------


def test_a_group_mark_leaves_out_the_members_who_went_down_since() -> None:
    ctl, cursor, live = group_marked()
    assert ctl.marked() == ZOMBIES
    assert ctl.do("damage 'Zombie 2,Zombie 3' 20") is None  # area damage: two go down
    cursor.row = ctl.row_of(ctl.names().index("Ogre"))  # the marks, not the selection
    line = ctl.line("condition", "frightened 1")
    assert line is not None and one_action(line)["targets"] == ["Zombie 1", "Zombie 4"]
    assert ctl.do(line) is None
    got = conditions(live)
    assert [z for z in ZOMBIES if "frightened" in got[z]] == ["Zombie 1", "Zombie 4"]
    ask = ctl.ask("damage")
    assert ask is not None and ask.uses_marks and ask.names == ("Zombie 1", "Zombie 4")


def test_a_healed_member_comes_back_and_undo_brings_the_downed_back() -> None:
    ctl, cursor, live = group_marked()
    ctl.do("damage 'Zombie 2,Zombie 3' 20")
    assert ctl.targets() == ["Zombie 1", "Zombie 4"]
    ctl.do("heal 'Zombie 3' 4")
    assert ctl.targets() == ["Zombie 1", "Zombie 3", "Zombie 4"]
    ctl.history(undo=True)
    ctl.history(undo=True)  # the area damage undone: all four stand again
    assert ctl.targets() == ZOMBIES


def test_a_group_all_down_stands_for_every_member_as_the_row_does() -> None:
    ctl, cursor, live = group_marked()
    ctl.do("damage Zombie 20")
    assert ctl.targets() == ZOMBIES  # a heal still reaches them
    assert ctl.ask("heal") is not None


def test_marks_on_members_own_rows_stay_as_placed() -> None:
    ctl, cursor, live = fight()
    on_group_row(ctl, cursor)
    ctl.toggle_group()  # expanded: one row each
    cursor.row = ctl.names().index("Zombie 2")
    ctl.toggle_mark()
    ctl.do("damage 'Zombie 2' 20")
    assert ctl.marks.names == ["Zombie 2"] and ctl.targets() == ["Zombie 2"]  # down, kept


def test_a_member_marked_on_its_own_row_turns_the_group_mark_into_its_members() -> None:
    ctl, cursor, live = group_marked()
    ctl.do("damage 'Zombie 3' 20")
    ctl.toggle_group()
    cursor.row = ctl.names().index("Zombie 1")
    ctl.toggle_mark()  # Zombie 1 unmarked; the others standing stay marked
    assert ctl.marks.groups == [] and ctl.marks.names == ["Zombie 2", "Zombie 4"]
    cursor.row = ctl.names().index("Zombie 3")
    ctl.toggle_mark()  # the down one was not marked: now it is, on its own row
    assert ctl.targets() == ["Zombie 2", "Zombie 3", "Zombie 4"]


def test_space_on_the_marked_row_unmarks_the_group_and_its_members() -> None:
    ctl, cursor, live = fight()
    on_group_row(ctl, cursor)
    ctl.toggle_group()
    cursor.row = ctl.names().index("Zombie 2")
    ctl.toggle_mark()  # one member on its own row
    ctl.toggle_group()
    on_group_row(ctl, cursor)
    ctl.toggle_mark()  # the row: the group, in place of Zombie 2's own mark
    assert ctl.marks.groups == ["Zombie"] and ctl.marks.names == []
    ctl.toggle_mark()
    assert not ctl.marks and ctl.targets() == ZOMBIES  # the row itself again
    assert live.ui_state["marked"] == [] and live.ui_state["marked_groups"] == []


def test_the_players_view_keys_take_every_member_of_a_marked_group() -> None:
    ctl, cursor, live = group_marked()
    ctl.do("damage 'Zombie 2' 20")
    cursor.row = ctl.row_of(ctl.names().index("Ogre"))
    for action in ("hide", "mask", "reveal"):
        assert ctl.names_for(action) == ZOMBIES, action  # the down one too
    assert ctl.line("hide") == "hide 'Zombie 1,Zombie 2,Zombie 3,Zombie 4'"


def test_the_group_mark_is_saved_and_resumed_and_clears_as_marks_do() -> None:
    ctl, cursor, live = group_marked()
    assert live.ui_state["marked_groups"] == ["Zombie"]
    again = EncounterController(live, cursor)  # a resume reads the UI state
    again.live.do("damage 'Zombie 4' 20")
    assert again.targets() == ["Zombie 1", "Zombie 2", "Zombie 3"]
    assert again.unavailable("clear_marks") is None
    assert again.clear_marks() and live.ui_state["marked_groups"] == []


def test_hand_edited_marks_read_each_mark_once_so_space_unmarks() -> None:
    # a snapshot edited by hand (or by an older tracker) may repeat a name,
    # spell a group in another case, or hold what is no name at all: each
    # mark counts once, so one space takes it off, as the row shows
    ctl, cursor, live = fight()
    assert ctl.do("add None hp 5 init 1") is None  # a null in the list is not them
    live.set_ui_state(
        marked=["Ogre", "Ogre", 7, None, "Ogre"] * 1000,
        marked_groups=["Zombie", "ZOMBIE", "zombie", ["Zombie"]] * 1000,
    )
    again = EncounterController(live, cursor)  # a resume reads the UI state
    assert again.marked() == [*ZOMBIES, "Ogre"]
    cursor.row = again.row_of(again.names().index("Ogre"))
    assert again.toggle_mark()
    assert again.marked() == ZOMBIES
    on_group_row(again, cursor)
    assert again.toggle_mark()
    assert not again.marks and again.marked() == []
    assert live.ui_state["marked"] == [] and live.ui_state["marked_groups"] == []


def test_a_group_mark_goes_when_the_group_does() -> None:
    ctl, cursor, live = group_marked()
    ctl.do("ungroup Zombie")
    ctl.prune_marks()
    assert not ctl.marks and not ctl.marks_used()


# -- the app ------------------------------------------------------------------------


async def test_c_on_a_marked_group_after_area_damage_reaches_only_the_standing() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("space")
        await to_row(pilot, app, "Ogre")
        await pilot.press("colon")  # area damage downs two of them
        await type_text(pilot, "damage 'Zombie 2,Zombie 3' 20")
        await pilot.press("enter")
        assert "2 marked" in pane(app).render_line(0).text
        assert rows(app)[row_of(app, "Zombie ×4")][1] == "●"  # every standing one
        await pilot.press("c")
        title = str(app.screen.query_one(".dialog-title").render())
        assert title == "Condition: Zombie 1, Zombie 4"
        await type_text(pilot, "frightened 1")
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        got = conditions(app.live)
        assert [z for z in ZOMBIES if "frightened" in got[z]] == ["Zombie 1", "Zombie 4"]
        assert got["Ogre"] == []


async def test_a_resume_keeps_the_group_mark(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Crypt", rng=random.Random(2), actions=list(SETUP))
        app = CombatTrackerApp(store, live, Config(keep_marks="until-esc"), random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            await to_row(pilot, app, "Zombie ×4")
            await pilot.press("space")
            await pilot.press("q")
    with open_store(db) as store:
        resumed = LiveEncounter.open(store, "Crypt")
        resumed.do("damage 'Zombie 1' 20")  # downed while the tracker was closed
        app = CombatTrackerApp(store, resumed, Config(keep_marks="until-esc"), random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, EncounterScreen)
            assert screen.controller.marks.groups == ["Zombie"]
            assert rows(app)[row_of(app, "Zombie ×4")][1] == "●"
            assert "3 marked" in pane(app).render_line(0).text
            await to_row(pilot, app, "Ogre")
            await pilot.press("c")
            await type_text(pilot, "prone")
            await pilot.press("enter")
            got = conditions(resumed)
            assert [z for z in ZOMBIES if "prone" in got[z]] == ZOMBIES[1:]
            await pilot.press("q")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_header_says_a_fully_downed_marked_group_is_down(size: tuple[int, int]) -> None:
    """A marked group's mark grows from its standing members to every member
    when the last one falls (a heal still reaches them): the header says
    they are all down, so 3 becoming 4 never reads as a new mark."""
    app = make_app(horde("damage 'Zombie 2' 20"))  # one already down
    async with app.run_test(size=size) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("space")
        header = pane(app).render_line(0).text
        assert "●3" in header.replace(" ", "") and "down" not in header
        await to_row(pilot, app, "Ogre")
        await pilot.press("colon")  # the area damage downs the other three
        await type_text(pilot, "damage 'Zombie 1,Zombie 3,Zombie 4' 20")
        await pilot.press("enter")
        header = pane(app).render_line(0).text
        said = {80: " ●4, all down", 60: " ●4↓"}[size[0]]  # as wide as the pane allows
        assert said in header, header
        await pilot.press("h")  # the documented rule unchanged: every member
        title = str(app.screen.query_one(".dialog-title").render())
        assert title == "Heal: Zombie 1, Zombie 2, Zombie 3, Zombie 4"
        await pilot.press("escape")


async def test_the_header_counts_the_down_among_mixed_marks() -> None:
    app = make_app(horde("damage 'Zombie 2' 20"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("o")  # one row each: Zombie 2's own mark stays, down or not
        await to_row(pilot, app, "Zombie 2")
        await pilot.press("space")
        await to_row(pilot, app, "Ogre")
        await pilot.press("space")
        header = pane(app).render_line(0).text
        assert " ●2, 1 down" in header, header
