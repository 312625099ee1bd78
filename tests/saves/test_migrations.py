"""Schema versions and migrations (issue 3, Saves): a database written by an
older build opens, is upgraded in place, and keeps every fight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from saves import Store
from saves.errors import CorruptData, NewerSchema
from saves.journal import seal
from saves.migrations import MIGRATIONS, SCHEMA_VERSION, migrate


def v0_database(tmp_path: Path) -> Path:
    """A hand-made version-0 database: no ``schema`` keys anywhere, no
    case-folded ``key``, a single ``saved`` time."""
    db = tmp_path / "encounters.json"
    d = Path(f"{db}.d") / "old-fight-0000abcd"
    d.mkdir(parents=True)
    snapshot = {
        "kind": "snapshot",
        "id": "old-fight-0000abcd",
        "name": "Old Fight",
        "gen": 1,
        "seq": 0,
        "saved": "2025-01-02T03:04:05+00:00",
        "summary": {"round": 1},
        "snapshot": {"items": [0]},
    }
    (d / "snapshot-1.json").write_bytes(seal(snapshot))
    line = {"seq": 1, "summary": {"round": 2, "active": "Kobold"}, "record": {"item": 1}}
    (d / "journal-1.jsonl").write_bytes(seal(line) + b"\n")
    point = {
        "kind": "save_point",
        "id": "old-fight-0000abcd",
        "name": "Old Fight",
        "label": "Opening",
        "saved": "2025-01-02T03:04:05+00:00",
        "summary": {"round": 1},
        "snapshot": {"items": []},
    }
    (d / "savepoint-000000000001.json").write_bytes(seal(point))
    db.write_text(
        json.dumps(
            {
                "encounters": {
                    "1": {
                        "id": "old-fight-0000abcd",
                        "name": "Old Fight",
                        "gen": 1,
                        "snapshot_seq": 0,
                        "summary": {"round": 1},
                        "saved": "2025-01-02T03:04:05+00:00",
                    }
                },
                "save_points": {
                    "1": {
                        "encounter": "old-fight-0000abcd",
                        "label": "Opening",
                        "file": "savepoint-000000000001.json",
                        "saved": "2025-01-02T03:04:05+00:00",
                    }
                },
            }
        )
    )
    return db


def test_version_0_database_is_migrated_on_open(tmp_path: Path) -> None:
    db = v0_database(tmp_path)
    with Store(db) as s:
        assert s.notices == [f"Upgraded 2 saved document(s) in {db} to schema version 1."]
        assert s.exists("old fight")  # the case-folded key was added
        loaded = s.load("OLD FIGHT")
        assert loaded.snapshot == {"items": [0]}
        assert loaded.records == [{"item": 1}]
        (row,) = s.list()
        assert (row.name, row.round, row.active, row.save_points) == ("Old Fight", 2, "Kobold", 1)
        assert s.load_save_point("Old Fight", "opening") == {"items": []}
        assert s.append("Old Fight", {"item": 2}, {"round": 3}) == 2
    data = json.loads(db.read_text())
    enc = data["encounters"]["1"]
    assert enc["schema"] == SCHEMA_VERSION and enc["key"] == "old fight"
    assert enc["created"] == enc["updated"] == "2025-01-02T03:04:05+00:00"
    assert "saved" not in enc
    assert data["save_points"]["1"]["schema"] == SCHEMA_VERSION
    with Store(db) as s:  # upgraded once, not every time
        assert s.notices == []
        assert [r["item"] for r in s.load("Old Fight").records] == [1, 2]


def test_migrations_chain_one_version_at_a_time() -> None:
    registry = {
        "encounter": {
            0: lambda d: {**d, "key": d["name"].casefold()},
            1: lambda d: {k if k != "name" else "title": v for k, v in d.items()},
        }
    }
    doc, changed = migrate("encounter", {"name": "Ogre"}, registry=registry, target=2)
    assert changed and doc == {"schema": 2, "key": "ogre", "title": "Ogre"}
    same, changed = migrate("encounter", doc, registry=registry, target=2)
    assert not changed and same == doc


def test_migration_never_mutates_its_input() -> None:
    original: dict[str, Any] = {"name": "Ogre", "saved": "2025-01-01T00:00:00+00:00"}
    migrate("encounter", original)
    assert original == {"name": "Ogre", "saved": "2025-01-01T00:00:00+00:00"}


def test_newer_or_broken_versions_are_refused() -> None:
    with pytest.raises(NewerSchema, match="schema 5"):
        migrate("encounter", {"schema": 5})
    with pytest.raises(CorruptData, match="bad schema version"):
        migrate("encounter", {"schema": "one"})
    with pytest.raises(CorruptData, match="no migration"):
        migrate("encounter", {"schema": 0}, registry={"encounter": {}})


def test_every_kind_has_a_path_from_version_0_to_current() -> None:
    for kind, steps in MIGRATIONS.items():
        assert all(v in steps for v in range(SCHEMA_VERSION)), kind
