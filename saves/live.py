"""A live encounter: the engine's ``Session`` glued to the ``Store``.  Each
step is appended and fsynced before :meth:`LiveEncounter.do` returns, and
rolled back if saving fails, so what the GM sees is what is on disk.  Older
steps are read back when an undo reaches them (:class:`SavedSteps`); the
app compacts when idle (:meth:`compact_if_due`) and on :meth:`close`.  UI
state rides along with the next step and every snapshot, so a cursor move
is never fsynced."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.encounter import Encounter, LogEntry
from rules.engine.session import Session
from rules.engine.step import Step
from rules.errors import ActionError
from rules.rulesets import Ruleset
from rules.text import name_key
from saves.errors import SavePointExists
from saves.store import Loaded, SaveError, Store

if TYPE_CHECKING:
    from rules.endurance import EnduranceCheck
    from rules.engine.history import LogWindow

#: Write a fresh snapshot once this many steps were saved after the last one.
COMPACT_AFTER = 200


def open_store(path: str | Path | None = None, read_only: bool = False) -> Store:
    """Open the database at *path* (default: the user data dir); read-only
    looks without locking, beside a tracker that has it open."""
    return Store(path, read_only=read_only)


def summary_of(session: Session) -> dict[str, Any]:
    """The small summary the resume picker and ``list`` show."""
    enc = session.encounter
    active = enc.active
    combats = session.combats()
    return {
        "name": enc.name,
        "round": enc.round,
        "active": None if active is None else active.name,
        "combatants": len(enc.combatants),
        "started": enc.started,
        # how many combats began ("combat 2 · round 3"); unknown: left out
        **({} if combats is None else {"combat": combats}),
    }


def close_live(live: LiveEncounter) -> str | None:
    """Close *live*; the one line to show if its fresh snapshot could not
    be written (every acknowledged action is still in its steps file)."""
    try:
        live.close()
    except SaveError as exc:
        return f"{exc} Every action is saved; the next open replays them."
    return None


class _Unfit(Exception):
    """A snapshot or steps that do not load (why, in words)."""


class SavedSteps:
    """The session's :class:`~rules.engine.history.StepSource`: steps read
    back from the encounter's steps file by number."""

    def __init__(self, store: Store, name: str) -> None:
        self.store, self.name = store, name

    def read_steps(self, seqs: Sequence[int]) -> list[Step]:
        try:
            records = self.store.read_steps(self.name, seqs)
        except SaveError as exc:
            raise ActionError(f"the older history cannot be read ({exc})") from None
        steps = []
        for record in records:
            if not isinstance(record.get("step"), dict):
                raise ActionError("the older history cannot be read (a line holds no step)")
            steps.append(Step.from_dict(record["step"]))
        return steps


