"""``X`` ends persistent damage (RULES.md §7: "the GM can end an entry at any
time"), as ``C`` removes a condition: a choice of the entries on the targets
(the marks, else the selection; a group's row, its standing members), the
choice one undoable ``unpersist`` batch, greyed with a reason when no target
has any.  Controller tests without Textual, then the key driven with Pilot."""

from __future__ import annotations

import random
import shlex

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.widgets import OptionList

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.words import split_batch
from saves.live import LiveEncounter
from tests.tracker.test_controller import Cursor, at, one_action
from tests.tracker.test_keys import log_lines, make_app, type_text
from tracker.app import CombatTrackerApp
from tracker.bindings import ENCOUNTER_KEYS, key_tables
from tracker.config import Config, keymap_problems
from tracker.controller import EncounterController
from tracker.screens.encounter import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.screens.prompt import ChoiceScreen

SETUP = (
    "add Zalek hp 30 al 15 player init 19",
    "add Goblin count 3 hp 7 al 13 init 10",
    "add Ogre hp 59 al 11 init 8",
    "add Zombie count 4 hp 10 al 8 init 5 group",
    "start",
    "persist Ogre 1d6 bleed",
    "persist Ogre 2d4 fire dc 15",
)
BLEED = "1d6 bleed (DC 20, from Zalek)"
FIRE = "2d4 fire (DC 15, from Zalek)"


def fight(*more: str) -> tuple[EncounterController, Cursor, LiveEncounter]:
    session = Session(Encounter("Bleeding"), rng=random.Random(5))
    for line in (*SETUP, *more):
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    cursor = Cursor(live)
    return EncounterController(live, cursor), cursor, live


def persistent(live: LiveEncounter, name: str) -> list[str]:
    """*name*'s persistent entries by their tags."""
    c = next(c for c in live.session.encounter.combatants if c.name == name)
    return [" ".join(p.tags) for p in c.persistent]


async def to(pilot: Pilot, app: CombatTrackerApp, name: str) -> EncounterScreen:
    """The app's cursor goes to *name*'s row (the zombies are one row)."""
    screen = app.screen
    assert isinstance(screen, EncounterScreen)
    ctl = screen.controller
    screen.table.move_cursor(row=ctl.row_of(ctl.names().index(name)))
    await pilot.pause()
    return screen


# -- the controller ---------------------------------------------------------------


def test_x_offers_both_entries_and_ends_the_chosen_one_in_one_undoable_step() -> None:
    ctl, cursor, live = fight()
    at(ctl, cursor, "Ogre")
    assert ctl.unavailable("unpersist") is None
    ask = ctl.ask("unpersist")
    assert ask is not None and not ask.uses_marks
    assert ask.title == "End persistent damage: Ogre"
    assert ask.choices == (BLEED, FIRE)
    line = ask.line(FIRE)
    assert one_action(line) == {"verb": "unpersist", "targets": ["Ogre"], "tag": "fire"}
    steps = len(live.session.undo_stack)
    assert ctl.do(line) is None
    assert persistent(live, "Ogre") == ["bleed"]  # the other entry stays
    assert len(live.session.undo_stack) == steps + 1
    assert live.log[-1].text == f"Ogre's persistent {FIRE} ends"
    assert ctl.history(undo=True) is None
    assert persistent(live, "Ogre") == ["bleed", "fire"]


def test_x_is_greyed_with_a_reason_when_no_target_has_persistent_damage() -> None:
    ctl, cursor, live = fight()
    at(ctl, cursor, "Goblin 2")
    assert ctl.unavailable("unpersist") == "Goblin 2: no persistent damage to end"
    assert ctl.ask("unpersist") is None and ctl.line("unpersist", BLEED) == ""
    at(ctl, cursor, "Ogre")
    ctl.do("unpersist Ogre bleed; unpersist Ogre fire")
    assert ctl.unavailable("unpersist") == "Ogre: no persistent damage to end"


