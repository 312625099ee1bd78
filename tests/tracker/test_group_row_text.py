"""A collapsed group's row text without an app (issue 11): the counts a GM
reads at a glance (``Zombie ×12 · 4 bloodied · 2 down``), what a narrow
pane gives up first (the counts' long words, then the middle of the name,
never the ``×12``), the turn markers, and a group's name — the GM's text —
shown as plain visible text whatever it holds (markup, control
characters).  Seeded fights."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.engine import Session
from rules.text import first_unsafe, visible
from tracker.collapse import Collapse, Span, spans, standing
from tracker.widgets.group_row import COUNTS, group_cells, group_state, row_states, summary
from tracker.widgets.initiative_rows import RowState


def horde(count: int = 12, seed: int = 9) -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in (
        "add Zalek hp 30 player init 30",
        f"add Zombie count {count} hp 20 group",
        "add Ogre hp 59 init 1",
        "start",
    ):
        session.apply(line)
    return session


def group_row(session: Session, marked: tuple[str, ...] = ()) -> RowState:
    enc = session.encounter
    span = next(s for s in spans(enc.combatants, ()) if s.collapsed)
    return group_state(enc.combatants, span, marked, enc.delayed, enc.turn, None)


def text(session: Session, width: int | None = None, marked: tuple[str, ...] = ()) -> str:
    return "".join(cell.plain for cell in group_cells(group_row(session, marked), width=width))


def test_the_row_counts_bloodied_and_down_members() -> None:
    session = horde()
    session.apply("damage 'Zombie 1,Zombie 2,Zombie 3,Zombie 4' 10")  # bloodied
    session.apply("damage 'Zombie 5,Zombie 6' 20")  # down
    row = group_row(session)
    gutter, init, body = group_cells(row)
    assert init.plain == str(session.encounter.combatants[1].initiative)
    assert body.plain == " Zombie ×12 · 4 bloodied · 2 down"
    assert gutter.plain == "  "  # Zalek's turn, and the ogre is next


def test_an_unhurt_group_is_its_name_and_size_only() -> None:
    assert text(horde(3)).endswith(" Zombie ×3")


def test_the_turn_marker_is_on_the_row_while_a_member_acts() -> None:
    session = horde()
    session.apply("next")  # Zalek's turn ends: Zombie 1's begins
    row = group_row(session)
    assert row.active and group_cells(row)[0].plain == "▶ "
    session = horde()
    enc = session.encounter
    span = next(s for s in spans(enc.combatants, ()) if s.collapsed)
    on_deck = group_state(enc.combatants, span, (), (), enc.turn, span.start)
    assert group_cells(on_deck)[0].plain == "▷ "


def test_marks_every_standing_member_or_some() -> None:
    session = horde(4)
    session.apply("damage 'Zombie 4' 20")
    assert text(session, marked=("Zombie 1", "Zombie 2", "Zombie 3")).startswith(" ●")
    some = text(session, marked=("Zombie 2",))
    assert some.startswith("  ") and some.endswith("Zombie ×4 · 1 down · 1 marked")


def test_a_narrow_row_shortens_the_counts_then_cuts_the_name() -> None:
    numbers = [4, 2, 0, 0, 0, 3]
    full = "Zombies ×12 · 4 bloodied · 2 down · 3 marked"

    def at(width: int) -> str:
        return "".join(piece for piece, _ in summary("Zombies", 12, numbers, width))

    assert at(60) == full
    assert at(40) == "Zombies ×12 · 4 ½ · 2 down · 3 ●"
    assert at(25) == "Zombi… ×12 · 4 ½ · 2 down"
    assert at(12) == "Zombies ×12"
    assert at(9) == "Zomb… ×12"
    for width in range(4, 70):
        shown = at(width)
        assert cell_len(shown) <= width and "×12" in shown
        # the counts go from the last, whole: never a piece of one
        assert shown.endswith(("×12", " bloodied", " down", " ½", " ●", " marked"))


def test_room_for_one_count_keeps_how_many_are_down_not_bloodied() -> None:
    # the horde at 60x20 read "Horde ×150 · 17 bloodied", its 133 down gone:
    # who is out of the fight matters more than who is hurt
    numbers = [17, 133, 0, 0, 0, 0]

    def at(width: int) -> str:
        return "".join(piece for piece, _ in summary("Horde", 150, numbers, width))

    assert at(27) == "Horde ×150 · 133 down"
    assert at(28) == "Horde ×150 · 17 ½ · 133 down"  # both: in their usual order
    assert at(40) == "Horde ×150 · 17 bloodied · 133 down"
    for width in range(10, 45):
        shown = at(width)
        assert cell_len(shown) <= width
        assert "bloodied" not in shown or "133 down" in shown, width
        assert " ½" not in shown or "133 down" in shown, width


def test_a_narrow_horde_row_names_its_down_members_first() -> None:
    session = horde(30)
    zombies = [f"Zombie {n}" for n in range(1, 31)]
    session.apply(f"damage '{','.join(zombies[:4])}' 10")  # bloodied
    session.apply(f"damage '{','.join(zombies[4:])}' 20")  # down
    for width in range(18, 30):
        body = group_cells(group_row(session), width=width)[2].plain
        if "·" in body:  # room for one count at least: the 26 down are it
            assert "26 down" in body, (width, body)
    assert "26 down" in group_cells(group_row(session), width=24)[2].plain
    assert "4 ½" not in group_cells(group_row(session), width=24)[2].plain


def test_the_row_fits_the_columns_it_spans() -> None:
    session = horde()
    session.apply("damage 'Zombie 1' 20")
    for width in (80, 38, 20, 11):
        body = group_cells(group_row(session), width=width)[2]
        assert body.cell_len <= width and "×12" in body.plain


def test_a_member_moved_out_of_the_slot_has_a_row_of_its_own() -> None:
    session = horde(3)
    # ``order`` moves whole slots now; a prepared or hand-edited order can
    # still hold a member out of its group's run
    zalek, z1, z2, z3, ogre = session.encounter.combatants
    order = (zalek, z1, z2, ogre, z3)
    rows = spans(order, ())
    assert [(s.size, s.group) for s in rows] == [(1, None), (2, "Zombie"), (1, None), (1, None)]
    assert [order[s.start].name for s in rows] == ["Zalek", "Zombie 1", "Ogre", "Zombie 3"]


def test_an_expanded_group_and_a_lone_member_are_rows_of_their_own() -> None:
    session = horde(3)
    enc = session.encounter
    assert len(spans(enc.combatants, {"zombie"})) == 5
    session.apply("ungroup 'Zombie 2'; ungroup 'Zombie 3'")
    assert all(not s.collapsed for s in spans(session.encounter.combatants, ()))
    collapse = Collapse(["zombie", 7])  # a saved list, whatever it holds
    assert collapse.expanded == {"zombie", "7"}
    assert collapse.why_not(session.encounter.combatants, 1) == (
        "group Zombie has no other member beside Zombie 1: nothing to collapse"
    )


def test_the_keys_on_a_collapsed_row_reach_the_standing_members() -> None:
    session = horde(3)
    session.apply("damage 'Zombie 2' 20")
    members = session.encounter.combatants[1:4]
    assert standing(members) == ["Zombie 1", "Zombie 3"]
    session.apply("damage Zombie 20")
    assert standing(session.encounter.combatants[1:4]) == ["Zombie 1", "Zombie 2", "Zombie 3"]


def test_row_states_keep_a_combatants_row_as_before() -> None:
    session = horde(2)
    enc = session.encounter
    rows = row_states(enc.combatants, spans(enc.combatants, ()), (), (), enc.turn, 3)
    assert rows[0] == RowState(enc.combatants[0], True, False, False, False)
    assert rows[1].members == tuple(enc.combatants[1:3])
    assert rows[2] == RowState(enc.combatants[3], False, False, False, True)


# -- a group's name is the GM's text ----------------------------------------------

#: markup, control and bidirectional characters, wide and combining ones
NAME_PARTS = ["[bold]", "[/]", "[link=x]", "\x1b[2J", "\x07", "\u202e", "\u200b", "龍", "e\u0301"]
group_names = st.lists(
    st.one_of(st.sampled_from(NAME_PARTS), st.text(min_size=1, max_size=6)), min_size=1, max_size=5
).map("".join)


def row_named(name: str, size: int = 3) -> RowState:
    members = tuple(
        replace(Combatant(f"M{i}", 10, 10), group=name, initiative=12) for i in range(size)
    )
    return group_state(members, Span(0, size, name), (), (), None, None)


@given(group_names, st.integers(1, 60))
def test_a_group_name_shows_as_plain_visible_text(name: str, width: int) -> None:
    row = row_named(name)
    whole = group_cells(row)[2]
    assert whole.plain == f" {visible(name)} ×3"  # every character, spelled out if unsafe
    assert first_unsafe(whole.plain) < 0
    assert all(span.style == whole.spans[0].style for span in whole.spans)  # no markup read
    fitted = group_cells(row, width=width)[2]
    assert fitted.cell_len <= max(width, cell_len(" ×3") + 1)
    assert first_unsafe(fitted.plain) < 0
    if width >= cell_len(visible(name)) + 4:
        assert visible(name) in fitted.plain


def test_markup_in_a_group_name_is_its_characters() -> None:
    assert group_cells(row_named("[bold]Horde[/bold]", 2))[2].plain == " [bold]Horde[/bold] ×2"
    assert group_cells(row_named("Horde\x1b[2J", 2))[2].plain == " Horde\\x1b[2J ×2"


def test_the_row_counts_members_hidden_or_masked_on_the_players_view() -> None:
    session = horde(4)
    session.apply("hide 'Zombie 1,Zombie 2'")
    session.apply("mask 'Zombie 3'")
    assert text(session).endswith("Zombie ×4 · 2 hidden · 1 masked")
    assert "".join(p for p, _ in summary("Zombie", 4, [0, 0, 0, 2, 1, 0], 25)) == (
        "Zombie ×4 · 2 (h) · 1 (m)"
    )


@given(
    group_names,
    st.lists(st.integers(0, 500), min_size=6, max_size=6),
    st.integers(1, 80),
)
def test_whatever_fits_a_count_of_down_members_goes_last(
    name: str, numbers: list[int], width: int
) -> None:
    pieces = summary(name, 500, numbers, width)
    shown = [piece for piece, style in pieces if style]  # the counts kept
    if numbers[1] and shown:
        assert f"{numbers[1]} down" in shown
    # the counts kept read in their usual order, whatever was dropped
    places = [
        next(i for i, (full, brief, _) in enumerate(COUNTS) if piece.endswith((full, brief)))
        for piece in shown
    ]
    assert places == sorted(places)
