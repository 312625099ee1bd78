"""How the store opens, builds and removes an encounter's folder, and how
it repairs what it finds: the folders are the truth, the catalogue an index
of them (see ``saves.store``).  Every repair is one sentence for the GM.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saves.catalogue import DELETED, ENCOUNTERS, ID_RE, NEW
from saves.errors import CorruptData, NewerSchema, SaveError
from saves.fsutil import (
    TEMP_MARK,
    fsync_dir,
    make_dirs,
    move_aside,
    read_regular,
    remove_temp_files,
)
from saves.state import STATE_FILE, StateFile, new_snapshot
from saves.step_lines import Line, decode, read_head, read_tail
from saves.steps import STEPS_FILE, StepsFile
from saves.storage import Tables, parse_tables

if TYPE_CHECKING:
    from saves.store import Loaded, Open, Store

# --- one encounter ---------------------------------------------------------


def read_state(store: Store, doc: dict[str, Any]) -> tuple[StateFile | None, str | None]:
    """The encounter's state file, read; or None and why not (None: it has none)."""
    path = store.folder(doc["id"]) / STATE_FILE
    state = StateFile(path, store.read_only)
    try:
        state.read()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read {path} ({exc.strerror or exc})"
    except CorruptData as exc:
        return None, exc.message
    if state.snapshot["id"] != doc["id"]:
        return None, "it belongs to another encounter"
    return state, None


def load(store: Store, doc: dict[str, Any], distrust: str | None = None) -> tuple[Loaded, Open]:
    """Open an encounter: its snapshot and the steps after it, or, when the
    snapshot is missing, damaged or does not fit (or the caller found it
    unusable: *distrust* says why), every step from the origin.  A damaged
    state file is moved aside; one that reads but does not fit keeps its
    save points."""
    try:
        return _load(store, doc, distrust)
    except OSError as exc:
        raise SaveError(
            f"Cannot open {doc['name']!r} in {store.folder(doc['id'])}: {exc.strerror or exc}."
        ) from None


def _load(store: Store, doc: dict[str, Any], distrust: str | None) -> tuple[Loaded, Open]:
    from saves.store import Loaded, Open

    folder = store.folder(doc["id"])
    name = doc["name"]
    notices: list[str] = []
    state, problem = read_state(store, doc)
    kept = state  # a state file that reads keeps its save points even if distrusted
    if distrust is not None:
        state, problem = None, distrust
    steps = StepsFile(folder / STEPS_FILE, store.read_only)
    lines: list[Line] | None = None
    if state is not None:
        snap = state.snapshot
        try:
            lines = steps.open((snap["seq"], snap["end"]))
        except CorruptData as exc:
            problem, state = f"it does not fit the steps file ({exc.message})", None
    if state is None:
        try:
            lines = steps.open(None)
        except CorruptData as exc:
            raise SaveError(
                f"{name!r} cannot be opened: its steps file {steps.path} is unreadable "
                f"({exc.message}) and it has no usable snapshot"
                + (f" ({problem})." if problem else ".")
            ) from None
    try:
        origin = steps.first_line().record
    except CorruptData as exc:
        origin = {"id": doc["id"], "problem": exc.message}
    if origin.get("id") != doc["id"]:
        steps.close()
        raise SaveError(
            f"The files in {folder} belong to another encounter ({origin.get('name')!r}); "
            f"{name!r} was not opened and nothing was changed."
        )
    assert lines is not None
    if state is None:
        notices.append(_rebuilt(store, folder, name, problem, len(lines) - 1, kept is not None))
    notices += steps.notices
    if state is None:
        keep = kept if kept is not None else StateFile(folder / STATE_FILE, store.read_only)
        records = [ln.record for ln in lines[1:]]
        return Loaded(None, records, lines[0].record, tuple(notices)), Open(steps, keep)
    records = [ln.record for ln in lines]
    return Loaded(state.snapshot, records, None, tuple(notices)), Open(steps, state)


