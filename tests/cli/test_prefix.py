"""``show``, ``export`` and ``delete`` take a unique prefix of the
encounter's name, as ``open`` does; an ambiguous prefix is one message
listing the candidates and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def fights(capsys, db) -> Path:
    for name in ("Bridge trolls", "Crypt of bones", "Crypt entrance"):
        assert run(capsys, db, "new", name)[0] == 0
    assert run(capsys, db, "do", "Bridge trolls", "add Troll hp 30")[0] == 0
    return db


def listed(capsys, db: Path) -> list[str]:
    status, out, _ = run(capsys, db, "list", "--json")
    assert status == 0
    return sorted(e["name"] for e in json.loads(out))


def test_show_takes_a_unique_prefix(capsys, fights) -> None:
    status, out, err = run(capsys, fights, "show", "bri", "--json")
    assert status == 0, err
    state = json.loads(out)
    assert state["name"] == "Bridge trolls"
    assert [c["name"] for c in state["combatants"]] == ["Troll"]


def test_export_takes_a_unique_prefix(capsys, fights) -> None:
    status, out, err = run(capsys, fights, "export", "BRIDGE")
    assert status == 0, err
    assert out.startswith("# Bridge trolls")


def test_delete_with_a_prefix_names_what_it_deleted(capsys, fights) -> None:
    status, out, err = run(capsys, fights, "delete", "crypt e")
    assert status == 0, err
    assert out.strip() == "deleted 'Crypt entrance'"
    assert listed(capsys, fights) == ["Bridge trolls", "Crypt of bones"]


@pytest.mark.parametrize("command", ["show", "export", "delete"])
def test_an_ambiguous_prefix_lists_the_candidates_and_changes_nothing(
    capsys, fights, command
) -> None:
    status, out, err = run(capsys, fights, command, "crypt")
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert "could be any of" in err
    assert "'Crypt of bones'" in err and "'Crypt entrance'" in err
    assert "Bridge" not in err
    assert listed(capsys, fights) == ["Bridge trolls", "Crypt entrance", "Crypt of bones"]


@pytest.mark.parametrize("command", ["show", "export", "delete"])
def test_no_match_names_the_saved_encounters(capsys, fights, command) -> None:
    status, _, err = run(capsys, fights, command, "dragon")
    assert status == 1 and err.count("\n") == 1
    assert "no encounter named 'dragon'" in err and "'Bridge trolls'" in err
    assert len(listed(capsys, fights)) == 3


def test_an_exact_name_wins_over_a_longer_one(capsys, db) -> None:
    run(capsys, db, "new", "Crypt")
    run(capsys, db, "new", "Crypt 2")
    status, out, _ = run(capsys, db, "delete", "crypt")
    assert status == 0 and out.strip() == "deleted 'Crypt'"
    assert listed(capsys, db) == ["Crypt 2"]
