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

Deferred sections.  A snapshot (or save point) may hold some values as
deferred sections (``saves.journal``: the snapshot dict had a ``Deferred``
there; ``saves.live`` puts the session's undo history and the older part of
its log in them): they are written in the same file, in the same atomic
write, under the same CRC, and come back from ``load`` /
``load_save_point`` as ``Deferred`` values that are parsed only when
called, so opening a long fight parses neither its undo history nor its
older log.  The store itself never parses them.

Schema versions: every stored document carries ``"schema"``: 1 in the index
and the journal lines, 3 in snapshot and save-point files (version 1 files,
with the history inline, and version 2 files, with at most one deferred
section, are read as they are); see ``saves.migrations`` for the upgrade
path.

Only one process may open a database for writing: the second gets
``DatabaseLocked`` ("… is in use by PID 1234").  A ``Store`` is safe to share
between threads of one process (calls are serialised).

Read-only access.  ``Store(path, read_only=True)`` is for looking at a
database another process may have open for writing (``list``, ``show``,
``export`` while the TUI runs).  It takes no lock at all: the writer's lock
is non-blocking, so even a brief shared lock could make a tracker starting
at that moment fail, and readers do not need one, because every file is
either replaced atomically (index, snapshots, save points: a reader sees
the old or the new whole file) or only appended to (journals: a line whose
append is still in progress fails its checksum and is simply not there
yet).  What keeps a reader consistent:

