"""A collapsed group's row in the initiative pane, without Textual (issue
11): ``▶  19 Zombies ×12 · 4 bloodied · 2 down   ~necrotic frightened ×3``
— the gutter and the shared initiative in their columns, then one text
over the name, HP and AL columns, fitted by :func:`summary`, and what its
standing members carry in the conditions column
(:func:`tracker.widgets.badges.group_badges`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from rules.text import visible
from tracker.collapse import Span
from tracker.widgets.badges import fit_badges, group_badges, whole_width
from tracker.widgets.initiative_rows import (
    BADGES_FEW,
    NAME_MIN,
    RowState,
    StyleOf,
    bloodied,
    fit_name,
    gutter_cell,
    no_style,
    row_base,
)

if TYPE_CHECKING:
    from rules.combatant import Combatant

#: (full, short) of each count, and the component style it is drawn in.
COUNTS = (
    ("bloodied", "½", "initiative--hp-mid"),
    ("down", "down", "initiative--down"),
    ("delayed", "(d)", "initiative--delayed"),
    ("hidden", "(h)", ""),  # from the players' view (issue 12)
    ("masked", "(m)", ""),
    ("marked", "●", "initiative--mark"),
)
SEPARATOR = " · "
#: the counts a narrow row keeps longest first: how many are down (who is
#: out of the fight matters most), then the others as they read
KEPT_FIRST = ("down", "bloodied", "delayed", "hidden", "masked", "marked")
_KEPT = sorted(range(len(COUNTS)), key=lambda i: KEPT_FIRST.index(COUNTS[i][0]))


def counts(row: RowState) -> list[int]:
    """How many members are bloodied, down, delaying, hidden from or masked
    on the players' view, and marked (the marked only while some of the
    standing ones are not: ``●`` says all are)."""
    members = row.members
    marked = 0 if row.marked else row.marks
    return [
        sum(1 for c in members if bloodied(c)),
        sum(1 for c in members if c.down),
        row.delays,
        sum(1 for c in members if c.visibility == "hidden"),
        sum(1 for c in members if c.visibility == "masked"),
        marked,
    ]


def summary(
    name: str, size: int, numbers: Sequence[int], width: int | None = None
) -> list[tuple[str, str]]:
    """``(piece, component style)`` pairs: *name* (made visible) ``×size``, then
    each nonzero count.  In *width* cells: the counts' short words first, then
    the name cut in the middle, then counts dropped (the last first, how many
    are down last: :data:`KEPT_FIRST`), shown in their order; ``×size`` stays."""
    shown = visible(name)
    tail = f" ×{size}"
    present = [i for i in _KEPT if numbers[i]]  # their places in COUNTS

    def pieces(label: str, short: bool, keep: int) -> list[tuple[str, str]]:
        out = [(label + tail, "")]
        for i in sorted(present[:keep]):
            n, (full, brief, style) = numbers[i], COUNTS[i]
            out.append((SEPARATOR, ""))
            out.append((f"{n} {brief if short else full}", style))
        return out

    if width is None:
        return pieces(shown, False, len(present))
    room = width - cell_len(tail)  # for the name and the counts
    for keep in range(len(present), -1, -1):  # fewer and fewer kept
        for short in (False, True):
            left = room - sum(cell_len(t) for t, _ in pieces("", short, keep)[1:])
            if cell_len(shown) <= left:
                return pieces(shown, short, keep)
        if left >= min(cell_len(shown), NAME_MIN):  # short counts, the name cut
            return pieces(fit_name(shown, left), True, keep)
    return [(fit_name(shown, max(0, room)) + tail, "")]


def least_width(
    name: str, size: int, numbers: Sequence[int], whole: bool = False, words: bool = False
) -> int:
    """The fewest cells in which :func:`summary` keeps every count: their
    short words (their full *words*: ``4 bloodied``), ``×size`` and the
    name (*whole*, else cut to its first letters)."""
    counts = sum(
        cell_len(f"{SEPARATOR}{n} {full if words else brief}")
        for n, (full, brief, _) in zip(numbers, COUNTS, strict=True)
        if n
    )
    shown = cell_len(visible(name))
    return (shown if whole else min(shown, NAME_MIN)) + cell_len(f" ×{size}") + counts


def badge_room(room: int, column: int, least: Sequence[int]) -> int:
    """The cells a collapsed row's badges get of its *room*: the conditions
    *column*, or less (down to :data:`BADGES_FEW`) when the summary needs
    more to keep its counts, in the first of its *least* widths that fits
    so; else what the summary leaves (a count of how many are down matters
    more than one of badges)."""
    column = min(column, room)
    for wanted in least:
        if room - column >= wanted:
            return column
        if room - BADGES_FEW >= wanted:
            return room - wanted
    return max(0, min(column, room - least[-1]))


def group_cells(
    row: RowState, style: StyleOf = no_style, width: int | None = None, conditions: int = 0
) -> list[Text]:
    """The collapsed row's cells: the gutter (``▶``/``▷``, ``●`` when every
    standing member is marked), the shared initiative, and the summary
    fitted to *width* cells (whole without it), its standing members'
    badges in the last *conditions* of them (the conditions column) — or
    after the summary when it needs more room to keep its counts."""
    everyone_down = all(c.down for c in row.members)
    base = row_base(row, style, everyone_down)
    gutter = gutter_cell(row, style, base)
    first = row.combatant
    init = "–" if first.initiative is None else str(first.initiative)
    text = Text(" ", base)
    name = first.group or ""
    numbers = counts(row)
    found = group_badges(row.members)
    room = None if width is None else max(0, width - 1)
    column = 0  # the badges' cells
    if found and room is not None and conditions > 0:
        size = len(row.members)
        # the counts before the badges' room, the name whole if it can be
        least = [least_width(name, size, numbers, whole) for whole in (True, False)]
        column = badge_room(room, conditions, least)
        # after the summary anyway (not in the column): its counts' full
        # words (``18 bloodied``, not ``18 ½``) when the badges still fit whole
        full = least_width(name, size, numbers, True, words=True)
        if column < min(conditions, room) and room - column < full <= room - whole_width(found):
            column = room - full
        room -= column
    for piece, part in summary(name, len(row.members), numbers, room):
        if not part:
            text.append(piece, base + Style(bold=row.active))
        else:
            text.append(piece, base + (style(part) if not everyone_down else Style()))
    if found and (room is None or column):
        if room is not None:
            text.append(" " * (1 + room - text.cell_len), base)  # to the column
        text.append_text(Text.assemble(fit_badges(found, column or None), style=base))
    return [gutter, Text(init, base, justify="right"), text]


def group_state(
    combatants: Sequence[Combatant],
    span: Span,
    marked: Collection[str],
    delayed: Collection[str],
    active: int | None,
    deck: int | None,
) -> RowState:
    """A collapsed group's :class:`RowState`: active (for the acting member)
    while a member's turn is on, on deck when the next turn is a member's,
    ``marked`` when every standing member is."""
    from tracker.collapse import standing

    members = tuple(combatants[span.start : span.start + span.size])
    on = active is not None and span.covers(active)
    lead = combatants[span.lead(active)]  # the pane's selected_name: the controller's
    targets = standing(members)
    marks = sum(1 for c in members if c.name in marked)
    return RowState(
        lead,
        on,
        all(n in marked for n in targets),
        False,
        not on and deck is not None and span.covers(deck),
        members=members,
        marks=marks,
        delays=sum(1 for c in members if c.name in delayed),
    )


def row_states(
    combatants: Sequence[Combatant],
    spans: Sequence[Span],
    marked: Collection[str],
    delayed: Collection[str],
    active: int | None,
    deck: int | None,
) -> list[RowState]:
    """One :class:`RowState` per row, a collapsed group's from :func:`group_state`."""
    rows = []
    for span in spans:
        if span.collapsed:
            rows.append(group_state(combatants, span, marked, delayed, active, deck))
            continue
        i = span.start
        c = combatants[i]
        rows.append(RowState(c, i == active, c.name in marked, c.name in delayed, i == deck))
    return rows
