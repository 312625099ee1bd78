"""Down rows stay readable in every built-in theme (issue 11): the downed
style's text, as drawn, against the row's background, has a contrast ratio
of at least 3:1 (WCAG's formula), on a plain row, a marked one and on the
active band (a down player keeps the turn).  Themes in the terminal's own ANSI colours are
the terminal's; there the style only has to be free of ``dim``."""

from __future__ import annotations

import random

from rich.color import Color
from rich.segment import Segment
from textual.filter import DIM_FACTOR, dim_color

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.widgets.initiative import InitiativePane

MINIMUM = 3.0


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula() -> None:
    black, white = Color.parse("#000000"), Color.parse("#ffffff")
    assert round(contrast(black, white), 1) == 21.0
    assert contrast(white, white) == 1.0


def name_segment(pane: InitiativePane, row: int, name: str) -> Segment:
    strip = pane.render_line(row + 1 - int(pane.scroll_offset.y))
    return next(seg for seg in strip if name in seg.text)


def drawn_contrast(segment: Segment) -> float | None:
    """The segment's text against its background as the terminal shows it
    (dim blended in as Textual's dim filter does); None in ANSI colours."""
    style = segment.style
    assert style is not None
    fg, bg = style.color, style.bgcolor
    if fg is None or bg is None or fg.is_default or bg.is_default or fg.triplet is None:
        return None
    if style.dim:
        fg = dim_color(bg, fg, DIM_FACTOR)
    return contrast(fg, bg)


async def test_down_rows_are_readable_in_every_built_in_theme() -> None:
    session = Session(Encounter("Crypt"), rng=random.Random(1))
    for line in (
        "add Zalek hp 30 player init 19",
        "add Goblin count 3 hp 7 init 12",
        "start",
        "damage 'Goblin 2' 20",
        "damage Zalek 40",  # down, and still its turn
        "damage 'Goblin 3' 20",  # down and marked
    ):
        session.apply(line)
    live = LiveEncounter.in_memory(session)
    live.set_ui_state(selected="Goblin 1", marked=["Goblin 3"])
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(InitiativePane)
        names = [c.name for c in app.live.session.encounter.combatants]
        assert pane.cursor_row == names.index("Goblin 1")  # off the rows measured
        checked = []
        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            down = name_segment(pane, names.index("Goblin 2"), "Goblin 2")
            standing = name_segment(pane, names.index("Goblin 1"), "Goblin 1")
            active_down = name_segment(pane, names.index("Zalek"), "Zalek")
            marked_down = name_segment(pane, names.index("Goblin 3"), "Goblin 3")
            for segment in (down, active_down, marked_down):
                assert segment.style is not None and not segment.style.dim, theme
                ratio = drawn_contrast(segment)
                if ratio is not None:
                    assert ratio >= MINIMUM, (theme, segment.text, round(ratio, 2))
                    checked.append(theme)
            # still told apart from a standing combatant (italic in ANSI themes)
            assert down.style is not None and standing.style is not None
            assert down.style.italic and not standing.style.italic, theme
            assert active_down.style is not None and active_down.style.italic, theme
        assert {"textual-light", "textual-dark", "solarized-light"} <= set(checked)
