"""Every key of the keyboard contract (issue 4), driven with Textual's Pilot.

Each test presses keys as a GM would and asserts both the engine state (the
truth) and what the panes show.  The fight is seeded, in memory
(``LiveEncounter.in_memory``), so every roll is the same on every run.
"""

from __future__ import annotations

import random
from typing import Any

from rich.color import ColorSystem
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Static

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.bindings import ENCOUNTER_KEYS, LINE_KEYS, SAVES_KEYS
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.screens.prompt import NoticeScreen, PromptScreen
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane

SETUP = (
    "add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player init 19",
    "add Goblin count 3 hp 7 al 13",
    "add Ogre hp 59 al 11 init 8",
)


def fight(seed: int = 7, started: bool = False) -> LiveEncounter:
    """Zalek, Goblin 1–3 and an Ogre; seeded; optionally started."""
    session = Session(Encounter("Goblin ambush"), rng=random.Random(seed))
    for line in SETUP:
        session.apply(line)
    if started:
        session.apply("start")
    return LiveEncounter.in_memory(session)


def make_app(live: LiveEncounter | None = None, **settings: object) -> CombatTrackerApp:
    return CombatTrackerApp(live=live or fight(), config=Config(**settings))  # type: ignore[arg-type]


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


def names(app: CombatTrackerApp) -> list[str]:
    return [c.name for c in app.live.session.encounter.combatants]


def hp(app: CombatTrackerApp, name: str) -> int:
    return next(c.hp for c in app.live.session.encounter.combatants if c.name == name)


def row_text(app: CombatTrackerApp, index: int) -> str:
    table = app.screen.query_one(InitiativePane)
    return " ".join(str(cell) for cell in table.get_row_at(index))


def combatant_title(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one(CombatantPane).border_title)


def log_lines(app: CombatTrackerApp) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(LogPane).lines)


async def select(pilot: Pilot, app: CombatTrackerApp, name: str) -> None:
    index = names(app).index(name)
    app.screen.query_one(InitiativePane).move_cursor(row=index)
    await pilot.pause()


# -- turns ----------------------------------------------------------------------


async def test_s_starts_combat_and_the_title_shows_round_and_turn() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.check_action("next_turn", ()) is None  # greyed before start
        await pilot.press("s")
        enc = app.live.session.encounter
        assert enc.started and enc.round == 1
        title = str(screen.query_one("#initiative").border_title)
        assert "Round 1" in title and f"{enc.active.name}'s turn" in title
        assert "▶" in row_text(app, enc.turn)
        assert screen.check_action("start", ()) is None
        assert "Round 1" in log_lines(app)


async def test_n_and_p_move_the_turn_and_the_highlight() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        enc = app.live.session.encounter
        first = enc.active.name
        await pilot.press("n")
        enc = app.live.session.encounter
        assert enc.turn == 1
        assert "▶" in row_text(app, 1) and "▶" not in row_text(app, 0)
        await pilot.press("p")
        assert app.live.session.encounter.active.name == first
        assert "▶" in row_text(app, 0)


async def test_n_wraps_to_a_new_round() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["n"] * 5)
        enc = app.live.session.encounter
        assert enc.round == 2 and enc.turn == 0
        assert "Round 2" in str(app.screen.query_one("#initiative").border_title)


async def test_n_before_start_changes_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.live.session.encounter
        await pilot.press("n", "p")
        assert app.live.session.encounter is before


# -- selection and order ---------------------------------------------------------


async def test_j_k_and_arrows_move_the_selection_not_the_turn() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        order = names(app)
        active = app.live.session.encounter.turn
        await pilot.press("j")
        assert combatant_title(app) == order[1]
        await pilot.press("down", "down")
        assert combatant_title(app) == order[3]
        await pilot.press("k", "up")
        assert combatant_title(app) == order[1]
        assert app.live.session.encounter.turn == active
        assert app.live.ui_state["selected"] == order[1]


async def test_shift_j_and_k_move_the_selected_combatant_in_the_order() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        order = names(app)
        await pilot.press("J")
        assert names(app)[:2] == [order[1], order[0]]
        assert combatant_title(app) == order[0]  # the selection follows it
        await pilot.press("K")
        assert names(app) == order


