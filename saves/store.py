"""The encounter store: TinyDB index + per-encounter journals and snapshots
(issue 3, Saves).  The store persists opaque JSON dicts; it knows nothing
of the rules.

Design
======

Layout, for a database ``encounters.json``::

    encounters.json          TinyDB index (table "encounters": id, name,
                             case-folded key, snapshot generation and
                             sequence, summary at the snapshot, times;
                             table "save_points": encounter id, label, file)
    encounters.json.lock     flock'ed while a process has the database open;
                             holds its PID
    encounters.json.d/<id>/  one directory per encounter:
        snapshot-<gen>.json  the last full snapshot (state, log, history)
        journal-<gen>.jsonl  one line per action appended since that snapshot
        savepoint-<hex>.json named save points

Saving one action (``append``) writes one checksummed line to the
encounter's journal and fsyncs that file; nothing else is read or written.
The cost is therefore independent of the fight's length and of how many
other encounters exist (TinyDB's stock ``JSONStorage`` rewrites the whole
database, every fight and every log, per write).  Each line carries the
encounter's latest summary, so ``list()`` reads only the tail of each
journal (seeking from its end) to show current rounds and times.

Crash safety.  ``append`` returns after the line is fsynced.  A kill or power
cut mid-write leaves at most a torn last line, which fails its CRC-32 and is
ignored (it was never acknowledged) and cut off before the next append.
Every other file is replaced atomically (temp file, fsync, ``os.replace``,
fsync of the directory), so the TinyDB file always parses.

Compaction (``compact``) folds the journal into a new snapshot in four
steps: (1) write ``snapshot-<g+1>`` (2) create an empty ``journal-<g+1>``
(3) point the index at generation g+1 (4) delete generation g.  Until step
3 the index still names generation g, which is complete; after it,
generation g+1 is complete and g is garbage.  Records with a sequence number
not above the snapshot's are skipped on load, so replaying a journal over a
newer snapshot can never apply an action twice.

Recovery.  The index is only a catalogue: each encounter directory holds
everything needed to rebuild its entry (snapshots and save points carry the
encounter's id, name and summary).  A damaged index is never overwritten: it
is moved aside as ``encounters.json.corrupt-YYYYMMDD-HHMMSS``, a fresh index
is started and every encounter directory is re-adopted (the newest readable
snapshot plus the consecutive journal records after it).  A journal damaged
in the middle keeps the records before the damage; the damaged file is
kept beside it as ``journal-<g>.jsonl.corrupt-…``.

Notices.  What recovery did is said in one sentence per problem, for the UI
or CLI to show once.  Opening the store may find problems (a damaged index,
unlisted or missing encounter files); loading an encounter may find more (a
journal damaged in the middle is only discovered by reading it whole).  So:
``load()`` returns the notices of that load in ``Loaded.notices``, and
``take_notices()`` returns every notice not taken yet and forgets it (call
it after opening and after each load).  ``store.notices`` is the list of
every notice not yet taken, appended to by opening and by ``load()``.

Summaries.  ``list()`` reads only each journal's last line, so before an
encounter is loaded it cannot know that a line in the middle is damaged: it
shows the summary of the last line written.  ``load()`` (or the first
``append``) cuts the journal back to the line before the damage, and from
then on ``list()`` shows the summary saved with the last action kept.

Schema versions: every stored document carries ``"schema": 1``; see
``saves.migrations`` for the upgrade path.

Only one process may open a database: the second gets ``DatabaseLocked``
("… is in use by PID 1234").  A ``Store`` is safe to share between threads of
one process (calls are serialised).
"""

from __future__ import annotations

import builtins
import contextlib
import os
import re
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import platformdirs
from tinydb import TinyDB

from saves.errors import (
    CorruptData,
    DatabaseLocked,
    EncounterExists,
    EncounterNotFound,
    NewerSchema,
    SaveError,
    SavePointNotFound,
)
from saves.fsutil import (
    atomic_write,
    fsync_dir,
    keep_copy_aside,
    make_dirs,
    move_aside,
    remove_tree,
)
from saves.index import ENCOUNTERS, SAVE_POINTS, AtomicJSONStorage, parse_database
from saves.journal import (
    Entry,
    JournalWriter,
    encode_entry,
    read_tail,
    scan,
    seal,
    unseal,
)
from saves.lock import FileLock
from saves.migrations import SCHEMA_VERSION, migrate

