"""A collapsed group's conditions and persistent damage on its one row: the
GM sees at a glance that the horde is frightened or bleeding without
expanding it.  What every standing member carries reads as on one
combatant's row (``~necrotic 1d6``), what only some do says how many
(``frightened 1 ×3``); a down member's are not the horde's (the row's keys
act on the standing ones).  They sit in the conditions column, shortened
and counted as a combatant's are; the summary's counts (``1 down``) keep
their room first.  Seeded fights, then the app at 80×24."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from rules.combatant import Combatant
from rules.conditions import Condition
from rules.encounter import Encounter
from rules.engine import Session
from rules.persistent import PersistentDamage
from rules.text import first_unsafe
from saves.live import LiveEncounter
from tests.tracker.test_group_rows import rows, type_text
from tracker.app import CombatTrackerApp
from tracker.collapse import Span, spans
from tracker.config import Config
from tracker.widgets.badges import combatant_badges, group_badges
from tracker.widgets.group_row import (
    badge_room,
    counts,
    group_cells,
    group_state,
    least_width,
    row_states,
    summary,
)
from tracker.widgets.initiative_rows import RowState, content_of, layout

SETUP = (
    "add Zalek hp 27 al 16 init 19 player",
    "add Mira hp 24 al 15 init 14 player",
    "add Zombie count 8 hp 22 al 12 group Zombies",
    "add Ogre hp 59 al 14 init 2",
    "start",
    "cond Zalek prone",
    "persist Zombies 1d6 necrotic",
    "cond 'Zombie 1,Zombie 2,Zombie 3,Zombie 4' frightened value 1",
    "cond 'Zombie 4' grabbed",
    "damage 'Zombie 4' 30",  # down: frightened and grabbed, not the horde's
)


def crypt(*more: str) -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(3))
    for line in (*SETUP, *more):
        session.apply(line)
    return session


def pane_rows(session: Session) -> list[RowState]:
    enc = session.encounter
    return row_states(enc.combatants, spans(enc.combatants, ()), (), (), enc.turn, None)


def group_of(rows: list[RowState]) -> RowState:
    return next(row for row in rows if row.members)


def body(row: RowState, width: int | None = None, column: int = 0) -> str:
    return group_cells(row, width=width, conditions=column)[2].plain


def test_the_standing_members_badges_whole_and_counted() -> None:
    row = group_of(pane_rows(crypt()))
    found = group_badges(row.members)
    # every standing zombie bleeds: as on one row; three of seven are frightened
    assert [b.full.plain for b in found] == ["~necrotic 1d6", "frightened 1 ×3"]
    assert [b.short.plain for b in found] == ["~necr…", "frig…1 ×3"]
    assert body(row) == " Zombies ×8 · 1 down ~necrotic 1d6 frightened 1 ×3"
    assert "grabbed" not in body(row)  # only the down zombie is


def test_a_horde_all_down_or_unmarked_shows_no_badges() -> None:
    row = group_of(pane_rows(crypt("damage Zombies 30")))
    assert group_badges(row.members) == []
    assert body(row, 60, 30).rstrip() == " Zombies ×8 · 8 down"
    plain = Session(Encounter("x"), rng=random.Random(1))
    plain.apply("add Zombie count 3 hp 9 group")
    assert body(group_of(pane_rows(plain)), 60, 30).rstrip() == " Zombie ×3"


def test_the_badges_sit_in_the_conditions_column_of_the_other_rows() -> None:
    rows = pane_rows(crypt())
    for width in (78, 44):  # the pane at 120 and 80 columns
        lay = layout(width, content_of(rows), compact=width < 78)
        column = lay.badges
        text = body(group_of(rows), sum(lay.widths[2:]), column)
        assert cell_len(text) <= sum(lay.widths[2:])  # the pane pads the rest
        start = sum(lay.widths[2:]) - column  # where the other rows' conditions start
        assert text[start] == " " and text[start + 1] == "~", (width, text)
        assert text[:start].rstrip() == " Zombies ×8 · 1 down"
    lay = layout(44, content_of(rows), compact=True)
    assert body(group_of(rows), sum(lay.widths[2:]), lay.badges).endswith(" ~necr… frig…1 ×3")


def test_the_counts_keep_their_room_before_the_badges() -> None:
    # at 60 columns a bloodied and a down count leave the badges nothing
    row = group_of(pane_rows(crypt("damage 'Zombie 5,Zombie 6,Zombie 7' 12")))
    assert counts(row)[:2] == [3, 1]
    assert body(row, 25, 6) == " Zombi… ×8 · 3 ½ · 1 down"
    # a little wider: the name whole, the badges counted in what is left
    assert body(row, 30, 6) == " Zombies ×8 · 3 ½ · 1 down …+2"
    least = least_width("Zombies", 8, counts(row))
    assert least == len("Zombi… ×8 · 3 ½ · 1 down")
    assert [badge_room(24, 6, [least + 1, least]), badge_room(40, 6, [least])] == [0, 6]
    assert badge_room(30, 6, [least + 1, least]) == 30 - least - 1  # under the column
    kept = summary("Zombies", 8, counts(row), least)
    assert [piece for piece, _ in kept][-1] == "1 down"


def member(name: str, down: bool, conditions: tuple[Condition, ...], tags: list[str]) -> Combatant:
    persistent = tuple(PersistentDamage("1d6", (tag,)) for tag in tags)
    return replace(
        Combatant(name, 10, 0 if down else 10, conditions=conditions, persistent=persistent),
        group="Horde",
        initiative=12,
    )


TYPED = st.one_of(st.sampled_from(["prone", "[b]x[/]", "\x1b[2J", "毒状態"]), st.text(max_size=12))


@st.composite
def hordes(draw: st.DrawFn) -> RowState:
    members = tuple(
        member(
            f"M{i}",
            draw(st.booleans()),
            tuple(
                Condition(name, draw(st.one_of(st.none(), st.integers(0, 99))))
                for name in draw(st.lists(TYPED.filter(str.strip), max_size=3, unique=True))
            ),
            draw(st.lists(TYPED, max_size=2)),
        )
        for i in range(draw(st.integers(2, 6)))
    )
    return group_state(members, Span(0, len(members), "Horde"), (), (), None, None)


@given(hordes(), st.integers(1, 80), st.integers(0, 40))
def test_a_horde_of_typed_conditions_fits_its_row_as_plain_text(
    row: RowState, width: int, column: int
) -> None:
    standing = [c for c in row.members if not c.down]
    carried = {b.full.plain for c in standing for b in combatant_badges(c)}
    for badge in group_badges(row.members):
        shown = badge.full.plain
        if shown not in carried:  # carried by some standing members: how many
            badge_of, count = shown.rsplit(" ×", 1)
            assert badge_of in carried and 1 <= int(count) < len(standing), shown
    text = body(row, width, column)
    assert cell_len(text) <= max(width, cell_len(" Horde ×6") + 1)
    assert first_unsafe(text) < 0
    if column and width > 40:  # room for the summary: it keeps every count
        assert text.startswith(" Horde ×")


async def test_the_collapsed_horde_shows_its_badges_at_80x24() -> None:
    app = CombatTrackerApp(live=LiveEncounter.in_memory(crypt()), config=Config())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        horde = next(row for row in rows(app) if "Zombies ×8" in row)
        zalek = next(row for row in rows(app) if "Zalek" in row)
        # the horde's badges start where Zalek's conditions do
        assert horde.index("~necr…") == zalek.index("prone")
        assert horde.rstrip().endswith("~necr… frig…1 ×3")
        # the c key on the row frightens every standing zombie: now all of them
        app.screen.query_one("#initiative").move_cursor(row=2)  # type: ignore[attr-defined]
        await pilot.press("c")
        await type_text(pilot, "frightened 2")
        await pilot.press("enter")
        await pilot.pause()
        horde = next(row for row in rows(app) if "Zombies ×8" in row)
        assert horde.rstrip().endswith("frig…2 ~necr…"), horde


def test_the_group_pane_fits_a_members_conditions_as_the_column_does() -> None:
    # the combatant pane of a collapsed horde at 120 columns (36 cells): a
    # line used to be cut at the edge, ``frightened 1…``, hiding the rounds
    # left that tell one member from the next
    from rich.console import Console

    from tracker.widgets.group_details import describe_group

    session = crypt("cond 'Zombie 1' frightened value 1 rounds 3", "cond 'Zombie 2' slowed")
    members = [c for c in session.encounter.combatants if c.group == "Zombies"]
    console = Console(width=36, record=True, color_system=None)
    console.print(describe_group(members, None, (), 36))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    shown = {line.split()[1]: line for line in lines if line.startswith("   Zombie")}
    assert all(cell_len(line) <= 36 for line in lines)
    assert shown["1"] == "   Zombie 1 22/22  frig…1·3r ~necr…"  # the rounds left kept
    assert shown["2"] == "   Zombie 2 22/22  frig…1 slow… …+1"  # counted, not cut
    assert shown["5"] == "   Zombie 5 22/22  ~necrotic 1d6"  # whole where it fits


def test_badges_after_the_counts_leave_them_their_words_when_both_fit() -> None:
    # at 120 columns the names are short, so the counts do not fit before the
    # conditions column: the badges follow them, and the row has room for
    # "3 bloodied" (it read "3 ½", a half, with twenty cells left blank)
    rows = pane_rows(crypt("damage 'Zombie 1,Zombie 2,Zombie 3' 12"))
    lay = layout(78, content_of(rows), compact=False)
    text = body(group_of(rows), sum(lay.widths[2:]), lay.badges)
    assert text == " Zombies ×8 · 3 bloodied · 1 down ~necrotic 1d6 frightened 1 ×3"
    assert cell_len(text) <= sum(lay.widths[2:])
    # where the words would cost the badges theirs, the short counts stay
    lay = layout(60, content_of(rows), compact=True)
    assert body(group_of(rows), sum(lay.widths[2:]), lay.badges).startswith(" Zombies ×8 · 3 ½ ·")
