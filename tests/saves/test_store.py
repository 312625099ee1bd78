"""The store's everyday behaviour (issue 3, Saves): what the GM saves is what
comes back, in order, under a name they can type in any case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from saves import (
    EncounterExists,
    EncounterNotFound,
    SaveError,
    SavePointNotFound,
    Store,
    default_db_path,
)
from saves.migrations import FILE_SCHEMA_VERSION


def summary(round_: int = 0, active: str | None = None) -> dict[str, Any]:
    return {"name": "x", "round": round_, "active": active, "combatants": 2, "started": round_ > 0}


def history(loaded: Any) -> list[int]:
    """What the engine would rebuild: snapshot items, then replayed records."""
    return list(loaded.snapshot["items"]) + [r["item"] for r in loaded.records]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store(tmp_path / "encounters.json") as s:
        yield s


def test_round_trip_of_snapshot_records_and_summary(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    snapshot = {"items": [], "log": [{"seq": 1, "round": 1, "actor": "Ogre", "text": "hits ✓"}]}
    with Store(db) as s:
        s.create("Ogre Bridge", snapshot, summary())
        s.append("Ogre Bridge", {"item": 1, "nested": {"f": 1.5, "none": None}}, summary(1, "Ogre"))
    with Store(db) as s:
        loaded = s.load("Ogre Bridge")
        assert loaded.snapshot == snapshot
        assert loaded.records == [{"item": 1, "nested": {"f": 1.5, "none": None}}]
        (row,) = s.list()
        assert (row.name, row.round, row.active, row.combatants, row.started) == (
            "Ogre Bridge",
            1,
            "Ogre",
            2,
            True,
        )


def test_append_returns_consecutive_sequence_numbers_and_load_keeps_order(store: Store) -> None:
    store.create("Fight", {"items": []}, summary())
    seqs = [store.append("Fight", {"item": i}, summary(i)) for i in range(50)]
    assert seqs == list(range(1, 51))
    assert history(store.load("Fight")) == list(range(50))
    # Sequence numbers continue after a reload.
    assert store.append("Fight", {"item": 50}, summary()) == 51


def test_compaction_then_load_and_further_appends(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db) as s:
        s.create("Fight", {"items": []}, summary())
        for i in range(10):
            s.append("Fight", {"item": i}, summary(i))
        s.compact("Fight", {"items": list(range(10))}, summary(9))
        assert s.load("Fight").records == []
        assert s.append("Fight", {"item": 10}, summary(10)) == 11
    with Store(db) as s:
        loaded = s.load("Fight")
        assert loaded.snapshot == {"items": list(range(10))}
        assert history(loaded) == list(range(11))
        assert s.list()[0].round == 10
    # Only the current generation is left on disk.
    (enc_dir,) = (tmp_path / "encounters.json.d").iterdir()
    assert sorted(p.name for p in enc_dir.iterdir()) == ["journal-2.jsonl", "snapshot-2.json"]


def test_names_are_case_insensitive_and_unique(store: Store) -> None:
    store.create("Goblin Ambush", {"items": []}, summary())
    assert store.exists("goblin ambush") and store.exists("GOBLIN AMBUSH ")
    with pytest.raises(EncounterExists, match="'Goblin Ambush' already exists"):
        store.create("GOBLIN ambush", {"items": []}, summary())
    store.append("goblin AMBUSH", {"item": 1}, summary())
    assert history(store.load("Goblin ambush")) == [1]
    assert [s.name for s in store.list()] == ["Goblin Ambush"]  # the name as first typed


def test_missing_encounter_and_bad_input_give_one_clear_message(store: Store) -> None:
    with pytest.raises(EncounterNotFound, match="No saved encounter is named 'Nope'"):
        store.load("Nope")
    with pytest.raises(SaveError, match="name must be a non-empty text"):
        store.create("   ", {"items": []}, summary())
    store.create("Fight", {"items": []}, summary())
    with pytest.raises(SaveError, match="not plain JSON data"):
        store.append("Fight", {"item": object()}, summary())
    with pytest.raises(SaveError, match="not plain JSON data"):
        store.append("Fight", {"item": float("nan")}, summary())
    with pytest.raises(SaveError, match="must be a JSON object"):
        store.append("Fight", ["not", "a", "dict"], summary())  # type: ignore[arg-type]
    # A rejected record is not saved and does not use up a sequence number.
    assert store.append("Fight", {"item": 1}, summary()) == 1


def test_list_is_newest_first(store: Store) -> None:
    for name in ("Alpha", "Beta", "Gamma"):
        store.create(name, {"items": []}, summary())
    assert [s.name for s in store.list()] == ["Gamma", "Beta", "Alpha"]
    store.append("Alpha", {"item": 1}, summary(3))
    assert [s.name for s in store.list()] == ["Alpha", "Gamma", "Beta"]
    store.compact("Beta", {"items": []}, summary(2))
    assert [s.name for s in store.list()] == ["Beta", "Alpha", "Gamma"]


def test_list_reads_the_latest_summary_from_another_process_journal(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db) as s:
        s.create("Fight", {"items": []}, summary(0))
        s.append("Fight", {"item": 1}, summary(4, "Troll"))
    with Store(db) as s:  # fresh process state: the summary comes from the journal tail
        (row,) = s.list()
        assert (row.round, row.active) == (4, "Troll")


def test_save_points_are_named_listed_newest_first_and_replaceable(store: Store) -> None:
    store.create("Fight", {"items": []}, summary())
    store.save_point("Fight", "Before the boss", {"items": [1]}, summary(1))
    store.save_point("Fight", "Round 3", {"items": [1, 2, 3]}, summary(3))
    assert [label for label, _ in store.save_points("fight")] == ["Round 3", "Before the boss"]
    assert store.load_save_point("Fight", "before THE boss") == {"items": [1]}
    store.save_point("Fight", "before the boss", {"items": [9]}, summary(1))  # same label
    assert store.load_save_point("Fight", "Before the boss") == {"items": [9]}
    assert len(store.save_points("Fight")) == 2
    assert store.list()[0].save_points == 2
    # The autosave is untouched by save points.
    assert store.load("Fight").snapshot == {"items": []}
    with pytest.raises(SavePointNotFound, match="no save point labelled 'Nope'"):
        store.load_save_point("Fight", "Nope")


def test_save_points_survive_reopen(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db) as s:
        s.create("Fight", {"items": []}, summary())
        s.save_point("Fight", "Start", {"items": [7]}, summary())
    with Store(db) as s:
        assert s.load_save_point("Fight", "start") == {"items": [7]}


def test_delete_removes_encounter_files_and_save_points(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db) as s:
        s.create("Fight", {"items": []}, summary())
        s.save_point("Fight", "Start", {"items": []}, summary())
        s.append("Fight", {"item": 1}, summary())
        s.delete("fight")
        assert not s.exists("Fight")
        s.create("Fight", {"items": [2]}, summary())  # the name is free again
    with Store(db) as s:
        assert s.load("Fight").snapshot == {"items": [2]}
        assert s.save_points("Fight") == []
        assert s.notices == []
    assert len(list((tmp_path / "encounters.json.d").iterdir())) == 1


def test_database_file_is_plain_tinydb_json_with_schema_versions(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    with Store(db) as s:
        s.create("Fight", {"items": []}, summary())
        s.save_point("Fight", "Start", {"items": []}, summary())
    data = json.loads(db.read_text())
    docs = [*data["encounters"].values(), *data["save_points"].values()]
    assert docs and all(doc["schema"] == 1 for doc in docs)
    for path in (tmp_path / "encounters.json.d").rglob("*.json"):
        # snapshot and save-point files: version 3 may hold deferred sections
        assert json.loads(path.read_bytes())["schema"] == FILE_SCHEMA_VERSION == 3


def test_appending_does_not_touch_the_database_file(store: Store) -> None:
    store.create("Fight", {"items": []}, summary())
    before = store.path.stat()
    for i in range(5):
        store.append("Fight", {"item": i}, summary(i))
    after = store.path.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def test_default_path_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMBAT_TRACKER_DB", str(tmp_path / "custom" / "my.json"))
    assert default_db_path() == tmp_path / "custom" / "my.json"
    with Store() as s:
        s.create("Fight", {"items": []}, summary())
    assert (tmp_path / "custom" / "my.json").exists()
    monkeypatch.delenv("COMBAT_TRACKER_DB")
    assert default_db_path().name == "encounters.json"
    assert "combat-tracker" in str(default_db_path())


def test_closed_store_refuses_work(tmp_path: Path) -> None:
    s = Store(tmp_path / "encounters.json")
    s.close()
    s.close()  # idempotent
    with pytest.raises(SaveError, match="has been closed"):
        s.list()


def test_a_directory_as_database_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="is a directory"):
        Store(tmp_path)
