"""Every prompt and pick on a horde's marks keeps its title to one line
(``tracker.lines.targets_title``), as the damage prompt's always did:
``c`` on thirty marked zombies on a 60x20 screen used to list every name
over a dozen lines, pushing the field's usage and keys off the screen
(and with more marks the field itself)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.pilot import Pilot

from saves.live import LiveEncounter
from tests.tracker.test_saves_form_horde import ZOMBIES, mark_zombies
from tests.tracker.test_saves_form_horde import horde as zombies
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.lines import TITLE_ROOM, targets_title
from tracker.screens.prompt import ChoiceScreen, PromptScreen


def horde() -> LiveEncounter:
    """Thirty zombies, every one bleeding (``X`` has something to pick)."""
    live = zombies()
    live.do(f"persist {','.join(ZOMBIES)!r} 1d4 necrotic")
    return live


async def opened(pilot: Pilot, app: CombatTrackerApp, key: str) -> tuple[str, int]:
    """*key* on every zombie marked: its dialog's title and how many lines it takes."""
    await mark_zombies(pilot, app)
    await pilot.press(key)
    await pilot.pause()
    label = app.screen.query_one(".dialog-title")
    return str(label.render()), label.size.height


def in_view(app: CombatTrackerApp, selector: str, height: int = 20) -> bool:
    found = list(app.screen.query(selector))
    return bool(found) and all(w.region.bottom <= height and w.region.height >= 1 for w in found)


@pytest.mark.parametrize(
    ("key", "dialog", "head", "field"),
    [
        ("c", PromptScreen, "Condition → 30 targets: Zombie 1, Zombie 2", "#prompt-input"),
        ("X", ChoiceScreen, "End persistent damage → 30 targets: Zombie 1", "#choices"),
    ],
)
async def test_a_key_on_thirty_marks_keeps_its_field_and_keys_on_a_small_screen(
    key: str, dialog: type, head: str, field: str
) -> None:
    app = CombatTrackerApp(live=horde(), config=Config())
    async with app.run_test(size=(60, 20)) as pilot:
        title, lines = await opened(pilot, app, key)
        assert isinstance(app.screen, dialog)
        assert title.startswith(head) and title.endswith("…") and lines <= 2
        assert in_view(app, field) and in_view(app, ".dialog-keys")


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
