"""The initiative rows without Textual, so they are unit-tested without an
app: column widths by pane width (a narrow pane gives things up, never a
number), names cut in the middle by screen cells (a group's rows stay
distinct), HP (bloodied and down in words as well as colour), and each
row's cells as Rich ``Text`` (the conditions column's badges:
:mod:`tracker.widgets.badges`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from rules.combatant import Combatant
from rules.text import visible
from tracker.widgets.badges import combatant_badges, fit_badges, head_cells

#: A component style by name (``"initiative--active"``): the widget's, from
#: app.tcss.  :func:`no_style` gives none (tests, plain text).
StyleOf = Callable[[str], Style]


def no_style(_name: str) -> Style:
    return Style()


#: (key, header, narrow header); widths are decided by :func:`layout`.
COLUMNS = (
    ("mark", "", ""),
    ("init", "Ini", "Ini"),
    ("name", " Name", " Name"),
    ("hp", " HP", " HP"),
    ("al", " AL", " AL"),
    ("badges", " Conditions", " Cond."),
)
#: The HP bar's cells on a narrow pane; a wider pane gets a longer bar.
HP_BAR = 4
HP_BAR_MAX = 20
#: The name column's width bounds (the longest name decides, within these).
NAME_MIN, NAME_MAX_NARROW, NAME_MAX_WIDE = 6, 14, 24
#: Names squeeze to NAME_SQUEEZED so the badges keep BADGES_MIN cells, then
#: BADGES_FEW (`` …+2``: ``tracker.widgets.badges``) before the column goes.
NAME_SQUEEZED, BADGES_MIN, BADGES_FEW = 9, 12, 4


#: The gutter's first cell: the active turn, and who is next ("on deck").
ACTIVE_MARKER, ON_DECK_MARKER = "▶", "▷"
#: After the HP numbers of a bloodied combatant (never cut, like the numbers).
BLOODIED_MARKER = " ½"


class RowState(NamedTuple):
    """What one row shows; rows are redrawn only when this changes."""

    combatant: Combatant
    active: bool
    marked: bool
    delayed: bool
    #: the next to act (``rules.engine.turns.on_deck``)
    on_deck: bool = False
    #: a collapsed group's members in the order of play (``tracker.collapse``;
    #: empty: one combatant's row), and how many are marked and delaying
    members: tuple[Combatant, ...] = ()
    marks: int = 0
    delays: int = 0


def bloodied(c: Combatant) -> bool:
    """``Combatant.bloodied``: the HP bar turns from its high colour at the same point."""
    return c.bloodied


class Content(NamedTuple):
    """The widest name and HP text among the rows (decides column widths)."""

    name: int = 0
    hp: int = 0


class Layout(NamedTuple):
    """Column widths for one pane width; the badges get what is left."""

    widths: tuple[int, ...]
    bar: int

    @property
    def badges(self) -> int:
        return self.widths[-1]


def hp_text(c: Combatant) -> tuple[str, str]:
    """``(" 7/7", " +5")``: the numbers (``" 3/7 ½"``, ``" down"``) and the temp HP."""
    if c.down:
        numbers = " down"
    else:
        numbers = f" {c.hp}/{c.max_hp}" + (BLOODIED_MARKER if bloodied(c) else "")
    return numbers, f" +{c.temp_hp}" if c.temp_hp else ""


def content_of(rows: list[RowState]) -> Content:
    """The widest name (as shown, with ``(delayed)``) and HP numbers among *rows*."""
    name = hp = 0
    for row in rows:
        if row.members:  # a collapsed group's text spans the columns
            continue
        c = row.combatant
        note, _ = name_notes(row.delayed, c.visibility)
        name = max(name, cell_len(visible(c.name)) + len(note))
        numbers, temp = hp_text(c)
        hp = max(hp, cell_len(numbers + temp))
    return Content(name, hp)


#: How a pane too narrow for every column degrades, fullest first: (HP bar,
#: whether the names squeeze, the badges' least width, AL width, Ini width).
#: Names are cut only after everything else is given up.
STEPS = (
    (True, False, BADGES_MIN, 3, 3),
    (True, True, BADGES_MIN, 3, 3),
    (True, True, BADGES_FEW, 3, 3),
    (False, True, BADGES_FEW, 3, 3),
    (False, True, 0, 3, 3),
    (False, True, 0, 0, 3),
    (False, True, 0, 0, 0),
)


def layout(width: int, content: Content, compact: bool) -> Layout:
    """Column widths for a pane *width* cells wide: names and HP fit their
    content within bounds, the badges get the rest (else :data:`STEPS`)."""
    full_bar = HP_BAR if width < 60 else max(HP_BAR, min(HP_BAR_MAX, width // 8))
    name_max = NAME_MAX_NARROW if compact else NAME_MAX_WIDE
    want = 1 + max(NAME_MIN - 1, min(name_max - 1, content.name))
    numbers = max(5, content.hp)
    for has_bar, squeeze, badges, al, init in STEPS:
        bar = full_bar if has_bar else 0
        hp = (1 + bar if bar else 0) + numbers
        name = min(want, NAME_SQUEEZED) if squeeze else want
        fixed = 2 + init + hp + al
        if fixed + name + badges <= width:
            break
    rest = width - fixed
    if badges:  # the names take what the badges do not need, up to want
        name = min(want, max(name, rest - BADGES_MIN))
        return Layout((2, init, name, hp, al, rest - name), bar)
    # no badges column: the name column takes every cell left
    return Layout((2, init, max(0, rest), hp, al, 0), bar)


def fit_name(name: str, width: int) -> str:
    """*name* in *width* cells, cut in the middle so a trailing number stays: ``Gobl… 12``."""
    if cell_len(name) <= width:
        return name
    if width <= 1:
        return "…"[:width]
    head, _, tail = name.rpartition(" ")
    distinct = tail.isdigit() or cell_len(tail) <= 3  # "12", "B", "IV"
    keep = f" {tail}" if head and distinct and cell_len(tail) + 3 <= width else ""
    room = width - 1 - cell_len(keep)
    # "the old…", not "the old …": the cut shows where the word stops
    return head_cells(name[: len(name) - len(keep)], room).rstrip() + "…" + keep


#: What the GM is told of a combatant the players' view does not show in full.
SHOWN_NOTES = {"hidden": "hidden", "masked": "masked"}


def name_notes(delayed: bool, visibility: str = "visible") -> tuple[str, str]:
    """The notes after a name, in full and short: ``(delayed, hidden)`` /
    ``(d,h)``, either alone, or empty."""
    words = [w for w in ("delayed" if delayed else "", SHOWN_NOTES.get(visibility, "")) if w]
    if not words:
        return "", ""
    return f" ({', '.join(words)})", f" ({','.join(w[0] for w in words)})"


def name_cell(name: str, delayed: bool, width: int, visibility: str = "visible") -> str:
    """The name and its notes in *width* cells: the notes shorten to their
    letters, or go, before the name is cut below its first letters."""
    room = width - 1
    note, short = name_notes(delayed, visibility)
    if note and cell_len(name) + len(note) > room:
        note = short if room - len(short) >= min(cell_len(name), NAME_MIN) else ""
    return " " + fit_name(name, max(0, room - len(note))) + note


def row_base(row: RowState, style: StyleOf, dimmed: bool) -> Style:
    """A row's base style: the turn's or the mark's band, and the down /
    delayed look when *dimmed* (on a band only its italic: the band's
    colour stays, so the row reads)."""
    base = Style()
    if row.active:
        base = style("initiative--active")
    elif row.marked:
        base = style("initiative--marked")
    if dimmed:
        down = style("initiative--down")
        base = base + (Style(italic=down.italic) if row.active or row.marked else down)
    return base


def gutter_cell(row: RowState, style: StyleOf, base: Style) -> Text:
    """The gutter: ``▶`` (the turn) or ``▷`` (on deck), then ``●`` (marked)."""
    gutter = Text(style=base)
    if row.active:
        gutter.append(ACTIVE_MARKER, style("initiative--active-marker"))
    elif row.on_deck:
        gutter.append(ON_DECK_MARKER, style("initiative--on-deck"))
    else:
        gutter.append(" ")
    gutter.append("●" if row.marked else " ", style("initiative--mark"))
    return gutter


def row_cells(row: RowState, style: StyleOf = no_style, lay: Layout | None = None) -> list[Text]:
    """The row's cells fitted to *lay*'s columns, or whole without *lay*."""
    c = row.combatant
    base = row_base(row, style, c.down or row.delayed)
    gutter = gutter_cell(row, style, base)
    init = "–" if c.initiative is None else str(c.initiative)
    name = visible(c.name)
    if lay is None:
        name = " " + name + name_notes(row.delayed, c.visibility)[0]
    else:
        name = name_cell(name, row.delayed, lay.widths[2], c.visibility)
    badge_room = None if lay is None else lay.badges
    return [
        gutter,
        Text(init, base, justify="right"),
        Text(name, base + Style(bold=c.player or row.active), overflow="ellipsis"),
        hp_cell(c, base, HP_BAR if lay is None else lay.bar, style),
        Text(str(c.al), base, justify="right"),
        Text.assemble(fit_badges(combatant_badges(c), badge_room), style=base),
    ]


def bar_fill(c: Combatant, bar: int) -> tuple[int, str]:
    """How many of the HP bar's *bar* cells are filled, and its colour level.
    Empty only when down and full only at full HP: rounding alone would show
    1 of 24 HP as the empty bar of a down combatant, and 37 of 38 as unhurt."""
    fraction = 0.0 if c.max_hp <= 0 else max(0.0, min(1.0, c.hp / c.max_hp))
    level = "high" if fraction > 0.5 else "mid" if fraction > 0.25 else "low"
    filled = round(fraction * bar)
    if c.hp < c.max_hp:
        filled = min(filled, bar - 1)
    if c.hp > 0:
        filled = max(filled, 1)
    return min(filled, bar), level


def hp_cell(c: Combatant, base: Style, bar: int, style: StyleOf = no_style) -> Text:
    """The HP bar (*bar* cells) then the numbers and the temp HP."""
    filled, level = bar_fill(c, bar)
    bar_style = base + style(f"initiative--hp-{level}")
    text = Text(style=base)
    if bar:  # a narrow pane gives up the bar, never the numbers
        text.append(" ")
        text.append("█" * filled, bar_style)
        text.append("░" * (bar - filled), base + Style(dim=True))
    numbers, temp = hp_text(c)
    text.append(numbers, base)
    if temp:
        text.append(temp, base + style("initiative--temp"))
    return text


def fit_cells(cells: list[Text], lay: Layout) -> list[Text]:
    """*cells* fitted to *lay*'s columns, in place; the last spans any columns left."""
    widths = list(lay.widths[: len(cells)])
    widths[-1] = sum(lay.widths[len(cells) - 1 :])
    for size, cell in zip(widths, cells, strict=True):
        if cell.justify == "right":
            cell.align("right", size)
        else:
            cell.truncate(size, overflow="ellipsis", pad=True)
    return cells


