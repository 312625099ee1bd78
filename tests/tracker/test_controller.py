"""The encounter controller without Textual: selection, marks, targets and
why a key does not apply now (issue 10)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.controller import EncounterController

ROOT = Path(__file__).resolve().parents[2]

SETUP = (
    "add Zalek hp 30 al 15 con 17 athletics 4 dex 14 player init 19",
    "add Goblin count 3 hp 7 al 13",
    "add Ogre hp 59 al 11 init 8",
)


class Cursor:
    """Stands in for the initiative pane's row cursor (clamped to the rows)."""

    def __init__(self, live: LiveEncounter, row: int = 0) -> None:
        self.live = live
        self.row = row

    def __call__(self) -> int | None:
        count = len(self.live.session.encounter.combatants)
        return None if count == 0 else max(0, min(self.row, count - 1))


def fight(
    setup: tuple[str, ...] = SETUP, ui: dict[str, Any] | None = None
) -> tuple[EncounterController, Cursor, LiveEncounter]:
    session = Session(Encounter("Goblin ambush"), rng=random.Random(7))
    for line in setup:
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    live.ui_state.update(ui or {})
    cursor = Cursor(live)
    return EncounterController(live, cursor), cursor, live


def order(live: LiveEncounter) -> list[str]:
    return [c.name for c in live.session.encounter.combatants]


def selected_name(ctl: EncounterController) -> str | None:
    current = ctl.selected()
    return None if current is None else current.name


# -- the selection -------------------------------------------------------------


def test_selection_steps_down_and_up_and_clamps_at_both_ends() -> None:
    ctl, cursor, live = fight()
    names = order(live)
    assert selected_name(ctl) == names[0]
    assert ctl.step(-1) == 0  # the top stays the top: no wrap
    rows = []
    for _ in range(len(names) + 2):
        row = ctl.step(1)
        assert row is not None
        cursor.row = row
        rows.append(row)
    assert len(names) == 5
    assert rows == [1, 2, 3, 4, 4, 4, 4]  # clamps at the last row
    assert selected_name(ctl) == names[-1]
    assert ctl.step(-2) == 2


def test_no_combatants_nothing_to_select_or_step_to() -> None:
    ctl, _, _ = fight(setup=())
    assert ctl.selected() is None
    assert ctl.step(1) is None and ctl.step(-1) is None
    assert ctl.targets() == []
    assert ctl.toggle_mark() is False
    assert ctl.marked == []


def test_cursor_moved_remembers_the_selection_in_the_ui_state() -> None:
    ctl, cursor, live = fight()
    cursor.row = 2
    current = ctl.cursor_moved()
    assert current is not None and current.name == order(live)[2]
    assert ctl.selected_name == order(live)[2]
    assert live.ui_state["selected"] == order(live)[2]


def test_saved_selection_and_marks_are_resumed() -> None:
    ctl, _, _ = fight(ui={"selected": "Ogre", "marked": ["Goblin 2", "Zalek"]})
    assert ctl.selected_name == "Ogre"
    assert ctl.marked == ["Goblin 2", "Zalek"]
    assert ctl.follow() == order(ctl.live).index("Ogre")  # the cursor goes to the Ogre


def test_follow_keeps_the_selection_on_its_combatant_after_the_order_changes() -> None:
    ctl, cursor, live = fight()
    cursor.row = 1
    ctl.cursor_moved()
    name = ctl.selected_name
    assert name is not None
    live.do("start")  # rolled initiative reorders the fight
    assert ctl.follow() == order(live).index(name)


def test_follow_adopts_the_cursor_when_the_selection_was_removed() -> None:
    ctl, cursor, live = fight()
    cursor.row = 4
    ctl.cursor_moved()
    gone = ctl.selected_name
    live.do(f"remove '{gone}'")
    assert gone not in order(live)
    assert ctl.follow() is None
    assert ctl.selected_name == order(live)[-1]  # the cursor, clamped, is on the new last
    assert live.ui_state["selected"] == order(live)[-1]


# -- the marks and the targets -------------------------------------------------


def test_targets_are_the_selection_without_marks() -> None:
    ctl, cursor, live = fight()
    cursor.row = 3
    assert ctl.targets() == [order(live)[3]]
    assert not ctl.marks_used()


