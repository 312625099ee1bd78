"""Schema versions of stored documents (catalogue entries, snapshots, save
points, a steps file's first line) and the pure migrations ``N -> N+1``
applied on load; a document newer than this code raises
:class:`~saves.errors.NewerSchema` and is never rewritten.  There is one
version yet: to change a layout, bump ``SCHEMA_VERSION`` and register one
function per kind with ``@migration(kind, from_version=…)``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from saves.errors import CorruptData, NewerSchema

SCHEMA_VERSION = 1

KINDS = ("encounter", "snapshot", "save_point", "steps")

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
    """The schema version of a stored document."""
    version = doc.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
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
