"""``s`` with players lacking an initiative: one form for the totals the
players call out, applied as one step (Pilot; engine state and panes).
RULES.md §4."""

from __future__ import annotations

import random
import shlex

from hypothesis import given
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.grammar import MAX_BATCH
from rules.engine.parse import parse_action
from saves.live import LiveEncounter
from tests.tracker.test_keys import log_lines, make_app, names, row_text, type_text
from tracker.app import CombatTrackerApp
from tracker.initiative_entry import initiative_entry
from tracker.screens.encounter import EncounterScreen
from tracker.screens.faces import FacesScreen
from tracker.screens.form import FormBody
from tracker.screens.initiative_form import InitiativeFormScreen

PLAYERS = ("Mira", "Bram", "Bob; remove Zombie 1", "Tess")


def table(seed: int = 5) -> LiveEncounter:
    """Four players (no initiative yet) and a group of four zombies."""
    session = Session(Encounter("Crypt"), rng=random.Random(seed))
    for name in PLAYERS:
        session.apply(f"add {shlex.quote(name)} hp 20 al 14 player")
    session.apply("add Zombie count 4 hp 2d8 al 8")
    return LiveEncounter.in_memory(session)


def initiatives(app: object) -> dict[str, int | None]:
    enc = app.live.session.encounter  # type: ignore[attr-defined]
    return {c.name: c.initiative for c in enc.combatants}


async def test_s_asks_the_players_totals_then_starts_in_one_undoable_step() -> None:
    app = make_app(table())
    async with app.run_test(size=(80, 24)) as pilot:
        before = names(app)
        steps = len(app.live.session.log)
        await pilot.press("s")
        form = app.screen
        assert isinstance(form, InitiativeFormScreen)
        assert [str(label.render()) for label in form.query(".init-name")] == list(PLAYERS)
        for total in ("17", "12", ""):  # Bob's player is away: rolled
            await type_text(pilot, total)
            await pilot.press("enter")
            assert names(app) == before and not app.live.session.encounter.started
        assert len(app.live.session.log) == steps  # nothing applied while typing
        await type_text(pilot, "9")
        await pilot.press("enter")  # the last row: apply and start
        assert isinstance(app.screen, EncounterScreen)
        enc = app.live.session.encounter
        assert enc.started and len(enc.combatants) == 8  # Bob's name removed nobody
        inits = initiatives(app)
        assert (inits["Mira"], inits["Bram"], inits["Tess"]) == (17, 12, 9)
        assert all(v is not None for v in inits.values())  # Bob and the zombies: rolled
        in_order = [inits[n] or 0 for n in names(app)]
        assert in_order == sorted(in_order, reverse=True)  # sorted once, on start
        shown = " ".join(row_text(app, i) for i in range(8))
        assert "Mira" in shown and "▶" in shown
        log = log_lines(app)
        assert "Mira's initiative is now 17" in log and "Round 1" in log
        assert "has a fixed initiative" not in log.replace("\n", " ")  # each total said once
        await pilot.press("ctrl+z")  # one undo removes it all
        enc = app.live.session.encounter
        assert not enc.started and names(app) == before
        assert all(v is None for v in initiatives(app).values())
        assert "▶" not in " ".join(row_text(app, i) for i in range(8))


async def test_esc_changes_nothing_and_bad_totals_keep_the_form_open() -> None:
    app = make_app(table())
    async with app.run_test(size=(80, 24)) as pilot:
        entries = len(app.live.session.log)
        await pilot.press("s")
        await type_text(pilot, "x7")
        await pilot.press("enter")
        form = app.screen
        assert isinstance(form, InitiativeFormScreen)
        message = form.query_one("#init-message-0", Static)
        assert "init must be a whole number, not 'x7'" in str(message.render())
        assert form.focused is form.query_one("#init-0", Input)  # stays on the row
        form.query_one("#init-0", Input).value = "17"
        await pilot.press("enter", "tab")
        await type_text(pilot, "5000")
        await pilot.press("enter")
        assert "init 5000 is too large (at most 1,000)" in str(
            form.query_one("#init-message-2", Static).render()
        )
        assert not form.query_one("#init-message-0", Static).has_class("shown")
        await pilot.press("escape")
        assert isinstance(app.screen, EncounterScreen)
        assert not app.live.session.encounter.started
        assert all(v is None for v in initiatives(app).values())
        assert len(app.live.session.log) == entries  # the adds only


async def test_s_without_players_lacking_initiative_starts_at_once() -> None:
    live = table()
    for name in PLAYERS:
        live.do(f"init {shlex.quote(name)} 10")
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, EncounterScreen)
        assert app.live.session.encounter.started


async def test_physical_rolls_ask_totals_and_the_program_rolls_the_monsters() -> None:
    app = make_app(table(), physical_rolls=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, InitiativeFormScreen)
        for total in ("17", "12", "8", "3"):
            await type_text(pilot, total)
            await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)  # no faces asked
        enc = app.live.session.encounter
        assert enc.started
        assert all(v is not None for v in initiatives(app).values())


