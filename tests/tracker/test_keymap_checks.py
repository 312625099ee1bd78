"""A keymap that binds one key to two actions of a screen, leaving one of
them without a key of its own, is reported once at start, naming the key
and the actions; a keymap that leaves every action a key says nothing."""

from __future__ import annotations

from pathlib import Path

from test_keys import fight
from textual.widgets import Static

from tracker.app import CombatTrackerApp
from tracker.bindings import key_tables
from tracker.config import Config, keymap_problems, load_config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.prompt import NoticeScreen


def notices_shown(app: CombatTrackerApp) -> list[str]:
    assert isinstance(app.screen, NoticeScreen)
    return [str(s.render()) for s in app.screen.query(".notice").results(Static)]


async def test_a_key_bound_to_two_actions_is_one_notice_at_start(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"combatant.damage" = "h"\n', encoding="utf-8")
    app = CombatTrackerApp(live=fight(), config=load_config(path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = notices_shown(app)
        assert len(shown) == 1
        assert "'h' is bound to combatant.damage and combatant.heal" in shown[0]
        assert "no other key" in shown[0]
        await pilot.press("enter")
        assert isinstance(app.screen, EncounterScreen)  # no notice dialog over it


async def test_a_keymap_that_keeps_every_action_a_key_is_silent() -> None:
    keymap = {"combatant.damage": "D", "combatant.heal": "H"}
    app = CombatTrackerApp(live=fight(started=True), config=Config(keymap=keymap))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)  # no notice dialog over it


def test_each_screen_is_checked_on_its_own() -> None:
    # "j" is the picker's down too, on another screen: only select.down clashes
    problems = keymap_problems(key_tables(), {"encounter.next_turn": "j"})
    assert problems == [
        "keymap: 'j' is bound to encounter.next_turn and select.down, only one of them "
        "works; encounter.next_turn and select.down have no other key (rebind one under [keys])"
    ]
    assert keymap_problems(key_tables(), {"picker.new": "N"}) == []
    assert keymap_problems(key_tables(), {}) == []


def test_an_action_keeping_a_second_key_is_not_keyless() -> None:
    problems = keymap_problems(key_tables(), {"encounter.next_turn": "n,d"})
    assert len(problems) == 1
    assert "combatant.damage has no other key" in problems[0]
    assert "encounter.next_turn has" not in problems[0]
