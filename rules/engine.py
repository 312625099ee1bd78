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

import itertools
import operator
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from rules.encounter import Encounter, LogEntry
from rules.errors import ActionError

if TYPE_CHECKING:
    from rules.engine_patch import Patch
    from rules.engine_work import Work

# The action parser (rules.actions), the patches (rules.engine_patch) and the
# working copy (rules.engine_work) are imported where an action is applied,
# undone or shown: opening a saved fight and drawing it needs none of them
# (issue 4, "Starts fast": import only what the first screen needs).

Kind = Literal["do", "undo", "redo"]
#: 2: the log is stored as four columns (``{"seq": [...], "round": [...],
#: "actor": [...], "text": [...]}``), which parses several times faster than
#: one JSON object per entry; version 1 snapshots (a list of entries) load.
#: 3: ``"undo_count"`` (the undo stack's length) is stored beside ``"undo"``,
#: and ``"undo"`` may be supplied lazily: a zero-argument callable returning
#: the list of steps, called the first time the history is read (saves keeps
#: it unparsed until then).  Versions 1 and 2 (no count, the list inline) load.
#: 4: the log may be split: ``"log"`` holds the newest entries (columns) and
#: ``"log_head"`` the older ones (columns, or a zero-argument callable
#: returning them, called the first time an older entry is read), with
#: ``"log_head_count"`` their number.  Versions 1 to 3 (the whole log in
#: ``"log"``) load.
SNAPSHOT_VERSION = 4
#: A snapshot written with ``keep_unread`` (the one saves writes) keeps at
#: most this many of the newest log entries inline, beside an unread head
#: that is written back as it was: the inline part is parsed at every open.
LOG_INLINE_MAX = 2048
#: When the inline part would exceed ``LOG_INLINE_MAX`` (or the head was read
#: anyway), the log is split afresh: the newest ``LOG_INLINE_KEEP`` entries
#: inline, the rest the head.  More than the log pane's window of 200, so
#: scrolling to the top of it does not read the head.
LOG_INLINE_KEEP = 256


class Step(NamedTuple):
    """One journaled change (see the module docstring).  A named tuple (a
    carrier, never changed once built; cheap to define at start-up)."""

    seq: int
    kind: Kind
    action: Mapping[str, Any]
    before: Patch
    after: Patch
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
            from rules.actions import format_action

            return format_action({k: v for k, v in self.action.items() if k != "unused_faces"})
        except ActionError:
            return str(self.action.get("verb", ""))


class UnreadHistory:
    """The undo history of a session as it was supplied lazily to
    :meth:`Session.from_dict` and never read since: ``loader`` (as supplied,
    holding ``count`` steps) and ``tail``, the steps pushed since, as a
    snapshot stores them.  ``Session.to_dict(keep_unread=True)`` returns
    one as ``"undo"`` so that whoever supplied the loader can write what it
    holds back without parsing it; calling it gives the whole list, so it
    is itself a lazy ``"undo"`` for :meth:`Session.from_dict`.  (A plain
    class: it is only carried and called, and a dataclass costs the
    start-up ~0.5 ms to define.)"""

    __slots__ = ("loader", "count", "tail")

    def __init__(self, loader: Callable[[], Any], count: int, tail: list[dict[str, Any]]):
        self.loader, self.count, self.tail = loader, count, tail

    def __call__(self) -> list[Any]:
        base = self.loader()
        if type(base) is not list:
            raise ValueError(f"it is a {type(base).__name__}, not a list of steps")
        return base + self.tail


