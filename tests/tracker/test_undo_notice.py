"""ctrl+z, ctrl+y and p say what they reversed (a GM QA pass: after 12
undos the only clue was log lines vanishing): ``Undone: Ogre takes 7 fire``
in the log pane's bottom border, under the lines it took away, each
replacing the one before, so a held key stacks nothing up; gone after a
few seconds or with the next action.  Plain text, control characters
spelled out, one line.  Seeded fights; the keys driven with Pilot at 80x24."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.pilot import Pilot

from rules.encounter import Encounter, LogEntry
from rules.engine import Session
from rules.engine.step import Step
from rules.text import first_unsafe
from saves.live import LiveEncounter
from tests.tracker.test_big_fight import title
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.reversals import LIMIT, reversal, step_summary
from tracker.screens import encounter_view
from tracker.widgets.log import LogPane

SETUP = (
    "add Zalek hp 30 al 15 player init 19",
    "add Ogre hp 59 al 11 init 8 resist fire=2",
    "add Goblin count 3 hp 7 al 13 init 5",
    "start",
)


def session() -> Session:
    s = Session(Encounter("Ogre lair"), rng=random.Random(4))
    for line in SETUP:
        s.apply(line)
    return s


def app_for(s: Session) -> CombatTrackerApp:
    return CombatTrackerApp(live=LiveEncounter.in_memory(s), config=Config())


def notice(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one(LogPane).border_subtitle or "")


def toasts(app: CombatTrackerApp) -> int:
    return len(app._notifications)


async def keys(pilot: Pilot, *pressed: str) -> None:
    await pilot.press(*pressed)
    await pilot.pause()


# -- the words --------------------------------------------------------------------


def test_an_undone_damage_is_named_by_what_the_target_took_not_the_roll() -> None:
    s = session()
    s.apply("damage Ogre 2d6+3 fire")
    done = s.undo()
    target = s.reversed_step(done)
    assert target is not None and target.log[0].actor == "GM"  # the roll comes first
    taken = target.log[1].text
    assert taken.startswith("Ogre takes ") and " fire" in taken
    assert reversal(done, target) == f"Undone: {taken}"
    again = s.redo()
    assert reversal(again, s.reversed_step(again)) == f"Redone: {taken}"


def test_an_area_undone_says_how_many_it_was_on_before_the_first_line() -> None:
    """Fireball on three goblins, ctrl+z: the border (cut at 80 columns)
    said only the first goblin's line, as if the others still burned."""
    s = session()
    s.apply("damage Goblin* 2d6 fire half Goblin 2")
    done = s.undo()
    target = s.reversed_step(done)
    assert target is not None
    first = next(e for e in target.log if e.actor.startswith("Goblin"))
    assert reversal(done, target) == f"Undone: damage ×3: {first.text}"
    s.apply("damage Ogre 5")  # one target: its line alone, as before
    one = s.undo()
    assert reversal(one, s.reversed_step(one)) == f"Undone: {s.redo().log[-1].text}"


def test_a_turn_is_named_by_its_verb_and_the_turn_it_gave() -> None:
    s = session()
    s.apply("next")  # Zalek's turn ends: the Ogre's begins
    back = s.apply("prev")  # p: an undo of that next
    assert back.kind == "undo"
    assert reversal(back, s.reversed_step(back)) == "Undone: next (Ogre's turn)"
    s = Session(Encounter("Fresh"), rng=random.Random(4))
    s.apply("add Zalek hp 30 player; add Ogre hp 59")
    s.apply("init Zalek 12; start")  # the initiative form's batch
    undone = s.undo()
    assert reversal(undone, s.reversed_step(undone)) == "Undone: start (Zalek's turn)"


def test_kept_dice_lose_their_marks_and_an_action_gets_no_notice() -> None:
    s = session()
    rolled = s.apply("roll 2d20kh1+3")
    assert "**" in rolled.log[0].text
    assert "**" not in step_summary(rolled)
    assert reversal(rolled, None) is None  # an action says nothing


#: markup, control and bidirectional characters, line breaks, long runs
HOSTILE = st.lists(
    st.one_of(
        st.sampled_from(["[bold]", "[/]", "\x1b[2J", "\x07", "\n", "\r\n", "\u202e", "**5**"]),
        st.text(min_size=1, max_size=30),
    ),
    max_size=12,
).map("".join)


@given(HOSTILE, HOSTILE, st.sampled_from(["undo", "redo"]))
def test_any_log_text_is_one_plain_visible_line(actor: str, text: str, kind: str) -> None:
    entry = LogEntry(1, 1, actor, text)
    target = Step(1, "do", {"verb": "cond"}, {}, {}, (entry,))
    step = Step(2, kind, {"verb": kind, "undone": 1, "redone": 1, "line": "cond"}, {}, {})
    said = reversal(step, target)  # type: ignore[arg-type]
    assert said is not None and said.startswith(("Undone: ", "Redone: "))
    assert first_unsafe(said) < 0 and "\n" not in said and "\r" not in said
    assert len(said) <= LIMIT


# -- the keys -----------------------------------------------------------------------


async def test_ctrl_z_and_ctrl_y_say_what_they_reversed_in_the_logs_border() -> None:
    s = session()
    s.apply("damage Ogre 2d6+3 fire")
    taken = s.log[-1].text
    app = app_for(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert notice(app) == ""
        await keys(pilot, "ctrl+z")
        assert notice(app) == f"Undone: {taken}"
        await keys(pilot, "ctrl+y")
        assert notice(app) == f"Redone: {taken}"
        assert toasts(app) == 0  # no toast at all: the border says it
        # what the GM sees: the border drawn with it (cut to the pane)
        drawn = title(app.screen.query_one(LogPane), bottom=True)
        assert drawn.startswith("Redone: Ogre takes") and drawn.endswith("…")
        # the next action: the notice is about the last step only
        await keys(pilot, "r", "d", "2", "0", "enter")
        assert notice(app) == ""


async def test_a_held_ctrl_z_shows_one_notice_the_last_step_undone() -> None:
    s = session()
    for n in range(12):
        s.apply(f"damage Ogre {n + 1}")
    app = app_for(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await keys(pilot, *["ctrl+z"] * 12)
        assert notice(app).startswith("Undone: Ogre takes 1 ")  # the first damage, undone last
        assert toasts(app) == 0
        assert s.encounter.combatants[1].hp == 59
        await keys(pilot, "ctrl+y", "ctrl+y")
        assert notice(app).startswith("Redone: Ogre takes 2 ")


async def test_p_says_which_next_it_undid() -> None:
    app = app_for(session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await keys(pilot, "n")
        assert notice(app) == ""
        await keys(pilot, "p")
        assert notice(app) == "Undone: next (Ogre's turn)"
        assert toasts(app) == 0


async def test_the_notice_goes_after_a_few_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_view, "REVERSAL_SECONDS", 1.0)
    s = session()
    s.apply("damage Ogre 5")
    app = app_for(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+z")
        assert notice(app).startswith("Undone: Ogre takes 5")
        await pilot.pause(0.6)
        await keys(pilot, "ctrl+y")  # a new notice, with its own time
        await pilot.pause(0.6)  # past the first one's
        assert notice(app).startswith("Redone: Ogre takes 5")
        await pilot.pause(1.5)
        assert notice(app) == ""