def header_labels(
    lay: Layout, marks: int = 0, mark_style: Style | None = None, down: int = 0
) -> list[Text]:
    """The column headers; the badges column's says how many the marks
    target (*marks*) and how many of them are *down*: a fully downed marked
    group's mark stands for every member (``tracker.marks``), so the count
    grows, and ``all down`` says why rather than reading as new marks."""
    labels = [
        Text(wide if len(wide) <= size or not narrow else narrow)
        for (_, wide, narrow), size in zip(COLUMNS, lay.widths, strict=True)
    ]
    if marks and down:
        every = down >= marks
        fallen = "all down" if every else f"{down} down"
        notes: tuple[str, ...] = (
            f" ● {marks} marked, {fallen} · Esc clears",
            f" ● {marks} marked, {fallen} · Esc",
            f" ● {marks} marked, {fallen}",
            f" ●{marks} marked, {fallen}",
            f" ●{marks}, {fallen}",
            *((f" ●{marks} down",) if every else ()),
            # narrowest (60x20): the down still said, in an arrow
            f" ●{marks}↓" if every else f" ●{marks}↓{down}",
            f" ●{marks}",
        )
    else:
        notes = (
            f" ● {marks} marked · Esc clears",
            f" ● {marks} marked · Esc",
            f" ●{marks} marked·Esc",
            f" ● {marks} marked",
            f" ●{marks} Esc",
            f" ●{marks}",
        )
    if marks:
        note = next((t for t in notes if len(t) <= lay.badges), notes[-1])
        labels[-1] = Text(note, mark_style or Style())
    return labels