__all__ = [
    "DatabaseLocked",
    "EncounterExists",
    "EncounterNotFound",
    "Loaded",
    "SaveError",
    "SavePointNotFound",
    "Store",
    "Summary",
    "default_db_path",
]

ENV_VAR = "COMBAT_TRACKER_DB"
DELETED_MARKER = "DELETED"
_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")
_GEN_RE = re.compile(r"(snapshot|journal)-([0-9]+)\.(json|jsonl)")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def default_db_path() -> Path:
    """``$COMBAT_TRACKER_DB`` if set, else ``encounters.json`` in the user
    data directory (platformdirs, app name ``combat-tracker``)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("combat-tracker")) / "encounters.json"


@dataclass(frozen=True)
class Summary:
    """One line of the encounter list (newest first)."""

    name: str
    round: Any
    active: Any
    combatants: Any
    started: Any
    updated: datetime
    save_points: int


@dataclass(frozen=True)
class Loaded:
    """An encounter as saved: the last snapshot and every record appended
    after it, in order, plus what loading it found.

    ``notices`` holds one sentence per problem this load found and dealt
    with (a journal damaged in the middle, a missing journal); show them
    after loading.  They are also added to ``store.notices`` as before.

    Still unpacks as a pair: ``snapshot, records = store.load(name)``.
    """

    snapshot: dict[str, Any]
    records: list[dict[str, Any]]
    notices: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[Any]:
        return iter((self.snapshot, self.records))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _parse_time(text: Any) -> datetime:
    try:
        value = datetime.fromisoformat(str(text))
    except ValueError:
        return _EPOCH
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _clean_name(name: Any, what: str = "encounter name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise SaveError(f"The {what} must be a non-empty text (got {name!r}).")
    return name.strip()


def _require_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SaveError(f"The {what} must be a JSON object (dict), not {type(value).__name__}.")
    return value


def _new_id(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:32].strip("-")
    return f"{slug}-{uuid.uuid4().hex[:8]}" if slug else uuid.uuid4().hex[:12]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_encounter_doc(doc: dict[str, Any]) -> None:
    if not (isinstance(doc.get("id"), str) and _ID_RE.fullmatch(doc["id"])):
        raise CorruptData(f"an encounter has a bad id {doc.get('id')!r}")
    for key in ("name", "key", "created", "updated"):
        if not isinstance(doc.get(key), str):
            raise CorruptData(f"encounter {doc['id']} has no {key}")
    if not (_is_int(doc.get("gen")) and doc["gen"] >= 1):
        raise CorruptData(f"encounter {doc['id']} has a bad generation")
    if not (_is_int(doc.get("snapshot_seq")) and doc["snapshot_seq"] >= 0):
        raise CorruptData(f"encounter {doc['id']} has a bad snapshot sequence")
    if not isinstance(doc.get("summary"), dict):
        raise CorruptData(f"encounter {doc['id']} has no summary")


def _check_save_point_doc(doc: dict[str, Any]) -> None:
    for key in ("encounter", "label", "key", "file", "created"):
        if not isinstance(doc.get(key), str):
            raise CorruptData(f"a save point has no {key}")
    if "/" in doc["file"] or not doc["file"].startswith("savepoint-"):
        raise CorruptData(f"a save point has a bad file name {doc['file']!r}")


def _read_sealed(path: Path, kind: str) -> dict[str, Any]:
    """Read a sealed snapshot / save-point file; CorruptData if unusable."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CorruptData(f"cannot read it ({exc.strerror or exc})") from None
    doc, _ = migrate(kind, unseal(raw))
    if doc.get("kind") != kind:
        raise CorruptData(f"it is not a {kind} file")
    if not isinstance(doc.get("snapshot"), dict) or not isinstance(doc.get("summary"), dict):
        raise CorruptData("its snapshot or summary is missing")
    if not isinstance(doc.get("name"), str) or not isinstance(doc.get("created"), str):
        raise CorruptData("its name or time is missing")
    if kind == "snapshot" and not (_is_int(doc.get("seq")) and doc["seq"] >= 0):
        raise CorruptData("its sequence number is missing")
    if kind == "save_point" and not isinstance(doc.get("label"), str):
        raise CorruptData("its label is missing")
    return doc


