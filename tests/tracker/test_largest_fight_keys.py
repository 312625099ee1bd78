"""Keys on the largest fight (``rules.limits``: 500 combatants, names of 60
characters): every key builds its line by naming its targets, so on a
horde's row ``d`` names every standing member, and the saves form names
them again after ``half`` and ``none``.  Each applies as one step (it used
to answer "the line is too long" about a line the GM never typed); the
``:`` line takes a line that long; the log and the pane stay readable."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.limits import MAX_COMBATANTS
from rules.text import MAX_NAME
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.controller import EncounterController
from tracker.lines import saves_line
from tracker.screens.encounter import EncounterScreen
from tracker.screens.saves_form import DamagePromptScreen, SavesScreen
from tracker.widgets.command_line import CommandLine
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane

#: each ``KIND 100`` is MAX_NAME long, quotes and spaces in it
KINDS = ["Zombie of the Sunken Crypt beneath the Mill at Dawn", "Ghoul's \"Kin\" 'Rotting' Ghoul's"]
DOWN = 7  # members already down: the horde's row reaches the others


def kind(n: int) -> str:
    return KINDS[n % len(KINDS)].ljust(MAX_NAME - 4, ".")


def horde() -> LiveEncounter:
    session = Session(Encounter("Largest"), rng=random.Random(9))
    for n in range(MAX_COMBATANTS // 100):
        session.apply(f"add {shell(kind(n))} count 100 hp 500 group Horde")
    session.apply("start")
    for c in session.encounter.combatants[:DOWN]:
        session.apply(f"set {shell(c.name)} hp 0")
    return LiveEncounter.in_memory(session)


def shell(name: str) -> str:
    from rules.engine.shell import quote_word

    return quote_word(name)


def standing(live: LiveEncounter) -> list[str]:
    return [c.name for c in live.encounter.combatants if not c.down]


async def test_d_on_the_horde_row_hits_every_standing_member_in_one_step() -> None:
    live = horde()
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        assert len(live.encounter.combatants) == MAX_COMBATANTS
        steps = len(live.session.undo_stack)
        await pilot.press("d")
        screen = app.screen
        assert isinstance(screen, DamagePromptScreen)
        await pilot.press("5", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen), "the prompt stayed: the line was refused"
        assert len(live.session.undo_stack) == steps + 1
        action = live.session.undo_stack[-1].action
        hit = standing(live)
        assert action["targets"] == hit and len(hit) == MAX_COMBATANTS - DOWN
        assert all(
            c.hp == (0 if i < DOWN else 495) for i, c in enumerate(live.encounter.combatants)
        )
        # the log: one short entry per member hit, the newest in view
        entries = live.session.undo_stack[-1].log
        assert len(entries) == len(hit) and max(len(e.text) for e in entries) < 120
        shown = [strip.text for strip in app.screen.query_one(LogPane).lines]
        assert any(f"{hit[-1]} takes 5" in line for line in shown[-3:]), shown[-3:]


async def test_the_saves_form_on_the_whole_horde_applies_each_save() -> None:
    live = horde()
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        hit = standing(live)
        await pilot.press("d")
        await pilot.press(*"8d6", "space", *"fire")
        await pilot.press("ctrl+s")
        form = app.screen
        assert isinstance(form, SavesScreen) and len(form.rows) == len(hit)
        await pilot.press("h", "n", "end", "h")  # the first half, the second none, the last half
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen), "the form stayed: the line was refused"
        action = live.session.undo_stack[-1].action
        assert action["targets"] == hit
        assert action["half"] == [hit[0], hit[-1]] and action["none"] == [hit[1]]
        rolled = sum(action["faces"])
        hp = {c.name: c.hp for c in live.encounter.combatants}
        assert hp[hit[0]] == 500 - rolled // 2 and hp[hit[1]] == 500 and hp[hit[2]] == 500 - rolled


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("heal", "1"),
        ("temp", "5 rounds 2"),
        ("persistent", "1d6 bleed"),
        ("condition", "frightened 1 rounds 2"),
        ("attack", "roll 12 damage 1d6 slashing"),
        ("hide", ""),
        ("mask", ""),
        ("remove", ""),
    ],
)
def test_every_key_on_the_horde_row_acts_on_it_in_one_step(action: str, text: str) -> None:
    live = horde()
    ctl = EncounterController(live, lambda: 0)
    assert ctl.selected_group()
    if action == "heal":
        live.session.apply("damage Horde 3")
    steps = len(live.session.undo_stack)
    ask = ctl.ask(action)
    line = ask.line(text) if ask is not None else ctl.line(action)
    assert line is not None and ctl.do(line) is None
    assert len(live.session.undo_stack) == steps + 1
    for ending in ("uncondition", "unpersist"):
        pick = ctl.ask(ending)
        if pick is not None:
            assert ctl.do(pick.line(pick.choices[0])) is None
            assert len(live.session.undo_stack) == steps + 2


async def test_the_command_line_takes_a_line_naming_everyone_twice() -> None:
    live = horde()
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(120, 40)) as pilot:
        names = [c.name for c in live.encounter.combatants]
        saves = dict.fromkeys(names[::2], "half") | dict.fromkeys(names[1::2], "none")
        line = saves_line(names, "2d6 fire", saves)
        await pilot.press("colon")
        command = app.screen.query_one(CommandLine)
        command.input.value = line
        await pilot.press("enter")
        await pilot.pause()
        assert not command.display, command.hint.render()
        assert live.session.undo_stack[-1].action["half"] == names[::2]
        app.screen.query_one(InitiativePane)  # the screen is still the fight
