"""The smallest usable terminal, and what the encounter screen shows below it.

Issue 9: any terminal size is safe.  The encounter screen has four layouts
by width (app.tcss) and, below :data:`MIN_WIDTH` × :data:`MIN_HEIGHT`, a
plain message instead of the panes: a GM who splits the terminal too small
is told how big to make it, and the fight comes back as it was when the
terminal grows again.

Why 40 × 12: at 40 columns the panes are stacked (the order on top, full
width: 38 cells hold the gutter, initiative, a 9-cell name, ``38/38`` and
AL whole), the combatant and log panes side by side under it at 20
columns each, wide enough for ``HP 38 / 38`` and a log line's first words.
Twelve rows leave the order its header and four combatants, the details
and the log two lines each, and the key footer.  Below either, a pane
would show a border and a fragment.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 40, 12

#: The encounter screen's width classes (Textual sets them on resize):
#: stacked panes from MIN_WIDTH, a narrower side column from 60, the usual
#: side column from 80, the wide layout from 120.
HORIZONTAL = [
    (0, "-tiny"),
    (MIN_WIDTH, "-stacked"),
    (60, "-slim"),
    (80, "-narrow"),
    (120, "-wide"),
]
VERTICAL = [(0, "-short"), (MIN_HEIGHT, "-tall")]

MESSAGE = f"make the terminal at least {MIN_WIDTH}×{MIN_HEIGHT}"


def too_small(size: Size) -> bool:
    """Whether a screen of *size* is below the smallest usable size."""
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def size_class(value: int, breakpoints: list[tuple[int, str]]) -> str:
    """The class Textual gives a screen *value* wide (or tall)."""
    return max((b for b in breakpoints if value >= b[0]), default=(0, ""))[1]


class TooSmall(Static):
    """The message shown instead of the panes (app.tcss shows it only on a
    ``-tiny`` or ``-short`` encounter screen)."""

    def __init__(self) -> None:
        super().__init__(MESSAGE, id="too-small", markup=False)
