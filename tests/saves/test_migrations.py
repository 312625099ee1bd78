"""Schema versions (issue 10): everything starts at schema 1, a document
from a newer tracker is refused with a clear message and left alone, and
the migration registry is ready for the first real change."""

from __future__ import annotations

import pytest

from saves.errors import CorruptData, NewerSchema
from saves.migrations import KINDS, MIGRATIONS, SCHEMA_VERSION, migrate


def test_a_current_document_needs_no_migration() -> None:
    for kind in KINDS:
        doc = {"schema": SCHEMA_VERSION, "name": "Bridge"}
        assert migrate(kind, doc) == (doc, False)
    assert all(not steps for steps in MIGRATIONS.values())  # nothing released needs one


def test_registered_migrations_chain_one_version_at_a_time_without_mutating() -> None:
    registry = {
        "encounter": {
            1: lambda d: {**d, "key": d["name"].casefold()},
            2: lambda d: {**d, "tags": []},
        }
    }
    old = {"schema": 1, "name": "Bridge"}
    new, changed = migrate("encounter", old, registry=registry, target=3)
    assert changed and new == {"schema": 3, "name": "Bridge", "key": "bridge", "tags": []}
    assert old == {"schema": 1, "name": "Bridge"}


def test_newer_missing_or_broken_versions_are_refused() -> None:
    with pytest.raises(NewerSchema, match="saved by a newer combat-tracker"):
        migrate("snapshot", {"schema": SCHEMA_VERSION + 1})
    with pytest.raises(CorruptData, match="no migration"):
        migrate("snapshot", {"schema": 1}, registry={}, target=2)
    for bad in (None, "1", True, 0, -3):
        with pytest.raises(CorruptData, match="bad schema version"):
            migrate("steps", {"schema": bad})
