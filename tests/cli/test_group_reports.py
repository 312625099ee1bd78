"""Groups in the reports (issue 11): ``show --json`` gives each combatant's
group, ``show`` adds a group column and ``export`` a Group column in a fight
with groups (and neither in one without), and a group's name is plain text
on every path — made visible, Markdown-escaped in the report."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_hostile import assert_safe, table_rows
from tracker.cli import main


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, err = capsys.readouterr()
    return status, out, err


def grouped_fight(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    run(capsys, db, "new", "Crypt")
    lines = "add Zalek hp 30 player init 12\nadd Zombie count 3 hp 20 group\nadd Ogre hp 50"
    status, _, err = run(capsys, db, "do", "Crypt", lines + "\nstart\ndamage Zombie 4")
    assert status == 0, err


def test_show_json_gives_each_combatants_group(capsys, db) -> None:
    grouped_fight(capsys, db)
    status, out, _ = run(capsys, db, "show", "Crypt", "--json")
    assert status == 0
    groups = {c["name"]: c["group"] for c in json.loads(out)["combatants"]}
    assert groups == {
        "Zalek": None,
        "Zombie 1": "Zombie",
        "Zombie 2": "Zombie",
        "Zombie 3": "Zombie",
        "Ogre": None,
    }
    status, out, _ = run(capsys, db, "export", "Crypt", "--format", "json")
    assert json.loads(out)["combatants"][1]["group"] == "Zombie"


def test_show_table_has_a_group_column_only_with_groups(capsys, db, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    grouped_fight(capsys, db)
    _, out, _ = run(capsys, db, "show", "Crypt")
    header = next(line for line in out.splitlines() if "init" in line)
    assert header.split()[:3] == ["init", "name", "group"]
    zombie = next(line for line in out.splitlines() if "Zombie 2" in line)
    assert zombie.split()[2:4] == ["2", "Zombie"]  # name, then its group
    run(capsys, db, "do", "Crypt", "ungroup Zombie")
    _, out, _ = run(capsys, db, "show", "Crypt")
    assert "group" not in next(line for line in out.splitlines() if "init" in line)


def test_export_has_a_group_column_only_with_groups(capsys, db) -> None:
    grouped_fight(capsys, db)
    _, report, _ = run(capsys, db, "export", "Crypt")
    rows = table_rows(report)
    assert rows[0][:3] == ["Combatant", "Group", "HP"]
    by_name = {row[0]: row[1] for row in rows[1:]}
    assert by_name["Zombie 1"] == "Zombie" and by_name["Ogre"] == "—"
    run(capsys, db, "do", "Crypt", "ungroup Zombie")
    _, report, _ = run(capsys, db, "export", "Crypt")
    assert "Group" not in table_rows(report)[0]


def plant_group(db: Path, group: str) -> None:
    """A fight whose group is named *group* as a hand-edited file could
    hold it (past the input checks), through the saves API."""
    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.store import Store

    session = Session(Encounter("Fight"), rng=random.Random(3))
    for line in ("add Ogre hp 20 init 9", "add Imp count 2 hp 5", "group Zq0x Imp*", "start"):
        session.apply(line)

    def swapped(obj: Any) -> Any:
        return json.loads(json.dumps(obj).replace("Zq0x", json.dumps(group)[1:-1]))

    origin = {"encounter": Encounter("Fight").to_dict()}
    steps = [swapped({"step": step.to_dict()}) for step in session.undo_stack]
    snapshot = {"session": swapped(session.to_dict()), "ui": {}}
    with Store(db) as store:
        store.create("Fight", origin, snapshot, {"round": 1}, records=steps)


@pytest.mark.parametrize(
    ("group", "shown"),
    [
        ("*Horde*|x", "*Horde*|x"),
        ("[bold]Horde[/bold]", "[bold]Horde[/bold]"),
        ("Horde\x1b[2J", "Horde\\x1b[2J"),
        ("<b>Horde</b>", "<b>Horde</b>"),
    ],
)
def test_a_group_name_is_plain_text_in_show_and_export(
    capsys, db, monkeypatch, group, shown
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    plant_group(db, group)
    status, out, err = run(capsys, db, "show", "Fight")
    assert status == 0, err
    assert shown in out
    status, report, err = run(capsys, db, "export", "Fight")
    assert status == 0, err
    rows = table_rows(report)
    assert [row[1] for row in rows[1:] if row[0].startswith("Imp")] == [shown, shown]
    assert "<b>" not in report
    status, data, _ = run(capsys, db, "show", "Fight", "--json")
    assert data.isascii() and json.loads(data)["combatants"][1]["group"] == group
    assert_safe(out, report, data)


def test_a_horde_delaying_is_one_line_of_the_report(capsys, db) -> None:
    run(capsys, db, "new", "Crypt")
    lines = "add Zalek hp 30 player init 12\nadd Zombie count 12 hp 20 group\nstart"
    status, _, err = run(capsys, db, "do", "Crypt", lines + "\ndelay Zombie\nreturn Zombie")
    assert status == 0, err
    _, report, _ = run(capsys, db, "export", "Crypt")
    # (the add's line and the start's Dash and initiative lines name the
    # horde as one run too)
    items = [
        line
        for line in report.splitlines()
        if "Zombie 1–12" in line
        and not any(other in line for other in ("Dash", "initiative:", "join"))
    ]
    assert len(items) == 2 and items[0].startswith("- **group Zombie**: Zombie 1–12 delay")
    assert "Zombie 7 delays" not in report and "Zombie 7 returns" not in report
