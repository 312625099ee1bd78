"""The keys for downed foes and the end of combat, and the engine's new
refusals and warnings as the GM sees them in the app (Pilot; each test
asserts the engine state and what the panes show).  RULES.md §4, §5, §7."""

from __future__ import annotations

import random
import shlex

from textual.widgets import Input, Static

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tests.tracker.test_keys import fight, log_lines, make_app, names, row_text, select, type_text
from tracker.screens.help import HelpScreen
from tracker.screens.prompt import ConfirmScreen


def title(app: object) -> str:
    return str(app.screen.query_one("#initiative").border_title)  # type: ignore[attr-defined]


async def test_shift_e_asks_then_ends_combat_and_s_starts_a_new_one() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.press("E")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # a destructive question: Enter says no
        assert app.live.session.encounter.started
        await pilot.press("E", "y")
        enc = app.live.session.encounter
        assert not enc.started and enc.turn is None
        assert all(c.initiative is None for c in enc.combatants)
        assert "Combat over after round 1" in title(app)
        assert "Combat ends after 1 round" in log_lines(app)
        assert "▶" not in " ".join(row_text(app, i) for i in range(len(names(app))))
        await pilot.press("s", "enter")  # Zalek's row left blank: rolled
        assert app.live.session.encounter.started
        assert "Round 1" in title(app)


async def test_shift_e_before_the_fight_says_there_is_nothing_to_end() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("E")
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.screen.unavailable("end_combat") == "the fight has not started: nothing to end"  # type: ignore[attr-defined]


async def test_ctrl_z_after_end_resumes_the_fight() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        active = app.live.session.encounter.active.name
        await pilot.press("E", "y", "ctrl+z")
        enc = app.live.session.encounter
        assert enc.started and enc.active.name == active
        assert f"{active}'s turn" in title(app)


async def test_ctrl_d_removes_every_defeated_monster_at_once() -> None:
    live = fight(started=True)
    live.do("damage 'Goblin 1,Goblin 3,Zalek' 40")  # Zalek, a player, stays
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+d")
        question = app.screen.query_one(".dialog-title")
        shown = str(question.render())
        assert (
            shown.startswith("Remove 2 defeated:") and "Goblin 1" in shown and "Goblin 3" in shown
        )
        await pilot.press("y")
        assert sorted(names(app)) == ["Goblin 2", "Ogre", "Zalek"]
        assert "Goblin 1 is removed" in log_lines(app)
        await pilot.press("ctrl+z")  # one step, one undo
        assert len(names(app)) == 5


async def test_ctrl_d_with_nobody_down_changes_nothing_and_says_why() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+d")
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(names(app)) == 5
        assert app.screen.unavailable("remove_defeated") == (  # type: ignore[attr-defined]
            "no monster is down (players at 0 HP stay)"
        )


async def test_the_add_form_shows_how_to_add_another_of_a_name() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Ogre")
        app.screen.query_one("#field-hp", Input).value = "30"
        await pilot.press("enter")
        message = str(app.screen.query_one("#form-message", Static).render())
        assert "Ogre is already in the fight" in message and "count 1" in message
        assert len(names(app)) == 5
        app.screen.query_one("#field-count", Input).value = "1"
        await pilot.press("enter")
        assert "Ogre 2" in names(app)


async def test_a_heal_at_full_hp_is_refused_in_the_prompt() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, app, "Ogre")
        steps = app.live.session.seq
        await pilot.press("h")
        await type_text(pilot, "5")
        await pilot.press("enter")
        shown = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "Ogre (59/59) is at full HP; nothing to heal" in shown
        assert app.live.session.seq == steps


async def test_an_initiative_change_that_skips_a_turn_is_warned_in_the_log() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        active = app.live.session.encounter.active.name
        await select(pilot, app, "Ogre")
        await pilot.press("i")
        await type_text(pilot, "30")
        await pilot.press("enter")
        assert names(app)[0] == "Ogre"
        shown = " ".join(log_lines(app).split())  # the pane wraps long lines
        assert f"Ogre now acts before {active}, whose turn it is: Ogre gets no turn" in shown


