"""The initiative pane, a line-API widget: :meth:`InitiativePane.show`
repaints only the rows whose combatant or flags changed, each row rendered
once into a cached strip (a ``DataTable`` invalidates every row on each
``update_cell``); what a row shows is :mod:`tracker.widgets.initiative_rows`."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from rules.encounter import Encounter
from rules.engine.turns import on_deck
from tracker.collapse import Span
from tracker.widgets.group_row import group_cells, row_states
from tracker.widgets.initiative_rows import (
    Content,
    Layout,
    RowState,
    content_of,
    fit_cells,
    header_labels,
    layout,
    row_cells,
)
from tracker.widgets.initiative_segments import row_segments
from tracker.widgets.steady import SteadyScrollView, safe_segments, safe_strip, text_segments


class InitiativePane(SteadyScrollView, can_focus=True):
    """The order of play; posts :class:`Selected` when the cursor moves.
    Line 0 is the fixed header, line ``1 + i`` the combatant at ``i``."""

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
        "initiative--on-deck",
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

    @dataclass
    class Selected(Message):
        """The selection cursor moved to the row at *index* (or None)."""

        index: int | None

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
        #: each row's own widths (``content_of`` of that row), by position
        self._sizes: list[Content] = []
        self._layout: Layout | None = None
        self._marks = (0, 0)  # targeted by the marks, down among them
        self.cursor_row = 0

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())

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
        """The cells of the row at *index*, whole."""
        return self._cells(self._rows[index])

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        """Put the selection on *row* (clamped); posts :class:`Selected`."""
        if not self._rows:
            return
        row = max(0, min(row, len(self._rows) - 1))
        old = self.cursor_row
        self.cursor_row = row
        if old != row:
            self._refresh_rows((old, row))
        self.scroll_into_view(row, self._body_height)
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
        self._refresh_rows((self.cursor_row,))

    @property
    def _body_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def reveal_turn(self, active: int) -> None:
        """Bring the active row into view with the row after it: when out of
        view, the active row goes to the top under the one before it, so the
        pane scrolls once a page, not once a turn."""
        if not 0 <= active < len(self._rows):
            return
        top = int(self.scroll_offset.y)
        last = min(active + 1, len(self._rows) - 1)
        if top <= active and last < top + self._body_height:
            return
        self.scroll_to(y=max(0, active - 1), animate=False, immediate=True)

    def _refresh_rows(self, rows: Collection[int]) -> None:
        """Repaint the lines of *rows* that are in view, in one refresh."""
        top = int(self.scroll_offset.y)
        width, height = self.size
        lines = [Region(0, y, width, 1) for y in (row + 1 - top for row in rows) if 1 <= y < height]
        if lines:
            self.refresh(*lines)

    def _set_virtual_size(self) -> None:
        """One line per row plus the header; no width (it never scrolls sideways)."""
        count = len(self._rows) + 1
        self._set_line_count(count)
        if not self.size and count > self.app.size.height:
            # reserve the scrollbar now, not after the first layout (which
            # would then lay the whole screen out again)
            self.show_vertical_scrollbar = True

    #: row bands: their translucent backgrounds are blended over the pane's
    #: (a partial style would drop the alpha and paint the full colour)
    BANDS = frozenset({"initiative--active", "initiative--marked"})
    #: translucent text colours (``$text-muted``): a partial style would
    #: drop the alpha and paint the full colour, white on a light theme
    MUTED = frozenset({"initiative--down"})

    def _style(self, name: str, partial: bool | None = None) -> Style:
        """A component style from app.tcss, cached per focus state until ``redraw``."""
        partial = name not in self.BANDS if partial is None else partial
        key = (name, self.has_focus, partial)
        style = self._styles.get(key)
        if style is None:
            style = self.get_component_rich_style(name, partial=partial)
            if partial and name in self.MUTED:
                # its colour blended over the pane, as the GM sees it
                blended = self.get_component_rich_style(name, partial=False).color
                style += Style(color=blended)
            self._styles[key] = style
        return style

    def _current_layout(self, width: int) -> Layout:
        """The columns at *width*; a new width renders every row again."""
        if width != self._strip_width:
            self._strips = [None] * len(self._rows)
            self._layout = None
            self._strip_width = width
        if self._layout is None:
            self._layout = layout(width, self._content, self._compact)
        return self._layout

    def _cells(self, row: RowState, lay: Layout | None = None) -> list[Text]:
        if row.members:
            if lay is None:
                return group_cells(row, self._style)
            return group_cells(row, self._style, sum(lay.widths[2:]), lay.badges)
        return row_cells(row, self._style, lay)

    def _line(self, cells: list[Text], width: int, lay: Layout) -> Strip:
        """*cells* fitted to the columns, exactly *width* cells."""
        console = self.app.console
        segments: list[Segment] = []
        for cell in fit_cells(cells, lay):
            segments.extend(text_segments(cell, console))
        return safe_strip(Strip(segments), width)

    def _row_strip(self, index: int, width: int) -> Strip:
        lay = self._current_layout(width)
        strip = self._strips[index]
        if strip is None:
            row = self._rows[index]
            # most rows straight to segments; the reference cells draw the rest
            segments = row_segments(row, self._style, lay) if sum(lay.widths) == width else None
            if segments is None:
                strip = self._line(self._cells(row, lay), width, lay)
            else:
                strip = Strip(safe_segments(segments), width)
            self._strips[index] = strip
        return strip

    def set_marks_note(self, count: int, down: int = 0) -> None:
        """How many combatants the marks target, and how many of them are
        down, for the header."""
        if (count, down) != self._marks:
            self._marks = (count, down)
            self.refresh(Region(0, 0, self.size.width, 1))

    def header_labels(self, lay: Layout) -> list[Text]:
        count, down = self._marks
        return header_labels(lay, count, self._style("initiative--mark"), down)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            lay = self._current_layout(width)
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
        """Line *y* under the header of the empty order: a blank, then the hint."""
        if self._hint_lines[0] != width:
            hint = self._style("initiative--hint", partial=False)  # muted: blended
            text = Text.styled(self.hint, hint)  # a span: kept when wrapped
            console = self.app.console
            room = max(1, width - 2)
            wrapped = [
                safe_strip(Strip(line.render(console)), room) for line in text.wrap(console, room)
            ]
            self._hint_lines = (width, wrapped)
        strips = self._hint_lines[1]
        if not 1 <= y <= len(strips):
            return Strip.blank(width, self.pane_style)
        margin = Strip.blank(1)
        line = Strip.join([margin, strips[y - 1], margin]).crop(0, width)
        return line.apply_style(self.pane_style)

    def show(
        self,
        encounter: Encounter,
        marked: Collection[str] = (),
        rows: tuple[Span, ...] | None = None,
    ) -> int:
        """Bring the rows in line with *encounter* and *rows*; return how many changed."""
        active = encounter.turn if encounter.started else None
        deck = on_deck(encounter)
        delayed = set(encounter.delayed)
        marked = marked if isinstance(marked, (set, frozenset)) else set(marked)
        if rows is not None and len(rows) != len(encounter.combatants):
            wanted = row_states(encounter.combatants, rows, marked, delayed, active, deck)
        else:
            wanted = [
                RowState(c, i == active, c.name in marked, c.name in delayed, i == deck)
                for i, c in enumerate(encounter.combatants)
            ]
        old, strips, sizes = self._rows, self._strips, self._sizes
        # each row compared once; an unchanged row keeps its strip and its
        # widths (what decides the columns is measured on changed rows only)
        kept: list[Strip | None] = []
        widths: list[Content] = []
        changed: list[int] = []
        for i, row in enumerate(wanted):
            if i < len(old) and old[i] == row:
                wanted[i] = old[i]  # the new one is dropped at once: nothing for the collector
                kept.append(strips[i] if i < len(strips) else None)
                widths.append(sizes[i])
                continue
            changed.append(i)
            kept.append(None)
            was = old[i] if i < len(old) else None
            if (
                was is not None
                and was.combatant is row.combatant
                and was.delayed == row.delayed
                and was.members == row.members
            ):
                widths.append(sizes[i])  # only the turn or a mark moved: the same widths
            else:
                widths.append(content_of([row]))
        changed += range(len(wanted), len(old))
        self._rows, self._sizes = wanted, widths
        content = Content(
            max((w.name for w in widths), default=0), max((w.hp for w in widths), default=0)
        )
        relayout = content != self._content
        if relayout:  # a longer name or HP text: every row's columns move
            self._content = content
            self._layout = None
        self._strips = [None] * len(wanted) if relayout else kept
        if relayout or len(wanted) != len(old):
            self._set_virtual_size()
            if self.cursor_row >= len(wanted):
                self.cursor_row = max(0, len(wanted) - 1)
            self.refresh()
        else:
            self._refresh_rows(changed)
        return len(changed)

    def set_compact(self, compact: bool) -> None:
        if compact != self._compact:
            self._compact = compact
            self.redraw()

    def redraw(self) -> None:
        """Redraw every row (after a theme or compactness change)."""
        self._styles.clear()
        self._hint_lines = (0, [])
        self._layout = None
        self._strips = [None] * len(self._rows)
        self.refresh()
