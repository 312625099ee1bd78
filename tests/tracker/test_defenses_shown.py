"""A resistance is shown as the encounter's ruleset applies it: under
``core`` (``resistance = halve``) ``resist fire=3`` reads "fire (halved)",
the 3 playing no part; under ``forge`` (``subtract``) it reads "fire −3".
The combatant pane and ``show`` word it alike."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_keys import make_app, select
from textual.geometry import Region

from rules.damage import Defenses
from rules.encounter import Encounter
from rules.engine import Session
from rules.rulesets import ruleset
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.cli import main
from tracker.defenses import defenses_text
from tracker.widgets.combatant import CombatantPane


def pane_text(app: CombatTrackerApp) -> str:
    """The pane's text inside its border, wrapped lines joined by spaces."""
    pane = app.screen.query_one(CombatantPane)
    region = Region(0, 0, *pane.outer_size)
    inner = (strip.text.strip("│╭╮╰╯─ ") for strip in pane.render_lines(region))
    return " ".join(line for line in inner if line)


def defended(rules: str) -> LiveEncounter:
    session = Session(Encounter("Crypt", ruleset=ruleset(rules)), rng=random.Random(1))
    session.apply(
        "add Wight hp 30 al 14 immune poison resist fire=3,cold=5 weak radiant susceptible silver"
    )
    return LiveEncounter.in_memory(session)


@pytest.mark.parametrize(
    ("rules", "resist"),
    [("core", "resist cold (halved), fire (halved)"), ("forge", "resist cold −5, fire −3")],
)
async def test_the_pane_words_a_resistance_as_the_ruleset_applies_it(rules, resist) -> None:
    live = defended(rules)
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await select(pilot, app, "Wight")
        text = pane_text(app)
        assert resist in text
        assert "immune poison" in text
        assert "weak ×2 radiant" in text and "susceptible ×1.5 silver" in text
        if rules == "core":
            assert "fire 3" not in text and "fire −3" not in text
        # the engine applies what the pane says: 10 fire halves under core, −3 under forge
        live.do("damage Wight 10 fire")
        assert live.encounter.combatants[0].hp == (25 if rules == "core" else 23)


def test_defenses_text_is_empty_without_defenses() -> None:
    assert defenses_text(Defenses(), ruleset("core")) == ""


def test_show_words_the_resistance_as_the_ruleset_applies_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "e.json")
    for name, rules in (("Core crypt", "core"), ("Forge crypt", "forge")):
        assert main(["--db", db, "new", name, "--ruleset", rules]) == 0
        assert main(["--db", db, "do", name, "add Wight hp 30 resist fire=3"]) == 0
        assert main(["--db", db, "do", name, "add Zombie hp 10"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "show", "Core crypt"]) == 0
    out = capsys.readouterr().out
    assert "defenses" in out and "resist fire (halved)" in out and "fire 3" not in out
    assert main(["--db", db, "show", "Forge crypt"]) == 0
    assert "resist fire −3" in capsys.readouterr().out


def test_show_has_no_defenses_column_when_nobody_has_any(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "e.json")
    assert main(["--db", db, "new", "Plain"]) == 0
    assert main(["--db", db, "do", "Plain", "add Goblin hp 7"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "show", "Plain"]) == 0
    assert "defenses" not in capsys.readouterr().out