def _generations(directory: Path, prefix: str) -> list[int]:
    gens = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            m = _GEN_RE.fullmatch(entry.name)
            if m and m.group(1) == prefix:
                gens.append(int(m.group(2)))
    return sorted(gens)


class Store:
    """A database of saved encounters.  See the module docstring for the
    design; every public method raises only :class:`SaveError` subclasses."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self.path = self.path.absolute()
        self.dir = Path(f"{self.path}.d")
        # What recovery did, one sentence each, for the UI/CLI to show once:
        # filled on open, and by load() if a journal needed repair.
        self.notices: list[str] = []
        self._mutex = threading.RLock()
        self._journals: dict[str, JournalWriter] = {}
        self._enc: dict[str, dict[str, Any]] = {}  # key -> encounter doc (+ "doc_id")
        self._sp: dict[str, dict[str, dict[str, Any]]] = {}  # id -> label key -> doc
        self._recovering = False
        self._closed = True
        if self.path.is_dir():
            raise SaveError(f"The database path {self.path} is a directory, not a file.")
        try:
            make_dirs(self.path.parent)
        except OSError as exc:
            raise SaveError(
                f"Cannot create the folder {self.path.parent}: {exc.strerror or exc}."
            ) from None
        self._lock = FileLock(Path(f"{self.path}.lock"), self.path)
        try:
            data, upgraded = self._read_database()
            self._db = TinyDB(str(self.path), storage=AtomicJSONStorage, initial=data)
            self._closed = False
            if upgraded:
                self._db.storage.write(data)
                self.notices.append(
                    f"Upgraded {upgraded} saved document(s) in {self.path} "
                    f"to schema version {SCHEMA_VERSION}."
                )
            self._reindex()
            self._reconcile()
        except OSError as exc:
            self.close()
            raise SaveError(
                f"Cannot open the database {self.path}: {exc.strerror or exc}."
            ) from None
        except BaseException:
            self.close()
            raise

    # --- context manager ---------------------------------------------------

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close journals and release the database lock (idempotent)."""
        with self._mutex:
            for writer in self._journals.values():
                writer.close()
            self._journals.clear()
            if not self._closed:
                self._db.close()
            self._closed = True
            lock = getattr(self, "_lock", None)
            if lock is not None:
                lock.release()

    # --- public API --------------------------------------------------------

    def take_notices(self) -> builtins.list[str]:
        """Every notice not taken yet (from opening and from each load),
        oldest first, and forget them: call it after opening and again
        after loading to show each notice exactly once."""
        with self._mutex:
            taken = builtins.list(self.notices)
            self.notices.clear()
            return taken

    def list(self) -> list[Summary]:
        """Every saved encounter, most recently saved first.  Reads the
        index and only the tail of each journal."""
        with self._op():
            out = []
            for doc in self._enc.values():
                summary, updated = self._latest(doc)
                out.append(
                    Summary(
                        name=doc["name"],
                        round=summary.get("round"),
                        active=summary.get("active"),
                        combatants=summary.get("combatants"),
                        started=summary.get("started"),
                        updated=_parse_time(updated),
                        save_points=len(self._sp.get(doc["id"], {})),
                    )
                )
            out.sort(key=lambda s: (-s.updated.timestamp(), s.name.casefold()))
            return out

    def exists(self, name: str) -> bool:
        """Whether an encounter with this name (ignoring case) is saved."""
        with self._op():
            return _clean_name(name).casefold() in self._enc

    def create(self, name: str, snapshot: dict[str, Any], summary: dict[str, Any]) -> None:
        """Save a new encounter; EncounterExists if the name is taken
        (names are compared ignoring case)."""
        with self._op():
            name = _clean_name(name)
            existing = self._enc.get(name.casefold())
            if existing is not None:
                raise EncounterExists(name, existing["name"])
            _require_dict(snapshot, "snapshot")
            _require_dict(summary, "summary")
            enc_id = _new_id(name)
            now = _now()
            body = self._snapshot_bytes(enc_id, name, 1, 0, now, snapshot, summary)
            try:
                make_dirs(self.dir)
                # Build the directory under a hidden name and rename it into
                # place, so a crash never leaves a half-made encounter.
                staging = self.dir / f".{enc_id}.tmp"
                staging.mkdir()
                atomic_write(staging / "snapshot-1.json", body)
                self._start_journal(staging, 1)
                os.rename(staging, self.dir / enc_id)
                fsync_dir(self.dir)
                self._db.table(ENCOUNTERS).insert(
                    {
                        "schema": SCHEMA_VERSION,
                        "id": enc_id,
                        "name": name,
                        "key": name.casefold(),
                        "gen": 1,
                        "snapshot_seq": 0,
                        "summary": summary,
                        "created": now,
                        "updated": now,
                    }
                )
            except OSError as exc:
                raise self._io_error(f"save the new encounter {name!r}", exc) from None
            self._reindex()

    def append(self, name: str, record: dict[str, Any], summary: dict[str, Any]) -> int:
        """Durably append one action record; returns its sequence number
        once the line is fsynced (autosave; issue 3)."""
        with self._op():
            doc = self._get(name)
            _require_dict(record, "action record")
            _require_dict(summary, "summary")
            writer = self._writer(doc)
            seq = writer.last_seq + 1
            t = _now()
            writer.append(encode_entry(seq, t, summary, record))
            writer.last_seq = seq
            writer.last = Entry(seq, t, dict(summary), {})
            return seq

    def load(self, name: str) -> Loaded:
        """The last snapshot and every record appended after it, in order.
        Repairs a torn or damaged journal; what it found is in the result's
        ``notices`` (and appended to ``store.notices``)."""
        with self._op():
            first_notice = len(self.notices)
            doc = self._get(name)
            envelope = self._read_snapshot(doc)
            old = self._journals.pop(doc["id"], None)
            if old is not None:
                old.close()
            self._tidy(doc)
            writer, entries = self._open_journal(doc, envelope["seq"])
            self._journals[doc["id"]] = writer
            found = tuple(self.notices[first_notice:])
            return Loaded(envelope["snapshot"], [e.record for e in entries], found)

    def compact(self, name: str, snapshot: dict[str, Any], summary: dict[str, Any]) -> None:
        """Replace the snapshot and its journal by ``snapshot``, which the
        caller built by folding every record appended so far.  Crash-safe at
        every step (see the module docstring)."""
        with self._op():
            doc = self._get(name)
            _require_dict(snapshot, "snapshot")
            _require_dict(summary, "summary")
            writer = self._writer(doc)
            seq, old_gen, gen = writer.last_seq, doc["gen"], doc["gen"] + 1
            now = _now()
            body = self._snapshot_bytes(doc["id"], doc["name"], gen, seq, now, snapshot, summary)
            directory = self.dir / doc["id"]
            try:
                self._write_snapshot(directory, gen, body)
                self._start_journal(directory, gen)
                self._commit_generation(doc, gen, seq, summary, now)
            except OSError as exc:
                for stale in (f"snapshot-{gen}.json", f"journal-{gen}.jsonl"):
                    with contextlib.suppress(OSError):
                        os.unlink(directory / stale)
                raise self._io_error(f"compact {doc['name']!r}", exc) from None
            writer.close()
            self._journals[doc["id"]] = JournalWriter(
                directory / f"journal-{gen}.jsonl", 0, seq, None
            )
            self._remove_generation(directory, old_gen)

    def save_point(
        self, name: str, label: str, snapshot: dict[str, Any], summary: dict[str, Any]
    ) -> None:
        """Keep ``snapshot`` under ``label`` (labels ignore case; saving an
        existing label replaces it)."""
        with self._op():
            doc = self._get(name)
            label = _clean_name(label, "save point label")
            _require_dict(snapshot, "snapshot")
            _require_dict(summary, "summary")
            now = _now()
            file = f"savepoint-{uuid.uuid4().hex[:12]}.json"
            envelope = {
                "schema": SCHEMA_VERSION,
                "kind": "save_point",
                "id": doc["id"],
                "name": doc["name"],
                "label": label,
                "created": now,
                "summary": summary,
                "snapshot": snapshot,
            }
            body = seal(envelope, "save point snapshot or summary")
            directory = self.dir / doc["id"]
            table = self._db.table(SAVE_POINTS)
            old = self._sp.get(doc["id"], {}).get(label.casefold())
            fields = {"label": label, "file": file, "created": now}
            try:
                atomic_write(directory / file, body)
                if old is None:
                    table.insert(
                        {
                            "schema": SCHEMA_VERSION,
                            "encounter": doc["id"],
                            "key": label.casefold(),
                            **fields,
                        }
                    )
                else:
                    table.update(fields, doc_ids=[old["doc_id"]])
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.unlink(directory / file)
                raise self._io_error(f"save the save point {label!r}", exc) from None
            if old is not None:
                with contextlib.suppress(OSError):
                    os.unlink(directory / old["file"])
                fsync_dir(directory)
            self._reindex()

    def save_points(self, name: str) -> builtins.list[tuple[str, datetime]]:
        """``(label, created)`` of the encounter's save points, newest first."""
        with self._op():
            doc = self._get(name)
            points = [(p["label"], _parse_time(p["created"])) for p in self._sp_of(doc)]
            points.sort(key=lambda p: p[1], reverse=True)
            return points

    def load_save_point(self, name: str, label: str) -> dict[str, Any]:
        """The snapshot kept under ``label``."""
        with self._op():
            doc = self._get(name)
            label = _clean_name(label, "save point label")
            point = self._sp.get(doc["id"], {}).get(label.casefold())
            if point is None:
                raise SavePointNotFound(doc["name"], label)
            path = self.dir / doc["id"] / point["file"]
            try:
                envelope = _read_sealed(path, "save_point")
            except CorruptData as exc:
                raise SaveError(
                    f"The save point {point['label']!r} of {doc['name']!r} ({path}) "
                    f"is damaged: {exc.message}."
                ) from None
            snapshot: dict[str, Any] = envelope["snapshot"]
            return snapshot

    def delete(self, name: str) -> None:
        """Remove an encounter, its journal and its save points."""
        with self._op():
            doc = self._get(name)
            directory = self.dir / doc["id"]
            writer = self._journals.pop(doc["id"], None)
            if writer is not None:
                writer.close()
            try:
                if directory.exists():
                    atomic_write(directory / DELETED_MARKER, b"deleted\n")
                self._forget(doc["id"])
            except OSError as exc:
                raise self._io_error(f"delete {doc['name']!r}", exc) from None
            remove_tree(directory)

    # --- internals: index ----------------------------------------------------

    @contextlib.contextmanager
    def _op(self) -> Iterator[None]:
        with self._mutex:
            if self._closed:
                raise SaveError(f"The database {self.path} has been closed.")
            yield

    def _io_error(self, doing: str, exc: OSError) -> SaveError:
        return SaveError(f"Could not {doing} in {self.path}: {exc.strerror or exc}.")

    def _read_database(self) -> tuple[dict[str, Any], int]:
        """The index as a dict, migrated; a damaged file is moved aside and
        recovery from the encounter directories is scheduled."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}, 0
        try:
            data = parse_database(raw)
            upgraded = 0
            for table, kind, check in (
                (ENCOUNTERS, "encounter", _check_encounter_doc),
                (SAVE_POINTS, "save_point", _check_save_point_doc),
            ):
                docs = data.get(table, {})
                seen: set[str] = set()
                for doc_id, doc in list(docs.items()):
                    new, changed = migrate(kind, doc)
                    check(new)
                    ident = new["key"] if kind == "encounter" else new["encounter"] + new["key"]
                    if ident in seen:
                        raise CorruptData(f"two {kind}s are both named {new.get('name')!r}")
                    seen.add(ident)
                    docs[doc_id] = new
                    upgraded += changed
            return data, upgraded
        except NewerSchema as exc:
            raise NewerSchema(f"{self.path}: {exc.message}") from None
        except CorruptData as exc:
            aside = move_aside(self.path, "corrupt")
            self._recovering = True
            self.notices.append(
                f"The database file {self.path} was damaged ({exc.message}). "
                f"It was moved to {aside} and a fresh database was started."
            )
            return {}, 0

    def _reindex(self) -> None:
        self._enc = {}
        for d in self._db.table(ENCOUNTERS).all():
            self._enc[d["key"]] = {**d, "doc_id": d.doc_id}
        self._sp = {}
        for d in self._db.table(SAVE_POINTS).all():
            self._sp.setdefault(d["encounter"], {})[d["key"]] = {**d, "doc_id": d.doc_id}

    def _get(self, name: str) -> dict[str, Any]:
        doc = self._enc.get(_clean_name(name).casefold())
        if doc is None:
            raise EncounterNotFound(name)
        return doc

    def _sp_of(self, doc: dict[str, Any]) -> builtins.list[dict[str, Any]]:
        return builtins.list(self._sp.get(doc["id"], {}).values())

    def _forget(self, enc_id: str) -> None:
        """Remove an encounter's documents from the index."""
        sp_ids = [p["doc_id"] for p in self._sp.get(enc_id, {}).values()]
        if sp_ids:
            self._db.table(SAVE_POINTS).remove(doc_ids=sp_ids)
        enc_ids = [d["doc_id"] for d in self._enc.values() if d["id"] == enc_id]
        if enc_ids:
            self._db.table(ENCOUNTERS).remove(doc_ids=enc_ids)
        self._reindex()

    def _commit_generation(
        self, doc: dict[str, Any], gen: int, seq: int, summary: dict[str, Any], now: str
    ) -> None:
        """Compaction step 3: the index now names generation ``gen``."""
        self._db.table(ENCOUNTERS).update(
            {"gen": gen, "snapshot_seq": seq, "summary": summary, "updated": now},
            doc_ids=[doc["doc_id"]],
        )
        self._reindex()

    def _latest(self, doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The newest summary and time: the journal's last line if it is
        newer than the snapshot, else the index entry."""
        writer = self._journals.get(doc["id"])
        if writer is not None:
            last = writer.last
        else:
            last = read_tail(self.dir / doc["id"] / f"journal-{doc['gen']}.jsonl")
        if last is not None and last.seq > doc["snapshot_seq"]:
            return last.summary, last.t
        return doc["summary"], doc["updated"]

    # --- internals: files ----------------------------------------------------

    @staticmethod
    def _snapshot_bytes(
        enc_id: str,
        name: str,
        gen: int,
        seq: int,
        now: str,
        snapshot: dict[str, Any],
        summary: dict[str, Any],
    ) -> bytes:
        envelope = {
            "schema": SCHEMA_VERSION,
            "kind": "snapshot",
            "id": enc_id,
            "name": name,
            "gen": gen,
            "seq": seq,
            "created": now,
            "summary": summary,
            "snapshot": snapshot,
        }
        return seal(envelope, "snapshot or summary")

    @staticmethod
    def _write_snapshot(directory: Path, gen: int, body: bytes) -> None:
        """Compaction step 1."""
        atomic_write(directory / f"snapshot-{gen}.json", body)

    @staticmethod
    def _start_journal(directory: Path, gen: int) -> None:
        """Compaction step 2: a new, empty journal generation."""
        path = directory / f"journal-{gen}.jsonl"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(directory)

    @staticmethod
    def _remove_generation(directory: Path, gen: int) -> None:
        """Compaction step 4: drop the folded generation."""
        for stale in (f"snapshot-{gen}.json", f"journal-{gen}.jsonl"):
            with contextlib.suppress(OSError):
                os.unlink(directory / stale)
        fsync_dir(directory)

    def _read_snapshot(self, doc: dict[str, Any]) -> dict[str, Any]:
        path = self.dir / doc["id"] / f"snapshot-{doc['gen']}.json"
        try:
            return _read_sealed(path, "snapshot")
        except CorruptData as exc:
            raise SaveError(
                f"The saved snapshot of {doc['name']!r} ({path}) is unusable: {exc.message}. "
                "Its save points (if any) can still be loaded."
            ) from None

    def _tidy(self, doc: dict[str, Any]) -> None:
        """Remove leftovers of interrupted operations in one encounter's
        directory: other generations, temp files, unreferenced save points."""
        directory = self.dir / doc["id"]
        wanted = {f"snapshot-{doc['gen']}.json", f"journal-{doc['gen']}.jsonl"}
        wanted |= {p["file"] for p in self._sp_of(doc)}
        removed = False
        with contextlib.suppress(OSError):
            for entry in os.scandir(directory):
                name = entry.name
                generation = _GEN_RE.fullmatch(name) is not None
                save_point = name.startswith("savepoint-") and name.endswith(".json")
                leftover = ".tmp-" in name or ((generation or save_point) and name not in wanted)
                if leftover:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
                        removed = True
        if removed:
            fsync_dir(directory)

    def _writer(self, doc: dict[str, Any]) -> JournalWriter:
        writer = self._journals.get(doc["id"])
        if writer is None or writer.fd is None:
            writer, _ = self._open_journal(doc, doc["snapshot_seq"])
            self._journals[doc["id"]] = writer
        return writer

    def _open_journal(
        self, doc: dict[str, Any], after_seq: int
    ) -> tuple[JournalWriter, builtins.list[Entry]]:
        """Scan the current journal, repair it if needed, open it for append."""
        directory = self.dir / doc["id"]
        path = directory / f"journal-{doc['gen']}.jsonl"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            self.notices.append(
                f"The journal of {doc['name']!r} ({path}) was missing; "
                "actions after its last snapshot could not be restored."
            )
            self._start_journal(directory, doc["gen"])
            data = b""
        except OSError as exc:
            raise SaveError(f"Cannot read the journal {path}: {exc.strerror or exc}.") from None
        result = scan(data, after_seq)
        if result.damage is not None:
            damage = result.damage
            aside = keep_copy_aside(path, "corrupt")
            atomic_write(path, data[: result.good_end])
            self.notices.append(
                f"The journal of {doc['name']!r} was damaged at line {damage.line} "
                f"({damage.reason}): kept the {len(result.entries)} action(s) before that "
                f"line and dropped {damage.dropped_lines} line(s) from there on; "
                f"the damaged file is kept as {aside}."
            )
        elif result.torn_bytes:
            # An append that never returned: cut it off so the next line
            # starts on a clean boundary.
            with open(path, "r+b") as fh:
                fh.truncate(result.good_end)
                os.fsync(fh.fileno())
        last = result.entries[-1] if result.entries else None
        writer = JournalWriter(path, result.good_end, result.last_seq, last)
        return writer, result.entries

    # --- internals: reconciliation and recovery -----------------------------

    def _reconcile(self) -> None:
        """Make the index and the encounter directories agree: finish
        interrupted deletes, drop half-made creates, adopt directories the
        index does not list (all of them after a damaged index)."""
        if not self.dir.is_dir():
            for doc in list(self._enc.values()):
                self._missing(doc)
            return
        known = {doc["id"]: doc for doc in self._enc.values()}
        for entry in sorted(os.scandir(self.dir), key=lambda e: e.name):
            if not entry.is_dir():
                continue
            path = Path(entry.path)
            if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                remove_tree(path)  # a create that never returned
                continue
            if not _ID_RE.fullmatch(entry.name):
                continue
            if (path / DELETED_MARKER).exists():
                if entry.name in known:
                    self._forget(entry.name)
                remove_tree(path)
                continue
            if entry.name not in known:
                self._adopt(path)
        for doc in list(self._enc.values()):
            if not (self.dir / doc["id"]).is_dir():
                self._missing(doc)

    def _missing(self, doc: dict[str, Any]) -> None:
        self.notices.append(
            f"The files of encounter {doc['name']!r} ({self.dir / doc['id']}) are missing; "
            "it was removed from the list."
        )
        self._forget(doc["id"])

    def _adopt(self, directory: Path) -> None:
        """Rebuild an index entry from an encounter directory: the newest
        readable snapshot, then the consecutive journal records after it."""
        chosen: tuple[int, dict[str, Any]] | None = None
        problems = []
        for gen in reversed(_generations(directory, "snapshot")):
            try:
                chosen = (gen, _read_sealed(directory / f"snapshot-{gen}.json", "snapshot"))
                break
            except CorruptData as exc:
                problems.append(f"snapshot-{gen}.json: {exc.message}")
        if chosen is None:
            aside = move_aside(directory, "unrecoverable")
            why = "; ".join(problems) or "it holds no snapshot"
            self.notices.append(
                f"Could not recover the saved files in {directory} ({why}). "
                f"They were moved to {aside}."
            )
            return
        gen, envelope = chosen
        after = envelope["seq"]
        entries: list[Entry] = []
        damaged_note = ""
        journals = _generations(directory, "journal")
        for jgen in journals:
            jpath = directory / f"journal-{jgen}.jsonl"
            try:
                result = scan(jpath.read_bytes(), after)
            except OSError:
                continue
            entries += result.entries
            after = result.last_seq
            if result.damage is not None:
                aside = keep_copy_aside(jpath, "corrupt")
                damaged_note = (
                    f" Its journal was damaged at line {result.damage.line}; "
                    f"actions after that were dropped (the damaged journal was kept as {aside})."
                )
                break
        # Normal form: one snapshot generation and its journal.
        journal = directory / f"journal-{gen}.jsonl"
        atomic_write(
            journal, b"".join(encode_entry(e.seq, e.t, e.summary, e.record) for e in entries)
        )
        for other in journals:
            if other != gen:
                with contextlib.suppress(OSError):
                    os.unlink(directory / f"journal-{other}.jsonl")
        for other in _generations(directory, "snapshot"):
            if other != gen:
                with contextlib.suppress(OSError):
                    os.unlink(directory / f"snapshot-{other}.json")
        fsync_dir(directory)

        name = envelope["name"].strip() or directory.name
        base, n = name, 2
        while name.casefold() in self._enc:
            name = f"{base} (recovered{'' if n == 2 else f' {n - 1}'})"
            n += 1
        self._db.table(ENCOUNTERS).insert(
            {
                "schema": SCHEMA_VERSION,
                "id": directory.name,
                "name": name,
                "key": name.casefold(),
                "gen": gen,
                "snapshot_seq": envelope["seq"],
                "summary": envelope["summary"],
                "created": envelope["created"],
                "updated": envelope["created"],
            }
        )
        points = self._adopt_save_points(directory)
        self._reindex()
        why = (
            "after the database was damaged"
            if self._recovering
            else "it was not listed in the database (an interrupted create or delete)"
        )
        self.notices.append(
            f"Recovered encounter {name!r} from {directory} ({why}): its last snapshot, "
            f"{len(entries)} action(s) after it and {points} save point(s).{damaged_note}"
        )

    def _adopt_save_points(self, directory: Path) -> int:
        best: dict[str, dict[str, Any]] = {}
        for path in sorted(directory.glob("savepoint-*.json")):
            try:
                env = _read_sealed(path, "save_point")
            except CorruptData as exc:
                self.notices.append(f"The save point file {path} is damaged ({exc.message}).")
                continue
            key = env["label"].casefold()
            if key not in best or env["created"] > best[key]["created"]:
                best[key] = {**env, "file": path.name}
        table = self._db.table(SAVE_POINTS)
        for key, env in best.items():
            table.insert(
                {
                    "schema": SCHEMA_VERSION,
                    "encounter": directory.name,
                    "key": key,
                    "label": env["label"],
                    "file": env["file"],
                    "created": env["created"],
                }
            )
        return len(best)
