"""Names are text, never markup, and never reach the terminal raw (issue 9).

A combatant, encounter or save-point name, a condition, a note or a log
line holding Rich/Textual markup (``Imp [/b]``, ``[@click=app.quit]x``,
``[link=…]``) or control characters (an OSC 52 clipboard write, ``ESC[2J``,
C1, a bidi override) must show exactly as written — the unsafe characters
spelled out (``\\x1b``) — in every pane, title, dialog and toast, and never
crash, link or act.  Hostile data is built directly (the action parser
refuses control characters; a hand-edited file may still hold them).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from textual.geometry import Region
from textual.widgets import DataTable

from rules.combatant import Combatant
from rules.conditions import Condition
from rules.encounter import Encounter, LogEntry
from rules.engine import Session
from rules.text import first_unsafe, name_key, visible
from saves.live import LiveEncounter, open_store
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.picker import PickerScreen
from tracker.screens.prompt import ChoiceScreen, ConfirmScreen
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane

OSC52 = "Evil\x1b]52;c;cm0gLXJmIH4K\x1b\\"
CLEAR = "Clear\x1b[2J"
HOSTILE = [
    "Imp [/b]",
    "[bold]Boss[/bold]",
    "[link=https://x]a[/link]",
    "[@click=app.quit]x[/]",
    OSC52,
    CLEAR,
    "C1\x9b31m",
    "bidi\u202eevil",
]


def hostile_fight(
    name: str,
    *,
    encounter: str | None = None,
    condition: str | None = None,
    notes: str | None = None,
    started: bool = False,
) -> LiveEncounter:
    """*name* first in the order (with *condition* and *notes*), then two
    goblins; the log names *name*; nothing goes through the parser."""
    combatants = (
        Combatant(name, 38, 38, conditions=(Condition(condition or name, 2),), notes=notes or name),
        Combatant("Goblin 1", 7, 7),
        Combatant("Goblin 2", 0, 7),
    )
    enc = Encounter(encounter or name, combatants=combatants, started=started)
    if started:
        enc = Encounter(enc.name, combatants=combatants, started=True, round=1, turn=0)
    log = [LogEntry(1, 1, name, f"{name} hits Goblin 2 for 7"), LogEntry(2, 1, "", f"{name}!")]
    session = Session(enc, rng=random.Random(1), log=log)
    return LiveEncounter.in_memory(session)


def make_app(live: LiveEncounter) -> CombatTrackerApp:
    return CombatTrackerApp(live=live, config=Config())


def rendered(app: CombatTrackerApp) -> list[list[Segment]]:
    """Every line of every widget shown on the current screen, borders and
    titles included, as the segments written to the terminal."""
    lines = []
    for widget in app.screen.query("*"):
        if widget.display and widget.size.area:
            lines += [
                list(strip) for strip in widget.render_lines(Region(0, 0, *widget.outer_size))
            ]
    return lines


def assert_harmless(app: CombatTrackerApp) -> str:
    """No control / bidi character in anything drawn, no link and no click
    action in any style; returns the screen's text."""
    text = []
    for line in rendered(app):
        for segment in line:
            assert first_unsafe(segment.text) < 0, repr(segment.text)
            style = segment.style
            if style is not None:
                assert not style.link, style
                assert "@click" not in (style.meta or {}), style.meta
        text.append("".join(segment.text for segment in line))
    return "\n".join(text)


def title(widget: Any, bottom: bool = False) -> str:
    """A border title (or subtitle) as drawn: the text between ``╭─ `` and
    the rest of the border (an ellipsis ends one that did not fit)."""
    y = widget.outer_size.height - 1 if bottom else 0
    line = widget.render_lines(Region(0, y, widget.outer_size.width, 1))[0].text
    if bottom:
        return line[1:-3].lstrip("─").strip()
    return line[3:].rstrip("─╮").removesuffix(" ")


def squeeze(text: str) -> str:
    return "".join(text.split())


async def test_markup_and_control_names_show_exactly_as_written() -> None:
    for name in HOSTILE:
        app = make_app(hostile_fight(name, started=True))
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, EncounterScreen)
            shown = visible(name)
            pane = screen.query_one(InitiativePane)
            assert pane.get_row_at(0)[2].plain == " " + shown
            details = screen.query_one(CombatantPane)
            assert title(details) == shown
            assert details.text.splitlines()[0].startswith(shown)
            assert squeeze(f"Note {shown}") in squeeze(details.text)  # wrapped
            assert title(pane) == f"Round 1 · {shown}'s turn · next Goblin 1"
            assert title(pane, bottom=True) == shown
            assert screen.sub_title == f"{shown} · Round 1 · {shown}'s turn"
            log = "\n".join(strip.text for strip in screen.query_one(LogPane).lines)
            assert f"{shown} hits Goblin 2" in log
            await pilot.press("m")  # no endurance pool: a toast naming the combatant
            await pilot.pause()
            text = assert_harmless(app)
            assert squeeze(f"{shown} has no endurance pool") in squeeze(text)  # the toast
            assert app.return_code is None


