"""The encounter engine: a live ``Session``, its ``Step`` journal, undo/redo.

A :class:`Session` is the one mutable holder of a live encounter:
``.encounter`` (a frozen :class:`~rules.encounter.Encounter`), ``.log``
(a list of :class:`~rules.encounter.LogEntry`), ``.seq`` (the last sequence
number handed out), ``.rng`` (the injected random source) and the undo and
redo stacks.  No I/O.

Every change is an action (``rules.actions``) applied by
:meth:`Session.apply`, which returns a :class:`Step`: what gets journaled.

Step design
-----------
``Step(seq, kind, action, before, after, log)``:

- ``seq``: this step's number; every step (do, undo, redo) takes the next.
- ``kind``: ``"do"`` (an action), ``"undo"`` or ``"redo"``.
- ``action``: the *resolved* record: target names as resolved, and
  ``faces`` = every die face dealt while applying it, in order (so
  re-applying it to the same state rolls nothing and gives the same result).
  Undo/redo steps carry ``{"verb": "undo"|"redo"|"prev", "undone"|"redone":
  seq, "line": the undone action as a line}``.
- ``before`` / ``after``: patches (``rules.engine_patch``) holding only what
  changed — a damage roll on one goblin among 50 journals that goblin, not
  the fight.
- ``log``: the log entries the step appended (for a redo, the re-appended
  entries of the redone action; for an undo, none — the undone action's
  entries are removed, so the log always shows the state as it is).

:meth:`Session.replay` re-applies a journaled step by its patches (no dice,
no rules: fast, and exact); it first checks that the session is in the
step's *before* state and refuses a journal that does not fit.
:meth:`Session.to_dict` / :meth:`Session.from_dict` snapshot everything:
encounter, log, undo and redo stacks (as steps), seq.  So undo and redo
work at any depth after a restart, whether the session came from a
snapshot, a replayed journal or both.

Undo, redo, prev
----------------
- ``undo`` reverts the most recent action still in effect (any depth); a
  new action clears the redo stack; ``redo`` re-applies the most recently
  undone one, with its original rolls and log entries.
- ``prev``: when the last action in effect is a ``next``, ``prev`` is an
  undo of it (its rolls and log entries go too; ``redo`` brings them back).
  Otherwise ``prev`` only moves the turn pointer back (``rules.turns``):
  the actions since the last ``next`` stay — the GM corrected something
  and then wants the previous combatant's turn shown again.  The turn
  boundaries it steps back over are not processed again by the following
  ``next`` (``Encounter.rewound``; logged ``(already processed)``).

Batches
-------
A line ``a; b; c`` (``{"verb": "batch", "actions": [...]}``, see
``rules.actions``) is applied in order to one working copy and committed as
ONE Step: one journal record (replayed by its patches like any other), one
``undo``, one ``redo``.  If any part fails, nothing changes (encounter, log,
history, random source) and the message names the part: ``part 2 of 3 (set
Goblin hp 40): … — nothing was changed``.  Each part keeps its own ``faces``
(and ``roll``), and its resolved record carries the faces it dealt.
``undo``/``redo``/``prev`` are refused inside a batch (by the parser).
Within a batch ``set T hp N`` may exceed T's current ``max_hp``; every
combatant's ``hp <= max_hp`` is checked once at the end instead, so ``set T
hp 40; set T max_hp 50`` and ``set T max_hp 50; set T hp 40`` both work.
``prev`` right after a batch is never an undo of it (even if it ended with
``next``): it moves the pointer.

Physical dice
-------------
Every action may carry ``faces`` (the GM's physical dice, used in order
before the random source; ``roll N`` puts N first).  Faces left over are
ignored and noted in the log (``unused faces``) and in the journaled action.
:meth:`Session.dice_needed` dry-runs an action and lists ``(label, sides)``
for every die the program would roll itself: the first entry is always
exact; later ones follow the dry run's outcome (e.g. damage dice after a
hit), so a UI asking face by face should add the face to ``faces`` and ask
again until the list is empty.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.actions import BATCH, ActionError, format_action, normalize_action
from rules.encounter import Encounter, LogEntry
from rules.engine_patch import Patch, apply_patch, diff, mismatch
from rules.engine_work import Roller, Work

Kind = Literal["do", "undo", "redo"]
SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class Step:
    """One journaled change (see the module docstring)."""

    seq: int
    kind: Kind
    action: Mapping[str, Any]
    before: Patch = field(default_factory=dict)
    after: Patch = field(default_factory=dict)
    log: tuple[LogEntry, ...] = ()

    def to_dict(self, with_log: bool = True) -> dict[str, Any]:
        """The journal record.  ``with_log=False`` leaves the log entries
        out (a snapshot's undo stack: its entries are the session log's)."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "action": dict(self.action),
            "before": self.before,
            "after": self.after,
        }
        if with_log:
            out["log"] = [e.to_dict() for e in self.log]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        """Rebuild a journaled step; a malformed one raises ActionError."""
        try:
            kind = data["kind"]
            if kind not in ("do", "undo", "redo"):
                raise ValueError(f"unknown step kind {kind!r}")
            return cls(
                int(data["seq"]),
                kind,
                dict(data["action"]),
                dict(data.get("before") or {}),
                dict(data.get("after") or {}),
                tuple(LogEntry.from_dict(e) for e in data.get("log", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ActionError(f"not a journaled step: {exc}") from None

    @property
    def line(self) -> str:
        """The action as a line of the language (for display)."""
        if self.kind != "do":
            return str(self.action.get("verb", self.kind))
        try:
            return format_action({k: v for k, v in self.action.items() if k != "unused_faces"})
        except ActionError:
            return str(self.action.get("verb", ""))


class Session:
    """The live encounter and its history (see the module docstring)."""

    def __init__(
        self,
        encounter: Encounter | None = None,
        rng: random.Random | None = None,
        *,
        log: list[LogEntry] | None = None,
        seq: int = 0,
        undo: list[Step] | None = None,
        redo: list[Step] | None = None,
    ) -> None:
        self.encounter: Encounter = (
            encounter if encounter is not None else Encounter(name="Encounter")
        )
        #: the random source; default seeded from os.urandom
        self.rng: random.Random = rng if rng is not None else random.Random()
        self.log: list[LogEntry] = list(log or [])
        self.seq: int = seq
        self._undo: list[Step] = list(undo or [])
        self._redo: list[Step] = list(redo or [])

    # -- queries -------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_stack(self) -> tuple[Step, ...]:
        return tuple(self._undo)

    @property
    def redo_stack(self) -> tuple[Step, ...]:
        return tuple(self._redo)

    # -- applying actions ----------------------------------------------------

    def apply(self, line_or_action: str | Mapping[str, Any]) -> Step:
        """Validate and apply one action (or a batch, ``a; b; c``); return
        its Step.

        Raises :class:`ActionError` (one message naming the problem) and
        leaves everything unchanged — encounter, log, history and the random
        source's state — when the action cannot be applied.
        """
        action = normalize_action(line_or_action)
        verb = action["verb"]
        if verb == "undo":
            return self.undo()
        if verb == "redo":
            return self.redo()
        if verb == "prev" and self._undo and self._undo[-1].action.get("verb") == "next":
            return self._undo_last("prev")
        state = self.rng.getstate()
        try:
            work, resolved = self._run(action, self.rng)
        except BaseException:
            self.rng.setstate(state)
            raise
        return self._commit(resolved, work)

    def _run(self, action: Mapping[str, Any], rng: random.Random) -> tuple[Work, dict[str, Any]]:
        """Apply *action* to a working copy; (the work, the resolved record)."""
        work = Work(self.encounter, Roller(rng))
        if action["verb"] != BATCH:
            return work, self._run_one(work, action, rng)
        parts = action["actions"]
        work.batch = True
        resolved = []
        for n, part in enumerate(parts, 1):
            try:
                resolved.append(self._run_one(work, part, rng))
            except ActionError as exc:
                raise ActionError(
                    f"part {n} of {len(parts)} ({_line(part)}): {exc} — nothing was changed"
                ) from None
        from rules.engine_verbs import check_batch_end

        try:
            check_batch_end(work)
        except ActionError as exc:
            raise ActionError(f"{exc} — nothing was changed") from None
        return work, {"verb": BATCH, "actions": resolved}

    def _run_one(self, work: Work, action: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        """Run one (non-batch) action on *work* with its own faces; return
        its resolved record (targets as resolved, every face dealt)."""
        from rules.engine_verbs import HANDLERS

        roller = Roller(rng, action.get("faces", ()))
        if "roll" in action:
            roller.push_front(int(action["roll"]))
        work.roller = roller
        work.resolved = {}
        try:
            HANDLERS[action["verb"]](work, action)
        except ActionError:
            raise
        except ValueError as exc:  # a rules function's message for the GM
            raise ActionError(f"{action['verb']}: {exc}") from None
        work.asked.extend(roller.asked)
        resolved = {k: v for k, v in action.items() if k not in ("faces", "roll")}
        resolved.update(work.resolved)
        if roller.rolled:
            resolved["faces"] = list(roller.rolled)
        unused = roller.unused
        if unused:
            resolved["unused_faces"] = unused
            work.log(
                "GM", f"unused faces: {', '.join(map(str, unused))} (no more dice were rolled)"
            )
        return resolved

    def _commit(self, resolved: dict[str, Any], work: Work) -> Step:
        seq = self.seq + 1
        before, after = diff(self.encounter, work.enc)
        log = tuple(LogEntry(seq, r, actor, text) for r, actor, text in work.entries)
        step = Step(seq, "do", resolved, before, after, log)
        self.encounter = work.enc
        self.log.extend(log)
        self.seq = seq
        self._undo.append(step)
        self._redo.clear()
        return step

    def undo(self) -> Step:
        """Undo the most recent action still in effect (a Step of kind undo)."""
        if not self._undo:
            raise ActionError("undo: nothing to undo")
        return self._undo_last("undo")

    def redo(self) -> Step:
        """Redo the most recently undone action (a Step of kind redo)."""
        if not self._redo:
            raise ActionError("redo: nothing to redo")
        target = self._redo[-1]
        step = Step(
            self.seq + 1,
            "redo",
            {"verb": "redo", "redone": target.seq, "line": target.line},
            target.before,
            target.after,
            target.log,
        )
        self._apply_redo(step, target)
        return step

    def _undo_last(self, verb: str) -> Step:
        target = self._undo[-1]
        step = Step(
            self.seq + 1,
            "undo",
            {"verb": verb, "undone": target.seq, "line": target.line},
            target.after,
            target.before,
            (),
        )
        self._apply_undo(step, target)
        return step

    def _apply_undo(self, step: Step, target: Step) -> None:
        self.encounter = apply_patch(self.encounter, step.after)
        n = len(target.log)
        if n:
            del self.log[-n:]
        self._undo.pop()
        self._redo.append(target)
        self.seq = step.seq

    def _apply_redo(self, step: Step, target: Step) -> None:
        self.encounter = apply_patch(self.encounter, step.after)
        self.log.extend(target.log)
        self._redo.pop()
        self._undo.append(target)
        self.seq = step.seq

    # -- journal -------------------------------------------------------------

    def replay(self, step_dict: Mapping[str, Any] | Step) -> Step:
        """Re-apply a journaled step exactly, by its patches (no dice).

        Raises :class:`ActionError` if the step does not fit this session
        (already applied, or the state is not the step's *before* state).
        """
        step = step_dict if isinstance(step_dict, Step) else Step.from_dict(step_dict)
        if step.seq <= self.seq:
            raise ActionError(f"step {step.seq} is already in this session (it is at {self.seq})")
        problem = mismatch(self.encounter, step.before)
        if problem:
            raise ActionError(f"cannot replay step {step.seq}: {problem}")
        if step.kind == "do":
            self.encounter = apply_patch(self.encounter, step.after)
            self.log.extend(step.log)
            self._undo.append(step)
            self._redo.clear()
            self.seq = step.seq
        elif step.kind == "undo":
            if not self._undo or self._undo[-1].seq != step.action.get("undone"):
                raise ActionError(
                    f"cannot replay step {step.seq}: it undoes a step not on top of the undo stack"
                )
            self._apply_undo(step, self._undo[-1])
        else:
            if not self._redo or self._redo[-1].seq != step.action.get("redone"):
                raise ActionError(
                    f"cannot replay step {step.seq}: it redoes a step not on top of the redo stack"
                )
            self._apply_redo(step, self._redo[-1])
        return step

    def to_dict(self) -> dict[str, Any]:
        """A full JSON-able snapshot: encounter, log, undo/redo stacks, seq.

        The log is exactly the entries of the steps on the undo stack, in
        order, so those steps are stored without their entries (they are
        taken back from the log by sequence number on load); the redo stack's
        entries are not in the log and are stored with their steps.
        """
        return {
            "version": SNAPSHOT_VERSION,
            "encounter": self.encounter.to_dict(),
            "log": [e.to_dict() for e in self.log],
            "seq": self.seq,
            "undo": [s.to_dict(with_log=False) for s in self._undo],
            "redo": [s.to_dict() for s in self._redo],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rng: random.Random | None = None) -> Session:
        """Rebuild a session from :meth:`to_dict`; malformed → ActionError.

        The undo stack's steps are checked here but built only when undo
        reaches them (:class:`_LazySteps`): a 10,000-step fight opens
        without building 10,000 Steps it may never need.
        """
        try:
            log = _log_entries(data.get("log", ()))
            raws = list(data.get("undo", ()))
            for raw in raws:
                _check_step(raw)
            session = cls(
                Encounter.from_dict(data["encounter"]),
                rng,
                log=log,
                seq=int(data.get("seq", 0)),
                redo=[Step.from_dict(s) for s in data.get("redo", ())],
            )
            session._undo = _LazySteps(raws, tuple(log))
            return session
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ActionError):
                raise
            raise ActionError(f"not a saved session: {exc}") from None

    # -- helpers for the UI ----------------------------------------------------

    def dice_needed(self, action: str | Mapping[str, Any]) -> list[tuple[str, int]]:
        """``(label, sides)`` of each die the program would roll for *action*
        beyond the faces it carries, by a dry run (nothing changes).  The
        first entry is exact; later ones follow the dry run's outcome."""
        record = normalize_action(action)
        verb = record["verb"]
        if verb in ("undo", "redo") or (
            verb == "prev" and self._undo and self._undo[-1].action.get("verb") == "next"
        ):
            return []
        work, _ = self._run(record, random.Random(0))
        return list(work.asked)

    def preview_move(self, target: str, movement: str, face: int | None = None) -> Any:
        """The endurance check ``move target movement`` would make
        (RULES.md §8) with the shortfall, without spending or changing
        anything.  Without *face* one d20 is rolled now with the session's
        random source; send ``move T MOVEMENT roll <check.face>`` (and
        ``nospend`` if the GM declines to pay) to make it for real."""
        from rules.engine_verbs import preview_move

        key = movement.strip().lower()
        if key not in ("dash", "run", "sprint"):
            raise ActionError(f"move: movement is dash, run or sprint, not {movement!r}")
        if face is not None and not 1 <= face <= 20:
            raise ActionError(f"move: roll is the d20 face, 1 to 20, not {face}")
        work = Work(self.encounter, Roller(self.rng))
        return preview_move(work, target, key, face)


def _line(action: Mapping[str, Any]) -> str:
    try:
        return format_action(action)
    except ActionError:
        return str(action.get("verb", ""))


_KINDS = frozenset(("do", "undo", "redo"))
_LOG_KEYS = ("seq", "round", "actor", "text")


def _log_entries(raw: Any) -> list[LogEntry]:
    """``LogEntry.from_dict`` for each item, without the dataclass
    constructor's per-field overhead when the JSON types are already right
    (the result is the same frozen value either way)."""
    out: list[LogEntry] = []
    append = out.append
    new = object.__new__
    for item in raw:
        seq, rnd, actor, text = (item[k] for k in _LOG_KEYS)
        if type(seq) is int and type(rnd) is int and type(actor) is str and type(text) is str:
            entry = new(LogEntry)
            entry.__dict__.update(seq=seq, round=rnd, actor=actor, text=text)
            append(entry)
        else:
            append(LogEntry.from_dict(item))
    return out


def _check_step(raw: Any) -> None:
    """Fail the way :meth:`Step.from_dict` would on a malformed step."""
    try:
        if raw["kind"] not in _KINDS:
            raise ValueError(f"unknown step kind {raw['kind']!r}")
        int(raw["seq"])
        if not isinstance(raw["action"], Mapping):
            dict(raw["action"])
        for key in ("before", "after"):
            value = raw.get(key)
            if value and not isinstance(value, Mapping):
                dict(value)
        if "log" in raw:
            for e in raw["log"]:
                LogEntry.from_dict(e)
    except (KeyError, TypeError, ValueError) as exc:
        raise ActionError(f"not a journaled step: {exc}") from None


class _LazySteps(list):
    """An undo stack whose loaded items stay raw dicts until read.

    Items are built into :class:`Step` (with their log entries, taken from
    the log as loaded) the first time they are indexed, popped or iterated;
    everything appended later is a Step already.  Only the list operations
    :class:`Session` uses are needed: ``[-1]``, ``pop``, ``append``,
    ``len``/``bool`` and iteration.
    """

    def __init__(self, raws: list[Any], log: tuple[LogEntry, ...]) -> None:
        super().__init__(raws)
        self._log = log
        self._by_seq: dict[int, tuple[LogEntry, ...]] | None = None

    def _build(self, index: int) -> Step:
        item = list.__getitem__(self, index)
        if isinstance(item, Step):
            return item
        step = Step.from_dict(item)
        if "log" not in item:
            if self._by_seq is None:
                grouped: dict[int, list[LogEntry]] = {}
                for entry in self._log:
                    grouped.setdefault(entry.seq, []).append(entry)
                self._by_seq = {k: tuple(v) for k, v in grouped.items()}
            step = Step(
                step.seq,
                step.kind,
                step.action,
                step.before,
                step.after,
                self._by_seq.get(step.seq, ()),
            )
        list.__setitem__(self, index, step)
        return step

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self)))]
        return self._build(index)

    def pop(self, index: Any = -1) -> Step:
        self._build(index)
        return list.pop(self, index)

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self._build(i)

    def __reversed__(self) -> Any:
        for i in range(len(self) - 1, -1, -1):
            yield self._build(i)

    def __contains__(self, item: object) -> bool:
        return any(step == item for step in self)

    def __eq__(self, other: object) -> bool:
        return list(self) == other