def _rebuilt(
    store: Store, folder: Path, name: str, problem: str | None, count: int, kept: bool
) -> str:
    what = f"The saved state of {name!r} " + (
        f"was unusable ({problem})" if problem else "was missing"
    )
    path = folder / STATE_FILE
    if store.read_only:
        return f"{what}; it was rebuilt from its {count} saved actions (opened read-only: nothing was changed)."
    aside = "; its save points were kept" if kept else ""
    if path.exists() and not kept:
        aside = f"; the old file was moved to {move_aside(path, 'corrupt')} with its save points"
    return f"{what}; it was rebuilt from its {count} saved actions{aside}."


def build(
    store: Store,
    enc_id: str,
    origin: bytes,
    lines: list[bytes],
    seq: int,
    snapshot: dict[str, Any],
    summary: dict[str, Any],
) -> None:
    """Make an encounter's folder under a hidden name, then rename it into
    place: a kill at any moment leaves no half-made encounter."""
    from saves.names import now

    make_dirs(store.dir)
    staging = store.dir / f"{NEW}{enc_id}"
    staging.mkdir()
    StepsFile.create(staging / STEPS_FILE, origin, lines)
    end = len(origin) + sum(map(len, lines))
    name = decode(origin.rstrip(b"\n")).record["name"]
    doc = new_snapshot(enc_id, name, seq, end, snapshot, summary, now())
    StateFile(staging / STATE_FILE).write_snapshot(doc)
    os.rename(staging, store.folder(enc_id))
    fsync_dir(store.dir)


def discard(store: Store, enc_id: str) -> None:
    """Undo a create that failed: no folder may stay behind."""
    for path in (store.dir / f"{NEW}{enc_id}", store.dir / enc_id):
        with contextlib.suppress(OSError):
            tomb = store.dir / f"{DELETED}{enc_id}"
            os.rename(path, tomb)
            shutil.rmtree(tomb, ignore_errors=True)
    with contextlib.suppress(OSError):
        fsync_dir(store.dir)


def delete(store: Store, doc: dict[str, Any]) -> None:
    """Rename the folder away (needs no space), empty it (frees space),
    then drop the catalogue entry and the emptied folder."""
    folder = store.folder(doc["id"])
    tomb = store.dir / f"{DELETED}{doc['id']}"
    if folder.exists():
        os.rename(folder, tomb)
        fsync_dir(store.dir)
        for entry in os.scandir(tomb):
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
    try:
        store.catalogue.remove(doc["id"])
    except OSError as exc:
        store.catalogue.gone.add(doc["id"])
        store.catalogue.reindex()
        store.notices.append(
            f"{doc['name']!r} was deleted, but the list in {store.path} could not be "
            f"rewritten ({exc.strerror or exc}); it is tidied the next time the tracker opens."
        )
        return
    with contextlib.suppress(OSError):
        os.rmdir(tomb)
        fsync_dir(store.dir)


# --- the whole database ----------------------------------------------------


def _foreign(store: Store) -> str:
    return (
        f"{store.path} is not a combat-tracker database; nothing was changed "
        "(choose another file with --db)."
    )


