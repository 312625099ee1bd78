"""A live encounter: the engine's ``Session`` glued to the ``Store``.

Every action goes through :meth:`LiveEncounter.do` (or ``undo`` / ``redo``):
the engine applies it, then the resulting ``Step`` is appended durably to
the store's journal before the call returns.  If saving fails, the change is
rolled back, so what the GM sees is always what is on disk.

On open, the last snapshot is loaded and the journal's records after it are
replayed (no dice are re-rolled: a ``Step`` carries its results), and nothing
else: opening is on the GM's way to the first frame.  The undo history is
saved as the snapshot file's deferred section (``saves.journal``) and handed
to the session unparsed (``Session.from_dict`` takes it lazily): it is
parsed on the first undo that reaches below this session's actions, and a
compaction or save point that never needed it writes its bytes back as
they were, with the steps pushed since spliced on.  The log's older
entries are saved the same way, as a second deferred section (the
snapshot's ``"log_head"``, version 4): read only when the GM reaches them
(scrolling up, export, an undo that deep), written back byte for byte while
unread, split afresh when the newest entries kept inline grow past
``rules.engine.session.LOG_INLINE_MAX``.  When the journal has
grown long (or the snapshot was written by an older version), it is folded
into a new snapshot (compaction) on close, or earlier when the app calls
:meth:`LiveEncounter.compact_if_due` once it is idle; never per action.

UI state (the selected combatant, say) rides along: it is stored with the
next action's record and on close, not fsync'd on every cursor move.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rules.encounter import Encounter, LogEntry
from rules.engine.lazy_log import UnreadLogHead
from rules.engine.lazy_steps import UnreadHistory
from rules.engine.session import SNAPSHOT_VERSION, Session
from rules.engine.step import Step
from rules.errors import ActionError
from rules.rulesets import Ruleset
from rules.text import name_key
from saves.errors import SavePointExists
from saves.journal import Deferred
from saves.store import SaveError, Store

#: Fold the journal into a snapshot (on close) once it holds this many records.
COMPACT_AFTER = 200


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Hold the cyclic garbage collector off while a snapshot is parsed and
    turned into a session: that makes tens of thousands of containers and
    no reference cycles, so every collection the allocations would trigger
    (full ones included, each walking every object in the process) is pure
    cost.  The collector's previous state is restored."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def open_store(path: str | Path | None = None, read_only: bool = False) -> Store:
    """Open the database at *path* (default: the user data dir); read-only
    looks without locking, beside a tracker that has it open."""
    return Store(path, read_only=read_only)


def summary_of(session: Session) -> dict[str, Any]:
    """The small summary the resume picker and ``list`` show."""
    enc = session.encounter
    active = enc.active
    return {
        "name": enc.name,
        "round": enc.round,
        "active": None if active is None else active.name,
        "combatants": len(enc.combatants),
        "started": enc.started,
    }


class LiveEncounter:
    """One open encounter: a ``Session`` whose every change is saved."""

    def __init__(
        self,
        name: str,
        session: Session,
        store: Store | None = None,
        ui_state: Mapping[str, Any] | None = None,
        journal_length: int = 0,
    ) -> None:
        self.name = name
        self.session = session
        self.store = store
        self.ui_state: dict[str, Any] = dict(ui_state or {})
        self._ui_dirty = False
        self._journal_length = journal_length
        #: the snapshot on disk is in an older format: rewrite it on close
        self._stale_snapshot = False

    # -- construction -------------------------------------------------------

    @classmethod
    def in_memory(cls, session: Session) -> LiveEncounter:
        """A live encounter that saves nothing (tests, benchmarks)."""
        return cls(session.encounter.name, session)

    @classmethod
    def create(
        cls,
        store: Store,
        name: str,
        ruleset: Ruleset | None = None,
        rng: random.Random | None = None,
    ) -> LiveEncounter:
        """Create and save a new, empty encounter."""
        encounter = Encounter(name=name, ruleset=ruleset or Ruleset())
        session = Session(encounter, rng=rng)
        live = cls(name, session, store)
        store.create(name, live.snapshot(), summary_of(session))
        return live

    @classmethod
    def open(cls, store: Store, name: str, rng: random.Random | None = None) -> LiveEncounter:
        """Load the last snapshot and replay the journal after it; nothing
        is written (a due compaction waits for :meth:`compact_if_due` or
        :meth:`close`).  The undo history and the log's older entries stay
        unparsed (see the module docstring).  A journal that does not fit its snapshot is a
        SaveError naming the problem."""
        with _no_gc_pauses():
            loaded = store.load(name)
            snapshot = loaded.snapshot
            session = Session.from_dict(snapshot["session"], rng=rng)
            ui_state = dict(snapshot.get("ui", {}))
            for record in loaded.records:
                if "step" in record:
                    try:
                        session.replay(record["step"])
                    except ActionError as exc:
                        raise SaveError(
                            f"The journal of {name!r} does not fit its snapshot ({exc}); "
                            "nothing was changed."
                        ) from None
                ui_state.update(record.get("ui", {}))
        live = cls(name, session, store, ui_state, journal_length=len(loaded.records))
        version = snapshot["session"].get("version", 1)
        live._stale_snapshot = not isinstance(version, int) or version < SNAPSHOT_VERSION
        return live

    # -- what the screen reads ------------------------------------------------

    @property
    def encounter(self) -> Encounter:
        """The encounter as it stands now."""
        return self.session.encounter

    @property
    def log(self) -> Sequence[LogEntry]:
        """The newest log entries held in memory, oldest first (the pane's
        window; :attr:`log_earlier` more are older, ``export`` has them all)."""
        return self.session.log

    @property
    def log_earlier(self) -> int:
        """How many log entries are older than :attr:`log`."""
        return 0

    @property
    def can_undo(self) -> bool:
        return self.session.can_undo

    @property
    def can_redo(self) -> bool:
        return self.session.can_redo

    def dice_needed(self, action: str | Mapping[str, Any]) -> list[tuple[str, int]]:
        """The dice *action* would roll beyond its faces (``Session.dice_needed``)."""
        return self.session.dice_needed(action)

    def preview_move(self, target: str, movement: str, face: int | None = None) -> Any:
        """The endurance check a move would make (``Session.preview_move``)."""
        return self.session.preview_move(target, movement, face)

    # -- changes --------------------------------------------------------------

    def do(self, line_or_action: str | Mapping[str, Any]) -> Step:
        """Apply one action and save it durably (ActionError: nothing changed)."""
        if isinstance(line_or_action, str) and line_or_action.strip().lower() in ("undo", "redo"):
            return self.undo() if line_or_action.strip().lower() == "undo" else self.redo()
        step = self.session.apply(line_or_action)
        self._save(step)
        return step

    def undo(self) -> Step:
        step = self.session.undo()
        self._save(step)
        return step

    def redo(self) -> Step:
        step = self.session.redo()
        self._save(step)
        return step

    def set_ui_state(self, **values: Any) -> None:
        """Remember UI state (saved with the next action, and on close)."""
        for key, value in values.items():
            if self.ui_state.get(key) != value:
                self.ui_state[key] = value
                self._ui_dirty = True

    def save_point(self, label: str, replace: bool = False) -> None:
        """A named save point beside the autosave.  A label already kept
        (ignoring case) raises SavePointExists unless *replace*: a GM who
        types a label twice must not lose the first save point unasked."""
        if self.store is None:
            return
        if not replace:
            key = name_key(label.strip())
            for kept, created in self.store.save_points(self.name):
                if name_key(kept) == key:
                    when = created.astimezone().strftime("%Y-%m-%d %H:%M")
                    raise SavePointExists(self.name, kept, when)
        self.store.save_point(self.name, label, self.snapshot(), summary_of(self.session))

    def compact(self) -> None:
        """Fold the journal into a fresh snapshot."""
        if self.store is None:
            return
        self.store.compact(self.name, self.snapshot(), summary_of(self.session))
        self._journal_length = 0
        self._ui_dirty = False
        self._stale_snapshot = False

    @property
    def compaction_due(self) -> bool:
        """The journal is long (``COMPACT_AFTER`` records) or the snapshot is
        in an older format: the next open would be faster after
        :meth:`compact` (never true on a read-only store)."""
        if self.store is None or self.store.read_only:
            return False
        return self._journal_length >= COMPACT_AFTER or self._stale_snapshot

    def compact_if_due(self) -> bool:
        """Compact if :attr:`compaction_due`; True if it did.  For the app to
        call once the first frame is on screen and the GM is not waiting."""
        if not self.compaction_due:
            return False
        self.compact()
        return True

    def close(self) -> None:
        """Save pending UI state; compact a long journal (or an old-format
        snapshot)."""
        if self.store is None or self.store.read_only:
            return
        if self.compaction_due:
            self.compact()
        elif self._ui_dirty:
            self.store.append(self.name, {"ui": dict(self.ui_state)}, summary_of(self.session))
            self._ui_dirty = False

    # -- internals ----------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The session and UI state to save, the undo history and the log's
        older entries as ``Deferred`` values (the store writes them as the
        file's deferred sections).  A history loaded lazily and never read
        is not parsed: its bytes are written back with the steps pushed
        since appended; an older log never read is written back as it was."""
        data = self.session.to_dict(keep_unread=True)
        head = data.get("log_head")
        if isinstance(head, UnreadLogHead) and not isinstance(head.loader, Deferred):
            self.session.read_log()  # not ours to write back: read it (a fresh split)
            data = self.session.to_dict(keep_unread=True)
            head = data.get("log_head")
            if isinstance(head, UnreadLogHead):  # unreadable: what it reads as, inline
                del data["log_head"]
                data.update(log=self.session.to_dict()["log"], log_head_count=0)
                head = None
        if isinstance(head, UnreadLogHead):
            data["log_head"] = head.loader
        elif head is not None:
            data["log_head"] = Deferred.of(head)
        undo = data["undo"]
        history = None
        if isinstance(undo, UnreadHistory):
            if isinstance(undo.loader, Deferred):
                history = undo.loader.extended(undo.tail)
            if history is None:  # not ours to splice: read it
                undo = self.session.to_dict()["undo"]
        data["undo"] = history if history is not None else Deferred.of(undo)
        return {"session": data, "ui": dict(self.ui_state)}

    def _save(self, step: Step) -> None:
        if self.store is None:
            return
        record: dict[str, Any] = {"step": step.to_dict()}
        if self._ui_dirty:
            record["ui"] = dict(self.ui_state)
        try:
            self.store.append(self.name, record, summary_of(self.session))
        except SaveError:
            self._roll_back(step)
            raise
        self._ui_dirty = False
        self._journal_length += 1

    def _roll_back(self, step: Step) -> None:
        """Forget an applied but unsaved step: reload what is on disk, so
        memory matches disk exactly (rare: only when saving failed)."""
        assert self.store is not None
        reloaded = LiveEncounter.open(self.store, self.name, rng=self.session.rng)
        self.session = reloaded.session
        self._journal_length = reloaded._journal_length
