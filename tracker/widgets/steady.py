"""Line-API scroll views whose line count changes without a layout pass.

A pane's virtual height is its number of lines.  Setting ``virtual_size``
asks Textual for a layout pass of the whole screen, and on every layout pass
each ``ScrollView`` repaints its scrollbars: one more layout and two more
frames after every key that adds a log line.  Yet no size on screen depends
on a pane's line count unless its scrollbar comes or goes.  So
:meth:`SteadyScrollView._set_line_count` lays out as Textual does only then;
otherwise it sets the virtual size without the layout the reactive asks for
(the view's ``refresh`` drops it, and narrows the repaint it asks for to
the lines: the border is unchanged) and moves the scrollbar's window itself
(``ScrollBar.window_virtual_size`` / ``window_size``, what the layout pass
would set).  Public Textual API only; tests/tracker/test_big_fight.py checks that
a layout pass afterwards finds every scrollbar as the pane left it.

Likewise :meth:`SteadyScrollView.set_titles`: setting ``border_title``
repaints the whole pane; a changed title repaints its border row alone
(issue 10: ``n`` writes only what changed; ``bench/bench_repaint.py``).

The panes' line helpers live here too: :func:`text_segments` and
:func:`safe_segments`, the last safety net for what they draw (issue 9):
whatever text reaches a pane's lines has its control, bidirectional and
invisible characters spelled out (``rules.text.visible``), so nothing a
name holds can act on the terminal even if a path forgot to escape it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.geometry import Region, Size
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

    #: False while only the line count changes (:meth:`_set_line_count`)
    _layout_lines = True
    #: what a whole-pane refresh is narrowed to while set: the border row
    #: a title is drawn on (:meth:`set_titles`), the lines while only the
    #: line count changes (:meth:`_set_line_count`); the border stays
    _narrowed: tuple[Region, ...] = ()
    #: the titles last set with :meth:`set_titles` (title, subtitle)
    _titles: tuple[object, object] = (None, None)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        layout = layout and self._layout_lines
        if not regions:
            regions = self._narrowed
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def set_titles(self, title: Content, subtitle: Content) -> None:
        """The border's title and subtitle.  Only a changed one is set, and
        it repaints its border row alone: setting ``border_title`` repaints
        the whole pane (a round's ``n`` would redraw every visible row)."""
        old_title, old_subtitle = self._titles
        self._titles = (title, subtitle)
        if title != old_title:
            self._set_title("border_title", title, top=True)
        if subtitle != old_subtitle:
            self._set_title("border_subtitle", subtitle, top=False)

    def _set_title(self, name: str, title: Content, top: bool) -> None:
        width, height = self.outer_size
        if not self.is_mounted or not height:  # not drawn yet: nothing to narrow
            setattr(self, name, title)
            return
        # refresh regions are relative to the content; the border is outside it
        x, y = self.content_offset
        row = Region(-x, -y if top else height - 1 - y, width, 1)
        self._narrowed = (row,)
        try:
            setattr(self, name, title)
        finally:
            self._narrowed = ()

    def _set_line_count(self, count: int) -> None:
        """The virtual height is *count* lines; a layout pass only when the
        scrollbar comes or goes (or before the first layout)."""
        size = Size(0, count)
        if size == self.virtual_size:
            return
        height = self.container_size.height
        overflow = self.styles.overflow_y
        shown = overflow == "scroll" or (overflow == "auto" and count > height)
        if not self.size or shown != self.show_vertical_scrollbar:
            self.virtual_size = size
            return
        self._layout_lines = False
        self._narrowed = (self.size.region,)
        try:
            self.virtual_size = size
        finally:
            self._layout_lines = True
            self._narrowed = ()
        if shown and self.styles.scrollbar_size_vertical:
            bar = self.vertical_scrollbar
            bar.window_virtual_size = count
            bar.window_size = height - self.scrollbar_size_horizontal
        if self.scroll_y > self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
