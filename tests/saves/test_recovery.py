"""Recovery (issue 3, Saves): torn writes, damaged files and crashes in the
middle of multi-step operations never cost the GM an acknowledged action,
and what recovery did is said plainly in ``store.notices``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from saves import SaveError, Store
from saves.errors import NewerSchema


class Crash(BaseException):
    """Stands in for SIGKILL: nothing after it runs, no cleanup handler catches it."""


def summary(round_: int = 0) -> dict[str, Any]:
    return {"round": round_, "active": "Ogre", "combatants": 1, "started": True}


def history(loaded: Any) -> list[int]:
    return list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]


def make_fight(db: Path, n: int, name: str = "Fight") -> None:
    with Store(db) as s:
        s.create(name, {"items": []}, summary())
        for i in range(n):
            s.append(name, {"item": i}, summary(i))


def enc_dir(db: Path) -> Path:
    (d,) = [p for p in Path(f"{db}.d").iterdir() if p.is_dir() and "." not in p.name]
    return d


def journal(db: Path) -> Path:
    (j,) = enc_dir(db).glob("journal-*.jsonl")
    return j


# --- torn last line ---------------------------------------------------------


@pytest.mark.parametrize(
    "tail",
    [
        pytest.param(lambda line: line[: len(line) // 2], id="half-a-line"),
        pytest.param(lambda line: b"\0" * 4096, id="zero-filled-block"),
        pytest.param(lambda line: line[:-1].replace(b'"item":', b'"itex":') + b"\n", id="bad-crc"),
        pytest.param(lambda line: line[:-1], id="no-newline"),
    ],
)
def test_torn_last_line_is_ignored_and_cut_before_the_next_append(
    tmp_path: Path, tail: Any
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 3)
    good = journal(db).read_bytes()
    last_line = good.splitlines(keepends=True)[-1]
    with journal(db).open("ab") as fh:
        fh.write(tail(last_line.replace(b'"seq":3', b'"seq":4')))
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2]
        assert s.notices == []  # an append that never returned is not news
        assert s.append("Fight", {"item": 3}, summary()) == 4
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2, 3]
    assert journal(db).read_bytes().startswith(good)


def test_torn_line_is_cut_even_when_the_first_thing_done_is_an_append(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 2)
    with journal(db).open("ab") as fh:
        fh.write(b'{"crc":"0000')
    with Store(db) as s:
        assert s.append("Fight", {"item": 2}, summary()) == 3
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2]


# --- damaged journal in the middle -------------------------------------------


def test_corrupt_journal_line_keeps_records_before_it_and_moves_journal_aside(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 5)
    path = journal(db)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"item":2', b'"item":7')  # bit rot in action 3
    damaged = b"".join(lines)
    path.write_bytes(damaged)
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1]
        (notice,) = s.notices
        assert "journal of 'Fight' was damaged at line 3" in notice
        assert "kept the 2 action(s) before that line and dropped 3 line(s)" in notice
        aside = Path(re.search(r"kept as (\S+)\.$", notice).group(1))  # type: ignore[union-attr]
        assert aside.read_bytes() == damaged
        assert re.fullmatch(r"journal-1\.jsonl\.corrupt-\d{8}-\d{6}", aside.name)
        assert s.append("Fight", {"item": 2}, summary()) == 3
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2]
        assert s.notices == []


def damage_line(db: Path, index: int) -> None:
    """Bit rot in one journal line (0-based), valid lines after it."""
    path = journal(db)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[index] = lines[index].replace(b'"item":', b'"itex":')
    path.write_bytes(b"".join(lines))


def test_load_returns_its_own_notices_and_take_notices_shows_each_once(tmp_path: Path) -> None:
    """A CLI that prints the notices right after opening, then loads, must
    still be able to tell the GM what loading found."""
    db = tmp_path / "encounters.json"
    make_fight(db, 60)
    damage_line(db, 50)
    with Store(db) as s:
        assert s.take_notices() == []  # opening found nothing: the damage is inside
        loaded = s.load("Fight")
        (notice,) = loaded.notices
        assert "journal of 'Fight' was damaged at line 51" in notice
        assert "kept the 50 action(s) before that line" in notice
        assert "dropped 10 line(s)" in notice
        aside = Path(re.search(r"kept as (\S+)\.$", notice).group(1))  # type: ignore[union-attr]
        assert aside.exists() and aside.parent == journal(db).parent
        assert history(loaded) == list(range(50))
        # The same notice is pending on the store, taken once, then gone.
        assert s.notices == [notice]
        assert s.take_notices() == [notice]
        assert s.take_notices() == [] and s.notices == []
        # A later load of the repaired journal has nothing to say.
        assert s.load("Fight").notices == ()


def test_after_a_damaged_load_the_listed_summary_matches_what_was_kept(tmp_path: Path) -> None:
    """The picker's round comes from the journal's last line; once load()
    has dropped the lines after the damage, list() must not keep showing
    the round of a dropped action."""
    db = tmp_path / "encounters.json"
    make_fight(db, 12)
    damage_line(db, 5)
    with Store(db) as s:
        assert s.list()[0].round == 11  # before loading, the tail is all it knows
        assert history(s.load("Fight")) == [0, 1, 2, 3, 4]
        assert s.list()[0].round == 4  # the summary saved with action 5 (item 4)
    with Store(db) as s:
        assert s.list()[0].round == 4
    damage_line(db, 0)  # nothing before the damage: only the snapshot is left
    with Store(db) as s:
        assert history(s.load("Fight")) == []
        assert s.list()[0].round == 0  # back to the snapshot's own summary


def test_sequence_gap_in_the_journal_counts_as_damage(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 4)
    lines = journal(db).read_bytes().splitlines(keepends=True)
    journal(db).write_bytes(b"".join(lines[:1] + lines[2:]))  # action 2 vanished
    with Store(db) as s:
        assert history(s.load("Fight")) == [0]
        assert "sequence jumps from 1 to 3" in s.notices[0]


# --- damaged database file ---------------------------------------------------


def test_corrupt_database_is_moved_aside_and_encounters_rebuilt_from_their_files(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 4, "Fight")
    make_fight(db, 1, "Skirmish")
    with Store(db) as s:
        s.save_point("Fight", "Start", {"items": [0]}, summary())
        s.compact("Skirmish", {"items": [0]}, summary())
        s.append("Skirmish", {"item": 1}, summary(1))
    damaged = db.read_bytes()[:40]  # truncated by something outside our control
    db.write_bytes(damaged)
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2, 3]
        assert history(s.load("Skirmish")) == [0, 1]
        assert s.load_save_point("Fight", "start") == {"items": [0]}
        first = s.notices[0]
        assert f"The database file {db} was damaged (it is not valid JSON" in first
        aside = Path(re.search(r"moved to (\S+) and a fresh", first).group(1))  # type: ignore[union-attr]
        assert re.fullmatch(r"encounters\.json\.corrupt-\d{8}-\d{6}", aside.name)
        assert aside.read_bytes() == damaged  # never overwritten
        recovered = " ".join(s.notices[1:])
        assert "Recovered encounter 'Fight'" in recovered and "4 action(s)" in recovered
        assert "1 save point(s)" in recovered
        assert "Recovered encounter 'Skirmish'" in recovered
        assert {row.name: row.round for row in s.list()} == {"Fight": 3, "Skirmish": 1}
    json.loads(db.read_text())  # the new database parses
    with Store(db) as s:
        assert s.notices == []


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe garbage", b"[1, 2, 3]", b'{"encounters": {"1": {"name": "x"}}}', b'{"a": 5}'],
)
def test_any_unreadable_database_still_opens(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "encounters.json"
    db.write_bytes(content)
    with Store(db) as s:
        assert s.list() == []
        assert "was damaged" in s.notices[0]
    assert len(list(tmp_path.glob("encounters.json.corrupt-*"))) == 1


def test_unrecoverable_encounter_files_are_moved_aside_with_a_notice(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 2)
    d = enc_dir(db)
    (d / "snapshot-1.json").write_bytes(b"{}")
    db.write_bytes(b"not json")
    with Store(db) as s:
        assert s.list() == []
        assert any("Could not recover the saved files" in n for n in s.notices)
    assert not d.exists() and len(list(d.parent.glob(f"{d.name}.unrecoverable-*"))) == 1


def test_database_from_a_newer_program_is_refused_not_moved(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    data = json.loads(db.read_text())
    data["encounters"]["1"]["schema"] = 99
    db.write_text(json.dumps(data))
    with pytest.raises(NewerSchema, match="newer combat-tracker"):
        Store(db)
    assert json.loads(db.read_text())["encounters"]["1"]["schema"] == 99
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_damaged_snapshot_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    (enc_dir(db) / "snapshot-1.json").write_bytes(b"garbage")
    with Store(db) as s, pytest.raises(SaveError, match="snapshot of 'Fight' .* is unusable"):
        s.load("Fight")


# --- crashes inside multi-step operations ----------------------------------


@pytest.mark.parametrize(
    "step",
    ["_start_journal", "_commit_generation", "_remove_generation"],
    ids=["after-snapshot-written", "after-new-journal", "after-index-points-to-new"],
)
def test_crash_during_compaction_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 6)
    s = Store(db)
    s.load("Fight")

    def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    with monkeypatch.context() as m:
        m.setattr(Store, step, crash)
        with pytest.raises(Crash):
            s.compact("Fight", {"items": list(range(6))}, summary(5))
    s.close()  # the process is gone; only its lock is released

    with Store(db) as s:
        assert history(s.load("Fight")) == list(range(6))
        assert s.append("Fight", {"item": 6}, summary(6)) == 7
        s.compact("Fight", {"items": list(range(7))}, summary(6))
        s.append("Fight", {"item": 7}, summary(7))
    with Store(db) as s:
        assert history(s.load("Fight")) == list(range(8))


def test_crash_mid_compaction_then_more_actions_then_lost_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest snapshot on disk is an orphan from a crashed compaction and
    the actions after it are in the older journal: rebuilding from files
    must still give every action exactly once."""
    db = tmp_path / "encounters.json"
    make_fight(db, 3)
    s = Store(db)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    with monkeypatch.context() as m:
        m.setattr(Store, "_commit_generation", crash)
        with pytest.raises(Crash):
            s.compact("Fight", {"items": [0, 1, 2]}, summary(2))
    s.close()
    with Store(db) as s:
        s.append("Fight", {"item": 3}, summary(3))
        s.append("Fight", {"item": 4}, summary(4))
    assert (enc_dir(db) / "snapshot-2.json").exists()  # the orphan is still there
    db.write_bytes(b"{")
    with Store(db) as s:
        loaded = s.load("Fight")
        assert history(loaded) == [0, 1, 2, 3, 4]
        assert loaded.snapshot == {"items": [0, 1, 2]}  # the newest snapshot was used
        assert s.append("Fight", {"item": 5}, summary()) == 6