class UnreadLogHead:
    """The older part of a session's log as it was supplied lazily to
    :meth:`Session.from_dict` and never read since: ``loader`` (as
    supplied) holding ``count`` entries.  ``Session.to_dict(keep_unread=True)``
    returns one as ``"log_head"`` so that whoever supplied the loader can
    write its bytes back without parsing them; calling it calls the loader,
    so it is itself a lazy ``"log_head"`` for :meth:`Session.from_dict`."""

    __slots__ = ("loader", "count")

    def __init__(self, loader: Callable[[], Any], count: int):
        self.loader, self.count = loader, count

    def __call__(self) -> Any:
        return self.loader()


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
    def log_problem(self) -> str | None:
        """Why the older log entries saved with this fight could not be read
        (they were found unreadable when first read, and each is shown as
        this message instead); None when they are fine or not read yet."""
        problem: str | None = getattr(self.log, "problem", None)
        return problem

    def read_log(self) -> str | None:
        """Read the older log entries supplied lazily (see :meth:`from_dict`)
        now, if they were not yet; return :attr:`log_problem`."""
        if isinstance(self.log, _LazyLog):
            self.log.load_head()
        return self.log_problem

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
        from rules.actions import normalize_action

        action = normalize_action(line_or_action)
        verb = action["verb"]
        if verb == "undo":
            return self.undo()
        if verb == "redo":
            return self.redo()
        if verb == "prev" and self._last_is_next():
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
        from rules.actions import BATCH
        from rules.engine_work import Roller, Work

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
        from rules.engine_work import Roller

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
        from rules.engine_patch import diff

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
            raise ActionError(getattr(self._undo, "problem", None) or "undo: nothing to undo")
        return self._undo_last("undo")

    def _last_is_next(self) -> bool:
        """Whether the last action in effect is a ``next`` (so ``prev``
        undoes it); False below an unreadable saved history (see
        :meth:`from_dict`): ``prev`` then moves the turn pointer."""
        try:
            return bool(self._undo) and self._undo[-1].action.get("verb") == "next"
        except ActionError:
            return False

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
        from rules.engine_patch import apply_patch

        self.encounter = apply_patch(self.encounter, step.after)
        n = len(target.log)
        if n:
            del self.log[-n:]
        self._undo.pop()
        self._redo.append(target)
        self.seq = step.seq

    def _apply_redo(self, step: Step, target: Step) -> None:
        from rules.engine_patch import apply_patch

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
        from rules.engine_patch import apply_patch, mismatch

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

    def to_dict(self, keep_unread: bool = False) -> dict[str, Any]:
        """A full JSON-able snapshot: encounter, log, undo/redo stacks, seq.

        The log is exactly the entries of the steps on the undo stack, in
        order, so those steps are stored without their entries (they are
        taken back from the log by sequence number on load); the redo stack's
        entries are not in the log and are stored with their steps.  The log
        is stored as four columns (see ``SNAPSHOT_VERSION``), all of it in
        ``"log"`` (``"log_head_count"`` 0).

        An undo history or older log supplied lazily and never read is read
        here (a history found unreadable is left out, an unreadable log head
        is its notes: see :meth:`from_dict`) unless ``keep_unread``: then
        ``"undo"`` is an :class:`UnreadHistory` and ``"log_head"`` an
        :class:`UnreadLogHead` (not JSON: for the caller that supplied the
        loaders to write back), with ``"log"`` the entries after that head.
        ``keep_unread`` also keeps the inline part bounded: when it would
        hold more than ``LOG_INLINE_MAX`` entries, or the head was read, the
        log is split afresh (``"log_head"`` then the older entries' columns,
        ``"log"`` the newest ``LOG_INLINE_KEEP``).
        """
        undo = self._undo
        history: Any = None
        if isinstance(undo, _LazySteps):
            if keep_unread:
                history = undo.unread()
            if history is None:
                history = undo.to_dicts()
        else:
            history = [s.to_dict(with_log=False) for s in undo]
        head, head_count, inline = _log_parts(self.log, keep_unread)
        out: dict[str, Any] = {
            "version": SNAPSHOT_VERSION,
            "encounter": self.encounter.to_dict(),
            "log": inline,
            "log_head_count": head_count,
        }
        if head_count:
            out["log_head"] = head
        out.update(
            seq=self.seq,
            undo=history,
            undo_count=len(undo),
            redo=[s.to_dict() for s in self._redo],
        )
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rng: random.Random | None = None) -> Session:
        """Rebuild a session from :meth:`to_dict`; malformed → ActionError.

        Everything is checked here, but the log's entries and the undo
        stack's steps are built only when read (:class:`_LazyLog`,
        :class:`_LazySteps`): a 10,000-entry fight opens without building
        10,000 LogEntry and Step objects, when the log pane reads the last
        few dozen and undo rarely goes deep.  ``session.log`` is still a
        ``list`` of LogEntry to every reader.

        ``"undo"`` may also be supplied lazily (version 3): a zero-argument
        callable returning the list of steps, with ``"undo_count"`` its
        length.  It is called, and its steps checked, only when the history
        is first read (an undo reaching below this session's own steps,
        ``prev`` right after a loaded ``next``, ``undo_stack``,
        :meth:`to_dict`); ``can_undo`` and the stack's length need only the
        count.  A history that turns out unreadable then (the call raises,
        or the steps or their number do not check out) is dropped, the
        encounter, log and everything else stay as they are, and undo says
        so once (:attr:`_LazySteps.problem`) instead of reaching below this
        session's actions.

        ``"log_head"`` (version 4) holds the log's older entries, before
        those in ``"log"``: columns, or a zero-argument callable returning
        them, with ``"log_head_count"`` their number.  A callable is called
        only when an older entry is first read (an index or slice reaching
        it, iterating from the start, an undo cutting into it or reaching a
        step whose entries are there, :meth:`to_dict`); the log's length
        needs only the count.  If they turn out unreadable then (the call
        raises, or the columns or their number do not check out), each is
        read as one note saying so (:attr:`log_problem`): the log keeps its
        length, nothing else changes, and reading it never raises; and
        ``to_dict(keep_unread=True)`` still hands the head back as it was
        supplied (so saves writes the unreadable bytes back, losing
        nothing) until the inline part outgrows ``LOG_INLINE_MAX``.
        """
        try:
            log = _LazyLog.load(
                data.get("log", ()), data.get("log_head"), data.get("log_head_count")
            )
            undo = data.get("undo", ())
            count = data.get("undo_count")
            loader = None
            if callable(undo):
                if type(count) is not int or count < 0:
                    raise ValueError(f"the undo history's length is {count!r}")
                loader, raws = undo, []
            else:
                raws = list(undo)
                if count is not None and count != len(raws):
                    raise ValueError(f"undo_count is {count!r} for {len(raws)} steps")
                for raw in raws:
                    if not _canonical_step(raw):
                        _check_step(raw)
            session = cls(
                Encounter.from_dict(data["encounter"]),
                rng,
                seq=int(data.get("seq", 0)),
                redo=[Step.from_dict(s) for s in data.get("redo", ())],
            )
            session.log = log
            session._undo = _LazySteps(raws, log, loader, count or 0)
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
        from rules.actions import normalize_action

        record = normalize_action(action)
        verb = record["verb"]
        if verb in ("undo", "redo") or (verb == "prev" and self._last_is_next()):
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
        from rules.engine_work import Roller, Work

        key = movement.strip().lower()
        if key not in ("dash", "run", "sprint"):
            raise ActionError(f"move: movement is dash, run or sprint, not {movement!r}")
        if face is not None and not 1 <= face <= 20:
            raise ActionError(f"move: roll is the d20 face, 1 to 20, not {face}")
        work = Work(self.encounter, Roller(self.rng))
        return preview_move(work, target, key, face)


