"""The initiative pane: the order, HP, AL and badges of every combatant.

Rows are positions in the initiative order.  :meth:`InitiativePane.show`
compares each position's combatant (and its active / marked / delayed flags)
with what is on screen and repaints only the lines of the rows that changed,
so a 50-combatant fight costs one row per hit, not fifty.  The pane is a
line-API widget (``ScrollView.render_line``): each row is rendered once into
a cached strip and only visible rows are ever rendered (a ``DataTable``
invalidates every row's cache on each ``update_cell``).  The selection
cursor is separate from the active turn, which is drawn with its own style
(``initiative--active``) and a ``▶`` marker.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.text import visible
from tracker.widgets.steady import SteadyScrollView, safe_strip, text_segments

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
#: Names give up room (down to NAME_SQUEEZED, then an ellipsis) so the
#: badges column keeps at least BADGES_MIN cells; on a narrower pane the
#: badges keep BADGES_FEW (``+2``: how many) before the column goes.
NAME_SQUEEZED, BADGES_MIN, BADGES_FEW = 9, 12, 4


class RowState(NamedTuple):
    """What one row shows; rows are redrawn only when this changes.

    (This module's small records are named tuples: a frozen dataclass costs
    the start-up ~0.6 ms to create, a named tuple ~0.1 ms.)"""

    combatant: Combatant
    active: bool
    marked: bool
    delayed: bool


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
    """``(" 7/7", " +5")``: the numbers after the bar, and the temp HP part."""
    numbers = " down" if c.down else f" {c.hp}/{c.max_hp}"
    return numbers, f" +{c.temp_hp}" if c.temp_hp else ""


def content_of(rows: list[RowState]) -> Content:
    """The widest name (as shown, with ``(delayed)``) and HP numbers among *rows*."""
    name = hp = 0
    for row in rows:
        c = row.combatant
        name = max(name, cell_len(visible(c.name)) + (10 if row.delayed else 0))
        numbers, temp = hp_text(c)
        hp = max(hp, len(numbers) + len(temp))
    return Content(name, hp)


#: How a pane too narrow for every column degrades, fullest first (issue 9:
#: a number is never cut): (HP bar, whether the names squeeze, the badges'
#: least width, AL width, Ini width).  The names squeeze to NAME_SQUEEZED
#: and the badges shrink to a count (``+2``), then the HP bar goes, then the
#: badges, AL and initiative columns; only then are names cut (in the
#: middle, keeping a ``Goblin 12``'s number: :func:`fit_name`).
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
    """Column widths for a pane *width* cells wide: the name column fits the
    longest name (within bounds), the HP column its bar and numbers (the bar
    grows on a wide pane), and the condition badges get the rest; a narrow
    pane gives things up in the order of :data:`STEPS`, and the HP numbers
    always stay whole."""
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
    # no badges column: the name column takes every cell left (cut below
    # NAME_SQUEEZED only when nothing else is left to give up)
    return Layout((2, init, max(0, rest), hp, al, 0), bar)


def fit_name(name: str, width: int) -> str:
    """*name* in at most *width* cells: whole when it fits, else cut in the
    middle with ``…`` so that a trailing number or short last word stays
    (``Goblin Archer 12`` → ``Gobl… 12``, ``Goblin Archer B`` → ``Gobli…
    B``): the rows of a group can still be told apart."""
    if cell_len(name) <= width:
        return name
    if width <= 1:
        return "…"[:width]
    head, _, tail = name.rpartition(" ")
    distinct = tail.isdigit() or cell_len(tail) <= 3  # "12", "B", "IV"
    keep = f" {tail}" if head and distinct and cell_len(tail) + 3 <= width else ""
    room = width - 1 - cell_len(keep)
    cut = ""
    for ch in name[: len(name) - len(keep)]:
        if cell_len(cut + ch) > room:
            break
        cut += ch
    return cut + "…" + keep


def badge_items(c: Combatant, compact: bool = False) -> list[Text]:
    """One Text per condition badge (value, rounds left) then per
    persistent-damage badge; *compact* shortens names to four letters
    (``pois2·3``) for narrow screens."""
    items = []
    for cond in c.conditions:
        name = visible(cond.name)
        name = name[:4] if compact else name
        label = name if cond.value is None else f"{name}{'' if compact else ' '}{cond.value}"
        if cond.rounds_left is not None:
            label += f"·{cond.rounds_left}"
        items.append(Text(label, "reverse"))
    for entry in c.persistent:
        tag = visible("/".join(entry.tags)) or "pers"
        item = Text(f"~{tag[:4] if compact else tag}", "bold italic")
        if not compact:
            item.append(f" {visible(str(entry.dice))}", "italic")
        items.append(item)
    return items


def badges(c: Combatant, compact: bool = False, width: int | None = None) -> Text:
    """The badges as one Text, each after a space.  With *width*, when they
    do not all fit, the whole badges that fit then ``+N`` for the rest
    (never a badge cut in the middle)."""
    items = badge_items(c, compact)
    full = Text()
    for item in items:
        full.append(" ")
        full.append_text(item)
    if width is None or full.cell_len <= width:
        return full
    text = Text()
    shown = 0
    for item in items:
        more = f" +{len(items) - shown - 1}"
        if text.cell_len + 1 + item.cell_len + len(more) > width:
            break
        text.append(" ")
        text.append_text(item)
        shown += 1
    text.append(f" +{len(items) - shown}", "bold")
    return text


class InitiativePane(SteadyScrollView, can_focus=True):
    """The order of play; posts :class:`Selected` when the cursor moves.

    Line 0 is the column header (it does not scroll); line ``1 + i`` of the
    scrolled view is the combatant at position ``i``.
    """

    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]

    COMPONENT_CLASSES = {
        "initiative--header",
        "initiative--cursor",
        "initiative--active",
        "initiative--active-marker",
        "initiative--marked",
        "initiative--mark",
        "initiative--down",
        "initiative--hp-high",
        "initiative--hp-mid",
        "initiative--hp-low",
        "initiative--delayed",
        "initiative--temp",
        "initiative--hint",
    }

    class Selected(Message):
        """The selection cursor moved to the combatant at *index* (or None)."""

        def __init__(self, index: int | None) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None, compact: bool = True, hint: str = "") -> None:
        super().__init__(id=id)
        #: shown under the header while the order is empty (how to add combatants)
        self.hint = hint
        self._hint_lines: tuple[int, list[Strip]] = (0, [])
        self._rows: list[RowState] = []
        self._compact = compact
        self._styles: dict[tuple[str, bool, bool], Style] = {}
        #: rendered rows (without the cursor), by position; None: render again
        self._strips: list[Strip | None] = []
        self._strip_width = 0
        self._content = Content()
        self._layout: Layout | None = None
        self._marks = 0
        self.cursor_row = 0

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())

    # -- the DataTable-like surface the screen and the tests use ---------------

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def selected_index(self) -> int | None:
        """The selection cursor's position in the order, or None when empty."""
        if not self._rows:
            return None
        return max(0, min(self.cursor_row, len(self._rows) - 1))

    @property
    def selected_name(self) -> str | None:
        """The name on the row under the cursor, as drawn (None when empty)."""
        index = self.selected_index
        return None if index is None else self._rows[index].combatant.name

    def get_row_at(self, index: int) -> list[Text]:
        """The cells of the row at *index* (mark, init, name, HP, AL, badges;
        every badge, as if the pane were wide enough)."""
        return self._cells(self._rows[index])

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        """Put the selection on *row* (clamped); posts :class:`Selected`."""
        if not self._rows:
            return
        row = max(0, min(row, len(self._rows) - 1))
        old = self.cursor_row
        self.cursor_row = row
        if old != row:
            self._refresh_row(old)
            self._refresh_row(row)
        self._scroll_to_row(row)
        self.post_message(self.Selected(row))

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self.cursor_row + 1)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self.cursor_row - 1)

    def action_page_down(self) -> None:
        self.move_cursor(row=self.cursor_row + max(1, self._body_height - 1))

    def action_page_up(self) -> None:
        self.move_cursor(row=self.cursor_row - max(1, self._body_height - 1))

    def action_first(self) -> None:
        self.move_cursor(row=0)

    def action_last(self) -> None:
        self.move_cursor(row=len(self._rows) - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y >= 1:
            row = int(self.scroll_offset.y) + offset.y - 1
            if row < len(self._rows):
                self.move_cursor(row=row)

    def on_focus(self, event: events.Focus) -> None:
        self._refresh_focus()

    def on_blur(self, event: events.Blur) -> None:
        self._refresh_focus()

    def _refresh_focus(self) -> None:
        """The header's tint and the cursor's colour follow focus."""
        self.refresh(Region(0, 0, self.size.width, 1))
        self._refresh_row(self.cursor_row)

    # -- geometry --------------------------------------------------------------

    @property
    def _body_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_to_row(self, row: int) -> None:
        top = int(self.scroll_offset.y)
        height = self._body_height
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def _refresh_row(self, row: int) -> None:
        y = row + 1 - int(self.scroll_offset.y)
        if 1 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def _set_virtual_size(self) -> None:
        """One line per row plus the header; no width (the pane never
        scrolls sideways), so it is right before the first layout and a
        resize does not change it."""
        count = len(self._rows) + 1
        self._set_line_count(count)
        if not self.size and count > self.app.size.height:
            # before the first layout, rows taller than the screen surely
            # need the scrollbar: reserve it now, not after the first layout
            # (which would then lay the whole screen out again)
            self.show_vertical_scrollbar = True

    # -- rendering ------------------------------------------------------------

    #: row bands: their translucent backgrounds are blended over the pane's
    #: (a partial style would drop the alpha and paint the full colour)
    BANDS = frozenset({"initiative--active", "initiative--marked"})

    def _style(self, name: str, partial: bool | None = None) -> Style:
        """A component style from app.tcss (cached per focus state;
        ``redraw`` clears it): looked up once, not on every line."""
        partial = name not in self.BANDS if partial is None else partial
        key = (name, self.has_focus, partial)
        style = self._styles.get(key)
        if style is None:
            style = self._styles[key] = self.get_component_rich_style(name, partial=partial)
        return style

    def _current_layout(self, width: int) -> Layout:
        if self._layout is None or width != self._strip_width:
            self._layout = layout(width, self._content, self._compact)
        return self._layout

    def _cells(self, row: RowState, lay: Layout | None = None) -> list[Text]:
        """The row's cells; the first is the gutter: ``▶`` on the active
        turn, ``●`` on a marked combatant (each in its own colour)."""
        c = row.combatant
        base = Style()
        if row.active:
            base = self._style("initiative--active")
        elif row.marked:
            base = self._style("initiative--marked")
        if c.down or row.delayed:
            base = base + self._style("initiative--down")
        gutter = Text(style=base)
        gutter.append("▶" if row.active else " ", self._style("initiative--active-marker"))
        gutter.append("●" if row.marked else " ", self._style("initiative--mark"))
        init = "–" if c.initiative is None else str(c.initiative)
        name = visible(c.name)
        delayed = " (delayed)" if row.delayed else ""
        if lay is not None:  # cut in the middle (fit_name), not at the end
            room = lay.widths[2] - 1
            if delayed and cell_len(name) + len(delayed) > room:
                delayed = " (d)" if room - 4 >= min(cell_len(name), NAME_MIN) else ""
            name = fit_name(name, max(0, room - len(delayed)))
        name = " " + name + delayed
        badge_room = None if lay is None else lay.badges
        return [
            gutter,
            Text(init, base, justify="right"),
            Text(name, base + Style(bold=c.player or row.active), overflow="ellipsis"),
            self._hp(c, base, HP_BAR if lay is None else lay.bar),
            Text(str(c.al), base, justify="right"),
            Text.assemble(badges(c, self._compact, badge_room), style=base),
        ]

    def _hp(self, c: Combatant, base: Style, bar: int) -> Text:
        fraction = 0.0 if c.max_hp <= 0 else max(0.0, min(1.0, c.hp / c.max_hp))
        level = "high" if fraction > 0.5 else "mid" if fraction > 0.25 else "low"
        filled = round(fraction * bar)
        bar_style = base + self._style(f"initiative--hp-{level}")
        text = Text(style=base)
        if bar:  # a narrow pane gives up the bar, never the numbers
            text.append(" ")
            text.append("█" * filled, bar_style)
            text.append("░" * (bar - filled), base + Style(dim=True))
        numbers, temp = hp_text(c)
        text.append(numbers, base)
        if temp:
            text.append(temp, base + self._style("initiative--temp"))
        return text

    def _line(self, cells: list[Text], width: int, lay: Layout) -> Strip:
        """Lay *cells* out in the columns, cropped or padded to *width*
        (the cells' own styles only: the cursor and pane styles go under).
        The cells are fitted to their columns in place."""
        console = self.app.console
        segments: list[Segment] = []
        for size, cell in zip(lay.widths, cells, strict=True):
            if cell.justify == "right":
                cell.align("right", size)
            else:
                cell.truncate(size, overflow="ellipsis", pad=True)
            segments.extend(text_segments(cell, console))
        return safe_strip(Strip(segments), width)

    def _row_strip(self, index: int, width: int) -> Strip:
        if width != self._strip_width:
            self._strips = [None] * len(self._rows)
            self._layout = None
        lay = self._current_layout(width)
        self._strip_width = width
        strip = self._strips[index]
        if strip is None:
            strip = self._strips[index] = self._line(
                self._cells(self._rows[index], lay), width, lay
            )
        return strip

    def set_marks_note(self, count: int) -> None:
        """Say in the header how many combatants are marked (and that Esc
        clears them); only the header line is repainted."""
        if count != self._marks:
            self._marks = count
            self.refresh(Region(0, 0, self.size.width, 1))

    def header_labels(self, lay: Layout) -> list[Text]:
        """The column headers; the badges column says ``Cond.`` when narrow,
        and how many are marked while some are."""
        labels = [
            Text(wide if len(wide) <= size or not narrow else narrow)
            for (_, wide, narrow), size in zip(COLUMNS, lay.widths, strict=True)
        ]
        if self._marks:
            n = self._marks
            notes = (
                f" ● {n} marked · Esc clears",
                f" ● {n} marked · Esc",
                f" ●{n} marked·Esc",
                f" ● {n} marked",
                f" ●{n} Esc",
                f" ●{n}",
            )
            note = next((t for t in notes if len(t) <= lay.badges), notes[-1])
            labels[-1] = Text(note, self._style("initiative--mark"))
        return labels

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            if width != self._strip_width:
                self._strips = [None] * len(self._rows)
                self._layout = None
            lay = self._current_layout(width)
            self._strip_width = width
            style = self._style("initiative--header", partial=False)
            return self._line(self.header_labels(lay), width, lay).apply_style(style)
        index = int(self.scroll_offset.y) + y - 1
        if not self._rows and self.hint:
            return self._hint_line(y - 1, width)
        if not 0 <= index < len(self._rows):
            return Strip.blank(width, self.pane_style)
        strip = self._row_strip(index, width)
        if index == self.cursor_row:
            # over the cells, as DataTable draws its cursor; the gutter (▶ ●)
            # keeps its own colours so the turn and the marks show through
            cursor = self._style("initiative--cursor", partial=False)
            gutter, cells = strip.divide([2, width])[:2] if width > 2 else (Strip([]), strip)
            cells = Strip([Segment(t, (s or Style()) + cursor, c) for t, s, c in cells])
            strip = Strip.join([gutter, cells])
        return strip.apply_style(self.pane_style)

    def _hint_line(self, y: int, width: int) -> Strip:
        """Line *y* under the header of the empty order: a blank line, then
        the hint wrapped to the pane with a one-cell margin."""
        if self._hint_lines[0] != width:
            hint = self._style("initiative--hint", partial=False)  # muted: blended
            text = Text.styled(self.hint, hint)  # a span: kept when wrapped
            console = self.app.console
            room = max(1, width - 2)
            self._hint_lines = (
                width,
                [
                    safe_strip(Strip(line.render(console)), room)
                    for line in text.wrap(console, room)
                ],
            )
        strips = self._hint_lines[1]
        if not 1 <= y <= len(strips):
            return Strip.blank(width, self.pane_style)
        margin = Strip.blank(1)
        line = Strip.join([margin, strips[y - 1], margin]).crop(0, width)
        return line.apply_style(self.pane_style)

    # -- updates ----------------------------------------------------------------

    def show(self, encounter: Encounter, marked: Collection[str] = ()) -> int:
        """Bring the rows in line with *encounter*; return how many changed."""
        active = encounter.turn if encounter.started else None
        delayed = set(encounter.delayed)
        wanted = [
            RowState(c, i == active, c.name in marked, c.name in delayed)
            for i, c in enumerate(encounter.combatants)
        ]
        old = self._rows
        strips = self._strips
        changed = [i for i, row in enumerate(wanted) if i >= len(old) or old[i] != row] + list(
            range(len(wanted), len(old))
        )
        self._rows = wanted
        content = content_of(wanted)
        relayout = content != self._content
        if relayout:  # a longer name or HP text: every row's columns move
            self._content = content
            self._layout = None
        self._strips = [
            strips[i]
            if not relayout and i < len(strips) and i < len(old) and old[i] == row
            else None
            for i, row in enumerate(wanted)
        ]
        if relayout or len(wanted) != len(old):
            self._set_virtual_size()
            if self.cursor_row >= len(wanted):
                self.cursor_row = max(0, len(wanted) - 1)
            self.refresh()
        else:
            for i in changed:
                self._refresh_row(i)
        return len(changed)

    def set_compact(self, compact: bool) -> None:
        """Short badges on narrow screens, full ones on wide."""
        if compact != self._compact:
            self._compact = compact
            self.redraw()

    def redraw(self) -> None:
        """Redraw every row (after a theme or width change)."""
        self._styles.clear()
        self._hint_lines = (0, [])
        self._layout = None
        self._strips = [None] * len(self._rows)
        self.refresh()