async def test_the_new_keys_are_in_the_help_screen() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.table
        keys = [str(cell) for cell in table.columns[0].cells]
        does = [str(cell) for cell in table.columns[1].cells]
        ids = [str(cell) for cell in table.columns[2].cells]
        end = ids.index("encounter.end")
        assert keys[end] == "E" and does[end].startswith("encounter: end combat")
        clear = ids.index("combatant.remove_defeated")
        assert keys[clear] == "ctrl+d" and "every defeated monster" in does[clear]


async def test_ctrl_c_says_in_plain_words_which_key_quits(monkeypatch) -> None:
    # Every toast is plain text (names are never markup), so Textual's own
    # ctrl+c hint read "Press [b]q[/b] to quit the app", brackets and all.
    from textual.app import App

    shown: list[str] = []
    real = App.notify

    def spy(self: App, message: str, **kwargs: object) -> None:
        shown.append(f"{kwargs.get('title', '')}: {message}")
        real(self, message, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(App, "notify", spy)
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running
    assert shown == ["Do you want to quit?: Press q to quit the app (everything is already saved)"]


def crypt_after_the_fireball(names_: list[str] | None = None) -> LiveEncounter:
    """Twelve zombies rolled one by one (spread over the order), two goblins
    and an ogre (or *names_*), all down; Mira, a player, stands."""
    session = Session(Encounter("Crypt"), rng=random.Random(11))
    session.apply("add Mira hp 30 al 15 player init 12")
    if names_ is None:
        session.apply("add Zombie count 12 hp 10 al 8")
        session.apply("add Goblin count 2 hp 7 al 13")
        session.apply("add Ogre hp 30 al 11")
    else:
        for name in names_:
            session.apply(f"add {shlex.quote(name)} hp 10 al 8")
    session.apply("start")
    session.apply("damage monsters 99")
    return LiveEncounter.in_memory(session)


def dialog_fits(app: object, width: int, height: int) -> None:
    """The question's dialog, its keys row included, is on the screen."""
    screen = app.screen  # type: ignore[attr-defined]
    keys = screen.query_one("#confirm-keys", Static)
    dialog = screen.query_one(".dialog")
    assert keys.region.height >= 1 and keys.region.bottom <= height
    assert dialog.region.y >= 0 and dialog.region.bottom <= height
    assert dialog.region.right <= width


async def test_ctrl_d_on_a_horde_names_it_in_runs_on_one_screen() -> None:
    app = make_app(crypt_after_the_fireball())
    async with app.run_test(size=(60, 20)) as pilot:
        zombies = [n for n in names(app) if n.startswith("Zombie")]
        assert zombies != sorted(zombies)  # spread over the order
        await pilot.press("ctrl+d")
        assert isinstance(app.screen, ConfirmScreen)
        shown = str(app.screen.query_one(".dialog-title").render())
        assert shown == "Remove 15 defeated: Goblin 1, Goblin 2, Ogre, Zombie 1–12?"
        dialog_fits(app, 60, 20)
        await pilot.press("y")
        assert names(app) == ["Mira"]


async def test_ctrl_d_on_many_long_names_stays_one_screen_at_60x20() -> None:
    long = [
        f"{word} " + "of the Sunken Crypt Risen Again and Again " + "x" * 20
        for word in (
            "Warden",
            "Keeper",
            "Herald",
            "Shade",
            "Wight",
            "Ghoul",
            "Lich",
            "Wraith",
            "Ghast",
        )
    ]
    long = [n[:60] for n in long]
    app = make_app(crypt_after_the_fireball(long))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("ctrl+d")
        assert isinstance(app.screen, ConfirmScreen)
        shown = str(app.screen.query_one(".dialog-title").render())
        assert shown.startswith("Remove 9 defeated: Ghast of the Sunken Crypt")
        assert shown.endswith("(9 in all)?")
        dialog_fits(app, 60, 20)
        await pilot.press("enter")  # no
        assert len(names(app)) == 10
