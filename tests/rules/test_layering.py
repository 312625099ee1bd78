"""The design card's layering, enforced: ``rules`` ← ``saves`` ← ``tracker``.

Each core module is imported in a fresh interpreter and the test asserts that
no UI or database library landed in ``sys.modules`` (harlequin's trick).
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _modules(package: str) -> list[str]:
    path = ROOT / package
    return [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]


def _modules_after(statement: str) -> set[str]:
    """Every module a fresh interpreter holds after running *statement*."""
    code = f"import importlib, json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout))


def _loaded_after(statement: str) -> set[str]:
    """The top-level packages loaded after *statement*."""
    return {m.split(".")[0] for m in _modules_after(statement)}


def _loaded_after_import(module: str) -> set[str]:
    return _loaded_after(f"importlib.import_module({module!r})")


@pytest.mark.parametrize("module", ["rules", *_modules("rules")])
def test_rules_core_is_pure(module: str) -> None:
    loaded = _loaded_after_import(module)
    assert not loaded & {"textual", "rich", "tinydb", "saves", "tracker"}, module


@pytest.mark.parametrize("module", ["saves", *_modules("saves")])
def test_saves_never_import_the_ui(module: str) -> None:
    loaded = _loaded_after_import(module)
    assert not loaded & {"textual", "tracker"}, module


def test_roll_command_does_not_pay_for_textual() -> None:
    # `combat-tracker roll` should start fast: building the CLI (which
    # registers every subcommand) must not import Textual.
    loaded = _loaded_after("from tracker.cli import build_parser; build_parser()")
    assert "textual" not in loaded


def test_resuming_a_saved_fight_loads_no_action_machinery(tmp_path: Path) -> None:
    # issue 4, "Starts fast" (import only what the first screen needs):
    # opening a saved fight and reading what the first screen shows needs the
    # state records, not the action parser, the verbs, the dice or the
    # engine's working copy; those load with the GM's first action.
    import random

    from saves.live import LiveEncounter, open_store

    db = tmp_path / "encounters.json"
    store = open_store(db)
    try:
        live = LiveEncounter.create(
            store, "Bridge", rng=random.Random(4), actions=["add Goblin count 3 hp 7 al 13"]
        )
        live.do("add Zalek hp 30 al 15")
        live.do("start")
        live.close()
    finally:
        store.close()
    loaded = _modules_after(
        "from saves.live import LiveEncounter, open_store\n"
        f"store = open_store({str(db)!r})\n"
        "live = LiveEncounter.open(store, 'Bridge')\n"
        "shown = [c.name for c in live.session.encounter.combatants], live.session.log[-20:]\n"
        "store.close()"
    )
    unused = {
        "rules.engine.grammar",
        "rules.engine.parse",
        "rules.engine.format",
        "rules.engine.verbs",
        "rules.engine.verbs_roster",
        "rules.engine.verbs_delay",
        "rules.engine.verbs_edits",
        "rules.engine.verbs_effects",
        "rules.engine.verbs_combat",
        "rules.engine.turns",
        "rules.engine.work",
        "rules.engine.patch",
    }
    assert not loaded & (unused | {"rules.dice", "rules.checks"})
    assert {"rules.engine", "rules.engine.session"} <= loaded  # it did open the fight


def test_the_app_loads_no_dice_parser_nor_line_reader_before_an_action() -> None:
    # the bounds of what an action rolls (rules.limits) need the dice
    # parser; the app's module loads the working copy, so those wait for
    # the first action rather than slow every start
    loaded = _modules_after("import tracker.app")
    readers = {"rules.engine.shell", "rules.engine.fuse", "rules.engine.parse", "shlex"}
    assert not loaded & ({"rules.dice", "rules.limits"} | readers)
    assert "tracker.app" in loaded