* the index is re-read whenever its bytes differ from the bytes last
  parsed (the file is small; its inode, size and times are not trusted: a
  replaced file can get the freed inode back, with the same size, within
  one tick of the file system's clock), and read again if it changed while
  the encounter directories were looked at;
* ``list`` opens each journal the index names; one already gone means a
  compaction or delete moved the index on, so the index is read again and
  the list made again (never the older summary the index held before);
* ``load`` opens the snapshot and the journal of one generation before
  reading either; a file deleted by a compaction after it was opened is
  still read whole, and one already gone means the index moved on, so it
  is read again (compaction deletes a generation only after the index
  names the next one);
* a save point file replaced since the index was read is handled the same.

A read-only store never writes, moves, repairs or deletes anything, nor
creates the lock file or folders: a damaged index is read from the
encounter directories in memory, a journal damaged in the middle is read up
to the damage, leftovers of interrupted operations are ignored, and each of
these is said in a notice ("Opened read-only, so … was left as it is").
Every method that would change something (``create``, ``append``,
``compact``, ``save_point``, ``delete``) raises ``DatabaseReadOnly``.  A
reader may see a state a moment old, never a half-written one.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import re
import threading
import unicodedata
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

import platformdirs
from tinydb import TinyDB

from rules.errors import ActionError
from rules.text import MAX_TITLE, check_text, name_key, visible
from saves.errors import (
    CorruptData,
    DatabaseLocked,
    DatabaseReadOnly,
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
    seal_document,
    unseal,
)
from saves.lock import FileLock
from saves.migrations import FILE_SCHEMA_VERSION, SCHEMA_VERSION, migrate

__all__ = [
    "DatabaseLocked",
    "DatabaseReadOnly",
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
#: A read-only store re-reads the index when a writer changed it while it was
#: being read, at most this many times (then it uses what it read last).
_READ_ATTEMPTS = 10


def default_db_path() -> Path:
    """``$COMBAT_TRACKER_DB`` if set, else ``encounters.json`` in the user
    data directory (platformdirs, app name ``combat-tracker``)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("combat-tracker")) / "encounters.json"


class Summary(NamedTuple):
    """One line of the encounter list (newest first)."""

    name: str
    round: Any
    active: Any
    combatants: Any
    started: Any
    updated: datetime
    save_points: int


class Loaded(NamedTuple):
    """An encounter as saved: the last snapshot and every record appended
    after it, in order, plus what loading it found.

    ``notices`` holds one sentence per problem this load found and dealt
    with (a journal damaged in the middle, a missing journal); show them
    after loading.  They are also added to ``store.notices`` as before.
    """

    snapshot: dict[str, Any]
    records: list[dict[str, Any]]
    notices: tuple[str, ...] = ()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _parse_time(text: Any) -> datetime:
    try:
        value = datetime.fromisoformat(str(text))
    except ValueError:
        return _EPOCH
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _clean_name(name: Any, what: str = "encounter name") -> str:
    """A name to look up: trimmed and NFC-normalised (not checked, so an
    encounter saved under a name refused today can still be opened)."""
    if not isinstance(name, str) or not name.strip():
        raise SaveError(f"The {what} must be a non-empty text (got {visible(repr(name))}).")
    return unicodedata.normalize("NFC", name.strip())


def _new_name(name: Any, what: str = "encounter name") -> str:
    """A name to save something under: also free of control, bidirectional
    and invisible characters, and at most MAX_TITLE characters."""
    try:
        return check_text(what, _clean_name(name, what), MAX_TITLE)
    except ActionError as exc:
        raise SaveError(f"The {exc}.") from None


def _require_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SaveError(f"The {what} must be a JSON object (dict), not {type(value).__name__}.")
    return value


def _new_id(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name_key(name)).strip("-")[:32].strip("-")
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
    return _parse_sealed(raw, kind)


def _parse_sealed(raw: bytes, kind: str) -> dict[str, Any]:
    """Check the bytes of a sealed snapshot / save-point file."""
    doc, _ = migrate(kind, unseal(raw), target=FILE_SCHEMA_VERSION)
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


def _file_stamp(path: Path) -> tuple[int, ...] | None:
    """What changes whenever a file is replaced or appended to (None if
    it does not exist)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _read_generation(
    snapshot: Path, journal: Path
) -> tuple[bytes | None, bytes | None, tuple[int, ...] | None]:
    """The bytes of a snapshot and of its journal (None for a missing file)
    and the journal's :func:`_file_stamp`; both files are opened before
    either is read."""
    fds: list[int | None] = []
    try:
        for path in (snapshot, journal):
            try:
                fds.append(os.open(path, os.O_RDONLY))
            except FileNotFoundError:
                fds.append(None)
        stamp = None
        if fds[1] is not None:
            st = os.fstat(fds[1])
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        raw, data = (None if fd is None else _read_fd(fd) for fd in fds)
        return raw, data, stamp
    finally:
        for fd in fds:
            if fd is not None:
                os.close(fd)


def _read_fd(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


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
    design; every public method raises only :class:`SaveError` subclasses.

    ``Store(path, read_only=True)`` opens the database to look at it while
    another process may have it open for writing (see "Read-only access" in
    the module docstring): no lock, no file is ever written, and every
    method that would change something raises :class:`DatabaseReadOnly`."""

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self.path = self.path.absolute()
        self.dir = Path(f"{self.path}.d")
        self.read_only = read_only
        # What recovery did, one sentence each, not yet taken (take_notices):
        # filled on open, and by load() if a journal needed repair.
        self.notices: list[str] = []
        self._mutex = threading.RLock()
        self._journals: dict[str, JournalWriter] = {}
        self._enc: dict[str, dict[str, Any]] = {}  # key -> encounter doc (+ "doc_id")
        self._sp: dict[str, dict[str, dict[str, Any]]] = {}  # id -> label key -> doc
        self._recovering = False
        self._closed = True
        self._lock: FileLock | None = None
        # Read-only only: the bytes of the index file as last parsed (None:
        # no file; see _refresh), the journal records of encounters rebuilt
        # in memory from their files, and the last kept record of journals
        # found damaged by load().
        self._raw: bytes | None = None
        self._adopted: dict[str, builtins.list[Entry]] = {}
        self._kept_tails: dict[str, tuple[Any, Entry | None]] = {}
        if self.path.is_dir():
            raise SaveError(f"The database path {self.path} is a directory, not a file.")
        if not read_only:
            try:
                make_dirs(self.path.parent)
            except OSError as exc:
                raise SaveError(
                    f"Cannot create the folder {self.path.parent}: {exc.strerror or exc}."
                ) from None
            self._lock = FileLock(Path(f"{self.path}.lock"), self.path)
        try:
            if read_only:
                self._refresh()
            else:
                self._open_index(self._read_index_file())
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
            if self._lock is not None:
                self._lock.release()

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
            for attempt in range(_READ_ATTEMPTS):
                try:
                    return self._list_once(strict=self.read_only and attempt + 1 < _READ_ATTEMPTS)
                except FileNotFoundError:
                    # Read-only: a journal the index names is gone, so a
                    # writer compacted or deleted since the index was read.
                    # Read it again and start over; if it did not change,
                    # the journal really is missing (shown from the index).
                    if not self._refresh():
                        break
            return self._list_once(strict=False)

    def _list_once(self, strict: bool) -> builtins.list[Summary]:
        """``list()`` from the index as read; ``strict``: a journal the index
        names that is missing raises FileNotFoundError (see ``_latest``)."""
        out = []
        for doc in self._enc.values():
            summary, updated = self._latest(doc, strict)
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
        out.sort(key=lambda s: (-s.updated.timestamp(), name_key(s.name)))
        return out

    def exists(self, name: str) -> bool:
        """Whether an encounter with this name (ignoring case) is saved."""
        with self._op():
            return name_key(_clean_name(name)) in self._enc

    def create(self, name: str, snapshot: dict[str, Any], summary: dict[str, Any]) -> None:
        """Save a new encounter; EncounterExists if the name is taken
        (names are compared ignoring case)."""
        with self._op(write=f"save the new encounter {name!r}"):
            name = _new_name(name)
            existing = self._enc.get(name_key(name))
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
                        "key": name_key(name),
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
        with self._op(write=f"save an action of {name!r}"):
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
            if self.read_only:
                return self._load_read_only(name)
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
        with self._op(write=f"compact {name!r}"):
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
        with self._op(write=f"save the save point {label!r} of {name!r}"):
            doc = self._get(name)
            label = _new_name(label, "save point label")
            _require_dict(snapshot, "snapshot")
            _require_dict(summary, "summary")
            now = _now()
            file = f"savepoint-{uuid.uuid4().hex[:12]}.json"
            envelope = {
                "schema": FILE_SCHEMA_VERSION,
                "kind": "save_point",
                "id": doc["id"],
                "name": doc["name"],
                "label": label,
                "created": now,
                "summary": summary,
                "snapshot": snapshot,
            }
            body = seal_document(envelope, "save point snapshot or summary")
            directory = self.dir / doc["id"]
            table = self._db.table(SAVE_POINTS)
            old = self._sp.get(doc["id"], {}).get(name_key(label))
            fields = {"label": label, "file": file, "created": now}
            try:
                atomic_write(directory / file, body)
                if old is None:
                    table.insert(
                        {
                            "schema": SCHEMA_VERSION,
                            "encounter": doc["id"],
                            "key": name_key(label),
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
            label = _clean_name(label, "save point label")
            for attempt in range(_READ_ATTEMPTS if self.read_only else 1):
                doc, point, path = self._save_point(name, label)
                try:
                    raw = path.read_bytes()
                except FileNotFoundError:
                    # Read-only: a writer replaced (or deleted) the save
                    # point since the index was read; read it again.
                    if attempt + 1 < _READ_ATTEMPTS and self.read_only and self._refresh():
                        continue
                    raw = None
                except OSError:
                    raw = None
                break
            try:
                envelope = (
                    _read_sealed(path, "save_point")
                    if raw is None
                    else _parse_sealed(raw, "save_point")
                )
            except CorruptData as exc:
                raise SaveError(
                    f"The save point {point['label']!r} of {doc['name']!r} ({path}) "
                    f"is damaged: {exc.message}."
                ) from None
            snapshot: dict[str, Any] = envelope["snapshot"]
            return snapshot

    def delete(self, name: str) -> None:
        """Remove an encounter, its journal and its save points."""
        with self._op(write=f"delete {name!r}"):
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
    def _op(self, write: str | None = None) -> Iterator[None]:
        """Serialise one public call.  ``write`` names what a changing call
        does (refused when read-only); a reading call on a read-only store
        first re-reads the index if a writer has changed it."""
        with self._mutex:
            if self._closed:
                raise SaveError(f"The database {self.path} has been closed.")
            if self.read_only:
                if write is not None:
                    raise DatabaseReadOnly(self.path, write)
                try:
                    self._refresh()
                except OSError as exc:
                    raise self._io_error("read the database", exc) from None
            yield

    def _read_index_file(self) -> bytes | None:
        """The bytes of the index file; None if there is none yet."""
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None

    def _open_index(self, raw: bytes | None) -> None:
        """Read the index (``raw``: the file's bytes, None if there is no
        file) into TinyDB and reconcile it with the encounter directories
        (in memory only when read-only)."""
        data, upgraded = self._read_database(raw)
        self._db = TinyDB(
            str(self.path), storage=AtomicJSONStorage, initial=data, read_only=self.read_only
        )
        self._closed = False
        if upgraded and not self.read_only:
            self._db.storage.write(data)
            self.notices.append(
                f"Upgraded {upgraded} saved document(s) in {self.path} "
                f"to schema version {SCHEMA_VERSION}."
            )
        self._reindex()
        self._reconcile()

    def _refresh(self) -> bool:
        """Read-only: (re-)read the index if the file changed since it was
        last read; True if it was re-read.  A writer replaces the file
        atomically, so each read sees one whole version; if it changed while
        the encounter directories were being looked at, read it again.

        "Changed" means its bytes differ from the bytes last parsed.  The
        file's inode, size and times are not enough: on ext4 a replaced
        file can get the inode just freed, keep the same size and be
        stamped within the same tick of the kernel's coarse clock, and a
        reader trusting that would keep listing an old generation.  The
        index is small, so reading it on every call is cheap; it is only
        parsed again when it differs."""
        raw = self._read_index_file()
        if not self._closed and raw == self._raw:
            return False
        had = builtins.list(self.notices)
        for _ in range(_READ_ATTEMPTS):
            if not self._closed:
                self._db.close()
            self._enc, self._sp, self._adopted = {}, {}, {}
            self._recovering = False
            del self.notices[len(had) :]
            self._open_index(raw)
            after = self._read_index_file()
            if after == raw:
                break
            raw = after
        self._raw = raw
        # Say each thing once even if the index is read again later.
        fresh = [n for n in self.notices[len(had) :] if n not in had]
        self.notices[len(had) :] = fresh
        return True

    def _io_error(self, doing: str, exc: OSError) -> SaveError:
        return SaveError(f"Could not {doing} in {self.path}: {exc.strerror or exc}.")

    def _read_database(self, raw: bytes | None) -> tuple[dict[str, Any], int]:
        """The index (``raw``: the file's bytes, None if there is no file) as
        a dict, migrated; a damaged file is moved aside and recovery from the
        encounter directories is scheduled."""
        if raw is None:
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
            self._recovering = True
            if self.read_only:
                self.notices.append(
                    f"The database file {self.path} is damaged ({exc.message}). "
                    "Opened read-only, so it was left as it is and the encounters were "
                    "read from their own files (open combat-tracker normally to repair it)."
                )
                return {}, 0
            aside = move_aside(self.path, "corrupt")
            self.notices.append(
                f"The database file {self.path} was damaged ({exc.message}). "
                f"It was moved to {aside} and a fresh database was started."
            )
            return {}, 0

    def _reindex(self) -> None:
        self._enc = {}
        for d in self._db.table(ENCOUNTERS).all():
            self._enc[name_key(d["name"])] = {**d, "doc_id": d.doc_id}
        self._sp = {}
        for d in self._db.table(SAVE_POINTS).all():
            self._sp.setdefault(d["encounter"], {})[name_key(d["label"])] = {
                **d,
                "doc_id": d.doc_id,
            }

    def _get(self, name: str) -> dict[str, Any]:
        doc = self._enc.get(name_key(_clean_name(name)))
        if doc is None:
            raise EncounterNotFound(name)
        return doc

    def _save_point(self, name: str, label: str) -> tuple[dict[str, Any], dict[str, Any], Path]:
        """The encounter, the save point's index entry and its file."""
        doc = self._get(name)
        point = self._sp.get(doc["id"], {}).get(name_key(label))
        if point is None:
            raise SavePointNotFound(doc["name"], label)
        return doc, point, self.dir / doc["id"] / point["file"]

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

    def _latest(self, doc: dict[str, Any], strict: bool = False) -> tuple[dict[str, Any], str]:
        """The newest summary and time: the journal's last line if it is
        newer than the snapshot, else the index entry.

        ``strict`` (read-only): a missing journal raises FileNotFoundError
        rather than falling back to the index entry, because that usually
        means a writer compacted (or deleted) after the index was read, and
        the entry then holds the summary of the *previous* compaction, older
        than actions the writer had already acknowledged.  Once the journal
        is open, it is read whole even if the writer deletes it meanwhile,
        and it holds every action acknowledged while the index named it."""
        writer = self._journals.get(doc["id"])
        path = self.dir / doc["id"] / f"journal-{doc['gen']}.jsonl"
        kept = self._kept_tails.get(doc["id"])
        if writer is not None:
            last = writer.last
        elif doc["id"] in self._adopted:
            entries = self._adopted[doc["id"]]
            last = entries[-1] if entries else None
        elif kept is not None and kept[0] == (doc["gen"], _file_stamp(path)):
            # Read-only, and load() found this very file damaged in the
            # middle: its last line is past the damage and is not kept.
            last = kept[1]
        else:
            last = read_tail(path, missing_ok=not strict)
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
            "schema": FILE_SCHEMA_VERSION,
            "kind": "snapshot",
            "id": enc_id,
            "name": name,
            "gen": gen,
            "seq": seq,
            "created": now,
            "summary": summary,
            "snapshot": snapshot,
        }
        return seal_document(envelope, "snapshot or summary")

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

    def _read_snapshot(self, doc: dict[str, Any], raw: bytes | None = None) -> dict[str, Any]:
        """The current snapshot envelope (from ``raw`` if already read)."""
        path = self.dir / doc["id"] / f"snapshot-{doc['gen']}.json"
        try:
            return _read_sealed(path, "snapshot") if raw is None else _parse_sealed(raw, "snapshot")
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

    def _load_read_only(self, name: str) -> Loaded:
        """``load()`` that changes nothing.  The snapshot and the journal of
        one generation are both opened before either is read, so a writer
        compacting meanwhile (which deletes them only after the index names
        the next generation) cannot mix generations: a file deleted after
        it was opened is still read whole, and a file already gone means
        the index changed, so it is read again.  A journal damaged in the
        middle is reported, never repaired or moved."""
        first_notice = len(self.notices)
        for attempt in range(_READ_ATTEMPTS):
            doc = self._get(name)
            directory = self.dir / doc["id"]
            jpath = directory / f"journal-{doc['gen']}.jsonl"
            if doc["id"] in self._adopted:  # rebuilt in memory from several journals
                envelope = self._read_snapshot(doc)
                entries = self._adopted[doc["id"]]
                break
            try:
                raw, data, jstamp = _read_generation(
                    directory / f"snapshot-{doc['gen']}.json", jpath
                )
            except OSError as exc:
                raise self._io_error(f"read {doc['name']!r}", exc) from None
            if (raw is None or data is None) and attempt + 1 < _READ_ATTEMPTS and self._refresh():
                continue  # compacted or deleted by a writer since the index was read
            envelope = self._read_snapshot(doc, raw)
            if data is None:
                self.notices.append(
                    f"The journal of {doc['name']!r} ({jpath}) is missing; showing its last "
                    "snapshot only. Opened read-only, so nothing was changed."
                )
                data = b""
            result = scan(data, envelope["seq"])
            entries = result.entries
            if result.damage is not None:
                damage = result.damage
                self.notices.append(
                    f"The journal of {doc['name']!r} is damaged at line {damage.line} "
                    f"({damage.reason}): showing the {len(entries)} action(s) before that "
                    f"line and leaving out {damage.dropped_lines} line(s) from there on. "
                    f"Opened read-only, so the file was left as it is: {jpath}."
                )
                last = entries[-1] if entries else None
                self._kept_tails[doc["id"]] = ((doc["gen"], jstamp), last)
            break
        found = tuple(self.notices[first_notice:])
        return Loaded(envelope["snapshot"], [e.record for e in entries], found)

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
                if not self.read_only:
                    remove_tree(path)  # a create that never returned
                continue
            if not _ID_RE.fullmatch(entry.name):
                continue
            if (path / DELETED_MARKER).exists():
                if entry.name in known:
                    self._forget(entry.name)
                if not self.read_only:
                    remove_tree(path)
                continue
            if entry.name not in known:
                self._adopt(path)
        for doc in list(self._enc.values()):
            if not (self.dir / doc["id"]).is_dir():
                self._missing(doc)

    def _missing(self, doc: dict[str, Any]) -> None:
        done = "it is not shown" if self.read_only else "it was removed from the list"
        self.notices.append(
            f"The files of encounter {doc['name']!r} ({self.dir / doc['id']}) are missing; {done}."
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
            why = "; ".join(problems) or "it holds no snapshot"
            if self.read_only:
                self.notices.append(
                    f"Could not read the saved files in {directory} ({why}). "
                    "Opened read-only, so they were left as they are."
                )
                return
            aside = move_aside(directory, "unrecoverable")
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
                if self.read_only:
                    damaged_note = (
                        f" Its journal {jpath} is damaged at line {result.damage.line}; "
                        "the actions from there on are not shown (the file was left as it is)."
                    )
                    break
                aside = keep_copy_aside(jpath, "corrupt")
                damaged_note = (
                    f" Its journal was damaged at line {result.damage.line}; "
                    f"actions after that were dropped (the damaged journal was kept as {aside})."
                )
                break
        if self.read_only:
            self._adopted[directory.name] = entries
        else:
            self._normal_form(directory, gen, journals, entries)
        name = envelope["name"].strip() or directory.name
        base, n = name, 2
        while name_key(name) in self._enc:
            name = f"{base} (recovered{'' if n == 2 else f' {n - 1}'})"
            n += 1
        self._db.table(ENCOUNTERS).insert(
            {
                "schema": SCHEMA_VERSION,
                "id": directory.name,
                "name": name,
                "key": name_key(name),
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
        if self.read_only:
            found = f"Read encounter {name!r} from {directory} (read-only, nothing was changed; "
        else:
            found = f"Recovered encounter {name!r} from {directory} ("
        self.notices.append(
            f"{found}{why}): its last snapshot, "
            f"{len(entries)} action(s) after it and {points} save point(s).{damaged_note}"
        )

    @staticmethod
    def _normal_form(
        directory: Path, gen: int, journals: builtins.list[int], entries: builtins.list[Entry]
    ) -> None:
        """After adoption: one snapshot generation and its journal, on disk."""
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

    def _adopt_save_points(self, directory: Path) -> int:
        best: dict[str, dict[str, Any]] = {}
        for path in sorted(directory.glob("savepoint-*.json")):
            try:
                env = _read_sealed(path, "save_point")
            except CorruptData as exc:
                self.notices.append(f"The save point file {path} is damaged ({exc.message}).")
                continue
            key = name_key(env["label"])
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
