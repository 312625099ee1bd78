"""The saves form's list: one line per target, ``◧ half    Zombie 2``, drawn
with the line API (``OptionList`` measures and wraps every option on each
layout); a choice repaints its own line, the cursor the two it moves between."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.strip import Strip

from rules.text import visible
from tracker.widgets.steady import SteadyScrollView, safe_segments

#: How each choice is shown before the name.
SHOWN = {"full": "■ full", "half": "◧ half", "none": "□ none"}
#: a choice other than full stands out
BOLD = Style(bold=True)


class SavesList(SteadyScrollView, can_focus=True):
    """Each target's save, one line each, a cursor on one of them."""

    DEFAULT_CSS = """
    SavesList {
        height: auto;
        max-height: 45vh;  /* the keys under it stay on a 60×20 screen */
        overflow-x: hidden;
        color: $foreground;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        & > .saves-list--cursor {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .saves-list--cursor {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"saves-list--cursor"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]

    def __init__(self, names: Sequence[str], saves: dict[str, str], *, id: str | None = None):
        """*saves*: each name's choice, read when a line is drawn."""
        super().__init__(id=id)
        self.names = list(names)
        self.saves = saves
        self.cursor = 0
        self.virtual_size = Size(0, len(self.names))

    def row_text(self, index: int) -> str:
        """Row *index* as the GM reads it: ``◧ half  Zombie 2``."""
        return SHOWN[self.saves[self.names[index]]].ljust(8) + visible(self.names[index])

    def redraw_row(self, index: int) -> None:
        """Repaint row *index* (its choice or the cursor changed)."""
        y = index - int(self.scroll_offset.y)
        if 0 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def move_to(self, index: int) -> None:
        """Put the cursor on row *index* (clamped), scrolled into view."""
        if not self.names:
            return
        index = max(0, min(index, len(self.names) - 1))
        old, self.cursor = self.cursor, index
        self.scroll_into_view(index, max(1, self.size.height))
        if old != index:
            self.redraw_row(old)
            self.redraw_row(index)

    def action_move(self, step: int) -> None:
        self.move_to(self.cursor + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor + step * max(1, self.size.height - 1))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self.names) - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.move_to(int(self.scroll_offset.y) + offset.y)

    def on_focus(self) -> None:
        self.redraw_row(self.cursor)  # the cursor's colour follows focus

    def on_blur(self) -> None:
        self.redraw_row(self.cursor)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        index = int(self.scroll_offset.y) + y
        if not 0 <= index < len(self.names):
            return Strip.blank(width, base)
        style = base
        if index == self.cursor:  # over the whole line, as OptionList highlights
            style = self.get_component_rich_style("saves-list--cursor", partial=False)
        save = self.saves[self.names[index]]
        segments = [
            Segment(SHOWN[save].ljust(8), style + BOLD if save != "full" else style),
            Segment(visible(self.names[index]), style),
        ]
        return Strip(safe_segments(segments)).crop_extend(0, width, style)
