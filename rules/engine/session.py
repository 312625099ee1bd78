"""The live encounter: a :class:`Session` applies actions, undoes and redoes
them, replays journaled steps and snapshots itself.

A Session is the one mutable holder of a live encounter: ``.encounter`` (a
frozen :class:`~rules.encounter.Encounter`), ``.log`` (a list of
:class:`~rules.encounter.LogEntry`), ``.seq`` (the last sequence number
handed out), ``.rng`` (the injected random source) and the undo and redo
stacks of :class:`~rules.engine.step.Step`.  No I/O.  What only resumes and
shows a fight never imports the action language, the verbs, the patches or
the working copy: they are imported here, where an action is first applied,
undone or shown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.encounter import Encounter, LogEntry
from rules.engine.lazy_log import _LazyLog, log_parts
from rules.engine.lazy_steps import _LazySteps
from rules.engine.step import Step, check_step
from rules.errors import ActionError

if TYPE_CHECKING:
    from rules.engine.work import Work

#: 2: the log is stored as four columns (``{"seq": [...], "round": [...],
#: "actor": [...], "text": [...]}``); version 1 snapshots (a list of
#: entries) load.
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


class Session:
    """The live encounter and its history.

    Every change is an action (``rules.engine.parse``) applied by :meth:`apply`,
    which returns a :class:`~rules.engine.step.Step`: what gets journaled.
    :meth:`replay` re-applies a journaled step by its patches (no dice, no
    rules: exact); it first checks that the session is in the step's
    *before* state and refuses a journal that does not fit.
    :meth:`to_dict` / :meth:`from_dict` snapshot everything: encounter,
    log, undo and redo stacks (as steps), seq.  So undo and redo work at
    any depth after a restart, whether the session came from a snapshot, a
    replayed journal or both.

    Undo, redo, prev:

    - ``undo`` reverts the most recent action still in effect (any depth);
      a new action clears the redo stack; ``redo`` re-applies the most
      recently undone one, with its original rolls and log entries.
    - ``prev``: when the last action in effect is a ``next``, ``prev`` is an
      undo of it (its rolls and log entries go too; ``redo`` brings them
      back).  Otherwise ``prev`` only moves the turn pointer back
      (``rules.engine.turns``): the actions since the last ``next`` stay —
      the GM corrected something and then wants the previous combatant's
      turn shown again.  The turn boundaries it steps back over are not
      processed again by the following ``next`` (``Encounter.rewound``;
      logged ``(already processed)``).

    Batches: a line ``a; b; c`` (``{"verb": "batch", "actions": [...]}``,
    see ``rules.engine.parse``) is applied in order to one working copy and
    committed as ONE Step: one journal record (replayed by its patches like
    any other), one ``undo``, one ``redo``.  If any part fails, nothing
    changes (encounter, log, history, random source) and the message names
    the part: ``part 2 of 3 (set Goblin hp 40): … — nothing was changed``.
    Each part keeps its own ``faces`` (and ``roll``), and its resolved
    record carries the faces it dealt.  ``undo``/``redo``/``prev`` are
    refused inside a batch (by the parser).  Within a batch ``set T hp N``
    may exceed T's current ``max_hp``; every combatant's ``hp <= max_hp`` is
    checked once at the end instead, so ``set T hp 40; set T max_hp 50``
    and ``set T max_hp 50; set T hp 40`` both work.  ``prev`` right after a
    batch is never an undo of it (even if it ended with ``next``): it moves
    the pointer.

    Physical dice: every action may carry ``faces`` (the GM's physical dice,
    used in order before the random source; ``roll N`` puts N first).
    Faces left over are ignored and noted in the log (``unused faces``) and
    in the journaled action.  :meth:`dice_needed` dry-runs an action and
    lists ``(label, sides)`` for every die the program would roll itself:
    the first entry is always exact; later ones follow the dry run's outcome
    (e.g. damage dice after a hit), so a UI asking face by face should add
    the face to ``faces`` and ask again until the list is empty.
    """

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
        from rules.engine.parse import normalize_action

        action = normalize_action(line_or_action)
        verb = action["verb"]
        if verb == "undo":
            return self.undo()
        if verb == "redo":
            return self.redo()
        if verb == "prev" and self._last_is_next():
            return self._undo_last("prev")
        from rules.engine.verbs import run

        state = self.rng.getstate()
        try:
            work, resolved = run(self.encounter, action, self.rng)
        except BaseException:
            self.rng.setstate(state)
            raise
        return self._commit(resolved, work)

    def _commit(self, resolved: dict[str, Any], work: Work) -> Step:
        from rules.engine.patch import diff

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
        from rules.engine.patch import apply_patch

        self.encounter = apply_patch(self.encounter, step.after)
        n = len(target.log)
        if n:
            del self.log[-n:]
        self._undo.pop()
        self._redo.append(target)
        self.seq = step.seq

    def _apply_redo(self, step: Step, target: Step) -> None:
        from rules.engine.patch import apply_patch

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
        from rules.engine.patch import apply_patch, mismatch

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
        head, head_count, inline = log_parts(self.log, keep_unread, LOG_INLINE_MAX, LOG_INLINE_KEEP)
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
        stack's steps are built only when read (``rules.engine.lazy_log``,
        ``rules.engine.lazy_steps``); ``session.log`` is still a ``list`` of
        LogEntry to every reader.  ``"undo"`` may be supplied lazily
        (version 3): a zero-argument callable returning the list of steps,
        with ``"undo_count"`` its length.  ``"log_head"`` (version 4) holds
        the log's older entries, before those in ``"log"``: columns, or a
        zero-argument callable returning them, with ``"log_head_count"``
        their number.  A callable is called only when what it holds is first
        reached.  A history found unreadable then is dropped and undo says so
        once (:attr:`_LazySteps.problem`); an older log found unreadable is
        read as one note per entry (:attr:`log_problem`), and
        ``to_dict(keep_unread=True)`` still hands it back as supplied until
        the inline part outgrows ``LOG_INLINE_MAX``.  Nothing else of the
        fight is affected either way.
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
                    check_step(raw)
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
        from rules.engine.parse import normalize_action
        from rules.engine.verbs import run

        record = normalize_action(action)
        verb = record["verb"]
        if verb in ("undo", "redo") or (verb == "prev" and self._last_is_next()):
            return []
        work, _ = run(self.encounter, record, random.Random(0))
        return list(work.asked)

    def preview_move(self, target: str, movement: str, face: int | None = None) -> Any:
        """The endurance check ``move target movement`` would make
        (RULES.md §8) with the shortfall, without spending or changing
        anything.  Without *face* one d20 is rolled now with the session's
        random source; send ``move T MOVEMENT roll <check.face>`` (and
        ``nospend`` if the GM declines to pay) to make it for real."""
        from rules.engine.verbs_combat import preview_move

        return preview_move(self.encounter, self.rng, target, movement, face)
