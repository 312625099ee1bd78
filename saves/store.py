"""The encounter store: the catalogue, and for each encounter its steps
file and state file (the README's Design section draws the layout).  It
persists opaque JSON dicts and knows nothing of the rules.  One process
writes (it holds the lock); readers (``Store(path, read_only=True)``:
``list``, ``show``, ``export`` while the app runs) take no lock and need no
retries, because every file is replaced atomically or only appended to,
and never write, move or repair anything.  How folders are built, opened,
repaired and deleted is ``saves.recovery``; the encounter list,
``saves.listing``.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

import platformdirs

from rules.text import name_key
from saves.catalogue import ID_RE, Catalogue, free_name, reread
from saves.errors import (
    CorruptData,
    DatabaseReadOnly,
    EncounterExists,
    EncounterNotFound,
    SaveError,
    SavePointNotFound,
)
from saves.fsutil import make_dirs
from saves.listing import Summary, summaries
from saves.lock import FileLock
from saves.names import clean_name, label_key, new_id, new_name, now, parse_time
from saves.state import StateFile, own_points, snapshot_doc
from saves.step_lines import origin_line, step_line
from saves.steps import StepsFile

ENV_VAR = "COMBAT_TRACKER_DB"


def default_db_path() -> Path:
    """``$COMBAT_TRACKER_DB`` if set, else ``encounters.json`` in the user
    data directory (platformdirs, app name ``combat-tracker``)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("combat-tracker")) / "encounters.json"


class Loaded(NamedTuple):
    """An encounter as saved: its snapshot (None when it had to be rebuilt
    from the steps file, then ``origin`` is the encounter as created), the
    records of the steps after it, and what loading found."""

    snapshot: dict[str, Any] | None
    records: list[dict[str, Any]]
    origin: dict[str, Any] | None = None
    notices: tuple[str, ...] = ()


class Open(NamedTuple):
    """An encounter this store has loaded: its steps file and state file."""

    steps: StepsFile
    state: StateFile


