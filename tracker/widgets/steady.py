"""Line-API scroll views whose line count and titles change without a
layout pass or a whole-pane repaint (:meth:`SteadyScrollView._set_line_count`:
a layout only when the scrollbar comes or goes), and the panes' line
helpers, the last safety net that spells out any unsafe character reaching
the terminal (``rules.text.visible``)."""

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
    """*text* as safe segments with its own style (``Text.render`` applies
    the base style only through spans, so a span-less text would lose it);
    the caller measures the strip, not the text."""
    if text.spans:
        return safe_segments(text.render(console))
    return safe_segments(
        [Segment(text.plain, console.get_style(text.style) if text.style else None)]
    )


class SteadyScrollView(ScrollView):
    """A line-API scroll view laid out again only when its size changes."""

    _pane_style: Style | None = None

    @property
    def pane_style(self) -> Style:
        """The pane's own colours, worked out once per restyle, not per line."""
        style = self._pane_style
        if style is None:
            style = self._pane_style = self.rich_style
        return style

    def notify_style_update(self) -> None:
        self._pane_style = None  # Textual restyles a pane's ancestors with it
        super().notify_style_update()

    #: False while only the line count changes (:meth:`_set_line_count`)
    _layout_lines = True
    #: what a whole-pane refresh is narrowed to while set: a title's border
    #: row, or the lines while only the line count changes
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

    def scroll_into_view(self, row: int, height: int) -> None:
        """Scroll the least that shows line *row* among the *height* in view."""
        top = int(self.scroll_offset.y)
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def set_titles(self, title: Content, subtitle: Content) -> None:
        """A changed title repaints its border row alone (``border_title`` repaints the pane)."""
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
        """The virtual height is *count* lines; a layout only when the scrollbar comes or goes."""
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
