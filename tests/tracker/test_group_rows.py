"""A group as one row of the initiative pane (issue 11), driven with Pilot:
``Zombie ×4 · 1 bloodied · 1 down`` by default, ``o`` expands and folds it,
the keys on the one row act on its standing members, ``space`` marks them,
``j`` / ``k`` pass over it as one row, the combatant pane lists the members,
and a resume shows the pane as it was left.  Each test asserts the engine
state and what the panes show; the fights are seeded."""

from __future__ import annotations

import random
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter, open_store
from tests.tracker.test_hostile_names import title
from tests.tracker.test_keys import combatant_title, hp, log_lines, make_app, type_text
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.prompt import ConfirmScreen, PromptScreen
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.initiative import InitiativePane

SETUP = (
    "add Zalek hp 30 al 15 player init 19",
    "add Zombie count 4 hp 10 al 8 group",
    "add Ogre hp 59 al 11 init 2",
)
ZOMBIES = ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]


def horde(*more: str, started: bool = True, seed: int = 4) -> LiveEncounter:
    """Zalek, a group of four zombies (10 HP each) and an ogre, then *more*."""
    session = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in SETUP:
        session.apply(line)
    if started:
        session.apply("start")
    for line in more:
        session.apply(line)
    return LiveEncounter.in_memory(session)


def pane(app: CombatTrackerApp) -> InitiativePane:
    return app.screen.query_one(InitiativePane)


def rows(app: CombatTrackerApp) -> list[str]:
    """Each row of the pane as the GM sees it (inside the border)."""
    table = pane(app)
    top = int(table.scroll_offset.y)
    return [table.render_line(1 + i - top).text.rstrip() for i in range(table.row_count)]


def words(row: str) -> list[str]:
    """A row's words after its gutter (the ``▶`` / ``▷`` and ``●`` cells)."""
    return row[2:].split()


def row_of(app: CombatTrackerApp, text: str) -> int:
    return next(i for i, row in enumerate(rows(app)) if text in row)


def details(app: CombatTrackerApp) -> str:
    return app.screen.query_one(CombatantPane).text


async def to_row(pilot: Pilot, app: CombatTrackerApp, text: str) -> None:
    pane(app).move_cursor(row=row_of(app, text))
    await pilot.pause()


def order(app: CombatTrackerApp) -> list[str]:
    return [c.name for c in app.live.session.encounter.combatants]


