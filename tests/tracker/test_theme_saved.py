"""A theme picked in the command palette is saved to the config file
(atomically, every other line kept) and used at the next start; a config
file that cannot be written is one notice, and the theme still applies."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from test_keys import fight, type_text

from tracker.app import CombatTrackerApp
from tracker.bindings import key_ids
from tracker.config import load_config, save_setting

USER_FILE = """\
# my keys
[keys]
"encounter.next_turn" = "n,enter"   # enter too

[settings]
physical_rolls = true   # I roll real dice
"""


def notices(app: CombatTrackerApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def pick_theme(app: CombatTrackerApp, pilot, name: str) -> None:
    """What the palette's "Theme" command does: search the themes, pick one."""
    app.search_themes()
    await pilot.pause()
    await type_text(pilot, name)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()


async def test_a_picked_theme_is_saved_and_used_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(USER_FILE, encoding="utf-8")
    config = load_config(path, key_ids())
    app = CombatTrackerApp(live=fight(), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "textual-dark"
        await pick_theme(app, pilot, "textual-light")
        assert app.theme == "textual-light"
    text = path.read_text(encoding="utf-8")
    # every line the GM wrote, comments too, and the theme at the table's end
    assert text == USER_FILE + 'theme = "textual-light"\n'
    again = load_config(path, key_ids())
    assert again.problems == [] and again.theme == "textual-light"
    assert again.physical_rolls is True and again.keymap == {"encounter.next_turn": "n,enter"}
    app = CombatTrackerApp(live=fight(), config=again)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "textual-light"
        await pick_theme(app, pilot, "nord")
        assert app.theme == "nord"
    assert load_config(path, key_ids()).theme == "nord"
    assert path.read_text(encoding="utf-8").count("theme =") == 1  # replaced, not added


async def test_a_config_file_that_cannot_be_written_is_one_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from saves import fsutil

    def full_disk(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    path = tmp_path / "config.toml"
    path.write_text(USER_FILE, encoding="utf-8")
    monkeypatch.setattr(fsutil, "atomic_write", full_disk)
    app = CombatTrackerApp(live=fight(), config=load_config(path, key_ids()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pick_theme(app, pilot, "textual-light")
        await pick_theme(app, pilot, "nord")
        assert app.theme == "nord"  # applies now all the same
        told = [n for n in notices(app) if "cannot save the theme" in n]
        assert len(told) == 1
        assert str(path) in told[0] and "No space left on device" in told[0]
    assert path.read_text(encoding="utf-8") == USER_FILE


def test_save_setting_adds_a_settings_table_or_the_key(tmp_path: Path) -> None:
    path = tmp_path / "new" / "config.toml"
    assert save_setting(path, "theme", "nord") is None  # no file yet: made
    assert tomllib.loads(path.read_text()) == {"settings": {"theme": "nord"}}
    keys_only = tmp_path / "keys.toml"
    keys_only.write_text('[keys]\n"app.quit" = "Q"')  # no final newline
    assert save_setting(keys_only, "theme", "nord") is None
    assert tomllib.loads(keys_only.read_text()) == {
        "keys": {"app.quit": "Q"},
        "settings": {"theme": "nord"},
    }
    both = tmp_path / "both.toml"
    both.write_text('[settings]\nphysical_rolls = false\n\n[keys]\n"app.quit" = "Q"\n')
    assert save_setting(both, "theme", "nord") is None
    assert tomllib.loads(both.read_text())["settings"] == {
        "physical_rolls": False,
        "theme": "nord",
    }


def test_save_setting_follows_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "config.toml"
    real.parent.mkdir()
    real.write_text(USER_FILE)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    assert save_setting(link, "theme", "nord") is None
    assert link.is_symlink()
    assert tomllib.loads(real.read_text())["settings"]["theme"] == "nord"


@pytest.mark.parametrize(
    "content",
    [
        "[keys\n",  # not TOML: the GM's text is never replaced
        'settings = { theme = "nord" }\n',  # a layout the edit does not understand
        b"\xff\xfe not utf-8",
    ],
)
def test_save_setting_refuses_a_file_it_cannot_edit_safely(tmp_path: Path, content) -> None:
    path = tmp_path / "config.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    before = path.read_bytes()
    problem = save_setting(path, "theme", "textual-light")
    assert problem is not None and "\n" not in problem and str(path) in problem
    assert path.read_bytes() == before