async def test_space_marks_and_damage_hits_every_marked_combatant() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 1")
        await pilot.press("space", "j", "j", "space")
        assert "●" in row_text(app, names(app).index("Goblin 1"))
        await pilot.press("d")
        assert "Goblin 1, Goblin 3" in str(app.screen.query_one(".dialog-title").render())
        await type_text(pilot, "3 fire")
        await pilot.press("enter")
        assert hp(app, "Goblin 1") == 4 and hp(app, "Goblin 3") == 4 and hp(app, "Goblin 2") == 7
        # the marks stay for the next action on the same targets (keep_marks)
        assert app.live.ui_state["marked"] == ["Goblin 1", "Goblin 3"]
        assert "●" in row_text(app, names(app).index("Goblin 3"))
        await pilot.press("escape")
        assert app.live.ui_state["marked"] == []
        assert all("●" not in row_text(app, i) for i in range(len(names(app))))
        await pilot.press("space")  # mark Goblin 3 again, then unmark it
        assert app.live.ui_state["marked"] == ["Goblin 3"]
        await pilot.press("space")
        assert app.live.ui_state["marked"] == []


async def test_a_failed_action_keeps_the_marks_and_escape_clears_them() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 1")
        await pilot.press("space", "j", "space")
        pane = app.screen.query_one(InitiativePane)
        header = pane.render_line(0).text
        assert "2 marked" in header  # in the header: Esc clears (help, footer at 200)
        await pilot.press("d")
        await type_text(pilot, "banana")
        await pilot.press("enter", "escape")  # a bad entry, then cancel the prompt
        assert app.live.ui_state["marked"] == ["Goblin 1", "Goblin 2"]
        await pilot.press("escape")
        assert app.live.ui_state["marked"] == []
        assert "marked" not in pane.render_line(0).text
        await pilot.press("d")  # now the selection only
        assert str(app.screen.query_one(".dialog-title").render()) == "Damage: Goblin 2"


async def test_the_active_turn_and_the_marks_look_different() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(InitiativePane)
        active = app.live.session.encounter.turn
        await select(pilot, app, names(app)[active])
        await pilot.press("space", "j")  # the active combatant is also marked
        await pilot.press("space")  # and the next one
        gutter_active = table.get_row_at(active)[0]
        gutter_marked = table.get_row_at(active + 1)[0]
        # the one after the active row is next to act: ▷ beside its mark
        assert str(gutter_active) == "▶●" and str(gutter_marked) == "▷●"
        name_active = table.get_row_at(active)[2]
        name_marked = table.get_row_at(active + 1)[2]
        assert name_active.style != name_marked.style
        active_bg = table.get_component_rich_style("initiative--active").bgcolor
        marked_bg = table.get_component_rich_style("initiative--marked").bgcolor
        cursor_bg = table.get_component_rich_style("initiative--cursor").bgcolor
        assert len({active_bg, marked_bg, cursor_bg}) == 3
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            active_bg = table.get_component_rich_style("initiative--active").bgcolor
            marked_bg = table.get_component_rich_style("initiative--marked").bgcolor
            assert active_bg != marked_bg
            # in 256 colours (tmux) too
            assert active_bg.downgrade(ColorSystem.EIGHT_BIT) != marked_bg.downgrade(
                ColorSystem.EIGHT_BIT
            )


async def test_tab_moves_the_keys_from_pane_to_pane_and_the_focused_border_shows_it() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        panes = [app.screen.query_one(p) for p in (InitiativePane, CombatantPane, LogPane)]
        for n in range(4):  # round the three panes and back to the order
            pane = panes[n % 3]
            assert app.focused is pane
            borders = {p.styles.border_top[1] for p in panes if p is not pane}
            assert len(borders) == 1 and pane.styles.border_top[1] not in borders
            await pilot.press("tab")