def _line(action: Mapping[str, Any]) -> str:
    from rules.actions import format_action

    try:
        return format_action(action)
    except ActionError:
        return str(action.get("verb", ""))


_KINDS = frozenset(("do", "undo", "redo"))
_LOG_KEYS = ("seq", "round", "actor", "text")


class _Rows:
    """The log as a snapshot stored it: four checked columns, read by row.

    An entry is built only when its row is read (:meth:`entry`); the log
    pane reading the last 30 of 10,000 builds 30, and opening the fight
    builds none."""

    __slots__ = ("seqs", "rounds", "actors", "texts")

    def __init__(self, seqs: list[int], rounds: list[int], actors: list[str], texts: list[str]):
        self.seqs, self.rounds, self.actors, self.texts = seqs, rounds, actors, texts

    @classmethod
    def load(cls, data: Any) -> _Rows:
        """The saved log: columns, or a version 1 list of entries.  A value
        whose JSON type is not exactly int, int, str, str goes through
        ``LogEntry.from_dict`` (which converts, or raises KeyError /
        TypeError / ValueError)."""
        if isinstance(data, Mapping):
            columns = [data[key] for key in _LOG_KEYS]
            if not all(type(c) is list for c in columns) or len(set(map(len, columns))) > 1:
                raise ValueError("the log's columns are not four lists of one length")
            seqs, rounds, actors, texts = columns
            ints = set(map(type, seqs)) | set(map(type, rounds))
            if ints <= {int} and set(map(type, actors)) | set(map(type, texts)) <= {str}:
                return cls(seqs, rounds, actors, texts)
            rows: Any = zip(*columns, strict=True)
            entries = [LogEntry.from_dict(dict(zip(_LOG_KEYS, r, strict=True))) for r in rows]
        else:
            entries = [LogEntry.from_dict(item) for item in data]
        if not entries:
            return cls([], [], [], [])
        seqs, rounds, actors, texts = map(list, zip(*entries, strict=True))
        return cls(seqs, rounds, actors, texts)

    def __len__(self) -> int:
        return len(self.seqs)

    def entry(self, row: int) -> LogEntry:
        """The entry in *row*, built without the constructor's per-field
        overhead (its values were checked when loaded)."""
        return tuple.__new__(
            LogEntry, (self.seqs[row], self.rounds[row], self.actors[row], self.texts[row])
        )


