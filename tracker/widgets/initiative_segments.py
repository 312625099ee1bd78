"""An initiative row drawn straight to segments, without a Rich ``Text`` per
cell: a turn passing over a page of marked rows repaints every row in view,
and six ``Text`` objects per row were most of that key's cost.
``tracker.widgets.initiative_rows.row_cells`` stays the reference (a
property test holds the two alike, style by style) and draws any row with
badges or a cell that does not fit (:func:`row_segments` returns None)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style

from rules.text import visible
from tracker.widgets.initiative_rows import (
    ACTIVE_MARKER,
    ON_DECK_MARKER,
    Layout,
    RowState,
    StyleOf,
    bar_fill,
    hp_text,
    name_cell,
    row_base,
)

#: the name cell's weight (``row_cells``: players and the active row bold)
BOLD, NOT_BOLD = Style(bold=True), Style(bold=False)
#: the empty part of the HP bar (``hp_cell``)
DIM = Style(dim=True)


def row_segments(row: RowState, style: StyleOf, lay: Layout) -> list[Segment] | None:
    """The row's segments in *lay*'s columns, exactly ``sum(lay.widths)``
    cells (the pane's width), the same characters in the same styles as
    the reference cells; None when the reference must draw it."""
    c = row.combatant
    if row.members:
        return None  # a collapsed group's row: tracker.widgets.group_row draws it
    if c.conditions or c.persistent:
        return None  # badges: nested spans, cut to fit; the reference draws them
    w_gutter, w_init, w_name, w_hp, w_al, w_badges = lay.widths
    if w_name <= 0 or w_hp <= 0 or w_gutter != 2:
        return None  # a pane too narrow for a name: the reference's cropping
    base = row_base(row, style, c.down or row.delayed)
    parts: list[tuple[str, Style]] = []
    add = parts.append

    # the gutter: ▶ (the turn) or ▷ (on deck), then ● (marked)
    if row.active:
        marker, marker_style = ACTIVE_MARKER, style("initiative--active-marker")
    elif row.on_deck:
        marker, marker_style = ON_DECK_MARKER, style("initiative--on-deck")
    else:
        marker, marker_style = " ", Style()
    mark_style = style("initiative--mark")
    mark = "●" if row.marked else " "
    if cell_len(marker) != 1 or cell_len(mark) != 1:
        return None
    add((marker, base + marker_style if marker_style else base))
    add((mark, base + mark_style if mark_style else base))

    # the initiative, right-aligned (a zero-width column shows nothing)
    if w_init:
        init = "–" if c.initiative is None else str(c.initiative)
        room = w_init - cell_len(init)
        if room < 0:
            return None
        add((" " * room + init, base))

    # the name, cut to its column by name_cell, then padded
    name = name_cell(visible(c.name), row.delayed, w_name, c.visibility)
    room = w_name - cell_len(name)
    if room < 0:
        return None
    add((name + " " * room, base + (BOLD if c.player or row.active else NOT_BOLD)))

    # the HP bar, the numbers and the temp HP (hp_cell), then padding
    bar = lay.bar
    numbers, temp = hp_text(c)
    room = w_hp - (1 + bar if bar else 0) - cell_len(numbers) - cell_len(temp)
    if room < 0:
        return None
    if bar:
        filled, level = bar_fill(c, bar)
        add((" ", base))
        if filled:
            add(("█" * filled, base + (base + style(f"initiative--hp-{level}"))))
        if bar - filled:
            add(("░" * (bar - filled), base + (base + DIM)))
    add((numbers, base))  # the reference's base + base: the same style
    if temp:
        add((temp, base + (base + style("initiative--temp"))))
    if room:
        add((" " * room, base))

    # AL, right-aligned; the badges column is blank (no badges here)
    if w_al:
        al = str(c.al)
        room = w_al - cell_len(al)
        if room < 0:
            return None
        add((" " * room + al, base))
    if w_badges < 0:
        return None
    if w_badges:
        add((" " * w_badges, base))

    # neighbours in one style make one segment: fewer for every later pass
    # over the line (the compositor, a dialog's dimmed backdrop of the fight)
    out: list[Segment] = []
    text, current = parts[0]
    for part, part_style in parts[1:]:
        if part_style is current or part_style == current:
            text += part
        else:
            out.append(Segment(text, current))
            text, current = part, part_style
    out.append(Segment(text, current))
    return out