async def test_a_theme_switch_repaints_every_pane_in_the_new_colours() -> None:
    """The panes remember their colours between lines drawn; a new theme
    must still reach every line they draw next."""
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        panes = [app.screen.query_one(p) for p in (InitiativePane, CombatantPane, LogPane)]

        def last_cell(pane: Any) -> Any:  # the pane's own background there
            return list(pane.render_line(pane.size.height - 1))[-1].style.bgcolor

        before = [last_cell(pane) for pane in panes]
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        for pane, old in zip(panes, before, strict=True):
            now = last_cell(pane)
            assert now == pane.rich_style.bgcolor != old, type(pane).__name__


# -- prompts --------------------------------------------------------------------


async def test_d_damages_the_selection_and_shows_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("d")
        await type_text(pilot, "10 fire")
        await pilot.press("enter")
        assert hp(app, "Ogre") == 49
        assert not isinstance(app.screen, PromptScreen)
        assert "49/59" in row_text(app, names(app).index("Ogre"))
        assert "Ogre" in log_lines(app) and "10" in log_lines(app)


async def test_a_bad_entry_is_explained_inline_and_changes_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.live.session.to_dict()
        await pilot.press("d")
        usage = str(app.screen.query_one("#prompt-message", Static).render())
        # brackets shown, not taken as markup
        assert usage.startswith("AMOUNT|DICE [TAG…] [crit] · Enter: takes it all")
        await type_text(pilot, "banana")
        await pilot.press("enter")
        assert isinstance(app.screen, PromptScreen)
        message = app.screen.query_one("#prompt-message", Static)
        assert message.has_class("error") and "not dice notation" in str(message.render())
        assert app.screen.query_one(Input).value == "banana"
        await pilot.press("escape")
        assert isinstance(app.screen, EncounterScreen)
        assert app.live.session.to_dict() == before


async def test_h_heals() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.live.do("damage Zalek 12")
        await pilot.press("h")
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert hp(app, "Zalek") == 23


async def test_t_gives_temporary_hp_shown_apart() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await type_text(pilot, "6")
        await pilot.press("enter")
        zalek = app.live.session.encounter.combatants[0]
        assert zalek.temp_hp == 6 and zalek.hp == 30
        assert "+6" in row_text(app, 0)


async def test_x_adds_persistent_damage_with_a_badge() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await type_text(pilot, "1d6 fire dc 15")
        await pilot.press("enter")
        entry = app.live.session.encounter.combatants[0].persistent[0]
        assert entry.dice == "1d6" and entry.tags == ("fire",) and entry.dc == 15
        assert "~fire" in row_text(app, 0)


async def test_c_adds_a_condition_and_shift_c_removes_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await type_text(pilot, "poisoned 2 rounds 3")
        await pilot.press("enter")
        cond = app.live.session.encounter.combatants[0].conditions[0]
        assert (cond.name, cond.value, cond.rounds_left) == ("poisoned", 2, 3)
        assert "poisoned 2·3r" in row_text(app, 0)  # the whole row: every badge whole
        await pilot.press("C")  # a list of the conditions present; Enter picks
        await pilot.press("enter")
        assert app.live.session.encounter.combatants[0].conditions == ()


async def test_i_sets_initiative() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 2")
        await pilot.press("i")
        await type_text(pilot, "25")
        await pilot.press("enter")
        assert names(app)[0] == "Goblin 2"
        assert combatant_title(app) == "Goblin 2"


async def test_r_rolls_into_the_log() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await type_text(pilot, "2d6+3")
        await pilot.press("enter")
        assert app.live.session.log[-1].text.startswith("Roll: 2d6")
        assert "Roll: 2d6" in log_lines(app)


async def test_ctrl_s_asks_for_a_label() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("enter")  # empty label: explained, not saved
        assert "label" in str(app.screen.query_one("#prompt-message", Static).render())
        await type_text(pilot, "before the ogre")
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)


# -- forms and confirmations -------------------------------------------------------


async def test_a_adds_combatants_through_the_form() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Wolf")
        await pilot.press("tab")
        await type_text(pilot, "2")
        await pilot.press("tab")
        await type_text(pilot, "11")
        await pilot.press("enter")
        assert "Wolf 1" in names(app) and "Wolf 2" in names(app)
        assert hp(app, "Wolf 2") == 11


