"""What a GM found playing real fights in tmux (QA pass), driven with Pilot.

Each test replays what the GM did and asserts what they rely on: forms
submit on Enter from any field, the edit form is one undoable step,
destructive questions default to No, completion cycles, greyed keys say
why, notices are readable, the picker restores save points, and the panes
use the room they have (80×24 and 200×50).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import pytest
from test_keys import fight, hp, make_app, names, select, type_text
from textual.widgets import DataTable, Input, OptionList, Static

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.endurance import Endurance
from rules.engine import Session
from rules.engine.complete import completions
from rules.rulesets import ruleset
from saves.live import LiveEncounter, open_store
from tracker.app import CombatTrackerApp
from tracker.commands import tui
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.faces import die_label
from tracker.screens.form import FormScreen
from tracker.screens.movement import MovementScreen
from tracker.screens.picker import PickerScreen
from tracker.screens.prompt import ChoiceScreen, ConfirmScreen, NoticeScreen
from tracker.widgets.badges import combatant_badges, fit_badges
from tracker.widgets.combatant import CombatantPane, describe, pack
from tracker.widgets.command_line import CommandInput
from tracker.widgets.footer import KeyFooter
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane, entry_text


def row(app: CombatTrackerApp, name: str) -> Combatant:
    return next(c for c in app.live.session.encounter.combatants if c.name == name)


def screen_line(pane: InitiativePane, y: int) -> str:
    return pane.render_line(y).text


# -- forms ------------------------------------------------------------------------


async def test_enter_on_a_check_box_submits_the_form_and_space_ticks_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Wolf")
        app.screen.query_one("#field-hp", Input).value = "11"
        box = app.screen.query_one("#check-player")
        box.focus()
        await pilot.press("space")
        assert box.value is True
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        assert row(app, "Wolf").player


async def test_the_edit_form_applies_every_change_as_one_undoable_step() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        before = app.live.session.encounter
        steps = len(app.live.session.log)
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, FormScreen)
        # name first; the fields a GM edits are all there
        inputs = [w.id for w in form.query(Input)]
        assert inputs[0] == "field-name"
        for key in ("hp", "max_hp", "al", "dex", "per", "wis", "con", "athletics", "notes"):
            assert f"field-{key}" in inputs
        # hp above the old maximum is fine: max_hp goes first, in the same step
        form.query_one("#field-max_hp", Input).value = "80"
        form.query_one("#field-hp", Input).value = "75"
        form.query_one("#field-dex", Input).value = "12"
        form.query_one("#field-notes", Input).value = "hates fire; flees at 10"
        form.query_one("#field-name", Input).value = "Big Ogre"
        form.query_one("#check-player").focus()
        await pilot.press("space", "enter")
        assert isinstance(app.screen, EncounterScreen)
        ogre = row(app, "Big Ogre")
        assert (ogre.max_hp, ogre.hp, ogre.abilities["dex"], ogre.player) == (80, 75, 12, True)
        assert ogre.notes == "hates fire; flees at 10"
        assert len(app.live.session.log) > steps
        await pilot.press("ctrl+z")  # ONE undo brings everything back
        assert app.live.session.encounter.to_dict() == before.to_dict()


async def test_a_failing_edit_changes_nothing_and_says_why() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        before = app.live.session.encounter.to_dict()
        await pilot.press("e")
        app.screen.query_one("#field-al", Input).value = "12"
        app.screen.query_one("#field-wis", Input).value = "0"  # not a score
        await pilot.press("enter")
        assert isinstance(app.screen, FormScreen)
        message = app.screen.query_one("#form-message", Static)
        assert "wis" in str(message.render())
        assert app.live.session.encounter.to_dict() == before  # AL not changed either


async def test_a_long_form_error_wraps_and_stays_on_screen_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Wolf")
        app.screen.query_one("#field-hp", Input).value = "2d6+banana"
        await pilot.press("enter")
        await pilot.pause()
        message = app.screen.query_one("#form-message", Static)
        text = str(message.render())
        assert text
        region = message.region
        assert region.height >= 1 and region.bottom <= 24
        assert message.size.height * message.size.width >= len(text)  # nothing clipped


# -- confirmations -------------------------------------------------------------------


async def test_enter_on_remove_keeps_the_combatant_y_removes_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 3")
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Enter" in str(app.screen.query_one("#confirm-keys", Static).render())
        await pilot.press("enter")
        assert "Goblin 3" in names(app)
        await pilot.press("delete", "y")
        assert "Goblin 3" not in names(app)


# -- marks, greyed keys, conditions ---------------------------------------------------


async def test_m_is_greyed_without_an_endurance_pool_and_says_why() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.check_action("move", ()) is None
        await pilot.press("m")
        assert not isinstance(app.screen, MovementScreen)
        assert any("no endurance pool" in str(n.message) for n in app._notifications)
        await select(pilot, app, "Zalek")
        assert screen.check_action("move", ()) is True
        await pilot.press("m")
        assert isinstance(app.screen, MovementScreen)


async def test_shift_c_lists_the_conditions_to_pick_from() -> None:
    session = fight().session
    session.apply("cond Zalek poisoned value 2 rounds 3")
    session.apply("cond Zalek prone")
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Zalek")
        await pilot.press("C")
        assert isinstance(app.screen, ChoiceScreen)
        options = app.screen.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert [s.split()[-1] for s in shown] == ["poisoned", "prone"]
        await pilot.press("2")
        assert [c.name for c in row(app, "Zalek").conditions] == ["poisoned"]
        await select(pilot, app, "Ogre")  # no conditions: greyed, says so
        await pilot.press("C")
        assert not isinstance(app.screen, ChoiceScreen)


async def test_shift_c_on_marked_targets_removes_it_where_present_in_one_step() -> None:
    session = fight().session
    session.apply("cond 'Goblin 1' frightened")
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Goblin 1")
        await pilot.press("space", "j", "space", "C")
        await pilot.press("enter")
        assert row(app, "Goblin 1").conditions == ()
        # the marks stay for the next action (keep_marks = "until-next-turn")
        assert app.live.ui_state["marked"] == ["Goblin 1", "Goblin 2"]


# -- the command line ------------------------------------------------------------------


def test_completions_list_every_match_quoted() -> None:
    found = completions("damage gob", ["Goblin 1", "Goblin 2", "Ogre"], ["damage"])
    assert found == ['damage "Goblin 1"', 'damage "Goblin 2"']
    assert completions("d", [], ["damage", "delay", "heal"]) == ["damage", "delay"]


async def test_repeated_tab_cycles_through_ambiguous_names() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "damage gob")
        line = app.screen.query_one(CommandInput)
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            seen.append(line.value)
        assert seen == [
            'damage "Goblin 1"',
            'damage "Goblin 2"',
            'damage "Goblin 3"',
            'damage "Goblin 1"',
        ]
        assert "of 3 matches" in str(app.screen.query_one("#command-hint", Static).render())
        await type_text(pilot, " 2")
        await pilot.press("enter")
        assert hp(app, "Goblin 1") == 5


# -- palette, log --------------------------------------------------------------------------


async def test_the_palette_shows_usage_text_as_written() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "damage")
        await pilot.pause(0.3)
        options = app.screen.query_one(OptionList)
        text = " ".join(
            str(options.get_option_at_index(i).prompt) for i in range(options.option_count)
        )
        assert "AMOUNT|DICE [TAG…] [crit]" in text


async def test_kept_dice_are_bold_in_the_log_without_asterisks() -> None:
    session = fight().session
    session.apply("roll 2d20kh1")
    entry = session.log[-1]
    assert "**" in entry.text  # the engine marks the kept die
    text = entry_text(entry)
    assert "**" not in text.plain
    assert any(span.style == "bold" for span in text.spans if span.end - span.start <= 2)
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)):
        lines = "\n".join(strip.text for strip in app.screen.query_one(LogPane).lines)
        assert "**" not in lines


async def test_a_log_entry_takes_one_line_unless_it_is_wider_than_the_pane() -> None:
    session = fight().session
    session.apply("roll 1d4")  # short
    session.apply("roll 12d6")  # every face listed: wider than the pane at 80x24
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)):
        pane = app.screen.query_one(LogPane)
        width = pane.scrollable_content_region.width
        texts = [entry_text(e).plain for e in session.log[-2:]]
        assert len(texts[0]) <= width < len(texts[1])
        lines = [strip.text.rstrip() for strip in pane.lines]
        short_at = lines.index(texts[0])  # the short entry: one line, as it is
        rest = lines[short_at + 1 :]
        assert len(rest) >= 2 and all(len(line) <= width for line in rest)
        assert " ".join(rest).split() == texts[1].split()  # wrapped, nothing lost
        bold = [seg.text for seg in pane.lines[short_at] if seg.style and seg.style.bold]
        assert bold and session.log[-2].actor in bold[0]  # the actor stays bold


# -- layout ----------------------------------------------------------------------------------


async def test_narrow_initiative_columns_adapt_and_badges_never_split() -> None:
    session = fight(started=True).session
    session.apply("cond Zalek poisoned value 2 rounds 3")
    session.apply("cond Zalek frightened value 1")
    session.apply("persist Zalek 1d6 fire")
    session.apply("persist Zalek 1d4 bleed")
    session.apply("add 'Hobgoblin Captain' hp 120 al 16 init 3")
    session.apply("temp 'Hobgoblin Captain' 15")
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(InitiativePane)
        header = screen_line(pane, 0)
        assert "Cond." in header and "Conditio" not in header
        zalek = screen_line(pane, 1 + names(app).index("Zalek"))
        assert zalek.rstrip().endswith(("…+1", "…+2", "…+3", "…+4"))  # what did not fit
        shown = zalek.split(" 15 ", 1)[1]
        for badge in ("pois…2·3r", "frig…1", "~fire", "~blee…"):
            assert badge in shown or badge[:2] not in shown  # whole or absent


async def test_a_wide_screen_gets_a_longer_hp_bar_and_more_footer_keys() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        narrow = screen_line(app.screen.query_one(InitiativePane), 1)
        narrow_keys = app.screen.query_one(KeyFooter).shown(80)
    app = make_app(fight(started=True))
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        wide = screen_line(app.screen.query_one(InitiativePane), 1)
        footer = app.screen.query_one(KeyFooter)
        wide_keys = footer.shown(footer.size.width)
    assert narrow.count("█") == 4 and wide.count("█") > 8
    assert len(wide_keys) > len(narrow_keys) + 5
    assert sum(len(k[1]) + len(k[2]) + 2 for k in wide_keys) <= 200


async def test_a_narrow_footer_drops_greyed_keys_and_keeps_help_and_quit() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        every = footer.items
        shown = footer.shown(60)
        line = screen_line(footer, 0)
    assert any(not enabled for *_, enabled in every)  # s Start is greyed mid-fight
    assert all(enabled for *_, enabled in shown[:-2])
    assert [label for _, _, label, _ in shown[-2:]] == ["Help", "Quit"]
    assert line.rstrip().endswith("q Quit") and "? Help" in line
    assert sum(len(k[1]) + len(k[2]) + 2 for k in shown) <= 61


def test_badges_fit_whole_or_count() -> None:
    c = Combatant("Zalek", 30, 30)
    session = Session(Encounter("x"), rng=random.Random(1))
    session.apply("add Zalek hp 30")
    session.apply("cond Zalek poisoned value 2 rounds 3")
    session.apply("persist Zalek 1d6 fire")
    c = session.encounter.combatants[0]
    found = combatant_badges(c)
    assert fit_badges(found).plain == " poisoned 2·3r ~fire 1d6"
    assert fit_badges(found, 16).plain == " pois…2·3r ~fire"
    assert fit_badges(found, 15).plain == " pois…2·3r …+1"
    assert fit_badges(found, 5).plain == " …+2"


async def test_the_combatant_pane_wraps_abilities_between_items_and_scrolls() -> None:
    session = fight().session
    session.apply("set Zalek per 13; set Zalek wis 8; set Zalek notes 'Owes the party 20 gp.'")
    app = make_app(LiveEncounter.in_memory(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Zalek")
        pane = app.screen.query_one(CombatantPane)
        body = app.console.render_lines(
            describe(row(app, "Zalek"), session.encounter.ruleset, width=30),
            app.console.options.update_width(30),
        )
        texts = ["".join(seg.text for seg in line) for line in body]
        for item in ("DEX 14 (+2)", "PER 13 (+1)", "CON 17 (+3)", "WIS 8 (-1)"):
            assert any(item in t for t in texts), item
        assert "Owes the party 20 gp." in pane.text  # every line, the last too
        assert pane.max_scroll_y > 0  # more than fits at 80×24
        await pilot.press("right_square_bracket")
        assert pane.scroll_y > 0
        await pilot.press("left_square_bracket")
        assert pane.scroll_y == 0


def test_pack_breaks_only_between_items() -> None:
    items = ["DEX 14 (+2)", "PER 13 (+1)", "CON 17 (+3)"]
    assert pack(items, 25) == ["DEX 14 (+2)  PER 13 (+1)", "CON 17 (+3)"]
    assert pack(items, None) == ["DEX 14 (+2)  PER 13 (+1)", "CON 17 (+3)"]
    assert pack(items, 5) == items


def test_recovery_countdown_names_its_unit() -> None:
    c = Combatant(
        "Zalek",
        30,
        30,
        endurance=Endurance(3, 21, 17, 7, {}, recovery_rounds_left=299),
    )
    lines = Session(Encounter("x")).encounter.ruleset
    text = "".join(seg.text for line in _render(describe(c, lines)) for seg in line)
    assert "recovers in 299 rounds" in text


def _render(renderable):  # type: ignore[no-untyped-def]
    from rich.console import Console

    console = Console(width=100)
    return console.render_lines(renderable, console.options)


def test_the_dice_prompt_names_the_die_once() -> None:
    assert die_label("flat check DC 20 (d20)", 20) == "flat check DC 20 (d20)"
    assert die_label("damage 2d6", 6) == "damage 2d6 (d6)"


# -- notices -----------------------------------------------------------------------------


async def test_notices_from_the_store_are_shown_in_one_dialog(tmp_path: Path) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        LiveEncounter.create(store, "Bridge trolls").close()
        long = "The journal of 'Bridge trolls' was damaged at line 12; " * 3
        store.notices.extend([long, "The index was rebuilt from the encounter folders."])
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, NoticeScreen)
            notices = [str(s.render()) for s in app.screen.query(".notice").results(Static)]
            assert len(notices) == 2 and "line 12" in notices[0]
            assert store.take_notices() == []  # taken, shown once
            await pilot.press("enter")
            assert isinstance(app.screen, PickerScreen)
            # a load that finds damage: shown after the encounter opens
            store.notices.append("The journal of 'Bridge trolls' lost its last record.")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, NoticeScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, EncounterScreen)
    finally:
        store.close()


# -- the picker and open NAME ---------------------------------------------------------------


def bridge_trolls(store: Any) -> LiveEncounter:
    """A troll at 40 HP saved as 'before the bridge', then hit for 10."""
    live = LiveEncounter.create(store, "Bridge trolls")
    live.do("add Troll hp 40")
    live.save_point("before the bridge")
    live.do("damage Troll 10")
    return live


async def test_the_picker_shows_save_points_and_restores_one_as_a_new_encounter(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        bridge_trolls(store).close()
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(100, 24)) as pilot:
            table = app.screen.query_one(DataTable)
            assert str(table.get_row_at(0)[4]) == "1"  # save points
            await pilot.press("r")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")
            field = app.screen.query_one(Input)
            assert field.value == "Bridge trolls (before the bridge)"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
            assert app.live.name == "Bridge trolls (before the bridge)"
            assert hp(app, "Troll") == 40
        assert {s.name for s in store.list()} == {
            "Bridge trolls",
            "Bridge trolls (before the bridge)",
        }
    finally:
        store.close()


async def test_picker_new_asks_for_the_ruleset_and_delete_defaults_to_no(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        LiveEncounter.create(store, "Old fight").close()
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("delete", "enter")  # Enter = No
            assert [s.name for s in store.list()] == ["Old fight"]
            await pilot.press("n")
            await type_text(pilot, "Dragon")
            await pilot.press("tab", "ctrl+a")
            app.screen.query_one("#field-ruleset", Input).value = "nonsense"
            await pilot.press("enter")
            assert "core, forge, cinematic" in str(
                app.screen.query_one("#form-message", Static).render()
            )
            app.screen.query_one("#field-ruleset", Input).value = "forge"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
            assert app.live.session.encounter.ruleset == ruleset("forge")
    finally:
        store.close()


def test_open_takes_a_unique_prefix_and_lists_names_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tui.resolve_name("bridge", ["Bridge trolls", "Old fight"]) == "Bridge trolls"
    assert tui.resolve_name("OLD FIGHT", ["Old fight", "Old fight 2"]) == "Old fight"
    with pytest.raises(ValueError, match="could be any of 'Old fight', 'Old fight 2'"):
        tui.resolve_name("old", ["Old fight", "Old fight 2"])
    store = open_store(tmp_path / "e.json")
    LiveEncounter.create(store, "Bridge trolls").close()
    store.close()
    args = argparse.Namespace(db=str(tmp_path / "e.json"), seed=None, name="dragon")
    assert tui.run(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Bridge trolls'" in err and "dragon" in err


async def test_a_fresh_snapshot_is_checked_for_between_keys_not_at_start() -> None:
    live = fight()
    calls: list[str] = []
    live.compact_if_due = lambda: calls.append("compact") or True  # type: ignore[method-assign]
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        assert calls == []  # not on the start-up path
        await pilot.pause(2.3)
        assert calls == ["compact"]


async def test_ctrl_s_over_a_kept_label_asks_before_replacing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "e.json")
    try:
        app = CombatTrackerApp(store, bridge_trolls(store), Config(), random.Random(1))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("ctrl+s")
            await type_text(pilot, "Before the bridge")
            await pilot.press("enter")
            await pilot.pause()
            message = str(app.screen.query_one("#prompt-message", Static).render())
            assert "kept already" in message and "Enter again replaces it" in message
            kept = [label for label, _ in store.save_points("Bridge trolls")]
            assert kept == ["before the bridge"]  # nothing replaced yet
            await pilot.press("enter")  # the GM confirms
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
        assert [label for label, _ in store.save_points("Bridge trolls")] == ["Before the bridge"]
    finally:
        store.close()
