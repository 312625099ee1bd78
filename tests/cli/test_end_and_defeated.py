"""``end`` and ``remove defeated`` scripted with ``combat-tracker do``: saved,
undoable across processes, and an ended fight still shows, exports and
resumes (RULES.md §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str]:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, _ = capsys.readouterr()
    return status, out


def state(capsys: pytest.CaptureFixture[str], db: Path) -> dict:
    status, out = run(capsys, db, "show", "Crypt", "--json")
    assert status == 0
    return json.loads(out)


def test_end_and_remove_defeated_through_do(capsys, db, tmp_path) -> None:
    run(capsys, db, "new", "Crypt")
    run(capsys, db, "do", "Crypt", "add Mira player hp 30 init 18\nadd Zombie count 3 hp 8 init 5")
    run(capsys, db, "do", "Crypt", "start\ndamage 'Zombie 1,Zombie 3' 8\nnext\nnext")
    status, out = run(capsys, db, "do", "Crypt", "remove defeated")
    assert status == 0 and out.startswith("ok ")
    assert [c["name"] for c in state(capsys, db)["combatants"]] == ["Mira", "Zombie 2"]
    status, out = run(capsys, db, "do", "Crypt", "remove defeated")
    assert status == 1 and out.strip() == "error: remove defeated: no monster is down (at 0 HP)"
    status, out = run(capsys, db, "do", "Crypt", "end")
    assert status == 0
    ended = state(capsys, db)
    assert not ended["started"] and ended["round"] == 2 and ended["active"] is None
    status, out = run(capsys, db, "show", "Crypt")
    assert "Crypt — combat over after round 2" in out
    status, out = run(capsys, db, "list")
    assert status == 0 and "ended, round 2" in out
    report = tmp_path / "report.md"
    assert run(capsys, db, "export", "Crypt", "-o", str(report))[0] == 0
    text = report.read_text()
    assert "ended after 2 rounds" in text and "Combat ends after 2 rounds" in text
    run(capsys, db, "do", "Crypt", "undo")  # in a new process: the fight goes on
    resumed = state(capsys, db)
    assert resumed["started"] and resumed["round"] == 2


def test_the_players_view_is_scripted_through_do_and_shown_in_json(capsys, db) -> None:
    run(capsys, db, "new", "Crypt")
    run(capsys, db, "do", "Crypt", "add Mira player hp 30 init 18\nadd Spy hp 8 hidden")
    status, out = run(capsys, db, "do", "Crypt", "view monster_hp exact\nmask Spy")
    assert status == 0 and out.count("ok ") == 2
    shown = state(capsys, db)
    assert shown["view"]["monster_hp"] == "exact"
    assert [c["visibility"] for c in shown["combatants"]] == ["visible", "masked"]
    status, out = run(capsys, db, "do", "Crypt", "hide Mira")
    assert status == 1 and "always visible to the players" in out
    run(capsys, db, "do", "Crypt", "undo")  # undone in another process
    assert state(capsys, db)["combatants"][1]["visibility"] == "hidden"
