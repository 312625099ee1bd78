"""Area damage with saves and marks that stay (issue 11, targeting): mark
three zombies and an ogre, ``d`` then ``8d6 fire`` and ``ctrl+s`` opens one
form where each target takes full, half or none; Enter applies one line, one
roll, one undo.  The marks then serve a second action (a condition) and
clear as ``keep_marks`` says."""

from __future__ import annotations

import random
from pathlib import Path

from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config, load_config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.saves_form import DamagePromptScreen, SavesScreen
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane
from tracker.widgets.saves_list import SavesList

TARGETS = ["Zombie 1", "Zombie 2", "Zombie 3", "Ogre"]


def fight() -> LiveEncounter:
    session = Session(Encounter("Crypt"), rng=random.Random(5))
    session.apply("add Ayla hp 30 al 15 player init 20")
    session.apply("add Zombie count 6 hp 40 al 8 init 10")
    session.apply("add Ogre hp 59 al 11 init 5")
    session.apply("start")
    return LiveEncounter.in_memory(session)


def make_app(keep_marks: str = "until-next-turn") -> CombatTrackerApp:
    return CombatTrackerApp(live=fight(), config=Config(keep_marks=keep_marks))


def hp(app: CombatTrackerApp) -> dict[str, int]:
    return {c.name: c.hp for c in app.live.session.encounter.combatants}


def row_text(app: CombatTrackerApp, name: str) -> str:
    table = app.screen.query_one(InitiativePane)
    names = [c.name for c in app.live.session.encounter.combatants]
    return " ".join(str(cell) for cell in table.get_row_at(names.index(name)))


def log_text(app: CombatTrackerApp) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(LogPane).lines)


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def mark(pilot: Pilot, app: CombatTrackerApp, names: list[str]) -> None:
    table = app.screen.query_one(InitiativePane)
    order = [c.name for c in app.live.session.encounter.combatants]
    for name in names:
        table.move_cursor(row=order.index(name), animate=False)
        await pilot.pause()
        await pilot.press("space")


def shown_rows(app: CombatTrackerApp) -> list[str]:
    """The saves form's lines as drawn (every target fits in view here)."""
    form = app.screen.query_one(SavesList)
    return [form.render_line(y).text for y in range(len(form.names))]


async def area_damage(pilot: Pilot, app: CombatTrackerApp) -> None:
    """8d6 fire on the marks: Zombie 2 saves for half, the Ogre for none."""
    await pilot.press("d")
    assert isinstance(app.screen, DamagePromptScreen)
    assert "ctrl+s" in str(app.screen.query_one("#prompt-message").render())
    await type_text(pilot, "8d6 fire")
    await pilot.press("ctrl+s")
    assert isinstance(app.screen, SavesScreen)
    rows = shown_rows(app)
    assert [r.split("full ")[-1].strip() for r in rows] == TARGETS  # all full at first
    await pilot.press("down", "space")  # Zombie 2: full → half
    await pilot.press("down", "down", "n")  # Ogre: none
    rows = shown_rows(app)
    assert "half" in rows[1] and "none" in rows[3] and "full" in rows[0]
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, EncounterScreen)


