"""A ScrollView that re-lays out without repainting its scrollbars for nothing.

``ScrollView`` keeps its own virtual size (for our panes: the number of
lines), but Textual's compositor passes it another one on every layout pass,
so ``ScrollView._size_updated`` sees a "change" each time, refreshes the
scrollbars and asks for a Resize event: one more frame painted after every
layout, the first one included (issue 4, "Starts fast": the frame after the
first was the scrollbars again).  Passing the view's own virtual size keeps
everything else as Textual does it.  ``_size_updated`` is a private hook
(Textual is pinned exactly; tests/test_tui_big_fight.py and the snapshots
catch a change).

The panes' line helper lives here too: :func:`text_segments`.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView


def text_segments(text: Text, console: Console) -> Iterable[Segment]:
    """*text* as segments with its own style: ``Text.render`` applies the
    text's base style only through its spans, so a span-less text would
    lose it (a dim note, a one-style cell)."""
    if text.spans:
        return text.render(console)
    return [Segment(text.plain, console.get_style(text.style) if text.style else None)]


class SteadyScrollView(ScrollView):
    """A line-API scroll view whose layout passes change nothing unless its
    size did."""

    _pane_style: Style | None = None

    @property
    def pane_style(self) -> Style:
        """The pane's own colours (``rich_style``: its styles blended over
        its ancestors'), worked out once per restyle rather than for every
        line drawn (~20 µs each)."""
        style = self._pane_style
        if style is None:
            style = self._pane_style = self.rich_style
        return style

    def notify_style_update(self) -> None:
        self._pane_style = None  # Textual restyles a pane's ancestors with it
        super().notify_style_update()

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, self.virtual_size, container_size, layout)

    def _set_line_count(self, count: int) -> None:
        """The virtual height is *count* lines: set without a layout pass (the
        pane's own size never depends on it), the scrollbar following."""
        size = Size(0, count)
        if size != self.virtual_size:
            self.set_reactive(SteadyScrollView.virtual_size, size)
            self._scroll_update(size)