async def test_a_group_is_one_row_with_its_counts_and_initiative() -> None:
    app = make_app(horde("damage 'Zombie 2' 10", "damage 'Zombie 3' 6"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert pane(app).row_count == 3  # Zalek, the zombies, the ogre
        enc = app.live.session.encounter
        init = next(c.initiative for c in enc.combatants if c.group == "Zombie")
        row = rows(app)[row_of(app, "Zombie ×4")]
        assert "Zombie ×4 · 1 bloodied · 1 down" in row
        assert words(row)[0] == str(init)  # the group's one initiative
        assert "Zombie 1" not in "\n".join(rows(app))


async def test_the_turn_markers_stay_on_the_row_while_members_act() -> None:
    app = make_app(horde("damage 'Zombie 2' 10"))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):  # Zalek (19) first, or the zombies' roll
            if app.live.session.encounter.active.name != "Zombie 1":
                await pilot.press("n")
        assert app.live.session.encounter.active.name == "Zombie 1"
        group = row_of(app, "Zombie ×4")
        assert rows(app)[group].startswith("▶")
        assert "▶  Zombie 1" in details(app)  # the selection followed the turn
        await pilot.press("n")  # Zombie 2 is down: its turn is passed over
        assert app.live.session.encounter.active.name == "Zombie 3"
        assert rows(app)[group].startswith("▶")
        assert "Zombie 3's turn" in str(pane(app).border_title)
        assert "▶  Zombie 3" in details(app) and "▶  Zombie 1" not in details(app)
        await pilot.press("n")  # Zombie 4; the row after the group is next
        assert rows(app)[group + 1].startswith("▷")


async def test_o_expands_the_group_and_o_on_a_member_folds_it() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        assert combatant_title(app) == "Zombie ×4"
        await pilot.press("o")
        assert pane(app).row_count == 6
        assert [" ".join(words(r)[1:3]) for r in rows(app)[1:5]] == ZOMBIES
        assert pane(app).selected_name == "Zombie 1"  # the cursor on the first
        assert combatant_title(app) == "Zombie 1"
        await pilot.press("j", "j")
        assert combatant_title(app) == "Zombie 3"
        await pilot.press("o")
        assert pane(app).row_count == 3
        assert pane(app).cursor_row == row_of(app, "Zombie ×4")  # back on the group
        assert app.live.ui_state["expanded"] == []
        assert order(app) == ["Zalek", *ZOMBIES, "Ogre"]  # nothing changed in the fight


async def test_o_on_a_combatant_in_no_group_says_why() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_row(pilot, app, "Zalek")
        await pilot.press("o")
        assert pane(app).row_count == 3
        assert app.screen.unavailable("toggle_group") == (  # type: ignore[attr-defined]
            "Zalek is in no group (group NAME T joins one)"
        )


async def test_j_and_k_pass_over_a_collapsed_group_as_one_row() -> None:
    app = make_app(horde(), follow_turn=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zalek")
        await pilot.press("j")
        assert combatant_title(app) == "Zombie ×4"
        await pilot.press("j")
        assert combatant_title(app) == "Ogre"
        await pilot.press("k")
        assert combatant_title(app) == "Zombie ×4"
        await pilot.press("k")
        assert combatant_title(app) == "Zalek"


async def test_damage_on_the_row_hits_every_standing_member_in_one_step() -> None:
    app = make_app(horde("damage 'Zombie 2' 10"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        steps = len(app.live.session.undo_stack)
        await pilot.press("d")
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        await type_text(pilot, "6")
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        assert [hp(app, n) for n in ZOMBIES] == [4, 0, 4, 4]  # the down one is left alone
        last = app.live.session.undo_stack[-1]
        assert last.action["targets"] == ["Zombie 1", "Zombie 3", "Zombie 4"]
        assert len(app.live.session.undo_stack) == steps + 1
        assert "Zombie 3 takes 6" in log_lines(app) and "Zombie 2 takes 6" not in log_lines(app)
        assert "Zombie ×4 · 3 bloodied · 1 down" in rows(app)[row_of(app, "Zombie ×4")]
        assert "Zombie 4 4/10 ½" in details(app)
        await pilot.press("ctrl+z")
        assert [hp(app, n) for n in ZOMBIES] == [10, 0, 10, 10]


async def test_the_prompt_names_the_group_not_every_member() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        ask = app.screen.controller.ask("condition")  # type: ignore[attr-defined]
        assert ask.title == "Condition: group Zombie (4 standing)"
        await pilot.press("c")
        await type_text(pilot, "prone")
        await pilot.press("enter")
        enc = app.live.session.encounter
        assert all("prone" in [k.name for k in c.conditions] for c in enc.combatants[1:5])
        assert "Zombie 4 10/10  prone" in details(app)


async def test_space_on_the_row_marks_its_standing_members() -> None:
    app = make_app(horde("damage 'Zombie 4' 10"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("space")
        ctl = app.screen.controller  # type: ignore[attr-defined]
        assert ctl.marks.groups == ["Zombie"]  # the group, not who stood then
        assert ctl.marked() == ["Zombie 1", "Zombie 2", "Zombie 3"]
        assert rows(app)[row_of(app, "Zombie ×4")][1] == "●"
        assert "3 marked" in pane(app).render_line(0).text
        assert "● Zombie 2" in details(app) and "● Zombie 4" not in details(app)
        await to_row(pilot, app, "Ogre")
        await pilot.press("space", "d")
        await type_text(pilot, "2")
        await pilot.press("enter")  # the marks: three zombies and the ogre
        assert [hp(app, n) for n in ZOMBIES] == [8, 8, 8, 0] and hp(app, "Ogre") == 57
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("space")  # the group marked: unmarked
        assert ctl.marks.names == ["Ogre"] and ctl.marks.groups == []
        assert rows(app)[row_of(app, "Zombie ×4")][1] == " "


async def test_some_members_marked_are_counted_on_the_row() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("o", "j", "space", "o")  # mark Zombie 2 alone, fold
        row = rows(app)[row_of(app, "Zombie ×4")]
        assert row[1] == " " and "Zombie ×4 · 1 marked" in row


async def test_keys_for_one_combatant_ask_to_expand_first() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        for key, action in (("e", "edit"), ("m", "move")):
            await pilot.press(key)
            assert not isinstance(app.screen, FormScreen)
            reason = app.screen.unavailable(action)  # type: ignore[attr-defined]
            assert reason == "group Zombie is one row: o expands it to pick one of its 4"
        assert order(app) == ["Zalek", *ZOMBIES, "Ogre"]


async def test_j_and_k_on_the_row_move_the_whole_group() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("J")  # past the ogre, all four together
        assert order(app) == ["Zalek", "Ogre", *ZOMBIES]
        assert "Zombie ×4" in rows(app)[row_of(app, "Zombie ×4")]
        await pilot.press("K", "K")  # the cursor stays on the group's row
        assert order(app) == [*ZOMBIES, "Zalek", "Ogre"]


async def test_i_on_the_row_sets_the_groups_initiative() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("i")
        assert "Initiative: group Zombie (4)" in str(app.screen.query_one(".dialog-title").render())
        await type_text(pilot, "1")
        await pilot.press("enter")
        enc = app.live.session.encounter
        assert [c.initiative for c in enc.combatants if c.group] == [1, 1, 1, 1]
        assert order(app)[-4:] == ZOMBIES  # after the ogre's 2, together
        assert words(rows(app)[-1])[:3] == ["1", "Zombie", "×4"]


async def test_delete_on_the_row_asks_then_removes_the_whole_group() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)
        question = str(app.screen.query_one(".dialog-title").render())
        assert question == "Remove group Zombie, all 4, from the fight?"
        await pilot.press("y")
        assert order(app) == ["Zalek", "Ogre"]
        await pilot.press("ctrl+z")
        assert order(app) == ["Zalek", *ZOMBIES, "Ogre"]
        assert pane(app).row_count == 3


async def test_an_all_down_group_row_still_takes_a_heal() -> None:
    app = make_app(horde("damage Zombie 10"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        assert "Zombie ×4 · 4 down" in rows(app)[row_of(app, "Zombie ×4")]
        await pilot.press("h")
        await type_text(pilot, "2")
        await pilot.press("enter")
        assert [hp(app, n) for n in ZOMBIES] == [2, 2, 2, 2]


async def test_a_resume_shows_the_groups_as_they_were_left(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = LiveEncounter.create(
            store, "Crypt", rng=random.Random(2), actions=[*SETUP, "group Bones Ogre,Zalek"]
        )
        app = CombatTrackerApp(store, live, Config(), random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            assert pane(app).row_count == 2  # two groups, two rows
            await to_row(pilot, app, "Zombie ×4")
            await pilot.press("o")
            assert pane(app).row_count == 5
            await pilot.press("q")
    with open_store(db) as store:
        resumed = LiveEncounter.open(store, "Crypt")
        app = CombatTrackerApp(store, resumed, Config(), random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown = rows(app)
            assert pane(app).row_count == 5
            assert any("Bones ×2" in row for row in shown)  # still folded
            assert sum("Zombie " in row and "×" not in row for row in shown) == 4
            await pilot.press("q")


async def test_a_group_name_with_markup_is_shown_as_typed() -> None:
    app = make_app(horde("group '[bold]Horde[/] [link=x]' Zombie*"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "×4")
        assert "[bold]Horde[/] [link=x] ×4" in rows(app)[row_of(app, "×4")]
        assert title(app.screen.query_one(CombatantPane)) == "[bold]Horde[/] [link=x] ×4"
        assert details(app).startswith("[bold]Horde[/] [link=x]\ngroup of 4")  # wrapped


async def test_the_add_form_adds_a_named_group_as_one_row() -> None:
    app = make_app(horde(started=False))
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, FormScreen)
        values = {"name": "Ghoul", "count": "3", "hp": "9", "group": "Big Horde"}
        for key, value in values.items():
            app.screen.query_one(f"#field-{key}", Input).value = value
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        enc = app.live.session.encounter
        assert [c.group for c in enc.combatants if c.name.startswith("Ghoul")] == ["Big Horde"] * 3
        assert any("Big Horde ×3" in row for row in rows(app))


async def test_expanding_the_group_whose_turn_it_is_lands_on_the_one_acting() -> None:
    app = make_app(horde(), follow_turn=False)
    async with app.run_test(size=(80, 24)) as pilot:
        while app.live.session.encounter.active.name != "Zombie 3":
            assert app.live.session.encounter.round == 1  # no endless loop
            await pilot.press("n")
        await to_row(pilot, app, "Ogre")
        await pilot.press("g")  # to the turn: the group's row
        assert pane(app).cursor_row == row_of(app, "Zombie ×4")
        await pilot.press("o")
        assert pane(app).selected_name == "Zombie 3"
        assert combatant_title(app) == "Zombie 3"


async def test_hiding_a_collapsed_group_hides_every_member_and_the_row_says_so() -> None:
    app = make_app(horde("damage 'Zombie 2' 10"))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_row(pilot, app, "Zombie ×4")
        await pilot.press("V")  # the players' view: hidden
        enc = app.live.session.encounter
        assert [c.visibility for c in enc.combatants if c.group] == [
            "hidden"
        ] * 4  # the down one too
        row = rows(app)[row_of(app, "Zombie ×4")]
        assert "Zombie ×4 · 1 down · 4 hidden" in row
        await pilot.press("v")
        assert all(c.visibility == "visible" for c in app.live.session.encounter.combatants)