def test_x_on_the_marks_ends_the_entry_on_each_that_has_it() -> None:
    ctl, cursor, live = fight("persist 'Goblin 1,Goblin 3' 1d6 bleed")
    for name in ("Goblin 1", "Goblin 2", "Goblin 3"):
        at(ctl, cursor, name)
        ctl.toggle_mark()
    at(ctl, cursor, "Zalek")  # the marks, not the selection
    ask = ctl.ask("unpersist")
    assert ask is not None and ask.uses_marks
    assert ask.choices == (BLEED,)  # one entry given to both: one choice
    line = ask.line(BLEED)
    assert line == "unpersist 'Goblin 1,Goblin 3' bleed"  # not Goblin 2
    steps = len(live.session.undo_stack)
    assert ctl.do(line) is None
    assert len(live.session.undo_stack) == steps + 1
    assert persistent(live, "Goblin 1") == persistent(live, "Goblin 3") == []
    assert persistent(live, "Ogre") == ["bleed", "fire"]  # not marked: untouched
    at(ctl, cursor, "Goblin 2")
    ctl.toggle_mark()  # Goblin 2 alone, without any
    assert ctl.unavailable("unpersist") == ("Goblin 1, Goblin 3: no persistent damage to end")


def test_different_entries_on_the_targets_are_different_choices() -> None:
    ctl, cursor, live = fight("persist 'Goblin 1' 1d4 bleed")
    for name in ("Goblin 1", "Ogre"):
        at(ctl, cursor, name)
        ctl.toggle_mark()
    ask = ctl.ask("unpersist")
    assert ask is not None
    assert ask.choices == ("1d4 bleed (DC 20, from Zalek)", BLEED, FIRE)
    assert ask.line(BLEED) == "unpersist Ogre bleed"  # Goblin 1's bleeding is another


def test_x_and_c_offer_the_entries_in_the_order_the_combatant_pane_lists_them() -> None:
    # Grukk bleeds, then burns: the pane lists 1d6 bleed first, so 1 must end
    # the bleeding (sorted by label, 1d4 fire came first and 1 ended the fire)
    ctl, cursor, live = fight(
        "add Grukk hp 40 al 12 init 9",
        "persist Grukk 1d6 bleed",
        "persist Grukk 1d4 fire",
        "cond Grukk prone",
        "cond Grukk frightened value 1",
    )
    at(ctl, cursor, "Grukk")
    grukk = next(c for c in live.encounter.combatants if c.name == "Grukk")
    pane = [f"{p.dice} {' '.join(p.tags)}" for p in grukk.persistent]
    assert pane == ["1d6 bleed", "1d4 fire"]
    ask = ctl.ask("unpersist")
    assert ask is not None
    assert [choice.split(" (")[0] for choice in ask.choices] == pane
    assert ctl.do(ask.line(ask.choices[0])) is None  # the GM's 1
    assert persistent(live, "Grukk") == ["fire"]
    conditions = ctl.ask("uncondition")
    assert conditions is not None
    assert conditions.choices == tuple(c.name for c in grukk.conditions) == ("prone", "frightened")


def test_on_several_targets_each_ones_entries_come_in_the_order_of_the_targets() -> None:
    ctl, cursor, live = fight("persist 'Goblin 2' 1d8 acid", "persist 'Goblin 2' 1d6 bleed")
    for name in ("Goblin 2", "Ogre"):
        at(ctl, cursor, name)
        ctl.toggle_mark()
    ask = ctl.ask("unpersist")
    assert ask is not None
    # Goblin 2 (before the ogre in the order): acid, bleed; then the ogre's
    # fire (its bleed is the same entry as Goblin 2's: one choice, ended on both)
    assert ask.choices == ("1d8 acid (DC 20, from Zalek)", "1d6 bleed (DC 20, from Zalek)", FIRE)
    assert ask.line(ask.choices[1]) == "unpersist 'Goblin 2,Ogre' bleed"