async def test_saves_per_target_one_roll_one_step_one_undo() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await mark(pilot, app, TARGETS)
        before = hp(app)
        steps = len(app.live.session.undo_stack)
        seqs = {e.seq for e in app.live.log}
        await area_damage(pilot, app)
        after = hp(app)
        assert len(app.live.session.undo_stack) == steps + 1  # one step
        assert len({e.seq for e in app.live.log} - seqs) == 1  # one log entry
        action = app.live.session.undo_stack[-1].action
        assert action["half"] == ["Zombie 2"] and action["none"] == ["Ogre"]
        rolled = sum(action["faces"])
        assert before["Zombie 1"] - after["Zombie 1"] == min(rolled, 40)
        assert before["Zombie 3"] - after["Zombie 3"] == min(rolled, 40)
        assert before["Zombie 2"] - after["Zombie 2"] == min(rolled // 2, 40)
        assert after["Ogre"] == before["Ogre"] and after["Ayla"] == before["Ayla"]
        assert after["Zombie 4"] == 40
        shown = log_text(app)
        assert "(half: saved)" in shown and "Zombie 2" in shown
        assert f"{after['Zombie 2']}/40" in row_text(app, "Zombie 2")
        # the marks stay for the next action
        assert app.live.ui_state["marked"] == TARGETS
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert hp(app) == before  # one undo restores every target


async def test_marks_serve_damage_then_a_condition_and_clear_when_the_turn_passes() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await mark(pilot, app, TARGETS)
        await area_damage(pilot, app)
        await pilot.press("c")
        await type_text(pilot, "prone")
        await pilot.press("enter")
        await pilot.pause()
        enc = app.live.session.encounter
        prone = [c.name for c in enc.combatants if any(k.name == "prone" for k in c.conditions)]
        assert prone == TARGETS
        assert "●" in row_text(app, "Ogre")
        # two of the four fell to the area damage: the header says so
        assert "●4, 2 down" in app.screen.query_one(InitiativePane).render_line(0).text
        await pilot.press("n")  # the GM moves on
        await pilot.pause()
        assert app.live.ui_state["marked"] == []
        assert "●" not in row_text(app, "Ogre")


async def test_marks_until_escape_survive_the_turn_and_after_each_action_clear() -> None:
    app = make_app("until-esc")
    async with app.run_test(size=(80, 24)) as pilot:
        await mark(pilot, app, ["Zombie 1", "Ogre"])
        await pilot.press("n")
        await pilot.pause()
        assert app.live.ui_state["marked"] == ["Zombie 1", "Ogre"]
        await pilot.press("escape")
        assert app.live.ui_state["marked"] == []
    app = make_app("after-each-action")
    async with app.run_test(size=(80, 24)) as pilot:
        await mark(pilot, app, ["Zombie 1", "Ogre"])
        await pilot.press("d")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await pilot.pause()
        assert hp(app)["Ogre"] == 56 and app.live.ui_state["marked"] == []


async def test_enter_in_the_prompt_still_hits_everyone_and_esc_in_the_form_goes_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await mark(pilot, app, ["Zombie 1", "Ogre"])
        await pilot.press("d", "ctrl+s")  # nothing typed yet: says so, stays
        assert isinstance(app.screen, DamagePromptScreen)
        assert "type the damage first" in str(app.screen.query_one("#prompt-message").render())
        await type_text(pilot, "5")
        await pilot.press("ctrl+s", "h", "escape")  # back to the amount, nothing applied
        assert isinstance(app.screen, DamagePromptScreen)
        assert hp(app)["Ogre"] == 59
        await pilot.press("enter")
        await pilot.pause()
        assert hp(app)["Ogre"] == 54 and hp(app)["Zombie 1"] == 35


async def test_one_target_takes_a_save_too_and_a_bad_amount_is_refused_first() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        ayla = hp(app)["Ayla"]
        await pilot.press("d")  # the selection: Ayla, whose turn it is
        assert isinstance(app.screen, DamagePromptScreen)
        await type_text(pilot, "xyz")
        await pilot.press("ctrl+s")  # not an amount: said here, no form
        assert isinstance(app.screen, DamagePromptScreen)
        message = str(app.screen.query_one("#prompt-message").render())
        assert "not dice notation" in message
        await pilot.press(*["backspace"] * 3)
        await type_text(pilot, "10")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SavesScreen)
        await pilot.press("h", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert hp(app)["Ayla"] == ayla - 5


def test_keep_marks_setting_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert load_config(path).keep_marks == "until-next-turn"  # the default
    for written, read in [
        ('"until-esc"', "until-esc"),
        ('"after-each-action"', "after-each-action"),
        ("true", "until-esc"),
        ("false", "after-each-action"),
    ]:
        path.write_text(f"[settings]\nkeep_marks = {written}\n")
        config = load_config(path)
        assert config.keep_marks == read and config.problems == []
    path.write_text('[settings]\nkeep_marks = "sometimes"\n')
    config = load_config(path)
    assert config.keep_marks == "until-next-turn"
    assert "keep_marks must be one of" in config.problems[0]


async def test_esc_from_the_saves_form_keeps_the_saves_already_chosen() -> None:
    """QA: Esc back to the amount and ctrl+s again showed every target at
    full, so Enter would have hit the ones that saved with all of it."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await mark(pilot, app, TARGETS)
        await pilot.press("d")
        await type_text(pilot, "6d6 fire")
        await pilot.press("ctrl+s", "down", "h", "n")  # Zombie 2 half, Zombie 3 none
        await pilot.press("escape")
        assert isinstance(app.screen, DamagePromptScreen)
        await pilot.press("ctrl+s")  # the same amount: the choices are still there
        assert isinstance(app.screen, SavesScreen)
        assert [r.split()[1] for r in shown_rows(app)] == ["full", "half", "none", "full"]
        await pilot.press("escape", "backspace", "backspace", "backspace", "backspace")
        await type_text(pilot, "cold")
        await pilot.press("ctrl+s")  # a new damage text: the saves are per target, kept
        assert [r.split()[1] for r in shown_rows(app)] == ["full", "half", "none", "full"]
        await pilot.press("enter")
        await pilot.pause()
        action = app.live.session.undo_stack[-1].action
        assert action["half"] == ["Zombie 2"] and action["none"] == ["Zombie 3"]
        assert "cold" in action["tags"]
