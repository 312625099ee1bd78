"""A fight of several combats (``end``, then ``start`` again) as ``export``
and ``show`` tell it: the report's header counts every combat and its
rounds, ``show`` names the combat under way and marks where it began in the
log, as the app's log pane does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.test_encounters import run

SECOND = "── Combat 2 ──"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def fight(capsys: pytest.CaptureFixture[str], db: Path, *batches: str) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nadd Goblin hp 8 init 12")
    for batch in batches:
        status, _, err = run(capsys, db, "do", "Fight", batch)
        assert status == 0, err


def header(capsys: pytest.CaptureFixture[str], db: Path) -> str:
    status, report, _ = run(capsys, db, "export", "Fight")
    assert status == 0
    return report.splitlines()[2]


@pytest.mark.parametrize(
    ("batches", "played"),
    [
        ((), "not started"),
        (("start\nnext\nnext",), "2 rounds"),
        (("start\nnext\nnext\nend",), "ended after 2 rounds"),
        # the second combat's round 1 does not hide the first one's two
        (("start\nnext\nnext\nend", "start\nnext"), "2 combats, 3 rounds"),
        (("start\nnext\nnext\nend", "start\nnext\nend"), "ended after 2 combats, 3 rounds"),
        (("start\nend", "start\nend", "start\nnext\nnext"), "3 combats, 4 rounds"),
    ],
)
def test_the_report_header_counts_every_combat(capsys, db, batches, played) -> None:
    fight(capsys, db, *batches)
    assert header(capsys, db) == f"*core rules · {played} · 2 combatants*"


def test_an_undone_second_combat_is_not_counted(capsys, db) -> None:
    fight(capsys, db, "start\nnext\nnext\nend", "start\nnext", "undo\nundo")
    assert header(capsys, db) == "*core rules · ended after 2 rounds · 2 combatants*"


def test_show_names_the_second_combat_and_where_it_began(capsys, db) -> None:
    fight(capsys, db, "start\nnext\nnext\nend", "damage Ogre 2\nstart\nnext")
    status, out, _ = run(capsys, db, "show", "Fight")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Fight — combat 2, round 1, Ogre's turn"
    assert lines.count(SECOND) == 1
    # over what the second start logged, as the app's log draws it; what
    # came before that start is above
    rule = lines.index(SECOND)
    assert lines[rule - 1] == "–  Ogre takes 2 (2 HP lost, 38/40 left)"
    opening = lines[rule + 1 : lines.index("R1 Round 1")]
    assert sum("rolls initiative" in line for line in opening) == 2
    assert "Dash check" in opening[-1]
    assert json.loads(run(capsys, db, "show", "Fight", "--json")[1])["combat"] == 2
    run(capsys, db, "do", "Fight", "end")
    assert run(capsys, db, "show", "Fight")[1].startswith("Fight — combat 2 over after round 1")


def test_show_of_one_combat_reads_as_before(capsys, db) -> None:
    fight(capsys, db)
    assert json.loads(run(capsys, db, "show", "Fight", "--json")[1])["combat"] == 0
    run(capsys, db, "do", "Fight", "start\nnext")
    status, out, _ = run(capsys, db, "show", "Fight")
    assert out.splitlines()[0] == "Fight — round 1, Ogre's turn"
    assert "── Combat" not in out
    assert json.loads(run(capsys, db, "show", "Fight", "--json")[1])["combat"] == 1
    run(capsys, db, "do", "Fight", "end")
    assert run(capsys, db, "show", "Fight")[1].startswith("Fight — combat over after round 1")


def test_list_names_a_later_combat_beside_its_round(capsys, db, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    fight(capsys, db, "start\nnext\nnext\nend", "start\nnext\nnext")
    run(capsys, db, "new", "Bridge")
    run(capsys, db, "do", "Bridge", "add Troll hp 50 init 3\nstart\nnext")
    status, out, _ = run(capsys, db, "list")
    assert status == 0

    def rounds(out: str) -> dict[str, str]:
        rows = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()[1:]]
        return {row[0]: row[1] for row in rows}

    # a fight of one combat reads as it always did
    assert rounds(out) == {"Fight": "combat 2 · round 2", "Bridge": "2"}
    run(capsys, db, "do", "Fight", "end")
    assert rounds(run(capsys, db, "list")[1])["Fight"] == "combat 2 · ended, round 2"


@pytest.mark.parametrize("combat", [None, "2", 2.0, -1], ids=["not kept", "text", "float", "<0"])
def test_a_summary_without_a_count_lists_as_one_combat(capsys, db, monkeypatch, combat) -> None:
    # a fight saved before the count was kept, or a hand edit sealed again
    monkeypatch.setenv("COLUMNS", "200")
    from saves.seal import seal
    from saves.storage import parse_tables

    run(capsys, db, "new", "Fight")
    tables = parse_tables(db.read_bytes())
    for doc in tables["encounters"].values():
        doc["summary"] = {"round": 3, "active": "Ogre", "combatants": 2, "started": True}
        if combat is not None:
            doc["summary"]["combat"] = combat
    db.write_bytes(seal(tables, "test") + b"\n")
    status, out, err = run(capsys, db, "list")
    assert status == 0, err
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("Fight")]
    assert row[:4] == ["Fight", "3", "Ogre", "2"]


@given(st.integers(10**6 + 1, 10**4000))
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_huge_count_in_a_summary_is_a_blank_in_the_list(
    capsys, monkeypatch, tmp_path_factory, huge: int
) -> None:
    # a hand-edited catalogue (sealed again) said combat and round 10**400:
    # list printed every digit, a row of 400 characters folded over 20 lines
    from saves.seal import seal
    from saves.storage import parse_tables

    monkeypatch.setenv("COLUMNS", "120")
    db = tmp_path_factory.mktemp("db") / "encounters.json"
    fight(capsys, db, "start\nnext\nend", "start")
    tables = parse_tables(db.read_bytes())
    for doc in tables["encounters"].values():
        doc["summary"].update(combat=huge, round=huge, combatants=huge)
        doc["updated"] = "2999-01-01T00:00:00+00:00"  # newer than the steps' last line
    db.write_bytes(seal(tables, "test") + b"\n")
    status, out, err = run(capsys, db, "list")
    assert status == 0, err
    (row,) = [line.split() for line in out.splitlines()[1:]]
    assert row[:4] == ["Fight", "0", "Goblin", "0"]  # in combat, the round not said


def test_list_json_says_which_combat_as_the_table_does(capsys, db, monkeypatch) -> None:
    # the table said "combat 2 · round 1" and the JSON only "round": 1
    monkeypatch.setenv("COLUMNS", "120")
    fight(capsys, db, "start\nnext\nend", "start")
    status, out, _ = run(capsys, db, "list")
    assert status == 0 and "combat 2 · round 1" in out
    status, out, _ = run(capsys, db, "list", "--json")
    (entry,) = json.loads(out)
    assert (entry["combat"], entry["round"], entry["started"]) == (2, 1, True)
    status, out, _ = run(capsys, db, "show", "Fight", "--json")
    assert json.loads(out)["combat"] == entry["combat"]


def test_list_at_80_columns_keeps_the_round_on_one_line(capsys, db, monkeypatch) -> None:
    # an 80-column terminal: the six columns did not fit, and the round
    # folded into "combat 2 ·" over "round 1", read as two facts
    monkeypatch.setenv("COLUMNS", "80")
    fight(capsys, db, "start\nnext\nend", "start")
    run(capsys, db, "save", "Fight", "before boss")
    status, out, _ = run(capsys, db, "list")
    assert status == 0
    (row,) = [line for line in out.splitlines() if line.startswith(" Fight")]
    assert "combat 2 · round 1" in row
    assert max(len(line) for line in out.splitlines()) <= 80
