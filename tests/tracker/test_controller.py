"""The encounter controller without Textual: selection, marks, targets, why
a key does not apply now, and the action line each key sends (issue 10)."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.endurance import EnduranceCheck
from rules.engine import Session
from rules.engine.parse import parse_action
from rules.engine.words import split_batch
from saves.live import LiveEncounter, open_store
from tracker import lines
from tracker.controller import EncounterController
from tracker.lines import edit_values

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
    assert ctl.marks.names == []


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
    assert ctl.marks.names == ["Goblin 2", "Zalek"]
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
    assert ctl.marks.names == [names[3], names[1]]  # in the order they were marked
    assert live.ui_state["marked"] == [names[3], names[1]]
    assert ctl.targets() == [names[1], names[3]]  # in the order of play
    assert ctl.marks_used()
    cursor.row = 3
    assert ctl.toggle_mark()  # again: unmarked
    assert ctl.marks.names == [names[1]]
    assert live.ui_state["marked"] == [names[1]]


def test_clear_marks_forgets_them_and_says_whether_there_were_any() -> None:
    ctl, _, live = fight(ui={"marked": ["Goblin 1", "Goblin 3"]})
    assert ctl.targets() == ["Goblin 1", "Goblin 3"]
    assert ctl.clear_marks() is True
    assert ctl.marks.names == [] and live.ui_state["marked"] == []
    assert ctl.targets() == [order(live)[0]]  # back to the selection
    assert ctl.clear_marks() is False


def test_marks_on_removed_combatants_are_pruned_and_not_used() -> None:
    ctl, _, live = fight(ui={"marked": ["Goblin 2"]})
    live.do("remove 'Goblin 2'")
    assert not ctl.marks_used()  # the next action goes to the selection
    assert ctl.targets() == [order(live)[0]]
    ctl.prune_marks()
    assert ctl.marks.names == []


# -- conditions ---------------------------------------------------------------


def test_uncondition_line_removes_only_where_present() -> None:
    ctl, _, live = fight()
    live.do("cond 'Goblin 1,Ogre' prone")
    live.do("cond 'Goblin 2' frightened value 1")
    names = ["Goblin 1", "Goblin 2", "Ogre"]
    # as the targets carry them, Goblin 1 first: not by name
    assert ctl.carried("uncondition", names) == ["prone", "frightened"]
    assert ctl.end_line("uncondition", names, "prone") == "uncond 'Goblin 1,Ogre' prone"
    live.do(ctl.end_line("uncondition", names, "prone"))
    assert ctl.carried("uncondition", names) == ["frightened"]


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


def test_the_reasons_follow_the_cursor_the_marks_and_the_groups() -> None:
    # asked again and again between changes (the footer asks per binding):
    # each answer is the one for the state now
    ctl, cursor, live = fight(("add Zalek hp 30 player", "add Zombie count 3 hp 9 group"))
    live.do("start; delay Zalek")
    zalek, zombies = ctl.row_of(ctl.names().index("Zalek")), ctl.row_of(0)
    cursor.row = zalek
    assert ctl.unavailable("return") is None
    assert ctl.unavailable("clear_marks") == "no marks to clear"
    cursor.row = zombies  # the cursor moved: the group's one row
    one_row = "group Zombie is one row: o expands it to pick one of its 3"
    assert ctl.unavailable("return") == ctl.unavailable("edit") == one_row
    assert ctl.toggle_group()  # expanded: the cursor is on Zombie 1 now
    assert ctl.unavailable("edit") is None
    assert ctl.unavailable("return") == "Zombie 1 is not delaying; select one delaying: Zalek"
    ctl.toggle_mark()
    assert ctl.unavailable("clear_marks") is None
    live.do("return Zalek")
    assert ctl.unavailable("return") == "nobody is delaying (w: the active combatant delays)"


def test_unavailable_with_no_combatants() -> None:
    ctl, _, _ = fight(setup=())
    assert ctl.unavailable("start") == "add combatants first (a)"
    assert ctl.unavailable("undo") == "nothing to undo"
    for action in ("damage", "select_down", "toggle_mark", "remove", "move"):
        assert ctl.unavailable(action) == "no combatants yet: a adds some", action
    assert ctl.unavailable("roll") is None
    assert ctl.availability() == (False,) * 7


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


# -- the lines the keys send ------------------------------------------------------

HOSTILE = ["Bob; remove Ogre", 'O\'Brien "the Axe"', "Imp [/b]", "--x", "none"]


def one_action(line: str) -> dict[str, Any]:
    """*line* is one action (never a batch a name smuggled in); parsed."""
    assert split_batch(line) == [line], line
    return parse_action(line)


def at(ctl: EncounterController, cursor: Cursor, name: str) -> None:
    """The cursor goes to *name* (as the screen's keys move it)."""
    cursor.row = ctl.names().index(name)
    ctl.cursor_moved()


def test_fixed_keys_send_their_line_with_or_without_combatants() -> None:
    for setup in (SETUP, ()):
        ctl, _, _ = fight(setup=setup)
        assert ctl.line("start") == "start"
        assert ctl.line("next_turn") == "next"
        assert ctl.line("previous_turn") == "prev"
        assert ctl.line("roll", "2d6+3 adv 1") == "roll 2d6+3 adv 1"
    assert ctl.line("select_down") is None  # moves the cursor: no line
    assert ctl.line("no_such_key") is None


@pytest.mark.parametrize(
    ("action", "verb", "typed", "fields"),
    [
        ("damage", "damage", "2d6+3 fire crit", {"amount": "2d6+3", "tags": ["fire"]}),
        ("heal", "heal", "7", {"amount": "7"}),
        ("temp", "temp", "5 rounds 2", {"amount": "5", "rounds": 2}),
        ("persistent", "persist", "1d6 fire dc 15", {"dice": "1d6", "dc": 15}),
        ("condition", "cond", "prone", {"name": "prone"}),
    ],
)
def test_target_keys_go_to_the_selection_without_marks(
    action: str, verb: str, typed: str, fields: dict[str, object]
) -> None:
    ctl, cursor, live = fight()
    if action == "heal":
        live.do("damage 'Goblin 2' 3")  # a heal at full HP is refused
    at(ctl, cursor, "Goblin 2")
    line = ctl.line(action, typed)
    assert line is not None
    parsed = one_action(line)
    assert parsed["verb"] == verb and parsed["targets"] == ["Goblin 2"]
    assert fields.items() <= parsed.items(), parsed
    assert ctl.do(line) is None  # the engine takes it as built


@pytest.mark.parametrize("action", ["damage", "heal", "temp", "persistent", "condition"])
def test_target_keys_go_to_every_mark_in_the_order_of_play(action: str) -> None:
    ctl, cursor, live = fight()
    if action == "heal":
        live.do("damage 'Ogre,Goblin 1' 3")  # a heal at full HP is refused
    for name in ("Ogre", "Goblin 1"):  # marked out of order
        at(ctl, cursor, name)
        assert ctl.toggle_mark()
    at(ctl, cursor, "Zalek")  # the selection is not marked: not a target
    typed = {"condition": "prone", "persistent": "1d4 fire"}.get(action, "3")
    line = ctl.line(action, typed)
    assert line is not None
    in_play = [n for n in ctl.names() if n in ("Ogre", "Goblin 1")]
    assert one_action(line)["targets"] == in_play
    verb = line.split()[0]
    assert line == f"{verb} {shlex.quote(','.join(in_play))} {typed}"  # one argument
    assert ctl.do(line) is None


def test_condition_value_shorthand_and_its_clauses() -> None:
    ctl, cursor, _ = fight()
    at(ctl, cursor, "Ogre")
    line = ctl.line("condition", "frightened 2 rounds 3")
    assert line == "cond Ogre frightened value 2 rounds 3"
    parsed = one_action(line)
    assert parsed["name"] == "frightened" and parsed["value"] == 2
    assert parsed["rounds"] == 3


@pytest.mark.parametrize(
    ("action", "typed", "line"),
    [
        ("order_down", "", "order 'Goblin 1' down"),
        ("order_up", "", "order 'Goblin 1' up"),
        ("remove", "", "remove 'Goblin 1'"),
        ("initiative", "17", "init 'Goblin 1' 17"),
    ],
)
def test_selection_keys_ignore_the_marks(action: str, typed: str, line: str) -> None:
    ctl, cursor, _ = fight(ui={"marked": ["Ogre", "Zalek"]})
    at(ctl, cursor, "Goblin 1")
    assert ctl.marks_used()
    built = ctl.line(action, typed)
    assert built == line
    assert one_action(built)["targets"] == ["Goblin 1"]
    ask = ctl.ask(action)
    assert ask is None or not ask.uses_marks


def test_no_line_and_no_prompt_without_anybody_to_act_on() -> None:
    ctl, _, _ = fight(setup=())
    for action in ("damage", "heal", "temp", "persistent", "condition", "uncondition"):
        assert ctl.line(action, "3") is None, action
        assert ctl.ask(action) is None, action
    for action in ("order_down", "order_up", "remove", "initiative"):
        assert ctl.line(action, "3") is None, action
    assert ctl.ask("initiative") is None
    ask = ctl.ask("roll")  # a roll needs nobody
    assert ask is not None and ask.line("d20") == "roll d20"


def test_uncondition_offers_the_targets_conditions_and_removes_one() -> None:
    ctl, cursor, live = fight()
    live.do("cond 'Goblin 1,Ogre' prone")
    live.do("cond 'Goblin 3' frightened value 1")
    for name in ("Goblin 1", "Goblin 3", "Ogre"):
        at(ctl, cursor, name)
        ctl.toggle_mark()
    ask = ctl.ask("uncondition")
    assert ask is not None and ask.uses_marks
    # the targets' in the order of play (Ogre, Goblin 1, Goblin 3), not by name
    assert ctl.names()[1:] == ["Ogre", "Goblin 1", "Goblin 2", "Goblin 3"]
    assert ask.choices == ("prone", "frightened")
    assert ask.title.startswith("Remove condition: ")
    line = ask.line("prone")
    assert line == ctl.line("uncondition", "prone")
    having = [n for n in ctl.names() if n in ("Goblin 1", "Ogre")]  # in the order of play
    assert line == f"uncond {shlex.quote(','.join(having))} prone"
    assert ctl.do(line) is None
    assert ctl.carried("uncondition", ctl.names()) == ["frightened"]
    ctl.clear_marks()
    at(ctl, cursor, "Zalek")
    assert ctl.ask("uncondition") is None  # nothing to remove from Zalek


def test_a_prompt_keeps_the_targets_it_was_opened_for() -> None:
    ctl, cursor, _ = fight()
    at(ctl, cursor, "Goblin 3")
    ask = ctl.ask("damage")
    assert ask is not None
    assert ask.title == "Damage: Goblin 3" and ask.usage == "AMOUNT|DICE [TAG…] [crit]"
    assert not ask.uses_marks
    at(ctl, cursor, "Ogre")  # the GM moves the cursor while typing
    assert one_action(ask.line("4"))["targets"] == ["Goblin 3"]


def test_prompt_titles_name_every_target_and_say_the_marks_clear() -> None:
    ctl, cursor, _ = fight(ui={"marked": ["Ogre", "Goblin 2"]})
    in_play = ", ".join(n for n in ctl.names() if n in ("Ogre", "Goblin 2"))
    titles = {
        "damage": "Damage",
        "heal": "Heal",
        "temp": "Temporary HP",
        "persistent": "Persistent damage",
        "condition": "Condition",
    }
    for action, title in titles.items():
        ask = ctl.ask(action)
        assert ask is not None and ask.uses_marks, action
        assert ask.title == f"{title}: {in_play}"
    at(ctl, cursor, "Zalek")
    ask = ctl.ask("initiative")
    assert ask is not None and ask.title == "Initiative: Zalek" and not ask.uses_marks
    assert ask.line("12") == "init Zalek 12"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_is_one_argument_never_a_second_action(name: str) -> None:
    ctl, cursor, live = fight(setup=(*SETUP, f"add {shlex.quote(name)} hp 20 al 10"))
    at(ctl, cursor, name)
    built = {
        action: ctl.line(action, typed)
        for action, typed in [
            ("damage", "3"),
            ("heal", "1"),
            ("temp", "2"),
            ("persistent", "1d4 bleed"),
            ("condition", "prone"),
            ("order_up", ""),
            ("initiative", "12"),
            ("remove", ""),
        ]
    }
    for action, line in built.items():
        assert line is not None
        assert one_action(line)["targets"] == [name], action
    assert ctl.do(built["damage"]) is None
    assert ctl.do(built["condition"]) is None
    assert ctl.do(ctl.line("uncondition", "prone") or "") is None
    ctl.toggle_mark()
    at(ctl, cursor, "Ogre")
    ctl.toggle_mark()
    marked = ctl.line("damage", "1")
    assert marked is not None
    assert sorted(one_action(marked)["targets"]) == sorted([name, "Ogre"])
    assert ctl.do(marked) is None
    assert ctl.do(built["remove"]) is None
    assert set(ctl.names()) == {"Zalek", "Goblin 1", "Goblin 2", "Goblin 3", "Ogre"}


def test_a_condition_name_is_quoted_when_removed() -> None:
    ctl, cursor, live = fight()
    odd = "x; remove Zalek"
    at(ctl, cursor, "Ogre")
    assert ctl.line("uncondition", odd) == ""  # the Ogre has no such condition: no action
    live.do(f"cond Ogre {shlex.quote(odd)}")
    ask = ctl.ask("uncondition")
    assert ask is not None and ask.choices == (odd,)
    line = ask.line(odd)
    assert line == lines.ending_line("uncond", [(["Ogre"], odd)]) == "uncond Ogre 'x; remove Zalek'"
    assert ctl.do(line) is None
    assert ctl.carried("uncondition", ["Ogre"]) == [] and "Zalek" in ctl.names()


def test_add_and_edit_forms_quote_their_values() -> None:
    ctl, cursor, live = fight()
    add = ctl.add_line({"name": "Bob; remove Ogre", "hp": "2d6 + 2"}, {"player": True})
    assert one_action(add)["name"] == "Bob; remove Ogre"
    assert ctl.do(add) is None
    at(ctl, cursor, "Ogre")
    ogre = ctl.selected()
    assert ogre is not None
    edit = ctl.edit_line(ogre, {"name": "Ogre; remove Zalek", "hp": "50"}, None)
    assert [parse_action(a.strip())["field"] for a in split_batch(edit)] == ["hp", "name"]
    assert ctl.do(edit) is None  # the selection follows the rename
    assert ctl.follow() == ctl.names().index("Ogre; remove Zalek")
    # saved with the UI state, so a resume selects the renamed combatant
    assert live.ui_state["selected"] == "Ogre; remove Zalek"
    assert "Zalek" in ctl.names() and "Bob; remove Ogre" in ctl.names()
    assert ctl.edit_line(ogre, edit_values(ogre), ogre.player) == ""  # nothing changed


def test_renaming_the_active_combatant_is_not_the_turn_passing() -> None:
    # by the `:` line, the edit form or an undo alike: the GM has not moved on
    ctl, cursor, live = fight()
    live.do("start")
    ctl.turn_moved()
    active = live.encounter.active
    assert active is not None
    other = next(n for n in ctl.names() if n != active.name)
    at(ctl, cursor, other)
    ctl.toggle_mark()
    live.do(f"set {shlex.quote(active.name)} name Renamed")
    assert ctl.turn_moved() is None and ctl.marks.names == [other]
    live.undo()
    assert ctl.turn_moved() is None and ctl.marks.names == [other]
    live.do("next")  # the turn really passes: the marks clear
    assert ctl.turn_moved() is not None and ctl.marks.names == []


def test_a_renamed_mark_stays_marked() -> None:
    ctl, cursor, live = fight()
    at(ctl, cursor, "Ogre")
    ctl.toggle_mark()
    assert ctl.do("set Ogre name Troll") is None
    assert ctl.marks.names == ["Troll"] and live.ui_state["marked"] == ["Troll"]
    assert ctl.history(undo=True) is None
    assert ctl.marks.names == ["Ogre"] and live.ui_state["marked"] == ["Ogre"]
    assert ctl.history(undo=False) is None
    assert ctl.marks.names == ["Troll"] and live.ui_state["marked"] == ["Troll"]


def test_move_line_and_preview_for_the_movement_dialog() -> None:
    ctl, _, _ = fight()
    check = ctl.preview_move("Zalek", "sprint", 12)
    assert isinstance(check, EnduranceCheck) and check.face == 12
    assert ctl.preview_move("Ogre", "sprint", 12) == (
        "move: Ogre has no endurance (needs CON and athletics)"
    )
    line = ctl.move_line("Zalek", "sprint", 12, spend=False)
    assert one_action(line) == {
        "verb": "move",
        "targets": ["Zalek"],
        "movement": "sprint",
        "roll": 12,
        "nospend": True,
    }


# -- applying them ------------------------------------------------------------------


def test_do_and_history_report_what_went_wrong_as_one_sentence() -> None:
    ctl, _, live = fight()
    assert ctl.do("damage Nobody 3") is not None
    before = len(live.log)
    assert ctl.do("damage Ogre 3") is None and len(live.log) > before
    assert ctl.history(undo=True) is None
    assert ctl.history(undo=False) is None
    fresh, _, _ = fight(setup=())
    assert fresh.history(undo=True) is not None  # nothing to undo


def test_dice_needed_parses_and_lists_the_dice_or_refuses() -> None:
    ctl, _, _ = fight()
    parsed = ctl.dice_needed("damage Ogre 2d6")
    assert not isinstance(parsed, str)
    action, dice = parsed
    assert action["verb"] == "damage" and [sides for _, sides in dice] == [6, 6]
    assert ctl.do(action, faces=[3, 4]) is None
    ogre = next(c for c in ctl.encounter.combatants if c.name == "Ogre")
    assert ogre.hp == 59 - 7
    assert isinstance(ctl.dice_needed("damage"), str)


def test_dice_needed_reads_an_unquoted_full_name_and_a_selector() -> None:
    ctl, _, _ = fight(setup=("add Hobgoblin count 2 hp 20", "add Ogre hp 30"))
    parsed = ctl.dice_needed("damage Hobgoblin 2 1d6 fire")
    assert not isinstance(parsed, str)
    action, dice = parsed
    assert action["targets"] == ["Hobgoblin 2"] and [s for _, s in dice] == [6]
    assert ctl.do("damage Hobgoblin* 4") is None
    assert [c.hp for c in ctl.encounter.combatants] == [16, 16, 30]


def test_save_points_ask_once_before_replacing_a_kept_label(tmp_path: Path) -> None:
    store = open_store(tmp_path / "encounters.json")
    try:
        live = LiveEncounter.create(store, "Bridge", rng=random.Random(3))
        live.do("add Troll hp 40 al 12")
        ctl = EncounterController(live, Cursor(live))
        submit = ctl.save_points()
        assert submit("") == "type a label for the save point, e.g. before the dragon"
        assert submit("before the troll") is None
        again = ctl.save_points()  # a new prompt: the label is kept already
        warning = again("Before the Troll")
        assert warning is not None and "Enter again replaces it" in warning
        assert again("Before the Troll") is None  # typed again: replaced
        assert [label for label, _ in store.save_points("Bridge")] == ["Before the Troll"]
        assert ctl.compact_if_due() is None
    finally:
        store.close()


# -- the selection follows the turn --------------------------------------------


def turn_fight(follow: bool) -> tuple[EncounterController, Cursor, LiveEncounter]:
    session = Session(Encounter("Goblin ambush"), rng=random.Random(7))
    for line in SETUP:
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    cursor = Cursor(live)
    return EncounterController(live, cursor, follow_turn=follow), cursor, live


def moved(ctl: EncounterController, cursor: Cursor) -> int | None:
    """What the view does after each change: ask, then put the cursor on
    the remembered selection (``follow``)."""
    row = ctl.turn_moved()
    index = ctl.follow()
    if index is not None:
        cursor.row = index
    return row


def test_each_turn_change_selects_the_active_combatant_and_keeps_the_marks() -> None:
    ctl, cursor, live = turn_fight(follow=True)
    ctl.keep_marks = "until-esc"  # following the turn never touches them itself
    cursor.row = order(live).index("Goblin 3")
    ctl.cursor_moved()
    ctl.toggle_mark()
    assert moved(ctl, cursor) is None  # nothing changed: the selection stays
    assert selected_name(ctl) == "Goblin 3"
    live.do("start")
    enc = live.session.encounter
    assert moved(ctl, cursor) == enc.turn
    assert selected_name(ctl) == enc.active.name == "Zalek"
    assert live.ui_state["selected"] == "Zalek"
    live.do("next")
    assert moved(ctl, cursor) == 1 and selected_name(ctl) == order(live)[1]
    assert ctl.marks.names == ["Goblin 3"]  # untouched
    # the GM moves the selection: it stays until the turn passes again
    cursor.row = order(live).index("Ogre")
    ctl.cursor_moved()
    live.do("damage Ogre 3")
    assert moved(ctl, cursor) is None and selected_name(ctl) == "Ogre"


def test_undo_redo_prev_and_removing_the_active_one_are_turn_changes() -> None:
    ctl, cursor, live = turn_fight(follow=True)
    live.do("start")
    live.do("next")
    moved(ctl, cursor)
    live.undo()  # back to Zalek's turn
    assert moved(ctl, cursor) == 0 and selected_name(ctl) == "Zalek"
    live.redo()
    assert moved(ctl, cursor) == 1
    live.do("prev")
    assert moved(ctl, cursor) == 0 and selected_name(ctl) == "Zalek"
    live.do("next")
    moved(ctl, cursor)
    gone = selected_name(ctl)
    live.do(f"remove '{gone}'")
    row = moved(ctl, cursor)
    active = live.session.encounter.active
    assert active is not None and active.name != gone
    assert row == live.session.encounter.turn and selected_name(ctl) == active.name


def test_the_same_active_combatant_in_a_new_round_is_a_turn_change() -> None:
    ctl, cursor, live = turn_fight(follow=True)
    live.do("start")
    moved(ctl, cursor)
    for name in order(live)[1:]:
        live.do(f"damage '{name}' 100")  # every monster down: Zalek alone acts
    live.do("next")
    assert live.session.encounter.round == 2
    assert moved(ctl, cursor) == 0


def test_with_follow_turn_off_the_selection_stays_where_the_gm_put_it() -> None:
    ctl, cursor, live = turn_fight(follow=False)
    cursor.row = order(live).index("Ogre")
    ctl.cursor_moved()
    live.do("start")
    assert moved(ctl, cursor) == 0  # the active row, to bring into view
    live.do("next")
    assert moved(ctl, cursor) == 1
    assert selected_name(ctl) == "Ogre" and live.ui_state["selected"] == "Ogre"


def test_active_row_is_the_turn_once_started_and_g_needs_a_started_fight() -> None:
    ctl, _, live = turn_fight(follow=False)
    assert ctl.active_row() is None
    assert ctl.unavailable("select_active") == "the fight has not started: s starts it"
    live.do("start")
    live.do("next")
    assert ctl.active_row() == 1 and ctl.unavailable("select_active") is None


def test_attack_delay_and_return_lines_and_why_not() -> None:
    ctl, cursor, live = fight()
    assert ctl.unavailable("delay") == "the fight has not started: s starts it"
    assert ctl.unavailable("return") == "nobody is delaying (w: the active combatant delays)"
    assert ctl.line("delay") is None  # nobody is active yet
    cursor.row = order(live).index("Goblin 2")
    ctl.toggle_mark()
    cursor.row = order(live).index("Ogre")
    ctl.toggle_mark()
    ask = ctl.ask("attack")
    assert ask is not None and ask.blank and ask.uses_marks
    assert ctl.targets() == ["Ogre", "Goblin 2"]  # in the order of play
    assert ask.title == "Attack: Ogre, Goblin 2"
    assert ask.line("with +5 cover half") == "attack 'Ogre,Goblin 2' with +5 cover half"
    assert ask.line("") == "attack 'Ogre,Goblin 2'"
    live.do("start")
    active = live.session.encounter.active
    assert active is not None and ctl.unavailable("delay") is None
    assert ctl.line("delay") == f"delay {shlex.quote(active.name)}"  # not the selection
    live.do(f"delay {shlex.quote(active.name)}")
    assert ctl.availability()[-1] is True  # the footer ungreys return
    cursor.row = order(live).index("Ogre")
    assert ctl.unavailable("return") == (
        f"Ogre is not delaying; select one delaying: {active.name}"
    )
    cursor.row = order(live).index(active.name)
    assert ctl.unavailable("return") is None
    assert ctl.line("return") == f"return {shlex.quote(active.name)}"


def test_the_active_combatant_attacks_and_is_never_its_own_target() -> None:
    ctl, cursor, live = fight()
    live.do("start")  # Zalek (19) acts first
    cursor.row = order(live).index("Zalek")
    why = (
        "Zalek (whose turn it is) cannot attack itself: select (j/k) or mark (space) a target first"
    )
    assert ctl.unavailable("attack") == why
    assert ctl.ask("attack") is None
    for name in ("Zalek", "Ogre"):  # marked with its target: left out, and said so
        cursor.row = order(live).index(name)
        ctl.toggle_mark()
    assert ctl.unavailable("attack") is None
    ask = ctl.ask("attack")
    assert ask is not None and ask.names == ("Ogre",)
    assert ask.title == "Zalek attacks: Ogre (not Zalek)"
    assert ask.line("with +3") == "attack Ogre with +3"
    ctl.clear_marks()
    assert ctl.ask("attack").title == "Zalek attacks: Ogre"  # type: ignore[union-attr]


# -- marks that stay, saves per target (issue 11) ----------------------------------


def test_damage_on_several_targets_takes_saves_in_the_engine_syntax() -> None:
    ctl, _, _ = fight(ui={"marked": ["Ogre", "Goblin 1", "Goblin 2"]})
    ask = ctl.ask("damage")
    assert ask is not None and ask.saves is not None
    assert ask.names == ("Goblin 1", "Goblin 2", "Ogre") or set(ask.names) == {
        "Goblin 1",
        "Goblin 2",
        "Ogre",
    }
    who = lines.targets(list(ask.names))
    line = ask.saves("8d6 fire", {"Goblin 2": "half", "Ogre": "none", "Goblin 1": "full"})
    assert line == f"damage {who} 8d6 fire half 'Goblin 2' none Ogre"
    action = one_action(line)
    assert action["half"] == ["Goblin 2"] and action["none"] == ["Ogre"]
    # everyone full: the plain line
    assert ask.saves("8d6 fire", {}) == f"damage {who} 8d6 fire"


def test_saves_list_several_targets_in_one_quoted_argument() -> None:
    assert (
        lines.saves_line(["A 1", "A 2", "B"], "10", {"A 1": "half", "A 2": "half", "B": "none"})
        == "damage 'A 1,A 2,B' 10 half 'A 1,A 2' none B"
    )


def test_one_target_takes_a_saves_form_too() -> None:
    ctl, cursor, _ = fight()
    at(ctl, cursor, "Ogre")
    ask = ctl.ask("damage")
    assert ask is not None and ask.saves is not None
    assert ask.saves("12", {"Ogre": "half"}) == "damage Ogre 12 half Ogre"
    ctl.marks.names = ["Ogre", "Zalek"]
    heal = ctl.ask("heal")
    assert heal is not None and heal.saves is None  # only damage saves


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_under_half_stays_one_target(name: str) -> None:
    ctl, _, live = fight(setup=(*SETUP, f"add {shlex.quote(name)} hp 20 al 10"))
    ctl.marks.names = [name, "Ogre"]
    ask = ctl.ask("damage")
    assert ask is not None and ask.saves is not None
    action = one_action(ask.saves("6", {name: "half"}))
    assert action["half"] == [name] and sorted(action["targets"]) == sorted([name, "Ogre"])
    live.do(ask.saves("6", {name: "half", "Ogre": "none"}))
    by_name = {c.name: c.hp for c in live.session.encounter.combatants}
    assert by_name[name] == 17 and by_name["Ogre"] == 59


def test_marks_stay_after_an_action_and_clear_when_the_turn_passes() -> None:
    ctl, _, live = fight(setup=(*SETUP, "start"))
    ctl.turn_moved()
    ctl.marks.names = ["Goblin 1", "Goblin 2"]
    ctl.used_marks()  # the default: kept for the next action
    assert ctl.marks.names == ["Goblin 1", "Goblin 2"]
    assert ctl.turn_moved() is None and ctl.marks.names  # no turn change: kept
    live.do("next")
    assert ctl.turn_moved() is not None
    assert ctl.marks.names == [] and live.ui_state["marked"] == []


def test_marks_until_escape_survive_the_turn_passing() -> None:
    ctl, _, live = fight(setup=(*SETUP, "start"))
    ctl.keep_marks = "until-esc"
    ctl.marks.names = ["Ogre"]
    ctl.used_marks()
    live.do("next")
    ctl.turn_moved()
    assert ctl.marks.names == ["Ogre"]
    assert ctl.clear_marks() and ctl.marks.names == []


def test_marks_after_each_action_clear_once_used() -> None:
    ctl, _, live = fight()
    ctl.keep_marks = "after-each-action"
    ctl.marks.names = ["Ogre", "Zalek"]
    live.set_ui_state(marked=ctl.marks.names)
    ctl.used_marks()
    assert ctl.marks.names == [] and live.ui_state["marked"] == []


# -- the initiative form (s) ------------------------------------------------------

PARTY = (
    "add Mira hp 20 player",
    "add 'Bob; remove Ogre' hp 20 player",
    "add Bram hp 20 player init 11",
    "add Ogre hp 59 al 11",
)


def test_initiative_entry_is_one_batch_of_the_typed_totals_then_start() -> None:
    ctl, _, live = fight(PARTY)
    assert ctl.players_without_initiative() == ["Mira", "Bob; remove Ogre"]
    line = ctl.initiative_entry({"Mira": "17", "Bob; remove Ogre": " +12 "})
    assert line == "init Mira 17; init 'Bob; remove Ogre' 12; start"
    assert len(split_batch(str(line))) == 3  # the name stays one target
    assert ctl.initiative_entry({"Mira": "", "Bob; remove Ogre": ""}) == "start"  # all rolled
    assert ctl.do(str(line)) is None
    enc = live.session.encounter
    assert enc.started and "Ogre" in order(live)  # nothing was removed
    inits = {c.name: c.initiative for c in enc.combatants}
    assert inits["Mira"] == 17 and inits["Bob; remove Ogre"] == 12 and inits["Bram"] == 11
    assert inits["Ogre"] is not None  # rolled by start
    assert ctl.history(undo=True) is None  # one undo removes it all
    assert all(c.initiative is None for c in live.session.encounter.combatants if c.name != "Bram")
    assert not live.session.encounter.started


def test_initiative_entry_refuses_what_the_engine_refuses_by_name() -> None:
    ctl, _, _ = fight(PARTY)
    errors = ctl.initiative_entry({"Mira": "seventeen", "Bob; remove Ogre": "1001"})
    assert errors == {
        "Mira": "init must be a whole number, not 'seventeen'",
        "Bob; remove Ogre": "init 1001 is too large (at most 1,000)",
    }
    assert ctl.initiative_entry({"Mira": "17; remove Ogre"}) == {
        "Mira": "init must be a whole number, not '17; remove Ogre'"
    }


def start_faces(action: Any) -> list[int]:
    """The faces the batch's ``start`` carries."""
    return list(action["actions"][-1]["faces"])


def test_monster_dice_asks_only_the_monsters_initiative_d20s() -> None:
    setup = ("add Mira hp 20 player", "add Zombie count 2 hp 9", "add Ana hp 20 player")
    ctl, _, live = fight(setup)
    line = str(ctl.initiative_entry({"Mira": "", "Ana": "15"}))  # Mira: rolled
    plan = ctl.monster_dice(line)
    assert not isinstance(plan, str)
    action, needed, gm = plan
    assert needed == [("Zombie 1 initiative (d20)", 20), ("Zombie 2 initiative (d20)", 20)]
    assert gm == [False, True, True]  # Mira's die first (the program's), then the zombies'
    assert ctl.with_monster_faces(action, gm, []) == action  # the program rolls them all
    assert len(start_faces(ctl.with_monster_faces(action, gm, [3]))) == 2  # Mira's, the one typed
    with_faces = ctl.with_monster_faces(action, gm, [3, 18])
    faces = start_faces(with_faces)
    assert len(faces) == 3 and faces[1:] == [3, 18]
    assert ctl.do(with_faces) is None
    inits = {c.name: c.initiative for c in live.session.encounter.combatants}
    assert inits["Zombie 1"] == 3 and inits["Zombie 2"] == 18 and inits["Ana"] == 15
    assert inits["Mira"] == faces[0]


def test_monster_dice_asks_a_groups_one_d20() -> None:
    setup = ("add Mira hp 20 player", "add Zombie count 3 hp 9 group", "add Ogre hp 30")
    ctl, _, live = fight(setup)
    line = str(ctl.initiative_entry({"Mira": "15"}))
    plan = ctl.monster_dice(line)
    assert not isinstance(plan, str)
    action, needed, gm = plan
    assert needed == [("group Zombie initiative (d20)", 20), ("Ogre initiative (d20)", 20)]
    assert ctl.do(ctl.with_monster_faces(action, gm, [11, 4])) is None
    inits = {c.name: c.initiative for c in live.session.encounter.combatants}
    assert inits["Zombie 1"] == inits["Zombie 2"] == inits["Zombie 3"] == 11
