"""The smallest usable terminal: below :data:`MIN_WIDTH` × :data:`MIN_HEIGHT`
(the least at which the stacked layout shows a row whole, two 20-column
panes and the footer) the encounter screen says how big to make it instead
of the panes."""

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
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def size_class(value: int, breakpoints: list[tuple[int, str]]) -> str:
    """The class Textual gives a screen *value* wide (or tall)."""
    return max((b for b in breakpoints if value >= b[0]), default=(0, ""))[1]


class TooSmall(Static):
    """Shown instead of the panes on a ``-tiny`` or ``-short`` encounter screen (app.tcss)."""

    def __init__(self) -> None:
        super().__init__(MESSAGE, id="too-small", markup=False)
