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
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rules.combatant import Combatant
from rules.encounter import Encounter

#: (key, header, width); cells carry their own leading space (cell_padding=0).
COLUMNS = (
    ("mark", "", 2),
    ("init", "Ini", 3),
    ("name", " Name", 12),
    ("hp", " HP", 15),
    ("al", " AL", 3),
    ("badges", " Conditions", None),
)
HP_BAR = 4


@dataclass(frozen=True)
class RowState:
    """What one row shows; rows are redrawn only when this changes."""

    combatant: Combatant
    active: bool
    marked: bool
    delayed: bool


def badges(c: Combatant, compact: bool = False) -> Text:
    """Condition badges (value, rounds left) then persistent-damage badges;
    *compact* shortens names to four letters (``pois2·3``) for narrow screens."""
    text = Text()
    for cond in c.conditions:
        name = cond.name[:4] if compact else cond.name
        label = name if cond.value is None else f"{name}{'' if compact else ' '}{cond.value}"
        if cond.rounds_left is not None:
            label += f"·{cond.rounds_left}"
        text.append(" ")
        text.append(label, "reverse")
    for entry in c.persistent:
        tag = "/".join(entry.tags) or "pers"
        text.append(" ")
        text.append(f"~{tag[:4] if compact else tag}", "bold italic")
        if not compact:
            text.append(f" {entry.dice}", "italic")
    return text


class InitiativePane(ScrollView, can_focus=True):
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
        "initiative--marked",
        "initiative--down",
        "initiative--hp-high",
        "initiative--hp-mid",
        "initiative--hp-low",
        "initiative--delayed",
        "initiative--temp",
    }

    @dataclass
    class Selected(Message):
        """The selection cursor moved to the combatant at *index* (or None)."""

        index: int | None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[RowState] = []
        self._compact = True
        self._styles: dict[tuple[str, bool], Style] = {}
        #: rendered rows (without the cursor), by position; None: render again
        self._strips: list[Strip | None] = []
        self._strip_width = 0
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
        """The cells of the row at *index* (mark, init, name, HP, AL, badges)."""
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

    def _on_focus(self, event: events.Focus) -> None:
        self._refresh_focus()

    def _on_blur(self, event: events.Blur) -> None:
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
        size = Size(self.size.width, len(self._rows) + 1)
        if size != self.virtual_size:
            self.virtual_size = size

    def on_resize(self) -> None:
        self._set_virtual_size()

    # -- rendering ------------------------------------------------------------

    def _style(self, name: str) -> Style:
        """A component style from app.tcss (cached; ``redraw`` clears it)."""
        key = (name, self.has_focus)
        style = self._styles.get(key)
        if style is None:
            style = self._styles[key] = self.get_component_rich_style(name, partial=True)
        return style

    def _cells(self, row: RowState) -> list[Text]:
        c = row.combatant
        base = Style()
        if row.active:
            base = self._style("initiative--active")
        elif row.marked:
            base = self._style("initiative--marked")
        if c.down or row.delayed:
            base = base + self._style("initiative--down")
        marker = ("▶" if row.active else " ") + ("●" if row.marked else " ")
        init = "–" if c.initiative is None else str(c.initiative)
        name = " " + c.name + (" (delayed)" if row.delayed else "")
        return [
            Text(marker, base + Style(bold=True)),
            Text(init, base, justify="right"),
            Text(name, base + Style(bold=c.player), overflow="ellipsis", no_wrap=True),
            self._hp(c, base),
            Text(str(c.al), base, justify="right"),
            Text.assemble(badges(c, self._compact), style=base),
        ]

    def _hp(self, c: Combatant, base: Style) -> Text:
        fraction = 0.0 if c.max_hp <= 0 else max(0.0, min(1.0, c.hp / c.max_hp))
        level = "high" if fraction > 0.5 else "mid" if fraction > 0.25 else "low"
        filled = round(fraction * HP_BAR)
        bar_style = base + self._style(f"initiative--hp-{level}")
        text = Text(" ", style=base)
        text.append("█" * filled, bar_style)
        text.append("░" * (HP_BAR - filled), base + Style(dim=True))
        text.append(f" {c.hp}/{c.max_hp}" if not c.down else " down", base)
        if c.temp_hp:
            text.append(f" +{c.temp_hp}", base + self._style("initiative--temp"))
        return text

    def _line(self, cells: list[Text], width: int) -> Strip:
        """Lay *cells* out in the columns, cropped or padded to *width*
        (the cells' own styles only: the cursor and pane styles go under)."""
        line = Text(no_wrap=True, overflow="crop")
        for (_, _, size), cell in zip(COLUMNS, cells, strict=True):
            if size is not None:
                cell = cell.copy()
                if cell.justify == "right":
                    cell.align("right", size)
                else:
                    cell.truncate(size, overflow="ellipsis", pad=True)
            line.append_text(cell)
        line.truncate(width, pad=True)
        return Strip(line.render(self.app.console), width).crop_extend(0, width, None)

    def _row_strip(self, index: int, width: int) -> Strip:
        if width != self._strip_width:
            self._strips = [None] * len(self._rows)
            self._strip_width = width
        strip = self._strips[index]
        if strip is None:
            strip = self._strips[index] = self._line(self._cells(self._rows[index]), width)
        return strip

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            header = [Text(label) for _, label, _ in COLUMNS]
            style = self.get_component_rich_style("initiative--header", partial=False)
            return self._line(header, width).apply_style(style)
        index = int(self.scroll_offset.y) + y - 1
        if not 0 <= index < len(self._rows):
            return Strip.blank(width, self.rich_style)
        strip = self._row_strip(index, width)
        if index == self.cursor_row:  # over the cells, as DataTable draws its cursor
            cursor = self.get_component_rich_style("initiative--cursor", partial=False)
            strip = Strip([Segment(t, (s or Style()) + cursor, c) for t, s, c in strip], width)
        return strip.apply_style(self.rich_style)

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
        self._strips = [
            strips[i] if i < len(strips) and i < len(old) and old[i] == row else None
            for i, row in enumerate(wanted)
        ]
        if len(wanted) != len(old):
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
        self._strips = [None] * len(self._rows)
        self.refresh()
