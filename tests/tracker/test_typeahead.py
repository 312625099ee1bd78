"""Keys typed faster than a dialog opens (issue 11, "key bursts"): a GM
who types ``d`` ``5`` Enter, or ``s`` then the totals, or ``:`` and a line,
in one burst gets what was typed in the place it was typed for — never a
lost digit, never a letter of the line taken as an encounter key.  The
burst is posted to the app in one go, as a terminal delivers it, with no
pause for the dialog to mount (Pilot)."""

from __future__ import annotations

from textual import events
from textual.pilot import Pilot

from tests.tracker.test_group_rows import horde
from tests.tracker.test_initiative_entry import initiatives, table
from tests.tracker.test_keys import hp, log_lines, make_app
from tracker.app import CombatTrackerApp
from tracker.screens.encounter import EncounterScreen


def burst(app: CombatTrackerApp, keys: list[str]) -> None:
    """*keys* arriving at once, as a terminal sends a fast typist's keys."""
    for key in keys:
        char = " " if key == "space" else key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


def typed(text: str) -> list[str]:
    return ["space" if ch == " " else ch for ch in text]


async def settle(pilot: Pilot[None]) -> None:
    for _ in range(4):
        await pilot.pause()


async def test_d_amount_enter_in_one_burst_applies_the_damage() -> None:
    app = make_app(horde())
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, ["d", "5", "enter"])
        await settle(pilot)
        assert isinstance(app.screen, EncounterScreen)
        assert hp(app, "Zalek") == 25
        assert "Zalek takes 5" in log_lines(app)


async def test_s_then_the_totals_in_one_burst_keeps_every_total() -> None:
    app = make_app(table())
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, ["s", "1", "7", "enter", "1", "2", "enter", "enter", "9", "enter"])
        await settle(pilot)
        assert isinstance(app.screen, EncounterScreen)
        inits = initiatives(app)
        assert (inits["Mira"], inits["Bram"], inits["Tess"]) == (17, 12, 9)


async def test_a_line_typed_right_after_colon_is_the_lines_not_keys() -> None:
    app = make_app(horde("damage Zalek 5"))
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, ["colon", *typed("heal Zalek 2"), "enter"])
        await settle(pilot)
        # the h of "heal" opened no heal prompt, the line was applied
        assert isinstance(app.screen, EncounterScreen)
        assert hp(app, "Zalek") == 27
