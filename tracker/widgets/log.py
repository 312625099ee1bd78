"""The log pane: the fight's event log, newest at the bottom, followed.

Only new entries are written after an action (:meth:`LogPane.show` checks
that the entries already on screen are still the head of the log).  When an
undo removed entries, the pane is rebuilt from the last ``WINDOW`` entries
only, never the whole 10,000-entry log; older entries are a scroll away in
``combat-tracker export NAME``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import RichLog

from rules.encounter import LogEntry

#: Entries kept on screen when (re)building the pane.
WINDOW = 300


def entry_text(entry: LogEntry) -> Text:
    """``R3 Goblin 2 takes 7 fire…``: the round, then the text with the actor
    in bold (named first when the text does not start with it)."""
    text = Text()
    text.append(f"R{entry.round} " if entry.round else "–  ", "dim")
    body = entry.text
    if entry.actor and body.startswith(entry.actor):
        text.append(entry.actor, "bold")
        body = body[len(entry.actor) :]
    elif entry.actor:
        text.append(entry.actor + ":", "bold")
        body = " " + body
    text.append(body)
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
        self._width = 0
        self.rebuilds = 0

    def on_resize(self) -> None:
        """Rewrap the window at the new width (RichLog keeps old wraps)."""
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self.clear()
            self._count = 0
            self._last = None
            self.show(self._log)

    def show(self, log: Sequence[LogEntry]) -> int:
        """Bring the pane in line with *log*; return how many entries were written."""
        self._log = log
        count = len(log)
        if count == 0 and self._count == 0 and self.lines:
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
            start = max(0, count - WINDOW)
            if start:
                self.write(Text(f"… {start} earlier entries: combat-tracker export", "dim italic"))
            elif count == 0:
                self.write(Text("The log is empty: actions and rolls appear here.", "dim italic"))
        for entry in log[start:]:
            self.write(entry_text(entry))
        self._count = count
        self._last = log[-1] if count else None
        return count - start
