"""SVG snapshots of the main screen (pytest-textual-snapshot).

A seeded fight at 80×24 and 120×40: all three panes visible, the active
combatant highlighted, a down combatant dimmed, badges and temp HP shown.
Update with ``pytest tests/tracker/test_snapshots.py --snapshot-update`` after a
deliberate visual change, and look at the report before committing.
"""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config

FIGHT = (
    "add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player init 19",
    "add Goblin count 3 hp 7 al 13 init 12",
    "add Ogre hp 59 al 11 init 8",
    "start",
    "damage 'Goblin 1' 9",
    "temp Zalek 5",
    "cond Zalek poisoned value 2 rounds 3",
    "persist 'Goblin 2' 1d6 fire",
    "next",
)


def snapshot_app(
    lines: tuple[str, ...] = FIGHT, marked: tuple[str, ...] = (), theme: str | None = None
) -> CombatTrackerApp:
    """The seeded app factory every snapshot uses (*theme* as the config
    file's ``theme`` setting)."""
    session = Session(Encounter("Goblin ambush"), rng=random.Random(42))
    for line in lines:
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    live.set_ui_state(selected="Zalek", marked=list(marked))
    return CombatTrackerApp(live=live, config=Config(theme=theme))


def test_main_screen_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(), terminal_size=(80, 24))


def test_main_screen_120x40(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(), terminal_size=(120, 40))


def test_main_screen_light_theme(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = snapshot_app(theme="textual-light")
    assert snap_compare(app, terminal_size=(80, 24))


def test_empty_encounter_shows_the_hint(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(()), terminal_size=(80, 24))


def test_damage_prompt_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(), press=["d", "1", "2"], terminal_size=(80, 24))


#: the active turn (Goblin 1), marks (Goblin 1 too, Goblin 3) and the
#: selection (Zalek) must all look different, in dark and light themes
MARKED = ("Goblin 1", "Goblin 3")


def test_active_marks_and_selection_dark(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(marked=MARKED), terminal_size=(80, 24))


def test_active_marks_and_selection_light(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = snapshot_app(marked=MARKED, theme="textual-light")
    assert snap_compare(app, terminal_size=(80, 24))


def test_main_screen_200x50(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """A big terminal: a longer HP bar, full badges and more keys in the footer."""
    assert snap_compare(snapshot_app(marked=MARKED), terminal_size=(200, 50))
