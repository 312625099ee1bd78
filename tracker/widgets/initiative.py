"""The initiative pane: the order, HP, AL and badges of every combatant.

Rows are positions in the initiative order.  :meth:`InitiativePane.show`
compares each position's combatant (and its active / marked / delayed flags)
with what is on screen and rewrites only the rows that changed, so a
50-combatant fight costs one row per hit, not fifty.  The selection cursor
(the table's row cursor) is separate from the active turn, which is drawn
with its own style (``initiative--active``) and a ``▶`` marker.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

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


class InitiativePane(DataTable[Text]):
    """The order of play; posts :class:`Selected` when the cursor moves."""

    COMPONENT_CLASSES = DataTable.COMPONENT_CLASSES | {
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
        super().__init__(id=id, cursor_type="row", zebra_stripes=False, cell_padding=0)
        self._rows: list[RowState] = []
        self._compact = True
        self._styles: dict[str, Style] = {}

    def on_mount(self) -> None:
        for key, label, width in COLUMNS:
            self.add_column(label, key=key, width=width)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())

    # -- rendering ------------------------------------------------------------

    def _style(self, name: str) -> Style:
        """A component style from app.tcss (cached; ``redraw`` clears it)."""
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name, partial=True)
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

    # -- updates ----------------------------------------------------------------

    def show(self, encounter: Encounter, marked: Collection[str] = ()) -> int:
        """Bring the rows in line with *encounter*; return how many changed."""
        active = encounter.turn if encounter.started else None
        delayed = set(encounter.delayed)
        wanted = [
            RowState(c, i == active, c.name in marked, c.name in delayed)
            for i, c in enumerate(encounter.combatants)
        ]
        changed = 0
        keys = [key for key, *_ in COLUMNS]
        for i, row in enumerate(wanted):
            if i < len(self._rows):
                if self._rows[i] == row:
                    continue
                for key, cell in zip(keys, self._cells(row), strict=True):
                    self.update_cell(str(i), key, cell, update_width=key == "badges")
            else:
                self.add_row(*self._cells(row), key=str(i))
            changed += 1
        for i in range(len(wanted), len(self._rows)):
            self.remove_row(str(i))
            changed += 1
        self._rows = wanted
        return changed

    def set_compact(self, compact: bool) -> None:
        """Short badges on narrow screens, full ones on wide."""
        if compact != self._compact:
            self._compact = compact
            self.redraw()

    def redraw(self) -> None:
        """Redraw every row (after a theme or width change)."""
        self._styles.clear()
        for i, row in enumerate(self._rows):
            for key, cell in zip((k for k, *_ in COLUMNS), self._cells(row), strict=True):
                self.update_cell(str(i), key, cell, update_width=key == "badges")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.Selected(event.cursor_row if self.row_count else None))

    @property
    def selected_index(self) -> int | None:
        """The selection cursor's position in the order, or None when empty."""
        if not self.row_count:
            return None
        return max(0, min(self.cursor_row, self.row_count - 1))
