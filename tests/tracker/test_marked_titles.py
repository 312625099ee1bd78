"""Every prompt and pick on a horde's marks keeps its title to one line
(``tracker.lines.targets_title``), as the damage prompt's always did:
``c`` on thirty marked zombies on a 60x20 screen used to list every name
over a dozen lines, pushing the field's usage and keys off the screen
(and with more marks the field itself)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.lines import TITLE_ROOM, targets_title
from tracker.screens.prompt import ChoiceScreen, PromptScreen
from tracker.widgets.initiative import InitiativePane

ZOMBIES = [f"Zombie {i}" for i in range(1, 31)]


def horde() -> LiveEncounter:
    session = Session(Encounter("Crypt"), rng=random.Random(7))
    session.apply("add Ayla hp 30 al 15 player init 20")
    session.apply("add Zombie count 30 hp 60 al 8 init 10")
    session.apply("start")
    session.apply(f"persist {','.join(ZOMBIES)!r} 1d4 necrotic")
    return LiveEncounter.in_memory(session)


async def mark_every_zombie(pilot: Pilot, app: CombatTrackerApp) -> None:
    pane = app.screen.query_one(InitiativePane)
    pane.move_cursor(row=1)
    await pilot.pause()
    for _ in ZOMBIES:
        await pilot.press("space", "j")


def title_of(app: CombatTrackerApp) -> tuple[str, int]:
    label = app.screen.query_one(".dialog-title")
    return str(label.render()), label.size.height


def keys_in_view(app: CombatTrackerApp, height: int) -> bool:
    rows = list(app.screen.query(".dialog-keys"))
    return bool(rows) and all(r.region.bottom <= height and r.region.height >= 1 for r in rows)


async def test_the_condition_prompt_on_thirty_marks_keeps_its_field_and_keys_in_view() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(60, 20)) as pilot:
        await mark_every_zombie(pilot, app)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        title, lines = title_of(app)
        assert title.startswith("Condition → 30 targets: Zombie 1, Zombie 2")
        assert title.endswith("…") and lines <= 2
        field = app.screen.query_one("#prompt-input")
        assert field.region.bottom <= 20 and field.region.height >= 1
        assert keys_in_view(app, 20)
        await pilot.press(*"prone", "enter")
        await pilot.pause()
        assert all(
            [c.name for c in z.conditions] == ["prone"]
            for z in app.live.encounter.combatants
            if z.name in ZOMBIES
        )


async def test_the_x_pick_on_thirty_marks_shows_its_choices_and_keys() -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(60, 20)) as pilot:
        await mark_every_zombie(pilot, app)
        await pilot.press("X")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        title, lines = title_of(app)
        assert title.startswith("End persistent damage → 30 targets: Zombie 1")
        assert lines <= 2
        choices = app.screen.query_one("#choices")
        assert choices.region.bottom <= 20 and choices.region.height >= 1
        assert keys_in_view(app, 20)


def test_a_few_targets_are_named_whole_and_the_attacker_left_out_stays_said() -> None:
    assert targets_title("Heal", ["Ayla", "Boris"]) == "Heal: Ayla, Boris"
    title = targets_title("Zombie 3 attacks", ZOMBIES, "not Zombie 3")
    assert title.startswith("Zombie 3 attacks → 30 targets: Zombie 1,")
    assert title.endswith("… (not Zombie 3)") and cell_len(title) <= TITLE_ROOM
    # one target is its name, however long: never "1 targets" and no name
    long = "Zombie of the Sunken Crypt beneath the Mill at Dawn, the Last"
    assert targets_title("Condition", [long]) == f"Condition: {long}"


@given(
    st.lists(
        st.text(
            st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=60
        ),
        min_size=2,
        max_size=40,
        unique=True,
    )
)
def test_a_title_on_many_names_fits_one_line_and_lists_the_first_ones(names: list[str]) -> None:
    title = targets_title("Condition", names)
    assert cell_len(title) <= TITLE_ROOM
    if title != "Condition: " + ", ".join(names):  # shortened: how many, then the first names
        head = f"Condition → {len(names)} targets:"
        assert title.startswith(head) and title.endswith(" …")
        listed = title.removeprefix(head).removesuffix(" …")
        assert any(listed == "".join(f" {n}," for n in names[:k]) for k in range(len(names)))
