"""The log pane: the fight's event log, newest at the bottom, followed.

Only new entries are written after an action (:meth:`LogPane.show` checks
that the entries already on screen are still the head of the log).  The pane
is first written with just the entries that fill it (the tail the GM sees);
scrolling up to the top writes the last ``WINDOW`` entries, never the whole
10,000-entry log; older entries are in ``combat-tracker export NAME``.  An
undo that removed the last entries cuts their lines off the bottom (RichLog
keeps its lines in ``lines``); any other change rewrites the current window.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.widgets import RichLog

from rules.encounter import LogEntry
from tracker.breakdown import styled

#: Entries kept on screen when (re)building the pane.
WINDOW = 200


def entry_text(entry: LogEntry) -> Text:
    """``R3 Goblin 2 takes 7 fire…``: the round, then the text with the actor
    in bold (named first when the text does not start with it); kept dice
    (``**16**`` in the engine's breakdowns) in bold, without the asterisks."""
    text = Text()
    text.append(f"R{entry.round} " if entry.round else "–  ", "dim")
    body = entry.text
    if entry.actor and body.startswith(entry.actor):
        text.append(entry.actor, "bold")
        body = body[len(entry.actor) :]
    elif entry.actor:
        text.append(entry.actor + ":", "bold")
        body = " " + body
    text.append_text(styled(body))
    return text


class LogPane(RichLog):
    """Appends new log entries; rebuilds only when entries were removed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, wrap=True, markup=False, auto_scroll=True, min_width=16, max_lines=WINDOW * 4
        )
        self._count = 0
        self._last: LogEntry | None = None
        self._log: Sequence[LogEntry] = ()
        #: lines written per entry, and the entries, for the last WINDOW entries
        self._heights: list[int] = []
        self._entries: list[LogEntry] = []
        self._width = 0
        #: entries (re)written from the end of the log: the visible tail
        #: until the GM scrolls to the top, then WINDOW
        self._limit = 0
        self.rebuilds = 0

    def on_resize(self, event: Resize) -> None:
        """Write the window once the width is known; rewrap it when the width
        changes (RichLog keeps the wraps lines were written with)."""
        super().on_resize(event)  # RichLog: the size is known (first, or nothing is written)
        region = self.scrollable_content_region
        self._limit = max(self._limit, min(WINDOW, region.height + 1))
        if region.width and region.width != self._width:
            self._width = region.width
            self._rewrite()

    def _rewrite(self) -> None:
        self.clear()
        self._count = 0
        self._last = None
        self.show(self._log)
        if self.auto_scroll:  # at the bottom in this very frame, not the next
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled to the top of a tail: write the full window, keeping the
        view where it was."""
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 0 < old_value and self._limit < min(WINDOW, len(self._log)):
            self.call_after_refresh(self._grow)

    def _grow(self) -> None:
        if self._limit >= WINDOW:
            return
        lines = len(self.lines)
        self._limit = WINDOW
        self.auto_scroll = False
        try:
            self._rewrite()
        finally:
            self.auto_scroll = True
        self.scroll_to(y=max(0, len(self.lines) - lines), animate=False, immediate=True)

    def show(self, log: Sequence[LogEntry]) -> int:
        """Bring the pane in line with *log*; return how many entries were written.

        Entries appended since the last call are written; entries removed
        from the end (an undo) are cut off the bottom when their lines are
        known, else the last ``WINDOW`` entries are rewritten.
        """
        self._log = log
        if not self._size_known:
            return 0  # written by on_resize, at the right width
        count = len(log)
        if count == 0 and self._count == 0 and self.lines:
            return 0
        if 0 < count < self._count and self._cut(count, log):
            return 0
        last = self._last
        intact = (
            self._count > 0
            and count >= self._count
            and (log[self._count - 1] is last or log[self._count - 1] == last)
        )
        if intact:
            start = self._count
        else:
            if self._count > 0:
                self.rebuilds += 1
            self.clear()
            self._heights.clear()
            self._entries.clear()
            start = max(0, count - (self._limit or WINDOW))
            if start:
                more = "scroll up for more, " if self._limit < WINDOW else ""
                self.write(
                    Text(
                        f"… {start} earlier entries ({more}all: combat-tracker export)",
                        "dim italic",
                    )
                )
            elif count == 0:
                self.write(Text("The log is empty: actions and rolls appear here.", "dim italic"))
        for entry in log[start:]:
            before = len(self.lines)
            self.write(entry_text(entry))
            self._heights.append(len(self.lines) - before if self._size_known else 0)
            self._entries.append(entry)
        del self._heights[: max(0, len(self._heights) - WINDOW)]
        del self._entries[: max(0, len(self._entries) - WINDOW)]
        self._count = count
        self._last = log[-1] if count else None
        return count - start

    def _cut(self, count: int, log: Sequence[LogEntry]) -> bool:
        """Remove the last ``self._count - count`` entries' lines, if known and
        the entries before them are unchanged (an undo); False: rebuild."""
        removed = self._count - count
        if removed >= len(self._entries) or log[count - 1] != self._entries[-removed - 1]:
            return False
        heights = self._heights[-removed:]
        if not all(heights) or sum(heights) > len(self.lines):
            return False
        del self.lines[len(self.lines) - sum(heights) :]
        del self._heights[-removed:]
        del self._entries[-removed:]
        self._line_cache.clear()
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.refresh()
        self._count = count
        self._last = log[-1]
        return True
