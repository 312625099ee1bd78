"""The movement preview (``m``) is rolled once and kept: cancelling and
reopening the dialog shows the same roll (no fishing for a better d20),
until the move is applied, ``ctrl+r`` re-rolls it, or an action changes
the fight.  Applying sends the face that was shown."""

from __future__ import annotations

from test_keys import fight, make_app, select
from textual.widgets import Static

from tracker.app import CombatTrackerApp
from tracker.screens.encounter import EncounterScreen
from tracker.screens.movement import MovementScreen


def message(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one("#move-message", Static).render())


def keys(app: CombatTrackerApp) -> str:
    return str(app.screen.query_one("#move-keys", Static).render())


def face_in(text: str) -> int:
    """The d20 face the check text shows (``… d20 12 …``)."""
    words = text.replace("(", " ").replace(")", " ").split()
    return int(words[words.index("d20") + 1]) if "d20" in words else -1


async def test_cancel_and_reopen_shows_the_same_roll() -> None:
    app = make_app(fight(seed=11))
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, app, "Zalek")
        await pilot.press("m", "s")
        assert isinstance(app.screen, MovementScreen)
        first = message(app)
        assert "ctrl+r: re-roll" in keys(app)
        assert "\n" in first and "\\x0a" not in first  # the check, then the question
        for _ in range(4):
            await pilot.press("escape")
            assert isinstance(app.screen, EncounterScreen)
            await pilot.press("m", "s")
            assert message(app) == first
        await pilot.press("escape", "m", "d")  # another movement is its own roll
        dash = message(app)
        await pilot.press("escape", "m", "s")
        assert message(app) == first
        await pilot.press("escape", "m", "d")
        assert message(app) == dash
        # nothing was spent or logged by looking
        assert app.live.session.encounter.combatants[0].endurance.points == 21
        assert not any("sprint" in e.text for e in app.live.session.log)


async def test_ctrl_r_re_rolls_and_the_new_roll_is_kept_and_applied() -> None:
    app = make_app(fight(seed=11))
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, app, "Zalek")
        await pilot.press("m", "s")
        first = message(app)
        shown = first
        for _ in range(10):  # a d20 repeats a face now and then: re-roll until it differs
            await pilot.press("ctrl+r")
            shown = message(app)
            if shown != first:
                break
        assert shown != first
        await pilot.press("escape", "m", "s")
        assert message(app) == shown  # the re-roll is what is kept
        face = face_in(shown)
        assert 1 <= face <= 20
        await pilot.press("y" if "spend" in shown and "?" in shown else "enter")
        assert isinstance(app.screen, EncounterScreen)
        logged = [e.text for e in app.live.session.log if "sprint" in e.text]
        assert len(logged) == 1 and face_in(logged[0]) == face


async def test_an_action_in_between_rolls_a_new_preview() -> None:
    app = make_app(fight(seed=11))
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, app, "Zalek")
        controller = app.screen.controller
        first = controller.preview_move("Zalek", "sprint", None)
        assert controller.preview_move("Zalek", "sprint", None) is first
        assert app.screen.controller.do("damage Ogre 1") is None
        again = controller.preview_move("Zalek", "sprint", None)
        assert again is not first
        assert controller.preview_move("Zalek", "sprint", None) is again
        # a face the GM typed is never kept in place of the program's roll
        assert controller.preview_move("Zalek", "sprint", 20).face == 20
        assert controller.preview_move("Zalek", "sprint", None) is again


async def test_a_dash_already_active_is_said_once_and_applies() -> None:
    # the start-of-combat Dash left it active: the dialog said "no check
    # needed" twice, once from the check and once again on its own line
    app = make_app(fight(seed=11, started=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, app, "Zalek")
        await pilot.press("m", "d")
        assert isinstance(app.screen, MovementScreen)
        text = message(app)
        assert "still active" in text and text.count("no check needed") == 1
        assert keys(app) == "Enter: apply · Esc: cancel"
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)
        assert "dash" in app.live.session.log[-1].text