def _log_columns(log: Any, start: int = 0) -> dict[str, list[Any]]:
    """The log as the snapshot stores it, from the list item *start* on:
    four columns (loaded entries that were never read are written from
    their row, not built).  For a log whose head is still unread, the
    items are the entries after it."""
    if isinstance(log, _LazyLog):
        rows = log.rows
        items: Any = (
            (rows.seqs[i], rows.rounds[i], rows.actors[i], rows.texts[i]) if type(i) is int else i
            for i in itertools.islice(list.__iter__(log), start, None)
        )
    else:
        items = log
    columns = list(zip(*items, strict=True))  # LogEntry is (seq, round, actor, text)
    if not columns:
        return {key: [] for key in _LOG_KEYS}
    return dict(zip(_LOG_KEYS, map(list, columns), strict=True))


def _log_parts(log: Any, keep_unread: bool) -> tuple[Any, int, dict[str, list[Any]]]:
    """``(head, head count, inline columns)`` of a snapshot (see
    :meth:`Session.to_dict`): an unread head kept as it is while the inline
    part stays within ``LOG_INLINE_MAX``; else, with ``keep_unread``, a
    fresh split when the log is longer than that or its head was read;
    else the whole log inline."""
    lazy = isinstance(log, _LazyLog)
    loader = log.head_loader if lazy else None
    if keep_unread and loader is not None and list.__len__(log) <= LOG_INLINE_MAX:
        unread = UnreadLogHead(loader, log.head_pending)
        return unread, log.head_pending, _log_columns(log)
    kept = log.kept_head if lazy else None
    if keep_unread and kept is not None and list.__len__(log) - kept[1] <= LOG_INLINE_MAX:
        # unreadable, its notes untouched: its bytes go back as they were
        return UnreadLogHead(*kept), kept[1], _log_columns(log, kept[1])
    if lazy:
        log.load_head()
    columns = _log_columns(log)
    total = len(columns["seq"])
    if not keep_unread or (total <= LOG_INLINE_MAX and not (lazy and log.head_read)):
        return None, 0, columns
    cut = max(0, total - LOG_INLINE_KEEP)
    if not cut:
        return None, 0, columns
    head = {key: column[:cut] for key, column in columns.items()}
    return head, cut, {key: column[cut:] for key, column in columns.items()}