async def test_dialogs_show_names_as_text() -> None:
    for name in HOSTILE:
        app = make_app(hostile_fight(name))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("delete")
            assert isinstance(app.screen, ConfirmScreen)
            assert squeeze(f"Remove {visible(name)} from the fight?") in squeeze(
                assert_harmless(app)
            )
            await pilot.press("n")
            await pilot.press("C")  # remove a condition: its name in a pick list
            assert isinstance(app.screen, ChoiceScreen)
            assert squeeze(visible(name)) in squeeze(assert_harmless(app))
            await pilot.press("escape", "e")  # the edit form: the name, visible
            text = assert_harmless(app)
            assert squeeze(f"Edit {visible(name)}") in squeeze(text)
            await pilot.press("enter")  # nothing changed: nothing is renamed
            await pilot.pause()
            assert app.live.session.encounter.combatants[0].name == name
            assert isinstance(app.screen, EncounterScreen)


async def test_imp_selected_then_reopened_never_crashes(tmp_path: Path) -> None:
    # the selection is saved: a name that crashed when selected crashed the
    # fight on every open (MarkupError)
    db = tmp_path / "encounters.json"
    store = open_store(db)
    live = LiveEncounter.create(store, "Imps [/]", rng=random.Random(1))
    live.do("add 'Imp [/b]' hp 7")
    live.do("add Goblin hp 7")
    live.set_ui_state(selected="Imp [/b]")
    live.close()
    store.close()
    for _ in range(2):
        store = open_store(db)
        app = CombatTrackerApp(store, config=Config(), rng=random.Random(2))
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, PickerScreen)
            table = app.screen.query_one(DataTable)
            assert table.get_row_at(0)[0].plain == "Imps [/]"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
            assert title(app.screen.query_one(CombatantPane)) == "Imp [/b]"
            await pilot.press("j", "k")  # away and back onto the Imp
            assert title(app.screen.query_one(CombatantPane)) == "Imp [/b]"
            assert_harmless(app)
            await pilot.press("q")
        store.close()


async def test_a_click_on_a_name_runs_nothing() -> None:
    name = "[@click=app.quit]x[/]"
    app = make_app(hostile_fight(name, started=True))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        # the initiative pane's title names the active combatant, the
        # combatant pane's the selected one, a toast quotes it
        await pilot.click(InitiativePane, offset=(8, 0))
        await pilot.click(CombatantPane, offset=(4, 0))
        await pilot.click(CombatantPane, offset=(3, 1))
        await pilot.click(InitiativePane, offset=(8, 2))
        await pilot.press("m")
        await pilot.pause()
        await pilot.click("Toast")
        await pilot.pause()
        assert app.return_code is None and app.is_running
        assert_harmless(app)


async def test_osc52_and_screen_clear_are_spelled_out_never_sent() -> None:
    app = make_app(hostile_fight(OSC52, encounter=CLEAR, condition=CLEAR, notes=OSC52))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = assert_harmless(app)
        assert "\x1b" not in text
        assert "Evil\\x1b]52;c;cm0gLXJmIH4K\\x1b\\" in text
        assert "Clear\\x1b[2J" in text


class FakeStore:
    """The index a hand-edited database would give: names the store would
    refuse today."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def list(self) -> list[dict[str, Any]]:
        return [
            {"name": n, "started": True, "round": 2, "active": n, "combatants": 1}
            for n in self.names
        ]

    def take_notices(self) -> list[str]:
        return []

    def save_points(self, name: str) -> list[tuple[str, str]]:
        return [(f"{name} point", "2026-01-01T10:00")]


async def test_the_picker_lists_hostile_encounter_names_as_text() -> None:
    app = CombatTrackerApp(FakeStore(HOSTILE), config=Config())
    async with app.run_test(size=(120, 30)) as pilot:
        assert isinstance(app.screen, PickerScreen)
        table = app.screen.query_one(DataTable)
        assert [table.get_row_at(i)[0].plain for i in range(len(HOSTILE))] == [
            visible(n) for n in HOSTILE
        ]
        text = assert_harmless(app)
        assert "[bold]Boss[/bold]" in text
        await pilot.press("r")  # the save points of the first: a pick list
        assert isinstance(app.screen, ChoiceScreen)
        assert "Imp [/b] point" in assert_harmless(app)


# -- property: any text as a name -----------------------------------------------------------

NASTY = st.sampled_from(
    list("[]/@=\\\"' ")
    + ["[/]", "[b]", "[@click=app.quit]", "[link=x]", "\x1b", "\x9b"]
    + ["\x00", "\x07", "\n", "\t", "\x7f", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028"]
    + ["👹", "🧌", "éé", "漢字", "\U0001f3f4\u200d\u2620\ufe0f"]
)
NAMES = st.lists(st.one_of(NASTY, st.text(min_size=1, max_size=8)), min_size=1, max_size=40).map(
    "".join
)


async def _check_any_name(name: str, encounter: str, condition: str, notes: str) -> None:
    app = make_app(hostile_fight(name, encounter=encounter, condition=condition, notes=notes))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("m", "j", "k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.query_one(InitiativePane).get_row_at(0)[2].plain == " " + visible(name)
        details = screen.query_one(CombatantPane)
        drawn = title(details)
        # a long title is cut to the border with an ellipsis (and a wide
        # character that did not fit leaves a blank cell)
        assert drawn and visible(name).startswith(drawn.removesuffix("…").rstrip())
        assert squeeze(visible(name)) in squeeze(details.text)
        assert squeeze(visible(notes)) in squeeze(details.text)
        assert assert_harmless(app)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(NAMES, NAMES, NAMES, NAMES)
def test_any_text_as_a_name_is_shown_as_given_and_harmless(
    name: str, encounter: str, condition: str, notes: str
) -> None:
    if name_key(name) in {"goblin 1", "goblin 2"}:
        name += "!"
    asyncio.run(_check_any_name(name, encounter, condition, notes))