def test_x_on_a_group_row_ends_it_on_the_standing_members_only() -> None:
    ctl, cursor, live = fight("persist Zombie 1d6 bleed", "damage 'Zombie 2' 20")
    cursor.row = ctl.row_of(ctl.names().index("Zombie 1"))
    assert ctl.selected_group()
    ask = ctl.ask("unpersist")
    assert ask is not None and ask.title == "End persistent damage: group Zombie (3 standing)"
    assert ctl.do(ask.line(BLEED)) is None
    zombies = [f"Zombie {n}" for n in range(1, 5)]
    assert [persistent(live, z) for z in zombies] == [[], ["bleed"], [], []]
    assert ctl.unavailable("unpersist") == "group Zombie: no persistent damage to end"


def test_x_and_c_on_a_horde_of_a_hundred_end_it_in_one_step() -> None:
    # one unpersist per member made a line of 2,890 characters for a
    # hundred zombies, past the 2,000 an action line then held: X (and C)
    # answered "the line is too long" and the horde kept bleeding
    session = Session(Encounter("Horde"), rng=random.Random(5))
    for line in ("add Zombie count 100 hp 10 al 8 group", "start"):
        session.apply(line)
    session.apply("persist Zombie 1d6 bleed; cond Zombie prone")
    live = LiveEncounter.in_memory(session)
    cursor = Cursor(live)
    ctl = EncounterController(live, cursor)
    cursor.row = ctl.row_of(0)
    assert ctl.selected_group()
    steps = len(live.session.undo_stack)
    for action in ("unpersist", "uncondition"):
        ask = ctl.ask(action)
        assert ask is not None and len(ask.choices) == 1
        assert ctl.do(ask.line(ask.choices[0])) is None
    assert len(live.session.undo_stack) == steps + 2
    assert all(not c.persistent and not c.conditions for c in live.encounter.combatants)


#: what the engine takes as a name or a tag: printable text, markup and the
#: action language's own characters included (it refuses control characters)
PRINTABLE = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
HOSTILE_TEXT = st.lists(
    st.one_of(
        st.sampled_from(["[/b]", "[@click=app.quit]", ";", "'", '"', " ", "--x", "all", "*"]),
        st.text(PRINTABLE, min_size=1, max_size=6),
    ),
    min_size=1,
    max_size=6,
).map("".join)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(HOSTILE_TEXT, HOSTILE_TEXT)
def test_any_name_and_tag_end_exactly_that_entry(name: str, tag: str) -> None:
    session = Session(Encounter("Any"), rng=random.Random(1))
    try:
        session.apply(f"add {shlex.quote(name)} hp 40 al 10")
        session.apply(f"persist {shlex.quote(name)} 1d4 {shlex.quote(tag)}")
        session.apply(f"persist {shlex.quote(name)} 1d6 acid")
    except ValueError:  # a name or tag the engine refuses: nothing to end
        assume(False)
    c = session.encounter.combatants[0]
    assume(len(c.persistent) == 2)  # the tag was not acid itself
    live = LiveEncounter.in_memory(session)
    ctl = EncounterController(live, lambda: 0)
    ask = ctl.ask("unpersist")
    assert ask is not None and len(ask.choices) == 2
    chosen = next(label for label in ask.choices if label.startswith("1d4 "))
    line = ask.line(chosen)
    assert split_batch(line) == [line]  # one action: neither text made a second
    assert one_action(line)["targets"] == [c.name]
    assert ctl.do(line) is None
    assert [p.dice for p in session.encounter.combatants[0].persistent] == ["1d6"]


# -- the key ------------------------------------------------------------------------


def test_x_is_bound_once_with_a_stable_id_and_listed_in_the_help() -> None:
    keys = [k for k in ENCOUNTER_KEYS if k.action == "unpersist"]
    assert [(k.id, k.key) for k in keys] == [("combatant.unpersist", "X")]
    assert [k.id for k in ENCOUNTER_KEYS if "X" in k.key.split(",")] == ["combatant.unpersist"]