async def test_physical_rolls_ask_only_the_monsters_faces_when_the_gm_asks() -> None:
    app = make_app(table(), physical_rolls=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        form = app.screen
        for total in ("17", "", "8", "3"):  # Bram: rolled by the program
            await type_text(pilot, total)
            await pilot.press("tab")
        assert form.focused is form.query_one("#init-monster-dice", Checkbox)
        await pilot.press("space", "enter")  # tick, then start
        await pilot.pause()
        faces = app.screen
        assert isinstance(faces, FacesScreen)
        which = str(faces.query_one("#faces-which", Static).render())
        assert which == "Die 1 of 4: Zombie 1 initiative (d20)"
        for face in ("20", "1", "15", "7"):
            await type_text(pilot, face)
            await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        inits = initiatives(app)
        assert app.live.session.encounter.started
        assert (inits["Mira"], inits["Bob; remove Zombie 1"], inits["Tess"]) == (17, 8, 3)
        assert inits["Bram"] is not None
        zombies = [inits[f"Zombie {i}"] for i in range(1, 5)]
        assert zombies == [20, 1, 15, 7]  # the faces typed (no DEX given)


def table_of_players(count: int) -> LiveEncounter:
    """*count* players without initiative (a convention's open table) and an ogre."""
    session = Session(Encounter("Convention"), rng=random.Random(8))
    while count > 0:
        session.apply(f"add Hero count {min(count, 100)} hp 20 al 14 player")
        count -= 100
    session.apply("add Ogre hp 30 al 11")
    return LiveEncounter.in_memory(session)


async def call_out(pilot: Pilot, app: CombatTrackerApp, totals: list[str]) -> list[Input]:
    """``s``, each row's total (by value: a hundred rows typed key by key
    take long), then Enter on the last row; the form's fields."""
    await pilot.press("s")
    form = app.screen
    assert isinstance(form, InitiativeFormScreen)
    inputs = list(form.query(Input).results(Input))
    for field, total in zip(inputs, totals, strict=False):
        field.value = total
    inputs[-1].focus()
    await pilot.press("enter")
    await pilot.pause()
    return inputs


async def test_more_totals_than_one_step_takes_are_one_message_and_change_nothing() -> None:
    app = make_app(table_of_players(120))
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.live.session.to_dict()
        # every total called out but the last, then Enter on it: start
        inputs = await call_out(pilot, app, [str(i % 20 + 1) for i in range(119)])
        form = app.screen
        assert isinstance(form, InitiativeFormScreen)  # the form stays, every total kept
        assert len(inputs) == 120
        assert app.live.session.to_dict() == before
        messages = [str(m.render()) for m in form.query(".init-message").results(Static)]
        told = [(i, m) for i, m in enumerate(messages) if m]
        assert told == [
            (
                99,  # the first total past the room, where the focus goes
                "one step takes at most 99 typed totals, and 119 are typed: leave 20 blank "
                "(rolled), or set them with i once the fight has started",
            )
        ]
        assert form.focused is inputs[99]
        for field in inputs[99:]:
            field.value = ""  # Hero 100 to 120 roll
        inputs[-1].focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        enc = app.live.session.encounter
        inits = initiatives(app)
        assert enc.started and all(v is not None for v in inits.values())
        assert [inits[f"Hero {i}"] for i in range(1, 100)] == [i % 20 + 1 for i in range(99)]
        await pilot.press("ctrl+z")  # one step, one undo
        assert app.live.session.to_dict()["encounter"] == before["encounter"]


def in_view(form: InitiativeFormScreen, row: int) -> bool:
    """Whether row *row*'s message is shown inside the form's visible part."""
    message = form.query_one(f"#init-message-{row}", Static).region
    return message.height >= 1 and form.query_one(FormBody).region.contains_region(message)


async def test_the_message_under_the_last_row_of_a_long_form_is_in_view() -> None:
    app = make_app(table_of_players(100))
    async with app.run_test(size=(80, 24)) as pilot:
        # a hundred totals: one too many
        inputs = await call_out(pilot, app, [str(i % 20 + 1) for i in range(100)])
        form = app.screen
        assert isinstance(form, InitiativeFormScreen)
        assert form.focused is inputs[-1] and in_view(form, 99)  # not below the fold
        assert "leave 1 blank" in str(form.query_one("#init-message-99", Static).render())
        await pilot.press("backspace", "backspace", "x", "enter")  # a bad total there
        await pilot.pause()
        assert "init must be a whole number" in str(
            form.query_one("#init-message-99", Static).render()
        )
        assert in_view(form, 99)
        await pilot.press("backspace", "enter")  # blank: rolled, and the fight starts
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.live.session.encounter.started


async def test_a_hundred_players_left_blank_start_at_once() -> None:
    app = make_app(table_of_players(150))
    async with app.run_test(size=(80, 24)) as pilot:
        await call_out(pilot, app, [])
        assert isinstance(app.screen, EncounterScreen)
        assert app.live.session.encounter.started


@given(st.lists(st.one_of(st.just(""), st.integers(-1000, 1000).map(str)), max_size=130))
def test_the_forms_totals_make_a_line_the_engine_reads_or_one_message(totals: list[str]) -> None:
    named = {f"Hero {i}": total for i, total in enumerate(totals, 1)}
    typed = [name for name, total in named.items() if total]
    result = initiative_entry(named)
    if len(typed) < MAX_BATCH:
        assert isinstance(result, str)
        action = parse_action(result, list(named))
        parts = action["actions"] if action["verb"] == "batch" else [action]
        assert len(parts) == len(typed) + 1 and parts[-1]["verb"] == "start"
    else:
        assert isinstance(result, dict) and list(result) == [typed[MAX_BATCH - 1]]
