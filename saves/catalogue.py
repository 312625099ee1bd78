"""The catalogue: the TinyDB file at the database path, one ``encounters``
document per saved encounter (id, name, case-folded key, summary, number
of save points, created, updated), through ``saves.storage.SealedStorage``.
It is checked, never trusted: every document is shape-checked on open, a
key that does not match its name is recomputed, and two documents naming
one folder or one name are resolved (the first kept, the second dropped or
renamed), each with a notice; the folders themselves are the truth
(``saves.recovery`` adopts a folder the catalogue does not list and drops
a document whose folder is gone).  A reader rereads it on every call.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from rules.text import name_key
from saves.errors import CorruptData
from saves.fsutil import read_regular
from saves.migrations import SCHEMA_VERSION, migrate
from saves.storage import SealedStorage, Tables, parse_tables

ENCOUNTERS = "encounters"
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")
#: an encounter folder being built, and one being deleted, are renamed so
NEW, DELETED = ".new-", ".deleted-"


def check_entry(doc: Any) -> dict[str, Any]:
    """One catalogue document, migrated and shape-checked."""
    if not isinstance(doc, dict):
        raise CorruptData("an entry is not an object")
    doc, _ = migrate("encounter", doc)
    if not (isinstance(doc.get("id"), str) and ID_RE.fullmatch(doc["id"])):
        raise CorruptData(f"an entry has a bad id {doc.get('id')!r}")
    for key in ("name", "key", "created", "updated"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            raise CorruptData(f"the entry {doc['id']} has no {key}")
    if not isinstance(doc.get("summary"), dict):
        raise CorruptData(f"the entry {doc['id']} has no summary")
    if type(doc.get("save_points", 0)) is not int:
        raise CorruptData(f"the entry {doc['id']} has a bad save-point count")
    return doc


def free_name(name: str, taken: set[str]) -> str:
    """*name*, or ``name (2)``, ``name (3)`` … whichever key is not taken."""
    candidate, n = name, 2
    while name_key(candidate) in taken:
        candidate = f"{name} ({n})"
        n += 1
    return candidate


class Catalogue:
    """The encounters table, indexed by key and by id."""

    def __init__(self, path: Path, tables: Tables | None, read_only: bool) -> None:
        self.db = TinyDB(str(path), storage=SealedStorage, tables=tables, read_only=read_only)
        self.by_key: dict[str, dict[str, Any]] = {}
        self.by_id: dict[str, dict[str, Any]] = {}
        #: deleted, though a failed write left them in the file (tidied at next open)
        self.gone: set[str] = set()
        self.reindex()

    def reindex(self) -> None:
        self.by_key, self.by_id = {}, {}
        for d in self.db.table(ENCOUNTERS).all():
            if d.get("id") in self.gone:
                continue
            doc = {**d, "doc_id": d.doc_id}
            self.by_key[doc["key"]] = doc
            self.by_id[doc["id"]] = doc

    def check(self) -> list[str]:
        """Check every document; repair what can be repaired, drop what
        cannot (its folder is adopted again); one notice per problem."""
        notices: list[str] = []
        table = self.db.table(ENCOUNTERS)
        keep: dict[int, dict[str, Any]] = {}
        ids: set[str] = set()
        keys: set[str] = set()
        for d in table.all():
            try:
                doc = check_entry(dict(d))
            except CorruptData as exc:
                notices.append(f"The database listed an unreadable entry ({exc.message}).")
                continue
            if doc["id"] in ids:
                notices.append(
                    f"The database listed the folder {doc['id']} twice; "
                    f"the second entry ({doc['name']!r}) was dropped."
                )
                continue
            if doc["key"] != name_key(doc["name"]):
                doc["key"] = name_key(doc["name"])
                notices.append(f"The database entry of {doc['name']!r} was repaired.")
            if doc["key"] in keys:
                old = doc["name"]
                doc["name"] = free_name(old, keys)
                doc["key"] = name_key(doc["name"])
                notices.append(
                    f"Two encounters were named {old!r}; the second is now {doc['name']!r}."
                )
            ids.add(doc["id"])
            keys.add(doc["key"])
            keep[d.doc_id] = doc
        if notices:
            table.truncate()
            for doc in keep.values():
                table.insert(doc)
        self.reindex()
        return notices

    def add(self, enc_id: str, name: str, created: str, summary: dict[str, Any]) -> None:
        self.db.table(ENCOUNTERS).insert(
            {
                "schema": SCHEMA_VERSION,
                "id": enc_id,
                "name": name,
                "key": name_key(name),
                "summary": summary,
                "save_points": 0,
                "created": created,
                "updated": created,
            }
        )
        self.reindex()

    def update(self, enc_id: str, **fields: Any) -> None:
        doc = self.by_id[enc_id]
        try:
            self.db.table(ENCOUNTERS).update(fields, doc_ids=[doc["doc_id"]])
        finally:
            self.reindex()

    def remove(self, enc_id: str) -> None:
        doc = self.by_id.get(enc_id)
        if doc is None:
            return
        try:
            self.db.table(ENCOUNTERS).remove(doc_ids=[doc["doc_id"]])
        finally:
            self.reindex()


def reread(path: Path, rebuilt: bool) -> Catalogue | None:
    """A reader's fresh look at the catalogue at *path* (it is small, and
    the writer replaces it whole), checked; None to keep the one read last:
    the file cannot be read, is damaged or of another kind (opening said
    what is wrong), or is missing while the list was *rebuilt* from the
    folders at open."""
    try:
        tables: Tables | None = parse_tables(read_regular(path))
        if tables is not None and set(tables) - {ENCOUNTERS}:
            return None
    except FileNotFoundError:
        if rebuilt:
            return None
        tables = None
    except (OSError, CorruptData):
        return None
    catalogue = Catalogue(path, tables, read_only=True)
    catalogue.check()
    return catalogue