async def test_the_add_form_explains_a_missing_name() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "enter")
        message = app.screen.query_one("#form-message", Static)
        assert "name" in str(message.render())
        assert len(names(app)) == 5


async def test_e_edits_the_selected_combatant() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("e")
        field = app.screen.query_one("#field-hp", Input)
        field.value = "40"
        app.screen.query_one("#field-name", Input).value = "Big Ogre"
        await pilot.press("enter")
        assert hp(app, "Big Ogre") == 40
        assert combatant_title(app) == "Big Ogre"
        # the selection is saved under the new name: a resume lands on it
        assert app.live.ui_state["selected"] == "Big Ogre"


async def test_renaming_whoever_has_the_turn_keeps_the_other_marks() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")  # Zalek's total asked first
        await type_text(pilot, "19")
        await pilot.press("enter")
        await pilot.pause()
        active = app.live.session.encounter.active
        assert active is not None
        other = next(n for n in names(app) if n != active.name)
        await select(pilot, app, other)
        await pilot.press("space")
        await select(pilot, app, active.name)
        await pilot.press("e")
        app.screen.query_one("#field-name", Input).value = "Renamed"
        await pilot.press("enter")
        await pilot.pause()
        assert app.live.session.encounter.active.name == "Renamed"  # type: ignore[union-attr]
        assert app.live.ui_state["marked"] == [other]  # the turn did not pass


async def test_renaming_a_marked_combatant_keeps_its_mark() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        await pilot.press("space", "e")
        app.screen.query_one("#field-name", Input).value = "Big Ogre"
        await pilot.press("enter")
        await pilot.pause()
        assert app.live.ui_state["marked"] == ["Big Ogre"]


async def test_delete_asks_then_removes_and_n_keeps() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 3")
        await pilot.press("delete", "n")
        assert "Goblin 3" in names(app)
        await pilot.press("delete", "y")
        assert "Goblin 3" not in names(app)


# -- movement ------------------------------------------------------------------------