class _LazyLog(list):
    """``Session.log`` as loaded: a ``list`` of LogEntry whose loaded items
    stay row numbers into the saved columns (:class:`_Rows`) until read,
    and whose older entries (the snapshot's ``"log_head"``) may not even
    be parsed yet.

    Reading an item (index, slice, iteration, ``reversed``, ``in``, ``==``,
    ``index``, ``count``, ``pop``, ``copy``, ``+``) builds it into its
    LogEntry, once, in place; what is appended later is a LogEntry already;
    ``extend`` and ``append`` are the list's own.  So the log pane reading
    the last 30 entries of a 10,000-entry log builds 30.  A copy or pickle
    is the plain list of its entries.

    A head supplied lazily (a loader and its count) sits before the list's
    items: ``len`` counts it, and it is loaded (:meth:`load_head`) the
    first time an index in it is read, written or deleted (a slice or
    ``del`` reaching it, iterating from the start, ``reversed`` reaching
    it, anything that reads every item).  Loaded, its rows go before the
    others in :attr:`rows`.  If it is unreadable then, each of its entries
    is read as a note saying so (:attr:`problem`): the length stays, and
    reading never raises; :attr:`kept_head` keeps its loader while those
    notes are untouched.
    """

    rows = _Rows([], [], [], [])
    #: the head supplied lazily and not loaded yet (None: none is pending)
    head_loader: Callable[[], Any] | None = None
    #: its number of entries (0: none pending)
    head_pending = 0
    #: a head supplied lazily has been loaded (or found unreadable)
    head_read = False
    #: why the head supplied lazily was unreadable (None: it was not)
    problem: str | None = None
    #: an unreadable head's loader and count while its notes are untouched
    #: (``to_dict(keep_unread=True)`` hands it back: nothing saved is lost)
    kept_head: tuple[Callable[[], Any], int] | None = None

    @classmethod
    def load(cls, data: Any, head: Any = None, head_count: Any = None) -> _LazyLog:
        rows = _Rows.load(data)
        log = cls(range(len(rows)))
        log.rows = rows
        if head is None:
            if head_count not in (None, 0):
                raise ValueError(f"log_head_count is {head_count!r} without a log_head")
        elif callable(head):
            if type(head_count) is not int or head_count < 0:
                raise ValueError(f"the older log's length is {head_count!r}")
            if isinstance(head, UnreadLogHead):
                if head.count != head_count:
                    raise ValueError(f"log_head_count is {head_count} for {head.count} entries")
                head = head.loader
            if head_count:
                log.head_loader, log.head_pending = head, head_count
        else:
            older = _Rows.load(head)
            if head_count is not None and head_count != len(older):
                raise ValueError(f"log_head_count is {head_count!r} for {len(older)} entries")
            log._prepend(older)
        return log

    def _prepend(self, head: _Rows) -> None:
        """Put *head*'s rows before every item (the rows are renumbered)."""
        n = len(head)
        if not n:
            return
        rows = self.rows
        items = [i + n if type(i) is int else i for i in list.__iter__(self)]
        self.rows = _Rows(
            head.seqs + rows.seqs,
            head.rounds + rows.rounds,
            head.actors + rows.actors,
            head.texts + rows.texts,
        )
        list.__setitem__(self, slice(None), [*range(n), *items])

    def load_head(self) -> None:
        """Load the head supplied lazily (once), before the items."""
        loader, count = self.head_loader, self.head_pending
        if loader is None:
            return
        self.head_loader, self.head_pending, self.head_read = None, 0, True
        try:
            head = _Rows.load(loader())
            if len(head) != count:
                raise ValueError(f"it holds {len(head)} entries, not the {count} saved")
        except Exception as exc:  # whatever the supplied loader raises: never a traceback
            why = f"{exc!r}" if isinstance(exc, KeyError) else str(exc)
            self.problem = (
                f"(older log entry unreadable: the older log saved with this fight "
                f"could not be read ({why}); {count} entries cannot be shown)"
            )
            head = _Rows([0] * count, [0] * count, [""] * count, [self.problem] * count)
            self.kept_head = (loader, count)
        self._prepend(head)

    def _changing(self, lowest: Any = 0) -> None:
        """An item from position *lowest* on is about to change: an
        unreadable head's notes there are no longer what its bytes hold."""
        kept = self.kept_head
        if kept is not None:
            n = list.__len__(self)
            i = operator.index(lowest)
            if (i + n if i < 0 else i) < kept[1]:
                self.kept_head = None

    def _at(self, index: Any) -> Any:
        """The list position of *index*, loading the head if it is there."""
        pending = self.head_pending
        if not pending:
            return index
        i = operator.index(index)
        n = list.__len__(self) + pending
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("list index out of range")
        if i >= pending:
            return i - pending
        self.load_head()
        return i

    def _get(self, index: int) -> LogEntry:
        index = self._at(index)
        item = list.__getitem__(self, index)
        if type(item) is int:
            item = self.rows.entry(item)
            list.__setitem__(self, index, item)
        return item

    def __len__(self) -> int:
        return list.__len__(self) + self.head_pending

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        return self._get(index)

    def __setitem__(self, index: Any, value: Any) -> None:
        self.load_head()
        self._changing()
        list.__setitem__(self, index, value)

    def __delitem__(self, index: Any) -> None:
        pending = self.head_pending
        if pending and isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and min(start, stop) >= pending:
                index = slice(start - pending, stop - pending)
            elif len(range(start, stop, step)):
                self.load_head()
            else:
                return
        elif pending:
            index = self._at(index)
        if self.kept_head is not None:
            if isinstance(index, slice):
                start, stop, step = index.indices(list.__len__(self))
                if len(range(start, stop, step)):
                    self._changing(start if step > 0 else 0)
            else:
                self._changing(index)
        list.__delitem__(self, index)

    def __iter__(self) -> Iterator[LogEntry]:
        i = 0
        while i < len(self):
            yield self._get(i)
            i += 1

    def __reversed__(self) -> Iterator[LogEntry]:
        for i in range(len(self) - 1, -1, -1):
            yield self._get(i)

    def __contains__(self, item: object) -> bool:
        return any(entry == item for entry in self)

    def __eq__(self, other: object) -> bool:
        return list(self) == other

    def __ne__(self, other: object) -> bool:
        return list(self) != other

    __hash__ = None

    def __add__(self, other: Any) -> Any:
        return list(self) + other

    def __radd__(self, other: Any) -> Any:
        return other + list(self)

    def __mul__(self, n: Any) -> Any:
        return list(self) * n

    __rmul__ = __mul__

    def __imul__(self, n: Any) -> Any:
        self.load_head()
        self._changing()
        return list.__imul__(self, n)

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self) -> Any:
        """Copied or pickled as the plain list of its entries."""
        return (list, (list(self),))

    def copy(self) -> list[LogEntry]:
        return list(self)

    def index(self, value: Any, start: Any = 0, stop: Any = None) -> int:
        return list(self).index(value, start, len(self) if stop is None else stop)

    def count(self, value: Any) -> int:
        return list(self).count(value)

    def pop(self, index: Any = -1) -> LogEntry:
        self._get(index)
        position = self._at(index)
        self._changing(position)
        return list.pop(self, position)

    def _build_all(self) -> None:
        for i in range(len(self)):
            self._get(i)

    def insert(self, index: Any, value: Any) -> None:
        self.load_head()
        self._changing()
        list.insert(self, index, value)

    def remove(self, value: Any) -> None:
        self._build_all()
        self._changing()
        list.remove(self, value)

    def clear(self) -> None:
        self.head_loader, self.head_pending, self.kept_head = None, 0, None
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._build_all()
        self._changing()
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        self.load_head()
        self._changing()
        list.reverse(self)