def test_records_not_after_the_snapshot_are_skipped(tmp_path: Path) -> None:
    """A journal that still holds records already folded into the snapshot
    (e.g. copied back by hand) never applies them twice."""
    db = tmp_path / "encounters.json"
    make_fight(db, 3)
    old_journal = journal(db).read_bytes()
    with Store(db) as s:
        s.compact("Fight", {"items": [0, 1, 2]}, summary(2))
        s.append("Fight", {"item": 3}, summary(3))
    new_journal = journal(db)
    new_journal.write_bytes(old_journal + new_journal.read_bytes())
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2, 3]


def test_interrupted_create_leaves_nothing_behind(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    staging = Path(f"{db}.d") / ".half-made-1234abcd.tmp"
    staging.mkdir()
    (staging / "snapshot-1.json").write_bytes(b"{")
    with Store(db) as s:
        assert [row.name for row in s.list()] == ["Fight"]
        assert s.notices == []
    assert not staging.exists()


def test_interrupted_delete_is_finished_on_open(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    (enc_dir(db) / "DELETED").write_bytes(b"deleted\n")  # crash right after the marker
    with Store(db) as s:
        assert s.list() == []
    assert list(Path(f"{db}.d").iterdir()) == []


def test_encounter_files_missing_from_the_index_are_adopted(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 2, "Lost")
    data = json.loads(db.read_text())
    data["encounters"] = {}
    db.write_text(json.dumps(data))
    with Store(db) as s:
        assert history(s.load("Lost")) == [0, 1]
        assert "not listed in the database" in s.notices[0]


def test_missing_encounter_files_remove_the_entry_with_a_notice(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    make_fight(db, 1)
    for p in enc_dir(db).iterdir():
        p.unlink()
    enc_dir(db).rmdir()
    with Store(db) as s:
        assert s.list() == []
        assert "files of encounter 'Fight'" in s.notices[0]


def test_failed_append_is_rolled_back_on_disk_and_reports_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Disk full halfway through a line: the caller gets a SaveError, the
    half line is cut off, and the next append reuses the sequence number."""
    import errno
    import os

    import saves.journal

    db = tmp_path / "encounters.json"
    make_fight(db, 2)

    def half_then_full(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    with Store(db) as s:
        s.load("Fight")
        with monkeypatch.context() as m:
            m.setattr(saves.journal, "write_all", half_then_full)
            with pytest.raises(SaveError, match="could not be saved .*No space left on device"):
                s.append("Fight", {"item": 2}, summary())
        assert history(s.load("Fight")) == [0, 1]
        assert s.append("Fight", {"item": 2}, summary()) == 3
    with Store(db) as s:
        assert history(s.load("Fight")) == [0, 1, 2]
        assert s.notices == []