async def test_m_previews_the_shortfall_and_asks_before_spending() -> None:
    app = make_app(physical_rolls=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Zalek")
        await pilot.press("m", "s")  # sprint
        await type_text(pilot, "12")
        await pilot.press("enter")  # 12 + 7 = 19: 3 short of DL 22
        message = str(app.screen.query_one("#move-message", Static).render())
        assert "3 short" in message and "spend 3 of 21" in message
        assert app.live.session.encounter.combatants[0].endurance.points == 21  # not yet
        await pilot.press("y")
        assert app.live.session.encounter.combatants[0].endurance.points == 18


async def test_m_declining_the_spend_records_a_failed_check() -> None:
    app = make_app(physical_rolls=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m", "s")
        await type_text(pilot, "12")
        await pilot.press("enter", "n")
        zalek = app.live.session.encounter.combatants[0]
        assert zalek.endurance.points == 21
        assert "sprint" in app.live.session.log[-1].text


# -- command line ----------------------------------------------------------------------


async def test_colon_opens_the_command_line_with_completion() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "dam")
        await pilot.press("tab")  # the verb, and the space before its target
        await type_text(pilot, "Og")
        await pilot.press("tab")
        line = app.screen.query_one("#command-input", Input)
        assert line.value == "damage Ogre "
        await type_text(pilot, "9")
        await pilot.press("enter")
        assert hp(app, "Ogre") == 50
        assert not app.screen.query_one("#command-line").display


async def test_a_bad_command_line_shows_the_problem_and_changes_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.live.session.to_dict()
        await pilot.press("colon")
        await type_text(pilot, "damage Nobody 5")
        await pilot.press("enter")
        hint = app.screen.query_one("#command-hint", Static)
        assert hint.has_class("error") and "Nobody" in str(hint.render())
        assert app.live.session.to_dict() == before
        await pilot.press("escape")
        assert not app.screen.query_one("#command-line").display


# -- history, help, palette, settings, quit -----------------------------------------------


async def test_ctrl_z_and_ctrl_y_undo_and_redo() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert hp(app, "Zalek") == 25
        await pilot.press("ctrl+z")
        assert hp(app, "Zalek") == 30 and "30/30" in row_text(app, 0)
        await pilot.press("ctrl+y")
        assert hp(app, "Zalek") == 25 and "25/30" in row_text(app, 0)


async def test_question_mark_and_f1_list_every_key() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.table
        assert table.row_count == len(ENCOUNTER_KEYS + LINE_KEYS + SAVES_KEYS)
        keys = [cell for cell in table.columns[0].cells]
        assert "?" in str(keys[len(ENCOUNTER_KEYS) - 2]) and "ctrl+z" in keys
        lines_at = len(ENCOUNTER_KEYS + LINE_KEYS)
        assert keys[lines_at - 2 : lines_at] == ["up", "down"]  # the prompts' history keys
        assert keys[lines_at] == "ctrl+s"  # saves per target, in the damage prompt
        await pilot.press("escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, EncounterScreen)


async def test_a_narrow_help_folds_the_ids_into_what_a_key_does() -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert len(app.screen.table.columns) == 2
        keys = app.screen.query_one("#help-keys")
        region = Region(0, 0, *keys.outer_size)
        text = " ".join(strip.text.strip() for strip in keys.render_lines(region))
        assert "encounter: start combat — ask the" in text and "(encounter.start)" in text
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert len(app.screen.table.columns) == 3


async def test_ctrl_p_offers_namespaced_actions() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "encounter: start")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.live.session.encounter.started


async def test_keys_can_be_rebound_by_id() -> None:
    app = make_app(keymap={"encounter.start": "f5"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f5")
        assert app.live.session.encounter.started


async def test_a_rebound_key_that_does_not_apply_says_why_under_its_new_key() -> None:
    app = make_app(keymap={"encounter.next_turn": "f6"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")  # no longer bound to anything: nothing to explain
        await pilot.pause()
        assert not app._notifications
        await pilot.press("f6")
        await pilot.pause()
        assert [str(n.message) for n in app._notifications] == [
            "the fight has not started: s starts it"
        ]


async def test_the_theme_from_the_settings_file_applies_and_an_unknown_one_is_told() -> None:
    app = make_app(theme="textual-light")
    async with app.run_test(size=(80, 24)):
        assert app.theme == "textual-light"
    app = make_app(theme="no-such-theme")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme != "no-such-theme"
        assert isinstance(app.screen, NoticeScreen)
        text = " ".join(str(s.render()) for s in app.screen.query(".notice"))
        assert "unknown theme 'no-such-theme'" in text
        await pilot.press("enter")
        assert not isinstance(app.screen, NoticeScreen)


async def test_f2_switches_to_physical_rolls() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2", "r")
        await type_text(pilot, "1d20")
        await pilot.press("enter")
        await pilot.pause()
        await type_text(pilot, "17")
        await pilot.press("enter")
        await pilot.pause()
        assert app.live.session.log[-1].text.startswith("Roll: 1d20 (17)")


async def test_physical_rolls_empty_enter_lets_the_program_roll() -> None:
    app = make_app(physical_rolls=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await type_text(pilot, "20")
        await pilot.press("enter")  # the first initiative die
        await pilot.press("enter")  # the program rolls the rest
        await pilot.pause()
        enc = app.live.session.encounter
        assert enc.started
        assert "d20 (20)" in " ".join(e.text for e in app.live.session.log)


async def test_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_undo_cuts_the_log_instead_of_rebuilding_it() -> None:
    live = fight(started=True)
    for _ in range(400):
        live.do("roll 1d20")
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(LogPane)
        await pilot.press("n")
        assert "turn" in pane.lines[-1].text
        await pilot.press("ctrl+z")
        assert pane.rebuilds == 0
        assert pane.lines[-1].text.endswith(app.live.session.log[-1].text[-20:])
        await pilot.press("ctrl+y")
        assert "turn" in pane.lines[-1].text and pane.rebuilds == 0
