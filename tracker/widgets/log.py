"""The log pane, a line-API widget showing the newest entries at the bottom,
followed.  It keeps a window of the last entries wrapped to its width: at
first the tail that fills the pane, widened to ``WINDOW`` entries when the
GM scrolls to the top (older ones are in ``export``); the first entry of
combat 2 or later (the first its ``start`` logged, ``rules.engine.combats``)
has a rule over it naming the combat, numbered and placed as ``export``
heads it.  It is first wrapped
before the first frame (:meth:`LogPane._planned_size`), not on a Resize
event as ``RichLog`` is, which arrives only after it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip

from rules.encounter import LogEntry
from rules.engine.combats import count_combats, opens_combat
from rules.text import visible
from tracker.breakdown import combat_rule, styled
from tracker.widgets.steady import SteadyScrollView, text_segments

#: Entries kept on screen when the GM scrolls to the top of the tail.
WINDOW = 200
#: The window is trimmed back to WINDOW entries once it holds this many.
WINDOW_MAX = WINDOW * 2
#: after the pane's title while the GM has scrolled back: the newest lines
#: are out of view, and at a glance the pane looked as it does at the bottom
SCROLLED_BACK = " ↑ · G: newest"


def entry_text(entry: LogEntry) -> Text:
    """``R3 Goblin 2 takes 7 fire…``: the actor and kept dice (``**16**``) in bold."""
    text = Text()
    text.append(f"R{entry.round} " if entry.round else "–  ", "dim")
    # names in the log are data: shown made visible
    body, actor = styled(entry.text, entry.kept), visible(entry.actor)
    if actor and body.plain.startswith(actor):
        text.append(actor, "bold")
        body = body[len(actor) :]
    elif actor:
        text.append(actor + ":", "bold")
        text.append(" ")
    text.append_text(body)
    return text


class LogPane(SteadyScrollView, can_focus=True):
    """The log's last entries, wrapped to the pane's width; ``lines`` holds
    the wrapped window (line 0 is the "earlier entries" note when the log
    is longer than the window)."""

    DEFAULT_CSS = """
    LogPane {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._log: Sequence[LogEntry] = ()
        self._earlier = 0
        #: combats begun before the log's first entry, and up to its last
        #: one (None: unknown, the older steps could not be read)
        self._combats_before: int | None = 0
        self._combats: int | None = 0
        #: log length and last entry the window was built from
        self._count = 0
        self._last: LogEntry | None = None
        #: entries in the window (from the end of the log); below WINDOW it
        #: is a tail, grown to fill the pane
        self._limit = 0
        #: the window: its entries, their wrapped lines, each entry's height
        self._entries: list[LogEntry] = []
        self._heights: list[int] = []
        self._body: list[Strip] = []
        self._note: list[Strip] = []
        #: the width the window is wrapped to (0: not known yet)
        self._width = 0
        #: go to the bottom when the window changes (new entries, an undo, a
        #: rewrap: the GM sees what their action did); off while widening
        self._follow = True
        self.rebuilds = 0
        #: the title without the scrolled-back note
        self._title = Content("")

    @property
    def lines(self) -> list[Strip]:
        return self._note + self._body

    @property
    def _line_count(self) -> int:
        return len(self._note) + len(self._body)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Wrap the window once the pane knows its size, and on a new width."""
        self._fit()
        return super().render_lines(crop)

    def _fit(self, size: Size | None = None) -> None:
        """Rewrap on a new width; *size*: the coming layout's (else as laid out)."""
        if size is None:
            size = self.scrollable_content_region.size
        width, height = size
        if width <= 0 or height <= 0:
            return
        if width != self._width:
            self._width = width
            self._rebuild(height)
        elif (
            self._limit < WINDOW and self._count > len(self._entries) and (len(self._body) < height)
        ):
            self._rebuild(height)  # taller: the tail no longer fills the pane

    def _planned_size(self) -> Size | None:
        """The lines' size in the screen's coming layout (its arrangement, which
        that layout reuses), before the pane is laid out: wrapped to it, the
        first frame draws the scrollbar at the bottom already (it is painted
        before the lines).  None: not in the arrangement (the first paint wraps)."""
        screen = self.screen
        if not screen.size:
            return None
        for placement in screen.arrange(screen.size).placements:
            if placement.widget is self:
                styles = self.styles
                bar = styles.scrollbar_size_vertical if styles.overflow_y == "scroll" else 0
                width, height = placement.region.shrink(styles.gutter).size
                return Size(width - bar, height)
        return None

    def _sync(self) -> None:
        """Write the note, set the height, follow the bottom, repaint the lines (not the border)."""
        self._make_note()
        self._set_line_count(self._line_count)
        if self._follow:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
        region = self.size.region
        self.refresh(*((region,) if region else ()))

    def _wrap(self, text: Text) -> list[Strip]:
        console = self.app.console
        plain = text.plain
        if text.cell_len <= self._width and "\n" not in plain and "\t" not in plain:
            return [Strip(text_segments(text, console))]
        return [Strip(text_segments(line, console)) for line in text.wrap(console, self._width)]

    def _block(self, entry: LogEntry, combat: int | None) -> list[Strip]:
        """*entry*'s lines; *combat*: the number of the combat it opens (0:
        none), a rule over it from combat 2 on (combat 1 has none, as in
        ``export``)."""
        lines = self._wrap(entry_text(entry))
        if combat is None or combat > 1:
            lines[:0] = self._wrap(combat_rule(combat, self._width))
        return lines

    def _make_note(self) -> None:
        count = self._count
        start = count - len(self._entries) + self._earlier
        if start:
            more = "scroll up for more, " if self._limit < WINDOW else ""
            text = Text.styled(
                f"… {start} earlier entries ({more}all: combat-tracker export)", "dim italic"
            )
        elif count == 0:
            text = Text.styled("The log is empty: actions and rolls appear here.", "dim italic")
        else:
            text = Text()
        self._note = self._wrap(text) if text else []

    def _rebuild(self, height: int | None = None) -> None:
        """Wrap the last ``_limit`` entries afresh (a tail: enough for *height* lines)."""
        log = self._log
        count = len(log)
        self._entries.clear()
        self._heights.clear()
        self._body.clear()
        start = max(0, count - self._limit)
        before = self._combats_before
        self._combats = None if before is None else before + count_combats(log)
        # wrapped newest first, so each combat's number counts down from the last
        number = self._combats

        def block(index: int) -> list[Strip]:
            nonlocal number
            entry = log[index]
            if not opens_combat(log, index):
                return self._block(entry, 0)
            lines = self._block(entry, number)
            number = None if number is None else number - 1
            return lines

        blocks = [block(i) for i in range(count - 1, start - 1, -1)]
        if self._limit < WINDOW:  # a tail: add entries until the pane is full
            if height is None:
                height = self.scrollable_content_region.height
            room = height - sum(map(len, blocks))
            while start > 0 and room > 0:
                start -= 1
                blocks.append(block(start))
                room -= len(blocks[-1])
        blocks.reverse()
        for entry, block_lines in zip(log[start:], blocks, strict=True):
            self._entries.append(entry)
            self._heights.append(len(block_lines))
            self._body.extend(block_lines)
        self._count = count
        self._last = log[-1] if count else None
        self._limit = max(self._limit, count - start)
        self._sync()

    def set_titles(self, title: Content, subtitle: Content) -> None:
        """As every pane; the title says when the newest lines are out of view."""
        self._title = title
        super().set_titles(title + SCROLLED_BACK if self.scrolled_back else title, subtitle)

    @property
    def scrolled_back(self) -> bool:
        """The newest lines are out of view (the title says so)."""
        return self.scroll_y < self.max_scroll_y

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """At the top of a tail, widen it to the full window, keeping the view
        where it was; the title follows whether the newest lines are in view."""
        super().watch_scroll_y(old_value, new_value)
        self.set_titles(self._title, self._titles[1])  # type: ignore[arg-type]
        if new_value <= 0 < old_value and self._limit < min(WINDOW, len(self._log)):
            self.call_after_refresh(self._grow)

    def _grow(self) -> None:
        if self._limit >= WINDOW or not self._width:
            return
        # where the view is now, not 0: an undo that cut the tail short
        # also scrolls to the top, and the refit after it scrolls back down
        # before this runs
        top, before = self.scroll_y, self._line_count
        self._limit = WINDOW
        follow, self._follow = self._follow, False
        self._rebuild()
        self._follow = follow
        self.scroll_to(y=max(0, top + self._line_count - before), animate=False, immediate=True)

    def scroll_pages(self, pages: int) -> None:
        """*pages* pages down (up when negative), a line of the last one kept
        in view; past the top of the tail, the window first (from memory:
        nothing is read), so a page up is a page whatever was wrapped."""
        page = max(1, self.scrollable_content_region.height - 1)
        if self.scroll_y + pages * page < 0:
            self._grow()  # the view stays on the same lines, more above them
        y = self.scroll_y + pages * page
        self.scroll_to(y=y, animate=False, immediate=True)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        index = int(self.scroll_offset.y) + y
        note = len(self._note)
        if 0 <= index < note + len(self._body):
            strip = self._note[index] if index < note else self._body[index - note]
            return strip.crop_extend(0, width, None).apply_style(self.pane_style)
        return Strip.blank(width, self.pane_style)

    def show(
        self, log: Sequence[LogEntry], earlier: int = 0, combats_earlier: int | None = 0
    ) -> int:
        """Bring the pane in line with *log* (*earlier*: older entries only in the
        saved steps, *combats_earlier*: the combats begun in them, None if
        unknown); return how many entries were wrapped: only appended ones
        (an undo's are cut off the bottom; any other change rewraps)."""
        self._log = log
        self._earlier = earlier  # entries older than *log*, only in the saved steps
        renumbered = combats_earlier != self._combats_before
        self._combats_before = combats_earlier
        if not self._width and not self.size:  # not laid out yet
            size = self._planned_size()
            if size is not None:
                self._fit(size)
                return len(self._entries)
        if not self._width:
            return 0
        count = len(log)
        if renumbered:
            self._rebuild()
            return len(self._entries)
        if 0 < count < self._count and self._cut(count, log):
            return 0
        last = self._last
        intact = (
            self._count > 0
            and count >= self._count
            and (log[self._count - 1] is last or log[self._count - 1] == last)
        )
        if not intact:
            if self._count > 0:
                self.rebuilds += 1
            self._rebuild()
            return len(self._entries)
        if count == self._count:
            return 0
        # more new entries than the window keeps (one line of 100 actions on
        # a horde logs 50,000): those it would trim at once are counted, not wrapped
        kept = max(self._count, count - WINDOW)
        wiped = kept > self._count
        if wiped:
            self._entries.clear()
            self._heights.clear()
            self._body.clear()
        for index in range(self._count, count):
            entry = log[index]
            combat: int | None = 0
            if opens_combat(log, index):  # its Round 1 is among these entries
                combat = self._combats = None if self._combats is None else self._combats + 1
            if index < kept:
                continue
            block = self._block(entry, combat)
            self._entries.append(entry)
            self._heights.append(len(block))
            self._body.extend(block)
        self._limit += count - kept
        self._count = count
        self._last = log[-1]
        if wiped or len(self._entries) > WINDOW_MAX:
            self._trim()
        self._sync()
        return count - kept

    def _trim(self) -> None:
        drop = len(self._entries) - WINDOW
        lines = sum(self._heights[:drop])
        del self._entries[:drop]
        del self._heights[:drop]
        del self._body[:lines]
        self._limit = len(self._entries)

    def _cut(self, count: int, log: Sequence[LogEntry]) -> bool:
        """Cut the lines of entries an undo removed (False: something else changed)."""
        removed = self._count - count
        if removed >= len(self._entries) or log[count - 1] != self._entries[-removed - 1]:
            return False
        if self._combats is not None:
            self._combats -= count_combats(self._entries[-removed:])
        del self._body[len(self._body) - sum(self._heights[-removed:]) :]
        del self._heights[-removed:]
        del self._entries[-removed:]
        self._limit = max(1, self._limit - removed)
        self._count = count
        self._last = log[-1]
        self._sync()
        return True

    def redraw(self) -> None:
        """After a theme change: the styles are in the strips."""
        if self._width:
            self._rebuild()