def test_x_remapped_onto_another_key_is_reported_as_a_clash() -> None:
    problems = keymap_problems(key_tables(), {"combatant.unpersist": "x"})
    assert len(problems) == 1
    assert "'x' is bound to combatant.persistent and combatant.unpersist" in problems[0]
    assert keymap_problems(key_tables(), {"combatant.unpersist": "U"}) == []


async def test_x_remapped_by_its_id_opens_the_choice_from_its_new_key() -> None:
    ctl, cursor, live = fight()
    app = CombatTrackerApp(live=live, config=Config(keymap={"combatant.unpersist": "U"}))
    async with app.run_test(size=(80, 24)) as pilot:
        await to(pilot, app, "Ogre")
        await pilot.press("U")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")
        assert persistent(live, "Ogre") == ["fire"]


async def test_x_picks_an_entry_ends_it_and_ctrl_z_brings_it_back() -> None:
    ctl, cursor, live = fight()
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to(pilot, app, "Ogre")
        assert screen.check_action("unpersist", ()) is True
        await pilot.press("X")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("2")  # the second: fire
        assert isinstance(app.screen, EncounterScreen)
        assert persistent(live, "Ogre") == ["bleed"]
        assert "Ogre's persistent 2d4 fire \n(DC 15, from Zalek) ends" in log_lines(app)
        assert screen.check_action("unpersist", ()) is True  # the bleeding is left
        await pilot.press("ctrl+z")
        assert persistent(live, "Ogre") == ["bleed", "fire"]
        await pilot.press("X", "escape")  # Esc changes nothing
        assert isinstance(app.screen, EncounterScreen)
        assert persistent(live, "Ogre") == ["bleed", "fire"]


async def test_x_without_persistent_damage_is_greyed_and_says_why() -> None:
    ctl, cursor, live = fight()
    app = make_app(live)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await to(pilot, app, "Goblin 2")
        assert screen.check_action("unpersist", ()) is None  # greyed in the footer
        steps = len(live.session.undo_stack)
        await pilot.press("X")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)  # no choice opened
        assert [n.message for n in app._notifications] == ["Goblin 2: no persistent damage to end"]
        assert len(live.session.undo_stack) == steps


async def test_x_on_the_marks_ends_the_entry_on_every_marked_one() -> None:
    ctl, cursor, live = fight("persist 'Goblin 1,Goblin 3' 1d6 bleed")
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        for name in ("Goblin 1", "Goblin 3", "Ogre"):
            await to(pilot, app, name)
            await pilot.press("space")
        await pilot.press("X")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")  # the first: the bleeding all three have
        assert [persistent(live, n) for n in ("Goblin 1", "Goblin 3", "Ogre")] == [
            [],
            [],
            ["fire"],
        ]
        ended = live.session.undo_stack[-1].action  # one step, one action on all three
        assert (ended["verb"], ended["targets"]) == ("unpersist", ["Goblin 1", "Goblin 3", "Ogre"])
        await pilot.press("ctrl+z")
        assert persistent(live, "Goblin 1") == ["bleed"] and persistent(live, "Ogre")[0] == "bleed"


async def test_the_help_and_the_palette_list_x() -> None:
    ctl, cursor, live = fight()
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await to(pilot, app, "Ogre")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.table
        listed = dict(zip(table.columns[2].cells, table.columns[0].cells, strict=True))
        assert listed["combatant.unpersist"] == "X"
        does = [str(cell) for cell in table.columns[1].cells]
        assert "combatant: end persistent damage… — end persistent damage" in " ".join(does)
        await pilot.press("escape", "ctrl+p")
        await type_text(pilot, "end persistent")
        await pilot.pause(0.3)
        options = app.screen.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("combatant: end persistent damage…" in p for p in prompts)