def test_marks_toggle_on_and_off_and_are_saved() -> None:
    ctl, cursor, live = fight()
    names = order(live)
    cursor.row = 3
    assert ctl.toggle_mark()
    cursor.row = 1
    assert ctl.toggle_mark()
    assert ctl.marked == [names[3], names[1]]  # in the order they were marked
    assert live.ui_state["marked"] == [names[3], names[1]]
    assert ctl.targets() == [names[1], names[3]]  # in the order of play
    assert ctl.marks_used()
    cursor.row = 3
    assert ctl.toggle_mark()  # again: unmarked
    assert ctl.marked == [names[1]]
    assert live.ui_state["marked"] == [names[1]]


def test_clear_marks_forgets_them_and_says_whether_there_were_any() -> None:
    ctl, _, live = fight(ui={"marked": ["Goblin 1", "Goblin 3"]})
    assert ctl.targets() == ["Goblin 1", "Goblin 3"]
    assert ctl.clear_marks() is True
    assert ctl.marked == [] and live.ui_state["marked"] == []
    assert ctl.targets() == [order(live)[0]]  # back to the selection
    assert ctl.clear_marks() is False


def test_marks_on_removed_combatants_are_pruned_and_not_used() -> None:
    ctl, _, live = fight(ui={"marked": ["Goblin 2"]})
    live.do("remove 'Goblin 2'")
    assert not ctl.marks_used()  # the next action goes to the selection
    assert ctl.targets() == [order(live)[0]]
    ctl.prune_marks()
    assert ctl.marked == []


# -- conditions ---------------------------------------------------------------


def test_uncondition_line_removes_only_where_present() -> None:
    ctl, _, live = fight()
    live.do("cond 'Goblin 1,Ogre' prone")
    live.do("cond 'Goblin 2' frightened value 1")
    names = ["Goblin 1", "Goblin 2", "Ogre"]
    assert ctl.present_conditions(names) == ["frightened", "prone"]
    assert ctl.uncondition_line(names, "prone") == "uncond 'Goblin 1' prone; uncond Ogre prone"
    live.do(ctl.uncondition_line(names, "prone"))
    assert ctl.present_conditions(names) == ["frightened"]


# -- why a key does not apply --------------------------------------------------


def test_unavailable_reasons_before_and_after_start() -> None:
    ctl, _, live = fight()
    assert ctl.unavailable("next_turn") == "the fight has not started: s starts it"
    assert ctl.unavailable("previous_turn") == "the fight has not started: s starts it"
    assert ctl.unavailable("start") is None
    assert ctl.unavailable("undo") is None  # the adds are undoable
    assert ctl.unavailable("redo") == "nothing to redo"
    assert ctl.unavailable("damage") is None
    live.do("start")
    assert ctl.unavailable("start") == "the fight has started already"
    assert ctl.unavailable("next_turn") is None
    live.undo()
    assert ctl.unavailable("redo") is None
    assert ctl.unavailable("start") is None


def test_unavailable_with_no_combatants() -> None:
    ctl, _, _ = fight(setup=())
    assert ctl.unavailable("start") == "add combatants first (a)"
    assert ctl.unavailable("undo") == "nothing to undo"
    for action in ("damage", "select_down", "toggle_mark", "remove", "move"):
        assert ctl.unavailable(action) == "no combatants yet: a adds some", action
    assert ctl.unavailable("roll") is None
    assert ctl.availability() == (False, False, False, False)


def test_unavailable_clear_marks_and_uncondition_follow_the_marks() -> None:
    ctl, cursor, live = fight()
    assert ctl.unavailable("clear_marks") == "no marks to clear"
    cursor.row = order(live).index("Goblin 1")
    assert ctl.unavailable("uncondition") == "Goblin 1: no conditions to remove"
    live.do("cond Ogre prone")
    ctl.toggle_mark()  # Goblin 1
    cursor.row = order(live).index("Goblin 2")
    ctl.toggle_mark()
    assert ctl.unavailable("clear_marks") is None
    assert ctl.unavailable("uncondition") == "Goblin 1, Goblin 2: no conditions to remove"
    cursor.row = order(live).index("Ogre")
    ctl.toggle_mark()  # the Ogre has one: removable now
    assert ctl.unavailable("uncondition") is None


def test_move_needs_an_endurance_pool() -> None:
    ctl, cursor, live = fight()
    cursor.row = order(live).index("Zalek")
    assert ctl.unavailable("move") is None
    cursor.row = order(live).index("Ogre")
    assert ctl.unavailable("move") == (
        "Ogre has no endurance pool (needs CON and Athletics: e edits them)"
    )


# -- layering ---------------------------------------------------------------------


def test_importing_the_controller_does_not_import_textual() -> None:
    code = "import json, sys\nimport tracker.controller\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = {m.split(".")[0] for m in json.loads(out.stdout)}
    assert "tracker" in loaded
    assert not loaded & {"textual", "rich"}
