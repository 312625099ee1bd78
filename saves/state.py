"""One encounter's ``state.json``, a sealed TinyDB file (replaced whole, so
a reader sees the old or the new one) with two tables: ``snapshot``, one
document, the fight as of step ``seq`` (session, UI state, summary, and
``end``, the offset past line ``seq`` in the steps file, where replaying
starts), whose size depends on the combatants, not on the fight's length;
and ``save_points``, one such document per label, plus ``label``, ``key``
(the label case-folded) and ``created``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB
from tinydb.table import Document

if TYPE_CHECKING:
    from saves.steps import StepsFile

from saves.errors import CorruptData, SaveError
from saves.fsutil import read_regular
from saves.migrations import SCHEMA_VERSION, migrate
from saves.names import label_key, shown_label
from saves.storage import SealedStorage, parse_tables

STATE_FILE = "state.json"
SNAPSHOT = "snapshot"
SAVE_POINTS = "save_points"
Doc = dict[str, Any]


def check_snapshot(doc: Any, kind: str = "snapshot") -> dict[str, Any]:
    """A snapshot or save-point document, migrated and shape-checked."""
    if not isinstance(doc, dict):
        raise CorruptData(f"its {kind} is not an object")
    doc, _ = migrate(kind, doc)
    for key in ("seq", "end"):
        if type(doc.get(key)) is not int or doc[key] < 0:
            raise CorruptData(f"its {kind} has a bad {key}")
    for key in ("session", "summary", "ui"):
        if not isinstance(doc.get(key), dict):
            raise CorruptData(f"its {kind} has no {key}")
    if not isinstance(doc.get("id"), str):
        raise CorruptData(f"its {kind} names no encounter")
    if kind == "save_point":
        for key in ("label", "key", "created"):
            if not isinstance(doc.get(key), str):
                raise CorruptData(f"a save point has no {key}")
    return doc


def snapshot_doc(doc: Doc, steps: StepsFile, seq: int, snap: Doc, summary: Doc, t: str) -> Doc:
    if not 0 <= seq <= steps.last_seq:
        raise SaveError(f"Step {seq} of {doc['name']!r} is not saved yet.")
    return new_snapshot(doc["id"], doc["name"], seq, steps.end_of(seq), snap, summary, t)


def new_snapshot(
    enc_id: str, name: str, seq: int, end: int, snap: Doc, summary: Doc, t: str
) -> Doc:
    """The snapshot document of the fight as of step *seq*, whose line in
    the steps file ends at offset *end*."""
    return {
        "schema": SCHEMA_VERSION,
        "id": enc_id,
        "name": name,
        "seq": seq,
        "end": end,
        "t": t,
        "summary": summary,
        "session": snap["session"],
        "ui": snap.get("ui", {}),
    }


def own_points(doc: Doc, points: list[Doc]) -> tuple[list[Doc], list[str]]:
    """The save points that really are *doc*'s, one per label (the newest),
    and a notice for each that names another encounter.  Each label is as a
    lookup reads it (``names.shown_label``), with its key worked out again."""
    kept: dict[str, dict[str, Any]] = {}
    notices = []
    for point in points:
        label = point["label"]
        point = {**point, "label": shown_label(label), "key": label_key(label)}
        if point["id"] != doc["id"]:
            notices.append(
                f"A save point kept with {doc['name']!r} ({point['label']!r}) belongs "
                "to another encounter; it is not offered."
            )
        elif point["key"] not in kept or point["created"] > kept[point["key"]]["created"]:
            kept[point["key"]] = point
    return list(kept.values()), notices


class StateFile:
    """An encounter's ``state.json``, read once (:meth:`read`)."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self._db: TinyDB | None = None

    def read(self) -> None:
        """Parse the file: FileNotFoundError if there is none, OSError if it
        cannot be read, CorruptData (saying why) if it is damaged."""
        tables = parse_tables(read_regular(self.path))
        snapshots = list(tables.get(SNAPSHOT, {}).values())
        if len(snapshots) != 1:
            raise CorruptData(f"it holds {len(snapshots)} snapshots, not one")
        check_snapshot(snapshots[0])
        for doc in tables.get(SAVE_POINTS, {}).values():
            check_snapshot(doc, "save_point")
        if set(tables) - {SNAPSHOT, SAVE_POINTS}:
            raise CorruptData("it holds tables of another kind of file")
        self._open(tables)

    def _open(self, tables: dict[str, Any] | None) -> None:
        self._db = TinyDB(
            str(self.path), storage=SealedStorage, tables=tables, read_only=self.read_only
        )

    def _tinydb(self) -> TinyDB:
        if self._db is None:
            self._open(None)
        assert self._db is not None
        return self._db

    @property
    def snapshot(self) -> dict[str, Any]:
        docs = self._tinydb().table(SNAPSHOT).all()
        if not docs:
            raise CorruptData("it holds no snapshot")
        return dict(docs[0])

    def save_points(self) -> list[dict[str, Any]]:
        return [dict(d) for d in self._tinydb().table(SAVE_POINTS).all()]

    def write_snapshot(self, doc: dict[str, Any]) -> None:
        """Replace the snapshot (one atomic write of the file)."""
        self._tinydb().table(SNAPSHOT).upsert(Document(doc, doc_id=1))

    def put_save_point(self, doc: dict[str, Any]) -> None:
        """Add a save point, or replace the one with the same key."""
        table = self._tinydb().table(SAVE_POINTS)
        for old in table.all():
            if label_key(str(old.get("label", ""))) == doc["key"]:
                table.upsert(Document(doc, doc_id=old.doc_id))
                return
        table.insert(doc)