def _canonical_step(raw: Any) -> bool:
    """True if *raw* is a step exactly as a snapshot stores it (the fast
    path of :func:`_check_step`: nothing to convert)."""
    if type(raw) is not dict:
        return False
    kind = raw.get("kind")
    return (
        type(kind) is str
        and kind in _KINDS
        and type(raw.get("seq")) is int
        and type(raw.get("action")) is dict
        and type(raw.get("before", _NO_PATCH)) is dict
        and type(raw.get("after", _NO_PATCH)) is dict
        and "log" not in raw
    )


_NO_PATCH: dict[str, Any] = {}


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
    """An undo stack whose loaded items stay raw dicts until read, and whose
    loaded part may not even be parsed yet.

    Items are built into :class:`Step` (with their log entries, taken from
    the log as loaded, found by sequence number) the first time they are
    indexed, popped or iterated; everything appended later is a Step
    already.  Only the list operations :class:`Session` uses are needed:
    ``[-1]``, ``pop``, ``append``, ``len``/``bool`` and iteration.

    A history supplied lazily (a *loader* and its *count*, see
    :meth:`Session.from_dict`) sits below the items appended since and is
    loaded the first time anything but its length, or the appended items'
    tail (``[-k]`` / ``pop()`` within them), is read.  If it is unreadable
    then, it is dropped and :attr:`problem` says so: reading below the
    appended items raises :class:`ActionError` with that message.
    """

    def __init__(
        self,
        raws: list[Any],
        log: _LazyLog,
        loader: Callable[[], Any] | None = None,
        count: int = 0,
    ) -> None:
        super().__init__(raws)
        #: the log as loaded, whose rows (``log.rows``) are where a loaded
        #: step finds its entries by sequence number; the log is in
        #: sequence order (entries are appended in order, undo cuts the
        #: tail, redo re-appends the newest), checked before it is searched
        #: by bisection.  Its head, if still unread, is loaded when a step
        #: may have entries there (see :meth:`_log_of`).
        self._log = log
        self._rows = log.rows
        self._in_order: bool | None = None
        self._by_seq: dict[int, tuple[int, ...]] | None = None
        #: the history not loaded yet (below every item) and its length
        self._loader = loader
        self._pending = count if loader is not None else 0
        #: why the history supplied lazily was dropped (None: it was not)
        self.problem: str | None = None

    def _load(self) -> None:
        """Load the history supplied lazily (once), below the items."""
        loader, count = self._loader, self._pending
        if loader is None:
            return
        self._loader, self._pending = None, 0
        try:
            raws = loader()
            if type(raws) is not list:
                raise ValueError(f"it is a {type(raws).__name__}, not a list of steps")
            if len(raws) != count:
                raise ValueError(f"it holds {len(raws)} steps, not the {count} saved")
            for raw in raws:
                if not _canonical_step(raw):
                    _check_step(raw)
        except Exception as exc:  # whatever the supplied loader raises: never a traceback
            self.problem = (
                f"undo: the undo history saved with this fight is unreadable ({exc}); "
                "undo is not available beyond this session's actions"
            )
            return
        list.__setitem__(self, slice(0, 0), raws)

    def _reach(self, index: Any) -> None:
        """Load the lazy history unless *index* is among the items above it;
        raise the problem if it is unreadable and *index* is not there."""
        if self._loader is None and self.problem is None:
            return
        held = list.__len__(self)
        if isinstance(index, int) and -held <= index < 0:
            return
        self._load()
        held = list.__len__(self)
        if self.problem is not None and not (isinstance(index, int) and -held <= index < held):
            raise ActionError(self.problem)

    def unread(self) -> UnreadHistory | None:
        """The history as supplied and the steps pushed since, if it was
        never loaded (see :meth:`Session.to_dict`)."""
        if self._loader is None:
            return None
        tail = [s.to_dict(with_log=False) for s in list.__iter__(self)]
        return UnreadHistory(self._loader, self._pending, tail)

    def __len__(self) -> int:
        return list.__len__(self) + self._pending

    def __bool__(self) -> bool:
        return len(self) > 0

    def _log_of(self, seq: int) -> tuple[LogEntry, ...]:
        log = self._log
        if log.head_pending:
            # The entries of a step are after the head's only if the rows
            # are in order and the step is after their first entry's (a
            # step at that entry may have its first entries in the head).
            seqs = log.rows.seqs
            if not (seqs and seq > seqs[0] and self._ordered()):
                log.load_head()
        ordered = self._ordered()  # first: it takes the rows afresh if the head was loaded
        seqs = self._rows.seqs
        if ordered:
            lo = bisect_left(seqs, seq)
            indices: Any = range(lo, bisect_right(seqs, seq, lo))
        else:
            if self._by_seq is None:
                grouped: dict[int, list[int]] = {}
                for i, s in enumerate(seqs):
                    grouped.setdefault(s, []).append(i)
                self._by_seq = {k: tuple(v) for k, v in grouped.items()}
            indices = self._by_seq.get(seq, ())
        return tuple(self._rows.entry(i) for i in indices)

    def _ordered(self) -> bool:
        """Whether the rows as loaded are in sequence order (once per rows;
        the log's rows are taken afresh when loading its head renumbered them)."""
        if self._rows is not self._log.rows:
            self._rows, self._in_order, self._by_seq = self._log.rows, None, None
        if self._in_order is None:
            seqs = self._rows.seqs
            self._in_order = all(map(operator.le, seqs, seqs[1:]))
        return self._in_order

    def _build(self, index: int) -> Step:
        item = list.__getitem__(self, index)
        if isinstance(item, Step):
            return item
        step = Step.from_dict(item)
        if "log" not in item:
            step = Step(
                step.seq,
                step.kind,
                step.action,
                step.before,
                step.after,
                self._log_of(step.seq),
            )
        list.__setitem__(self, index, step)
        return step

    def to_dicts(self) -> list[dict[str, Any]]:
        """The stack as :meth:`Session.to_dict` stores it; loaded steps never
        read are written as loaded (they were checked canonical), not built."""
        self._load()
        return [
            item if _canonical_step(item) else self._build(i).to_dict(with_log=False)
            for i, item in enumerate(list.__iter__(self))
        ]

    def __getitem__(self, index: Any) -> Any:
        self._reach(index)
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self)))]
        return self._build(index)

    def pop(self, index: Any = -1) -> Step:
        self._reach(index)
        self._build(index)
        return list.pop(self, index)

    def __iter__(self) -> Any:
        self._load()
        for i in range(len(self)):
            yield self._build(i)

    def __reversed__(self) -> Any:
        self._load()
        for i in range(len(self) - 1, -1, -1):
            yield self._build(i)

    def __contains__(self, item: object) -> bool:
        return any(step == item for step in self)

    def __eq__(self, other: object) -> bool:
        return list(self) == other
