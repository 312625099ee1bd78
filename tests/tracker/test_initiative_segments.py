"""The initiative rows the pane paints straight to segments
(``tracker.widgets.initiative_segments``, the fast path a turn passing over
a page of marked rows takes) read exactly like the reference cells
(``initiative_rows.row_cells`` fitted to the columns): the same character
in the same style in every cell of the row, whatever the name, the HP,
the flags, the pane's width and the theme's styles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from rules.combatant import Combatant
from rules.conditions import Condition
from tracker.widgets.initiative_rows import (
    Layout,
    RowState,
    StyleOf,
    content_of,
    fit_cells,
    layout,
    no_style,
    row_cells,
)
from tracker.widgets.initiative_segments import row_segments
from tracker.widgets.steady import text_segments

CONSOLE = Console(width=300, color_system="truecolor")

#: every component its own look, so a style taken from the wrong one shows
THEME = {
    "initiative--active": Style(bgcolor="#203040"),
    "initiative--marked": Style(bgcolor="#402030"),
    "initiative--down": Style(color="#808080", italic=True),
    "initiative--active-marker": Style(color="yellow", bold=True),
    "initiative--on-deck": Style(color="cyan"),
    "initiative--mark": Style(color="magenta", bold=True),
    "initiative--hp-high": Style(color="green"),
    "initiative--hp-mid": Style(color="#c0a000"),
    "initiative--hp-low": Style(color="red", underline=True),
    "initiative--temp": Style(color="blue", italic=True),
}


def themed(name: str) -> Style:
    return THEME[name]


def cells_of(segments: list[Segment]) -> list[tuple[str, Style]]:
    """Each character with its style (no style and the null style alike)."""
    return [(ch, seg.style or Style()) for seg in segments for ch in seg.text]


def reference(row: RowState, style: StyleOf, lay: Layout) -> list[tuple[str, Style]]:
    """The row as the reference cells draw it (``InitiativePane._line``)."""
    segments: list[Segment] = []
    for cell in fit_cells(row_cells(row, style, lay), lay):
        segments.extend(text_segments(cell, CONSOLE))
    return cells_of(segments)


NAME = st.one_of(
    st.sampled_from(["Zombie 12", "Ayla", "Goblin Archer 12", "漢字の戦士", "👹 Boss", "A"]),
    st.text(min_size=1, max_size=30),
)


@st.composite
def rows(draw: st.DrawFn) -> RowState:
    max_hp = draw(st.integers(0, 400))
    c = Combatant(
        name=draw(NAME),
        max_hp=max_hp,
        hp=draw(st.integers(0, max(0, max_hp))),
        al=draw(st.integers(-5, 120)),
        temp_hp=draw(st.sampled_from([0, 0, 3, 12, 150])),
        initiative=draw(st.one_of(st.none(), st.integers(-9, 140))),
        player=draw(st.booleans()),
        conditions=draw(st.sampled_from([(), (), (Condition("prone"),)])),
        visibility=draw(st.sampled_from(["visible", "visible", "hidden", "masked"])),
    )
    flags = draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()))
    return RowState(c, *flags)


@settings(max_examples=400, deadline=None)
@given(rows(), st.integers(10, 220), st.booleans(), st.booleans())
def test_a_row_painted_straight_reads_as_its_reference_cells(
    row: RowState, width: int, compact: bool, styled: bool
) -> None:
    style = themed if styled else no_style
    lay = layout(width, content_of([row]), compact)
    painted = row_segments(row, style, lay)
    if painted is None:  # the pane draws this one through the reference
        return
    assert sum(cell_len for cell_len in lay.widths) == width
    drawn = cells_of(painted)
    assert "".join(ch for ch, _ in drawn) == "".join(ch for ch, _ in reference(row, style, lay))
    assert drawn == reference(row, style, lay)


def test_the_rows_of_a_horde_are_painted_straight_and_badges_by_the_reference() -> None:
    # the fast path is the common one: a plain row at any usual width
    zombie = Combatant(name="Zombie 17", max_hp=9, hp=4, al=8, initiative=7)
    for width in (60, 80, 120, 200):
        lay = layout(width, content_of([RowState(zombie, False, True, False)]), True)
        for flags in [
            (False, False, False, False),
            (True, False, False, True),
            (False, True, True, False),
        ]:
            row = RowState(zombie, *flags)
            painted = row_segments(row, themed, lay)
            assert painted is not None
            text = Text.assemble(*[(seg.text, seg.style) for seg in painted]).plain
            assert "Zombie 17" in text and " 4/9 ½" in text
    prone = Combatant(name="Zombie 2", max_hp=9, hp=9, conditions=(Condition("prone"),))
    lay = layout(120, content_of([RowState(prone, False, False, False)]), True)
    assert row_segments(RowState(prone, False, False, False), themed, lay) is None