class LiveEncounter:
    """One open encounter: a ``Session`` whose every change is saved."""

    def __init__(
        self,
        name: str,
        session: Session,
        store: Store | None = None,
        ui_state: Mapping[str, Any] | None = None,
        pending: int = 0,
    ) -> None:
        self.name = name
        self.session = session
        self.store = store
        self.ui_state: dict[str, Any] = dict(ui_state or {})
        self._ui_dirty = False
        #: steps saved since the last snapshot (-1: there is no usable snapshot)
        self._pending = pending
        #: told after every saved step (:meth:`watch`)
        self._watchers: list[Callable[[], None]] = []

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
        actions: Sequence[str | Mapping[str, Any]] = (),
    ) -> LiveEncounter:
        """Create and save a new encounter, with *actions* (a prepared
        file's) already applied: all or nothing (ActionError or SaveError:
        nothing was created)."""
        encounter = Encounter(name=name, ruleset=ruleset or Ruleset())
        session = Session(encounter, rng=rng)
        steps = [session.apply(action) for action in actions]
        live = cls(name, session, store)
        store.create(
            name,
            {"encounter": encounter.to_dict()},
            live.snapshot(),
            summary_of(session),
            records=[{"step": s.to_dict()} for s in steps],
        )
        session.source = SavedSteps(store, name)
        return live

    @classmethod
    def open(cls, store: Store, name: str, rng: random.Random | None = None) -> LiveEncounter:
        """Load the snapshot and replay the steps after it (or rebuild the
        fight from all its steps when the snapshot is unusable; the store's
        notices say so).  Nothing is written."""
        loaded = store.load(name)
        try:
            live = cls._from(store, name, loaded, rng)
        except _Unfit as exc:
            if loaded.snapshot is None:
                raise SaveError(
                    f"The saved steps of {name!r} do not rebuild it ({exc}); nothing was changed."
                ) from None
            # a snapshot whose checksum holds but whose session does not
            # load: the steps file alone rebuilds the fight
            try:
                live = cls._from(store, name, store.load(name, distrust=str(exc)), rng)
            except _Unfit as again:
                raise SaveError(
                    f"Neither the snapshot nor the saved steps of {name!r} load ({again})."
                ) from None
        if live._pending < 0 and not store.read_only:
            # rebuilt from the steps: write its snapshot now (rare), so the
            # next open is quick and says nothing more
            with contextlib.suppress(SaveError):
                live.compact()
        return live

    @classmethod
    def _from(
        cls, store: Store, name: str, loaded: Loaded, rng: random.Random | None
    ) -> LiveEncounter:
        source = SavedSteps(store, name)
        try:
            if loaded.snapshot is not None:
                session = Session.from_dict(loaded.snapshot["session"], rng, source)
                if session.seq != loaded.snapshot["seq"]:
                    raise ActionError(
                        f"it is at action {session.seq}, its file says {loaded.snapshot['seq']}"
                    )
                ui_state = dict(loaded.snapshot["ui"])
            else:
                assert loaded.origin is not None
                encounter = Encounter.from_dict(loaded.origin["origin"]["encounter"])
                session = Session(replace(encounter, name=loaded.origin["name"]), rng)
                session.source, ui_state = source, {}
        except (ActionError, KeyError, TypeError) as exc:
            raise _Unfit(str(exc)) from None
        replayed = 0
        for record in loaded.records:
            try:
                session.replay(record["step"])
            except (ActionError, KeyError, TypeError) as exc:
                # a sealed step that does not fit: keep the fight up to it
                store.cut_steps(name, session.seq + 1, str(exc))
                break
            ui = record.get("ui")
            if isinstance(ui, dict):  # UI state is never worth a fight: a bad one is dropped
                ui_state.update(ui)
            replayed += 1
        pending = -1 if loaded.snapshot is None else replayed
        return cls(name, session, store, ui_state, pending)

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
        return self.session.log_earlier

    def combats_earlier(self) -> int | None:
        """How many combats began in the entries older than :attr:`log`
        (None: unknown, the saved steps cannot be read)."""
        return self.session.combats_earlier()

    def full_log(self) -> list[LogEntry]:
        """Every log entry (reads the older ones from the steps file)."""
        try:
            return self.session.full_log()
        except ActionError as exc:
            raise SaveError(f"The log of {self.name!r} cannot be read whole: {exc}.") from None

    def log_window(self, count: int) -> LogWindow:
        """At least the newest *count* log entries, the older ones counted
        (``History.window``: older steps read only if the snapshot holds fewer)."""
        try:
            return self.session.log_window(count)
        except ActionError as exc:
            raise SaveError(f"The log of {self.name!r} cannot be read: {exc}.") from None

    @property
    def can_undo(self) -> bool:
        return self.session.can_undo

    @property
    def can_redo(self) -> bool:
        return self.session.can_redo

    @property
    def seq(self) -> int:
        """The last step's sequence number: each action, undo and redo moves it on."""
        return self.session.seq

    def prev_refusal(self) -> str | None:
        """Why ``prev`` would be refused now (``Session.prev_refusal``: reads nothing)."""
        return self.session.prev_refusal()

    @property
    def rng(self) -> random.Random:
        """The fight's random source (rolls the program makes for the GM)."""
        return self.session.rng

    def renames(self, step: Step) -> dict[str, str]:
        """Who *step*, the last one applied, renamed, old name to new
        (``Session.renames``)."""
        return self.session.renames(step)

    def reversed_step(self, step: Step) -> Step | None:
        """The step *step*, the last one applied, undid or redid (``Session.reversed_step``)."""
        return self.session.reversed_step(step)

    def dice_needed(self, action: str | Mapping[str, Any]) -> list[tuple[str, int]]:
        """The dice *action* would roll beyond its faces (``Session.dice_needed``)."""
        return self.session.dice_needed(action)

    def preview_move(self, target: str, movement: str, face: int | None = None) -> EnduranceCheck:
        """The endurance check a move would make (``Session.preview_move``)."""
        preview: EnduranceCheck = self.session.preview_move(target, movement, face)
        return preview

    # -- changes --------------------------------------------------------------

    def do(self, line_or_action: str | Mapping[str, Any]) -> Step:
        """Apply one action and save it durably (ActionError: nothing changed)."""
        if isinstance(line_or_action, str) and line_or_action.strip().lower() in ("undo", "redo"):
            return self.undo() if line_or_action.strip().lower() == "undo" else self.redo()
        return self._saved(self.session.apply(line_or_action))

    def undo(self) -> Step:
        return self._saved(self.session.undo())

    def redo(self) -> Step:
        return self._saved(self.session.redo())

    def _saved(self, step: Step) -> Step:
        """Save *step*, then tell the watchers, also when it could not be
        saved and was rolled back: one of them may have read the fight in
        between (the players' view, from its own thread)."""
        try:
            self._save(step)
        finally:
            self._tell()
        return step

    def watch(self, callback: Callable[[], None]) -> None:
        """Call *callback* after every step saved from now on (an action,
        an undo, a redo): the players' view follows the fight this way."""
        self._watchers.append(callback)

    def unwatch(self, callback: Callable[[], None]) -> None:
        if callback in self._watchers:
            self._watchers.remove(callback)

    def _tell(self) -> None:
        for callback in list(self._watchers):
            callback()

    def set_ui_state(self, **values: Any) -> None:
        """Remember UI state (saved with the next step, and in snapshots)."""
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
        self.store.save_point(
            self.name, label, self.snapshot(), summary_of(self.session), self.session.seq
        )

    def compact(self) -> None:
        """Write a fresh snapshot (one atomic replace of the state file)."""
        if self.store is None:
            return
        self.store.compact(self.name, self.snapshot(), summary_of(self.session), self.session.seq)
        self._pending = 0
        self._ui_dirty = False

    @property
    def compaction_due(self) -> bool:
        """Enough steps since the last snapshot (or none usable) that the
        next open would be faster after :meth:`compact`."""
        if self.store is None or self.store.read_only:
            return False
        return self._pending < 0 or self._pending >= COMPACT_AFTER

    def compact_if_due(self) -> bool:
        """Compact if :attr:`compaction_due`; True if it did."""
        if not self.compaction_due:
            return False
        self.compact()
        return True

    def close(self) -> None:
        """Write a fresh snapshot if anything changed since the last one."""
        if self.store is None or self.store.read_only:
            return
        if self._pending or self._ui_dirty:
            self.compact()

    def snapshot(self) -> dict[str, Any]:
        """The session (bounded: its size does not grow with the fight) and
        the UI state."""
        return {"session": self.session.to_dict(bounded=True), "ui": dict(self.ui_state)}

    # -- internals ----------------------------------------------------------

    def _save(self, step: Step) -> None:
        if self.store is None:
            return
        record: dict[str, Any] = {"step": step.to_dict()}
        if self._ui_dirty:
            record["ui"] = dict(self.ui_state)
        try:
            self.store.append(self.name, step.seq, record, summary_of(self.session))
        except SaveError:
            self._roll_back()
            raise
        self._ui_dirty = False
        if self._pending >= 0:
            self._pending += 1

    def _roll_back(self) -> None:
        """Forget an applied but unsaved step: reload what is on disk, so
        memory matches disk exactly (rare: only when saving failed)."""
        assert self.store is not None
        reloaded = LiveEncounter.open(self.store, self.name, rng=self.session.rng)
        self.session = reloaded.session
        self._pending = reloaded._pending
