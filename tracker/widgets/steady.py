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

The panes' line helpers live here too: :func:`text_segments` and
:func:`safe_segments`, the last safety net for what they draw (issue 9):
whatever text reaches a pane's lines has its control, bidirectional and
invisible characters spelled out (``rules.text.visible``), so nothing a
name holds can act on the terminal even if a path forgot to escape it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rules.text import first_unsafe, visible


def safe_segments(segments: Iterable[Segment]) -> list[Segment]:
    """*segments* with every unsafe character made visible (a segment that
    is safe, almost all of them, is kept as it is)."""
    out = []
    for segment in segments:
        text = segment.text
        if not (text.isascii() and text.isprintable()) and first_unsafe(text) >= 0:
            segment = Segment(visible(text), segment.style)
        out.append(segment)
    return out


def safe_strip(strip: Strip, width: int) -> Strip:
    """*strip* made safe (:func:`safe_segments`) and exactly *width* cells."""
    strip = Strip(safe_segments(strip))
    return strip if strip.cell_length == width else strip.crop_extend(0, width, None)


def text_segments(text: Text, console: Console) -> Iterable[Segment]:
    """*text* as segments with its own style: ``Text.render`` applies the
    text's base style only through its spans, so a span-less text would
    lose it (a dim note, a one-style cell).  Unsafe characters come out
    visible (:func:`safe_segments`): the caller measures the strip it
    builds from them rather than trusting the text's length."""
    if text.spans:
        return safe_segments(text.render(console))
    return safe_segments(
        [Segment(text.plain, console.get_style(text.style) if text.style else None)]
    )


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
