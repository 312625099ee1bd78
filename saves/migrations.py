"""Schema versions of stored documents and the migrations between them
(issue 3, Saves: "a schema version in every stored document").

Every document the store writes carries ``"schema": SCHEMA_VERSION``: the
encounter and save-point documents in the TinyDB file, the snapshot and
save-point files, and every journal line.  A document is migrated on load
by applying the registered functions ``from N -> N+1`` in turn; a document
without a ``schema`` key is version 0.  A document newer than this code
raises :class:`~saves.errors.NewerSchema` (it is never rewritten or moved).

Version 0 is the unversioned layout of the first development builds:
documents carried no ``schema`` key, encounter documents had no case-folded
``key`` (names were compared as typed) and recorded a single ``saved``
timestamp instead of ``created`` / ``updated``.

Snapshot and save-point *files* (the sealed envelopes beside the index)
carry ``FILE_SCHEMA_VERSION`` instead: version 2 is the layout whose undo
history may be a deferred section (``saves.journal``, "Deferred sections"),
read back unparsed; version 3 may hold several deferred sections (the undo
history and the older part of the log, whose entries a version 2 reader
would silently leave out).  Version 1 (the history inline) and version 2
files need no change and are read as they are; an older program refuses a
newer file as "saved by a newer combat-tracker" (the first section's place
is written in the one-section form, so the older program reads the file far
enough to see its schema) instead of reading it without its history or its
older log.  The index documents and journal lines did not change and stay
at version 1.

To change a layout: bump ``SCHEMA_VERSION`` (or ``FILE_SCHEMA_VERSION``) and
register one function per kind with ``@migration(kind, from_version=…)``.
Migrations are pure: they get a copy of the document and return the new
document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from saves.errors import CorruptData, NewerSchema

SCHEMA_VERSION = 1
#: the schema of snapshot and save-point files (``migrate(..., target=FILE_SCHEMA_VERSION)``)
FILE_SCHEMA_VERSION = 3

KINDS = ("encounter", "save_point", "snapshot", "journal")

Migration = Callable[[dict[str, Any]], dict[str, Any]]
Registry = Mapping[str, Mapping[int, Migration]]

MIGRATIONS: dict[str, dict[int, Migration]] = {kind: {} for kind in KINDS}


def migration(kind: str, from_version: int) -> Callable[[Migration], Migration]:
    """Register ``fn`` as the migration of ``kind`` documents from
    ``from_version`` to ``from_version + 1``."""
    if kind not in MIGRATIONS:
        raise ValueError(f"unknown document kind {kind!r}")

    def register(fn: Migration) -> Migration:
        MIGRATIONS[kind][from_version] = fn
        return fn

    return register


def version_of(doc: Mapping[str, Any]) -> int:
    """The schema version of a stored document (0 when it has none)."""
    version = doc.get("schema", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CorruptData(f"bad schema version {version!r}")
    return version


def migrate(
    kind: str,
    doc: Mapping[str, Any],
    *,
    registry: Registry | None = None,
    target: int = SCHEMA_VERSION,
) -> tuple[dict[str, Any], bool]:
    """Bring ``doc`` up to ``target``; returns ``(document, changed)``.

    Raises NewerSchema for documents from a newer program and CorruptData
    when a step is missing (a gap in the registry is a bug, not user data).
    """
    steps = (registry if registry is not None else MIGRATIONS).get(kind, {})
    version = version_of(doc)
    if version > target:
        raise NewerSchema(
            f"This {kind.replace('_', ' ')} was saved by a newer combat-tracker "
            f"(schema {version}); this version reads schema {target} and older. "
            "Upgrade combat-tracker to open it."
        )
    current = dict(doc)
    changed = False
    while version < target:
        step = steps.get(version)
        if step is None:
            raise CorruptData(f"no migration for {kind} documents from schema {version}")
        current = step(dict(current))
        current["schema"] = version + 1
        version += 1
        changed = True
    return current, changed


# --- version 0 -> 1 -------------------------------------------------------


@migration("encounter", 0)
def _encounter_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    saved = doc.pop("saved", None) or "1970-01-01T00:00:00+00:00"
    doc.setdefault("key", str(doc.get("name", "")).casefold())
    doc.setdefault("created", saved)
    doc.setdefault("updated", saved)
    return doc


@migration("save_point", 0)
def _save_point_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    saved = doc.pop("saved", None) or "1970-01-01T00:00:00+00:00"
    doc.setdefault("key", str(doc.get("label", "")).casefold())
    doc.setdefault("created", saved)
    return doc


@migration("snapshot", 0)
def _snapshot_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    saved = doc.pop("saved", None) or "1970-01-01T00:00:00+00:00"
    doc.setdefault("created", saved)
    return doc


@migration("journal", 0)
def _journal_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    doc.setdefault("t", "1970-01-01T00:00:00+00:00")
    return doc


# --- files: version 1 -> 2 -----------------------------------------------


@migration("snapshot", 1)
@migration("save_point", 1)
def _file_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """A version 1 file holds its undo history inline: still readable as is."""
    return doc


# --- files: version 2 -> 3 -----------------------------------------------


@migration("snapshot", 2)
@migration("save_point", 2)
def _file_2_to_3(doc: dict[str, Any]) -> dict[str, Any]:
    """A version 2 file holds at most one deferred section (the undo
    history) and its whole log inline: still readable as is."""
    return doc