class Store:
    """A database of saved encounters; every public method raises only
    :class:`SaveError` subclasses.  Safe to share between threads."""

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        given = Path(path).expanduser() if path is not None else default_db_path()
        # A database reached through a symbolic link is the link's target:
        # the lock, the folders and every replacement go beside it.
        self.path = Path(os.path.realpath(given))
        self.dir = Path(f"{self.path}.d")
        self.read_only = read_only
        self.notices: list[str] = []
        self._mutex = threading.RLock()
        self._open: dict[str, Open] = {}
        self._lock: FileLock | None = None
        self._closed = False
        if self.path.is_dir():
            raise SaveError(f"The database path {self.path} is a directory, not a file.")
        try:
            from saves.recovery import read_catalogue, reconcile, refuse_foreign

            refuse_foreign(self)  # before a lock or a folder is made beside it
            if not read_only:
                make_dirs(self.path.parent)
                self._lock = FileLock(Path(f"{self.path}.lock"), self.path)
            self.catalogue = Catalogue(self.path, read_catalogue(self), read_only)
            self.notices += reconcile(self)
        except OSError as exc:
            self.close()
            raise SaveError(
                f"Cannot open the database {self.path}: {exc.strerror or exc}."
            ) from None
        except BaseException:
            self.close()
            raise

    #: why the catalogue was rebuilt from the folders at open, if it was
    recovering: str | None = None

    def holds(self, path: str | Path) -> bool:
        """Whether *path* (through links) is the catalogue, a file beside it
        named after it (lock, temp, damaged copies) or in its folder: what
        another program writing there would destroy."""
        target = Path(os.path.realpath(Path(path).expanduser()))
        beside = target.parent == self.path.parent and target.name.startswith(f"{self.path.name}.")
        with contextlib.suppress(OSError):  # a hard link to the catalogue
            beside = beside or os.path.samefile(target, self.path)
        return target == self.path or beside or self.dir in target.parents

    # --- context manager ----------------------------------------------------

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
        """Close every file and release the lock (idempotent)."""
        with self._mutex:
            for opened in self._open.values():
                opened.steps.close()
            self._open.clear()
            self._closed = True
            if self._lock is not None:
                self._lock.release()

    # --- reading -------------------------------------------------------------

    def take_notices(self) -> builtins.list[str]:
        """Every notice not taken yet, oldest first, then forget them."""
        with self._mutex:
            taken, self.notices[:] = builtins.list(self.notices), []
            return taken

    def list(self) -> builtins.list[Summary]:
        """Every saved encounter, most recently changed first.  Reads the
        catalogue and the last line of each steps file."""
        with self._op():
            out, notices = summaries(self.catalogue, self.dir)
            self._note(notices)
            return out

    def exists(self, name: str) -> bool:
        with self._op():
            return name_key(clean_name(name)) in self.catalogue.by_key

    def load(self, name: str, distrust: str | None = None) -> Loaded:
        """The snapshot and the records after it (or, when the snapshot is
        unusable, every record from the origin; *distrust*: the caller found
        it unusable, and says why).  Opens the encounter for appending."""
        with self._op():
            from saves.recovery import load

            doc = self._get(name)
            self._close(doc["id"])
            loaded, opened = load(self, doc, distrust)
            self._open[doc["id"]] = opened
            self.notices += loaded.notices
            return loaded

    def cut_steps(self, name: str, seq: int, reason: str) -> None:
        """The loaded encounter's step *seq* is sealed but does not replay:
        keep a copy of the steps file and cut it there (a reader only says
        so).  Its notice joins the others."""
        with self._mutex:
            steps = self._loaded(name).steps
            steps.cut(seq, reason)
            self.notices += steps.notices[-1:]

    def read_steps(self, name: str, seqs: Sequence[int]) -> builtins.list[dict[str, Any]]:
        """The records of the loaded encounter's steps *seqs*."""
        with self._op():
            opened = self._loaded(name)
            try:
                return opened.steps.read(seqs)
            except OSError as exc:
                raise SaveError(
                    f"Cannot read {opened.steps.path}: {exc.strerror or exc}."
                ) from None

    def origin(self, name: str) -> dict[str, Any]:
        """The encounter as it was created (its steps file's first line)."""
        with self._op():
            opened = self._loaded(name)
            try:
                origin: dict[str, Any] = opened.steps.origin()["origin"]
            except (OSError, CorruptData) as exc:
                raise SaveError(f"Cannot read the start of {opened.steps.path}: {exc}.") from None
            return origin

    def save_points(self, name: str) -> builtins.list[tuple[str, datetime]]:
        """``(label, created)`` of the encounter's save points, newest first."""
        with self._op():
            points = [(p["label"], parse_time(p["created"])) for p in self._points(name)]
            return sorted(points, key=lambda p: p[1], reverse=True)

    def load_save_point(self, name: str, label: str) -> dict[str, Any]:
        """The save point *label*: ``{"session", "ui", "seq", …}``."""
        with self._op():
            # the key as the file's labels are read (a label only of
            # whitespace, from a hand edit, is listed and picked as it is)
            key = label_key(label) if isinstance(label, str) else None
            for point in self._points(name):
                if point["key"] == key:
                    return point
            clean_name(label, "save point label")  # a blank label none has: say so
            raise SavePointNotFound(self._get(name)["name"], label)

    # --- writing ---------------------------------------------------------------

    def create(
        self,
        name: str,
        origin: dict[str, Any],
        snapshot: dict[str, Any],
        summary: dict[str, Any],
        records: Sequence[dict[str, Any]] = (),
        history_of: tuple[str, int] | None = None,
    ) -> None:
        """Save a new encounter, all or nothing: its origin, its first
        *records* (steps 1, 2, …) or a copy of another encounter's steps
        up to a save point (*history_of* = ``(name, label)`` …), and its
        snapshot.  EncounterExists if the name is taken (ignoring case)."""
        with self._op(write=f"save the new encounter {name!r}"):
            from saves.recovery import build

            name = new_name(name)
            existing = self.catalogue.by_key.get(name_key(name))
            if existing is not None:
                raise EncounterExists(name, existing["name"])
            copied = b""
            if history_of is not None:
                copied = self._loaded(history_of[0]).steps.raw_lines(1, history_of[1])
            enc_id, t = new_id(name), now()
            lines = [copied] if copied else []
            lines += [step_line(i, t, summary, r) for i, r in enumerate(records, 1)]
            seq = history_of[1] if history_of else len(records)
            try:
                build(
                    self,
                    enc_id,
                    origin_line(enc_id, name, t, origin),
                    lines,
                    seq,
                    snapshot,
                    summary,
                )
                self.catalogue.add(enc_id, name, t, summary)
            except OSError as exc:
                from saves.recovery import discard

                discard(self, enc_id)
                raise self._io_error(f"save the new encounter {name!r}", exc) from None

    def append(self, name: str, seq: int, record: dict[str, Any], summary: dict[str, Any]) -> None:
        """Durably append step *seq*'s record; returns once it is fsynced."""
        with self._op(write=f"save an action of {name!r}"):
            self._loaded(name).steps.append(seq, step_line(seq, now(), summary, record))

    def compact(
        self, name: str, snapshot: dict[str, Any], summary: dict[str, Any], seq: int
    ) -> None:
        """Replace the snapshot by *snapshot*, the fight as of step *seq*
        (already appended): one atomic write."""
        with self._op(write=f"save the state of {name!r}"):
            doc, opened = self._get(name), self._loaded(name)
            t = now()
            try:
                opened.state.write_snapshot(
                    snapshot_doc(doc, opened.steps, seq, snapshot, summary, t)
                )
                self.catalogue.update(doc["id"], summary=summary, updated=t)
            except OSError as exc:
                raise self._io_error(f"save the state of {doc['name']!r}", exc) from None

    def save_point(
        self, name: str, label: str, snapshot: dict[str, Any], summary: dict[str, Any], seq: int
    ) -> None:
        """Keep *snapshot* (the fight as of step *seq*) under *label*;
        an existing label (ignoring case) is replaced."""
        with self._op(write=f"save the save point {label!r} of {name!r}"):
            doc, opened = self._get(name), self._loaded(name)
            label = new_name(label, "save point label")
            t = now()
            point = snapshot_doc(doc, opened.steps, seq, snapshot, summary, t)
            point.update(label=label, key=name_key(label), created=t)
            try:
                opened.state.put_save_point(point)
                count = len(opened.state.save_points())
                self.catalogue.update(doc["id"], save_points=count)
            except OSError as exc:
                raise self._io_error(f"save the save point {label!r}", exc) from None

    def delete(self, name: str) -> None:
        """Remove an encounter, its steps and its save points.  Works on a
        full disk: the folder is renamed away and emptied (freeing space)
        before the catalogue is rewritten."""
        with self._op(write=f"delete {name!r}"):
            from saves.recovery import delete

            doc = self._get(name)
            self._close(doc["id"])
            try:
                delete(self, doc)
            except OSError as exc:
                raise self._io_error(f"delete {doc['name']!r}", exc) from None

    # --- internals -------------------------------------------------------------

    @contextlib.contextmanager
    def _op(self, write: str | None = None) -> Iterator[None]:
        """Serialise one public call; refuse a change when read-only.  A
        reader reads the catalogue afresh (it is small, and replaced whole)."""
        with self._mutex:
            if self._closed:
                raise SaveError(f"The database {self.path} has been closed.")
            if self.read_only:
                if write is not None:
                    raise DatabaseReadOnly(self.path, write)
                fresh = reread(self.path, self.recovering is not None)
                self.catalogue = fresh if fresh is not None else self.catalogue
            yield

    def _close(self, enc_id: str) -> None:
        opened = self._open.pop(enc_id, None)
        if opened is not None:
            opened.steps.close()

    def _note(self, notices: Iterable[str]) -> None:
        for notice in notices:
            if notice not in self.notices:
                self.notices.append(notice)

    def _get(self, name: str) -> dict[str, Any]:
        doc = self.catalogue.by_key.get(name_key(clean_name(name)))
        if doc is None:
            raise EncounterNotFound(name)
        return doc

    def _loaded(self, name: str) -> Open:
        doc = self._get(name)
        opened = self._open.get(doc["id"])
        if opened is None:
            self.load(name)
            opened = self._open[doc["id"]]
        return opened

    def _points(self, name: str) -> builtins.list[dict[str, Any]]:
        doc = self._get(name)
        opened = self._open.get(doc["id"])
        # a reader reads the file afresh: the writer may have replaced it
        # since this reader loaded the encounter
        if opened is not None and not self.read_only:
            points = opened.state.save_points()
        else:
            from saves.recovery import read_state

            state, problem = read_state(self, doc)
            if problem:
                raise SaveError(f"The save points of {doc['name']!r} cannot be read: {problem}.")
            points = state.save_points() if state is not None else []
        kept, notices = own_points(doc, points)
        self._note(notices)
        return kept

    def _io_error(self, doing: str, exc: OSError) -> SaveError:
        return SaveError(f"Could not {doing} in {self.path}: {exc.strerror or exc}.")

    def folder(self, enc_id: str) -> Path:
        if not ID_RE.fullmatch(enc_id):
            raise SaveError(f"{enc_id!r} is not an encounter folder name.")
        return self.dir / enc_id

    def unique_name(self, name: str) -> str:
        return free_name(name, set(self.catalogue.by_key))
