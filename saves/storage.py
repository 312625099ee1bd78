"""The one TinyDB ``Storage`` of the catalogue and the state files.  The
stock ``JSONStorage`` re-parses the file on every query and rewrites it in
place (a kill mid-write leaves half a file); :class:`SealedStorage` parses
once and serves from memory (only the lock holder writes) and writes a
sealed copy by atomic replacement.  A failed write reads the file back, so
memory matches the disk; a read-only storage keeps writes in memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from saves.errors import CorruptData
from saves.fsutil import atomic_write
from saves.seal import seal, unseal

Tables = dict[str, dict[str, Any]]


def parse_tables(raw: bytes) -> Tables:
    """The tables of a sealed TinyDB file, shape-checked; CorruptData says
    what is wrong.  An empty file is an empty database."""
    if not raw.strip():
        return {}
    data = unseal(raw.rstrip(b"\n"))
    data.pop("crc", None)
    tables: Tables = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise CorruptData(f"table {name!r} is not a JSON object")
        for doc_id, doc in table.items():
            if not isinstance(doc, dict) or not doc_id.isdigit():
                raise CorruptData(f"document {doc_id!r} of table {name!r} is malformed")
        tables[name] = table
    return tables


class SealedStorage(Storage):
    """TinyDB storage: parsed once, served from memory, replaced atomically."""

    def __init__(self, path: str, tables: Tables | None = None, read_only: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.read_only = read_only
        self._tables: Tables | None = tables

    def read(self) -> Tables | None:
        return self._tables

    def write(self, data: Tables) -> None:
        if not self.read_only:
            try:
                atomic_write(self.path, seal(dict(data), "database") + b"\n")
            except BaseException:
                # TinyDB changed the served dict in place before asking to
                # write it: put back what is still on disk.
                self._tables = self._reread()
                raise
        self._tables = data

    def _reread(self) -> Tables | None:
        try:
            return parse_tables(self.path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, CorruptData):
            return self._tables

    def close(self) -> None:
        pass
