"""The scriptable command line (issue 3, CLI): new / list / show / do /
export / delete, driven through the real entry point on a temp database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tracker.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "goblin-ambush.toml"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, err = capsys.readouterr()
    return status, out, err


def show(capsys: pytest.CaptureFixture[str], db: Path, name: str) -> dict:
    status, out, _ = run(capsys, db, "show", name, "--json")
    assert status == 0
    return json.loads(out)


def test_new_from_prepared_file_builds_every_combatant(capsys, db) -> None:
    status, out, err = run(capsys, db, "new", "Ambush", "--from", str(EXAMPLE))
    assert status == 0, err
    state = show(capsys, db, "Ambush")
    by_name = {c["name"]: c for c in state["combatants"]}
    assert sorted(by_name) == [
        "Goblin 1",
        "Goblin 2",
        "Goblin 3",
        "Goblin 4",
        "Mira",
        "Ogre",
        "Zalek",
    ]
    zalek = by_name["Zalek"]
    # RULES.md §8: CON 17, Athletics +4 → 21 points, passive 17.
    assert zalek["endurance"] == {"points": 21, "max": 21, "passive": 17, "dash_rounds_left": None}
    assert zalek["player"] is True and zalek["hp"] == zalek["max_hp"] == 38
    goblin = by_name["Goblin 3"]
    assert 2 <= goblin["max_hp"] <= 12  # 2d6, rolled
    assert state["ruleset"]["name"] == "core"
    assert state["ruleset"]["options"]["advantage"] == "alternate"
    assert state["started"] is False and state["active"] is None


def test_show_json_has_the_documented_shape(capsys, db) -> None:
    run(capsys, db, "new", "Fight", "--ruleset", "forge")
    status, out, _ = run(
        capsys,
        db,
        "do",
        "Fight",
        'add Ogre hp 50 al 12 init 5 con 16 athletics 2\nadd "Bandit Chief" hp 30 init 15',
    )
    state = show(capsys, db, "Fight")
    assert set(state) >= {"name", "ruleset", "round", "started", "active", "combatants", "log"}
    assert state["ruleset"] == {"name": "forge", "options": state["ruleset"]["options"]}
    assert state["ruleset"]["options"]["resistance"] == "subtract"
    keys = {"name", "initiative", "hp", "max_hp", "temp_hp", "al", "down", "player"}
    keys |= {"conditions", "persistent", "endurance"}
    for c in state["combatants"]:
        assert set(c) >= keys
    assert all(set(e) >= {"round", "actor", "text"} for e in state["log"])


def test_do_reads_stdin_acknowledges_each_action_and_reports_errors(
    capsys, db, monkeypatch
) -> None:
    run(capsys, db, "new", "Fight")
    import io

    lines = "add Goblin count 2 hp 10 init 12\nadd Ogre hp 40 init 3\nstart\n"
    lines += 'damage gob 999\ndamage "Goblin 1" 3\ncond Ogre frightened rounds 2\nnext\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    status, out, _ = run(capsys, db, "do", "Fight")
    results = out.splitlines()
    assert results[:3] == ["ok 1", "ok 2", "ok 3"]
    # "gob" is ambiguous (Goblin 1, Goblin 2): one clear error, nothing changed.
    assert results[3].startswith("error: ") and "Goblin 1" in results[3]
    assert results[4:] == ["ok 4", "ok 5", "ok 6"]
    assert status == 1  # one action failed
    state = show(capsys, db, "Fight")
    hp = {c["name"]: c["hp"] for c in state["combatants"]}
    assert hp["Goblin 1"] == 7 and hp["Goblin 2"] == 10
    ogre = next(c for c in state["combatants"] if c["name"] == "Ogre")
    assert ogre["conditions"] == [{"name": "frightened", "value": None, "rounds_left": 2}]
    assert state["started"] and state["round"] == 1 and state["active"] == "Goblin 2"


def test_do_survives_a_restart_with_undo_and_redo(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40")
    run(capsys, db, "do", "Fight", "damage Ogre 15")
    assert show(capsys, db, "Fight")["combatants"][0]["hp"] == 25
    status, out, _ = run(capsys, db, "do", "Fight", "undo")
    assert status == 0 and out.startswith("ok ")
    assert show(capsys, db, "Fight")["combatants"][0]["hp"] == 40
    run(capsys, db, "do", "Fight", "redo")
    assert show(capsys, db, "Fight")["combatants"][0]["hp"] == 25


def test_list_is_newest_first(capsys, db) -> None:
    run(capsys, db, "new", "Old fight")
    run(capsys, db, "new", "New fight")
    run(capsys, db, "do", "New fight", "add Ogre hp 40")
    status, out, _ = run(capsys, db, "list", "--json")
    assert status == 0
    listed = json.loads(out)
    assert [e["name"] for e in listed] == ["New fight", "Old fight"]
    assert listed[0]["combatants"] == 1


def test_export_markdown_is_round_by_round(capsys, db, tmp_path) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nadd Goblin hp 8 init 12")
    run(capsys, db, "do", "Fight", "start\ndamage Ogre 6\nnext\nnext\ndamage Goblin 3")
    out_file = tmp_path / "report.md"
    status, out, _ = run(capsys, db, "export", "Fight", "-o", str(out_file))
    assert status == 0
    report = out_file.read_text()
    assert report.startswith("# Fight")
    assert report.index("## Round 1") < report.index("## Round 2")
    assert "| Ogre | 34/40 |" in report
    status, out, _ = run(capsys, db, "export", "Fight", "--format", "json")
    assert json.loads(out)["round"] == 2


def test_export_never_writes_over_the_databases_own_files(capsys, db, tmp_path) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nstart\ndamage Ogre 6")
    folder = next(Path(f"{db}.d").iterdir())
    (tmp_path / "link.json").symlink_to(db)
    (tmp_path / "hard.json").hardlink_to(db)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    before = {p: p.read_bytes() for p in files}
    for output in (
        db,  # "export Fight --format json -o encounters.json", a slip of the mind
        folder / "steps.jsonl",
        folder / "state.json",
        Path(f"{db}.lock"),
        tmp_path / "link.json",
        tmp_path / "hard.json",
        folder / "notes.md",
    ):
        status, out, err = run(capsys, db, "export", "Fight", "--format", "json", "-o", str(output))
        assert status == 1 and out == "", output
        assert "one of the database's own files" in err and "nothing was written" in err
    assert {p: p.read_bytes() for p in files} == before
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == files
    assert show(capsys, db, "Fight")["combatants"][0]["hp"] == 34


def test_delete_removes_the_encounter(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    assert run(capsys, db, "delete", "fight")[0] == 0
    status, _, err = run(capsys, db, "show", "Fight")
    assert status == 1 and "no encounter named" in err


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[[combatant]]\nname = "Ogre"\nhp = "3d0"\n', "at least 2 sides"),
        ('[[combatant]]\nname = "Ogre"\nhp = 10\nspeed = 3\n', "unknown key 'speed'"),
        ('[[combatant]]\nname = "Ogre"\n', "needs hp"),
        ("[[combatant]\n", "not valid TOML"),
        ('ruleset = "gritty"\n', "unknown ruleset"),
    ],
)
def test_bad_prepared_file_gives_one_line_and_creates_nothing(
    capsys, db, tmp_path, toml, message
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(toml)
    status, _, err = run(capsys, db, "new", "Fight", "--from", str(bad))
    assert status == 1
    assert message in err and len(err.strip().splitlines()) == 1
    assert json.loads(run(capsys, db, "list", "--json")[1]) == []


def test_second_process_is_told_the_database_is_in_use(db, capsys) -> None:
    from saves.store import Store

    run(capsys, db, "new", "Fight")
    with Store(db):
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "--db", str(db), "do", "Fight", "add Ogre hp 5"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        # Looking needs no lock: list and show work beside an open tracker.
        looked = subprocess.run(
            [sys.executable, "-m", "tracker", "--db", str(db), "show", "Fight", "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert "in use by PID" in done.stderr and "Traceback" not in done.stderr
    assert looked.returncode == 0 and json.loads(looked.stdout)["combatants"] == []


def test_corrupt_database_is_moved_aside_and_the_program_still_starts(db, capsys) -> None:
    run(capsys, db, "new", "Fight")
    db.write_text('{"encounters": {"1": {"name": "Fi')  # truncated mid-write
    # Looking (read-only) reads what it can and touches nothing.
    status, out, err = run(capsys, db, "list", "--json")
    assert status == 0 and [e["name"] for e in json.loads(out)] == ["Fight"]
    assert not list(db.parent.glob("encounters.json.corrupt-*"))
    # The next change moves the damaged file aside, says where, and recovers.
    status, out, err = run(capsys, db, "do", "Fight", "add Ogre hp 5")
    assert status == 0 and out.startswith("ok")
    (moved,) = db.parent.glob("encounters.json.corrupt-*")
    assert moved.name in err
    assert show(capsys, db, "Fight")["combatants"][0]["name"] == "Ogre"


def test_save_points_are_listed_and_restore_as_a_new_encounter(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40")
    run(capsys, db, "do", "Fight", "damage Ogre 5")
    assert run(capsys, db, "save", "Fight", "before the bridge")[0] == 0
    run(capsys, db, "do", "Fight", "damage Ogre 30")
    listed = json.loads(run(capsys, db, "list", "--json")[1])
    assert listed[0]["save_points"] == ["before the bridge"]
    status, out, err = run(capsys, db, "restore", "Fight", "before the bridge", "--as", "Retry")
    assert status == 0, err
    assert show(capsys, db, "Retry")["combatants"][0]["hp"] == 35
    assert show(capsys, db, "Fight")["combatants"][0]["hp"] == 5  # untouched
    # The restored fight keeps its history: undo goes back before the 5 damage.
    run(capsys, db, "do", "Retry", "undo")
    assert show(capsys, db, "Retry")["combatants"][0]["hp"] == 40
    status, _, err = run(capsys, db, "restore", "Fight", "no such label")
    assert status == 1 and len(err.strip().splitlines()) == 1


def test_saving_over_a_kept_label_asks_for_replace(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40")
    run(capsys, db, "save", "Fight", "sp1")
    run(capsys, db, "do", "Fight", "damage Ogre 5")
    status, _, err = run(capsys, db, "save", "Fight", "SP1")  # same label, any case
    assert status == 1 and "already has a save point labelled 'sp1'" in err
    assert "--replace" in err and len(err.strip().splitlines()) == 1
    run(capsys, db, "restore", "Fight", "sp1", "--as", "Kept")
    assert show(capsys, db, "Kept")["combatants"][0]["hp"] == 40  # the first one is intact
    assert run(capsys, db, "save", "Fight", "SP1", "--replace")[0] == 0
    listed = {e["name"]: e for e in json.loads(run(capsys, db, "list", "--json")[1])}
    assert listed["Fight"]["save_points"] == ["SP1"]
    run(capsys, db, "restore", "Fight", "sp1", "--as", "Replaced")
    assert show(capsys, db, "Replaced")["combatants"][0]["hp"] == 35


def test_a_reader_that_goes_away_gets_no_traceback(capsys, db) -> None:
    # `combat-tracker show NAME --json | head -c 10`
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "\n".join(f"add Ogre hp {40 + i}" for i in range(30)))
    pipeline = subprocess.run(
        f"{sys.executable} -m tracker --db {db} show Fight --json | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert pipeline.stdout == '{"name": "'
    assert "Traceback" not in pipeline.stderr and "BrokenPipe" not in pipeline.stderr


def test_export_report_reads_well(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nstart\npersist Ogre 1d6 fire")
    run(capsys, db, "do", "Fight", "cond Ogre prone rounds 3")
    status, report, _ = run(capsys, db, "export", "Fight")
    assert "1 round ·" in report and "1 combatant*" in report
    assert "- Round 1" not in report  # the heading already says it
    assert "| Ogre | 40/40 | 0 | 10 | prone (3 rounds left) | 1d6 fire (DC 20) |" in report


def test_damaged_saves_are_rebuilt_from_the_steps_and_reported(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "\n".join(f"add Ogre{i} hp 40" for i in range(6)))
    (steps,) = db.parent.glob("encounters.json.d/*/steps.jsonl")
    lines = steps.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b"Ogre", b"Ogrf", 1)  # one flipped byte mid-history
    steps.write_bytes(b"".join(lines))
    state = steps.with_name("state.json")
    state.write_bytes(state.read_bytes().replace(b"Ogre5", b"Ogrf5", 1))  # and in the snapshot
    status, out, err = run(capsys, db, "do", "Fight", "add Troll hp 60")
    assert status == 0
    assert "damaged from action 3 on" in err and "the 2 actions before it were kept" in err
    assert "rebuilt from its 2 saved actions" in err
    _, shown, _ = run(capsys, db, "show", "Fight", "--json")
    assert [c["name"] for c in json.loads(shown)["combatants"]] == ["Ogre0", "Ogre1", "Troll"]


def test_export_puts_a_second_combat_under_its_own_headings(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nadd Goblin hp 8 init 12")
    run(capsys, db, "do", "Fight", "start\nnext\nnext\ndamage Ogre 6\nend")
    run(capsys, db, "do", "Fight", "init Goblin 3\ndamage Ogre 2\nstart\nnext")
    status, report, _ = run(capsys, db, "export", "Fight")
    assert status == 0
    heads = [line for line in report.splitlines() if line.startswith("## ")]
    assert heads == [
        "## Before combat",
        "## Round 1",
        "## Round 2",
        "## Before combat 2",
        "## Combat 2",
        "## Combat 2, round 1",
        "## Where things stand",
    ]
    between = report[report.index("## Before combat 2") : report.index("## Combat 2\n")]
    assert "initiative is now 3" in between and "**Ogre** takes 2" in between
    assert "Combat ends after 2 rounds" in report[: report.index("## Before combat 2")]
    # what start logged is the new combat's: its initiative, its Dash checks
    opening = report[report.index("## Combat 2\n") : report.index("## Combat 2, round 1")]
    assert "**Goblin** has a fixed initiative of 3" in opening
    assert "**Ogre** rolls initiative" in opening and "Dash check" in opening
    assert "initiative" not in between.replace("initiative is now 3", "")


def test_export_after_the_last_end_says_after_combat(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nstart\nend\ndamage Ogre 2")
    status, report, _ = run(capsys, db, "export", "Fight")
    assert "## After combat 1" in report
    assert report.index("## Round 1") < report.index("## After combat 1")


def test_show_marks_entries_outside_any_round_as_the_app_does(capsys, db) -> None:
    # Before the first start there is no round: the app's log says "–",
    # and show said "R0", a round the GM never saw.
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 12")
    run(capsys, db, "do", "Fight", "start")
    status, out, _ = run(capsys, db, "show", "Fight")
    assert status == 0
    assert "–  Ogre joins the encounter" in out
    assert "R0" not in out
    assert "R1 Round 1" in out
