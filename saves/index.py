"""The TinyDB index file and its crash-safe storage (issue 3, Saves).

TinyDB's stock ``JSONStorage`` rewrites the file in place: a kill during
that write leaves a truncated, unparsable database.  ``AtomicJSONStorage``
writes a temp file, fsyncs it, ``os.replace``s it over the database and
fsyncs the directory, so the file on disk is always either the old or the
new complete JSON.  The store holds an exclusive lock on the database, so
the storage keeps the last text in memory instead of re-reading the file
for every query.  A read-only store's storage never writes the file: its
changes (an index rebuilt from the encounter files) stay in memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from saves.errors import CorruptData
from saves.fsutil import atomic_write

ENCOUNTERS = "encounters"
SAVE_POINTS = "save_points"


def parse_database(raw: bytes) -> dict[str, dict[str, dict[str, Any]]]:
    """Parse and shape-check the TinyDB file; an empty file is an empty
    database.  Anything else that is not ``{table: {id: {document}}}``
    raises CorruptData with the reason."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise CorruptData("it is not UTF-8 text") from None
    except ValueError as exc:
        raise CorruptData(f"it is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise CorruptData("it is not a JSON object of tables")
    for table_name, table in data.items():
        if not isinstance(table, dict):
            raise CorruptData(f"table {table_name!r} is not a JSON object")
        for doc_id, doc in table.items():
            if not isinstance(doc, dict):
                raise CorruptData(f"document {doc_id} of table {table_name!r} is not an object")
            try:
                int(doc_id)
            except ValueError:
                raise CorruptData(
                    f"table {table_name!r} has a bad document id {doc_id!r}"
                ) from None
    return data


class AtomicJSONStorage(Storage):
    """TinyDB storage: atomic, durable whole-file replacement."""

    def __init__(
        self, path: str, initial: dict[str, Any] | None = None, read_only: bool = False
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.read_only = read_only
        self._text: str | None = json.dumps(initial) if initial else None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._text is None:
            return None
        data: dict[str, dict[str, Any]] = json.loads(self._text)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if not self.read_only:
            atomic_write(self.path, text.encode("utf-8") + b"\n")
        self._text = text

    def close(self) -> None:
        pass