def refuse_foreign(store: Store) -> None:
    """Refuse, before anything is created beside it, a database path that
    is a file of something else: not sealed, or sealed but holding other
    tables (an encounter's own steps or state file), and no folder of
    encounters beside it.  A damaged catalogue is not refused here."""
    try:
        raw = read_regular(store.path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise SaveError(f"Cannot read {store.path}: {exc.strerror or exc}.") from None
    if not raw.strip() or store.dir.is_dir():
        return
    try:
        tables = parse_tables(raw)
    except NewerSchema:
        raise
    except CorruptData:
        raise SaveError(_foreign(store)) from None
    if set(tables) - {ENCOUNTERS}:
        raise SaveError(_foreign(store))


def read_catalogue(store: Store) -> Tables | None:
    """The catalogue's tables; None for a fresh (or rebuilt) database.  A
    damaged one is moved aside (left as it is when read-only); a missing
    one beside folders of encounters is rebuilt from them."""
    refuse_foreign(store)
    try:
        raw = read_regular(store.path)
    except FileNotFoundError:
        if _has_folders(store):
            store.recovering = "missing"
            store.notices.append(
                f"The database file {store.path} was missing; "
                + (
                    "the encounters were read from their own folders (opened read-only)."
                    if store.read_only
                    else "the list was rebuilt from the encounters' own folders."
                )
            )
        return None
    try:
        tables = parse_tables(raw)
        if set(tables) - {ENCOUNTERS}:
            raise CorruptData("it holds tables of another kind of file")
        return tables
    except NewerSchema:
        raise
    except CorruptData as exc:
        store.recovering = exc.message
        if store.read_only:
            store.notices.append(
                f"The database file {store.path} is damaged ({exc.message}). Opened "
                "read-only, so it was left as it is and the encounters were read "
                "from their own folders."
            )
            return None
        aside = move_aside(store.path, "corrupt")
        store.notices.append(
            f"The database file {store.path} was damaged ({exc.message}). It was moved "
            f"to {aside} and the list was rebuilt from the encounters' own folders."
        )
        return None


def _has_folders(store: Store) -> bool:
    with contextlib.suppress(OSError):
        for entry in os.scandir(store.dir):
            if entry.is_dir(follow_symlinks=False) and ID_RE.fullmatch(entry.name):
                return True
    return False


def reconcile(store: Store) -> list[str]:
    """Make the catalogue and the folders agree (in memory only when
    read-only); the notices say what was done."""
    catalogue = store.catalogue
    notices = catalogue.check()
    if store.read_only and store.recovering is None:
        return notices
    if not store.read_only:
        remove_strays(store)
    tombs: set[str] = set()
    folders: list[Path] = []
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for entry in sorted(os.scandir(store.dir), key=lambda e: e.name):
            if not entry.is_dir(follow_symlinks=False):
                continue
            if entry.name.startswith((NEW, DELETED)):
                if entry.name.startswith(DELETED):
                    tombs.add(entry.name[len(DELETED) :])
                if not store.read_only:
                    shutil.rmtree(entry.path, ignore_errors=True)
                continue
            with contextlib.suppress(SaveError):
                folders.append(store.folder(entry.name))
    for folder in folders:
        if folder.name not in catalogue.by_id:
            notice = adopt(store, folder)
            if notice:
                notices.append(notice)
    present = {f.name for f in folders}
    for doc in list(catalogue.by_id.values()):
        if doc["id"] not in present:
            catalogue.remove(doc["id"])
            if doc["id"] not in tombs:
                done = "it is not shown" if store.read_only else "it was removed from the list"
                notices.append(
                    f"The files of {doc['name']!r} ({store.dir / doc['id']}) are missing; {done}."
                )
    if tombs and not store.read_only:
        fsync_dir(store.dir)
    return notices


def remove_strays(store: Store) -> None:
    """Temp files a crashed writer left beside the catalogue and in the
    folders (nothing else: the catalogue may sit in the user's own folder)."""
    prefix = store.path.name + TEMP_MARK
    with contextlib.suppress(OSError):
        for entry in os.scandir(store.path.parent):
            if entry.name.startswith(prefix) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        fsync_dir(store.path.parent)
    with contextlib.suppress(OSError):
        for entry in os.scandir(store.dir):
            if entry.is_dir(follow_symlinks=False) and ID_RE.fullmatch(entry.name):
                remove_temp_files(Path(entry.path))


def adopt(store: Store, folder: Path) -> str | None:
    """List a folder the catalogue does not: its origin line names it."""
    path = folder / STEPS_FILE
    try:
        origin = read_head(path)
        tail = read_tail(path)
    except (OSError, CorruptData) as exc:
        why = exc.message if isinstance(exc, CorruptData) else (exc.strerror or str(exc))
        return f"The folder {folder} holds no readable encounter ({why}); it was left as it is."
    if origin.record.get("id") != folder.name:
        return f"The folder {folder} holds another encounter's files; it was left as it is."
    name = store.unique_name(origin.record["name"])
    summary = tail.summary if tail is not None and tail.summary is not None else {}
    store.catalogue.add(folder.name, name, origin.t, summary)
    state, _ = read_state(store, {"id": folder.name})
    if state is not None and state.save_points():
        store.catalogue.update(folder.name, save_points=len(state.save_points()))
    if tail is not None and tail.summary is not None:
        store.catalogue.update(folder.name, updated=tail.t)
    why = {
        None: "it was not in the list: an interrupted create",
        "missing": "the database file was missing",
    }.get(store.recovering, "after the database was damaged")
    verb = "Read" if store.read_only else "Recovered"
    return f"{verb} encounter {name!r} from {folder} ({why})."
