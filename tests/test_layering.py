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

ROOT = Path(__file__).resolve().parents[1]


def _modules(package: str) -> list[str]:
    path = ROOT / package
    return [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]


def _loaded_after(statement: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"{statement}\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout))


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
