"""The live encounter: a :class:`Session` applies actions, undoes and redoes
them, replays saved steps and snapshots itself.

A Session is the one mutable holder of a live encounter: ``.encounter`` (a
frozen :class:`~rules.encounter.Encounter`), ``.log`` (the newest log
entries, a plain list), ``.seq`` (the last sequence number handed out),
``.rng`` (the injected random source) and the undo and redo stacks.  Each
stack is two plain lists: the Steps held in memory (its top) and, below
them, the sequence numbers of steps that are only in the fight's saved
history; those are read through a :class:`StepSource` the first time an
undo or redo reaches them.  No I/O here: the source is whoever saved the
steps (``saves``).  What only resumes and shows a fight never imports the
action language, the verbs, the patches or the working copy.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from rules.encounter import Encounter, LogEntry
from rules.engine.runs import Runs, expand, load_runs, overlap, pop_top, push
from rules.engine.step import Step
from rules.errors import ActionError

if TYPE_CHECKING:
    from rules.engine.work import Work

#: The layout :meth:`Session.to_dict` writes (nothing older was released).
SNAPSHOT_VERSION = 1
#: A bounded snapshot (``to_dict(bounded=True)``) keeps at most this many
#: steps of each stack in full ...
KEEP_STEPS = 256
#: ... and stops once the undo steps kept hold this many log entries: more
#: than the log pane's window, so resuming shows a full pane.
KEEP_ENTRIES = 300
#: An undo or redo below what is in memory reads this many older steps at once.
READ_CHUNK = 256


class StepSource(Protocol):
    """Where the steps below a session's in-memory stacks are read from."""

    def read_steps(self, seqs: Sequence[int]) -> list[Step]:
        """The saved steps numbered *seqs*, in that order; ActionError
        (saying why) when they cannot be read."""
        ...


class Session:
    """The live encounter and its history.

    :meth:`apply` validates and applies one action (or a batch ``a; b; c``,
    committed as ONE step: one undo, one redo; if any part fails nothing
    changes and the message names the part) and returns its
    :class:`~rules.engine.step.Step`.  :meth:`replay` re-applies a saved
    step by its patches (no dice, no rules: exact) after checking that the
    session is in the step's *before* state.

    - ``undo`` reverts the most recent action still in effect, at any
      depth; a new action clears the redo stack; ``redo`` re-applies the
      most recently undone one with its original rolls and log entries.
    - ``prev``, when the last action in effect is a ``next``, is an undo of
      it; otherwise it only moves the turn pointer back
      (``rules.engine.turns``), and the turn boundaries it steps back over
      are not processed again (logged ``(already processed)``).
    - Physical dice: an action may carry ``faces``, used before the random
      source; :meth:`dice_needed` lists the dice the program would still
      roll (the first entry exact, later ones following the dry run).
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
        #: the log entries of the undo steps in memory, oldest first
        self.log: list[LogEntry] = list(log or [])
        #: how many log entries the older undo steps (``_undo_older``) hold
        self.log_earlier = 0
        self.seq: int = seq
        self._undo: list[Step] = list(undo or [])
        self._redo: list[Step] = list(redo or [])
        #: below the in-memory stacks: sequence numbers of saved steps, bottom first
        self._undo_older: Runs = []
        self._redo_older: Runs = []
        #: reads the older steps (None: there are none, or nobody saved them)
        self.source: StepSource | None = None

    # -- queries -------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._undo or self._undo_older)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo or self._redo_older)

    @property
    def undo_stack(self) -> tuple[Step, ...]:
        """The whole undo stack, bottom first (reads the older steps)."""
        self._read_older(self._undo, self._undo_older, self.seq)
        return tuple(self._undo)

    @property
    def redo_stack(self) -> tuple[Step, ...]:
        self._read_older(self._redo, self._redo_older, self.seq)
        return tuple(self._redo)

    def full_log(self) -> list[LogEntry]:
        """Every log entry, oldest first, the older ones read from the saved
        steps without keeping them in memory (for an export)."""
        if not self._undo_older:
            return list(self.log)
        older = self._source().read_steps(expand(self._undo_older))
        return [e for s in older for e in s.log] + self.log

    def _source(self) -> StepSource:
        if self.source is None:
            raise ActionError("the older steps of this fight were not saved")
        return self.source

    def _read_older(self, stack: list[Step], older: Runs, count: int) -> None:
        """Bring the top *count* older steps of *stack* into memory (an
        undo or redo reached them); the undo stack's bring their log
        entries with them."""
        if not older:
            return
        seqs = pop_top(older, count)
        try:
            steps = self._source().read_steps(seqs)
            if [st.seq for st in steps] != seqs or any(st.kind != "do" for st in steps):
                raise ActionError("the saved history does not fit this fight")
        except ActionError:
            for seq in seqs:  # still below, as they were
                push(older, seq)
            raise
        stack[:0] = steps
        if stack is self._undo:
            entries = [e for st in steps for e in st.log]
            self.log[:0] = entries
            self.log_earlier -= len(entries)

    def _top(self, stack: list[Step], older: Runs) -> Step | None:
        """The top of a stack, read from the saved steps if need be."""
        if not stack and older:
            self._read_older(stack, older, READ_CHUNK)
        return stack[-1] if stack else None

    # -- applying actions ----------------------------------------------------

    def apply(self, line_or_action: str | Mapping[str, Any]) -> Step:
        """Validate and apply one action (or a batch, ``a; b; c``); return
        its Step.

        Raises :class:`ActionError` (one message naming the problem) and
        leaves everything unchanged — encounter, log, history and the random
        source's state — when the action cannot be applied.
        """
        from rules.engine.parse import normalize_action

        action = normalize_action(line_or_action, self._names(), self._groups())
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

    def _names(self) -> list[str]:
        """The combatants' names, for reading an unquoted full name."""
        return [c.name for c in self.encounter.combatants]

    def _groups(self) -> list[str]:
        """The groups' names, for reading an unquoted group name with spaces."""
        from rules.engine.targets import group_names

        return group_names(self.encounter.combatants)

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
        self._redo_older.clear()
        return step

    def undo(self) -> Step:
        """Undo the most recent action still in effect (a Step of kind undo)."""
        try:
            top = self._top(self._undo, self._undo_older)
        except ActionError as exc:
            raise ActionError(f"undo: {exc}") from None
        if top is None:
            raise ActionError("undo: nothing to undo")
        return self._undo_last("undo")

    def _last_is_next(self) -> bool:
        """Whether the last action in effect is a ``next`` (so ``prev``
        undoes it); False when the saved history cannot be read: ``prev``
        then moves the turn pointer."""
        try:
            top = self._top(self._undo, self._undo_older)
        except ActionError:
            return False
        return top is not None and top.action.get("verb") == "next"

    def redo(self) -> Step:
        """Redo the most recently undone action (a Step of kind redo)."""
        try:
            target = self._top(self._redo, self._redo_older)
        except ActionError as exc:
            raise ActionError(f"redo: {exc}") from None
        if target is None:
            raise ActionError("redo: nothing to redo")
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
            self._redo_older.clear()
            self.seq = step.seq
        elif step.kind == "undo":
            top = self._top(self._undo, self._undo_older)
            if top is None or top.seq != step.action.get("undone"):
                raise ActionError(
                    f"cannot replay step {step.seq}: it undoes a step not on top of the undo stack"
                )
            self._apply_undo(step, self._undo[-1])
        else:
            top = self._top(self._redo, self._redo_older)
            if top is None or top.seq != step.action.get("redone"):
                raise ActionError(
                    f"cannot replay step {step.seq}: it redoes a step not on top of the redo stack"
                )
            self._apply_redo(step, self._redo[-1])
        return step

    def to_dict(self, bounded: bool = False) -> dict[str, Any]:
        """A JSON-able snapshot: encounter, seq, and both stacks.

        Each stack is ``"undo"`` / ``"redo"`` (its top steps in full, with
        their log entries, bottom first) over ``"undo_older"`` /
        ``"redo_older"`` (the sequence numbers of the steps below, as
        ``[first, last]`` ranges), with ``"log_earlier"`` the number of log
        entries the older undo steps hold.  The log is the entries of the
        undo steps, so it is not stored again.  ``bounded``: keep at most
        ``KEEP_STEPS`` steps of each stack in full (and the undo steps only
        until they hold ``KEEP_ENTRIES`` entries), so the snapshot's size
        does not grow with the fight; the rest must be in the saved steps
        (``saves`` writes every step before a snapshot).  Unbounded, every
        step in memory is kept in full.
        """
        undo_keep = len(self._undo)
        if bounded:
            undo_keep, entries = 0, 0
            for step in reversed(self._undo):
                if undo_keep >= KEEP_STEPS or entries >= KEEP_ENTRIES:
                    break
                undo_keep += 1
                entries += len(step.log)
        redo_keep = min(len(self._redo), KEEP_STEPS) if bounded else len(self._redo)
        undo_cut = len(self._undo) - undo_keep
        redo_cut = len(self._redo) - redo_keep
        earlier = self.log_earlier + sum(len(s.log) for s in self._undo[:undo_cut])
        return {
            "version": SNAPSHOT_VERSION,
            "encounter": self.encounter.to_dict(),
            "seq": self.seq,
            "undo": [s.to_dict() for s in self._undo[undo_cut:]],
            "undo_older": self._runs_with(self._undo_older, self._undo[:undo_cut]),
            "log_earlier": earlier,
            "redo": [s.to_dict() for s in self._redo[redo_cut:]],
            "redo_older": self._runs_with(self._redo_older, self._redo[:redo_cut]),
        }

    @staticmethod
    def _runs_with(runs: Runs, steps: list[Step]) -> Runs:
        out = [list(run) for run in runs]
        for step in steps:
            push(out, step.seq)
        return out

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        rng: random.Random | None = None,
        source: StepSource | None = None,
    ) -> Session:
        """Rebuild a session from :meth:`to_dict`; malformed → ActionError.
        *source* reads the older steps the snapshot names by number."""
        try:
            version = data.get("version")
            if version != SNAPSHOT_VERSION:
                raise ValueError(f"snapshot version {version!r} is not {SNAPSHOT_VERSION}")
            undo = [Step.from_dict(s) for s in data.get("undo", ())]
            session = cls(
                Encounter.from_dict(data["encounter"]),
                rng,
                log=[e for s in undo for e in s.log],
                seq=int(data.get("seq", 0)),
                undo=undo,
                redo=[Step.from_dict(s) for s in data.get("redo", ())],
            )
            session._undo_older = load_runs(data.get("undo_older", ()))
            session._redo_older = load_runs(data.get("redo_older", ()))
            earlier = data.get("log_earlier", 0)
            if type(earlier) is not int or earlier < 0:
                raise ValueError(f"log_earlier is {earlier!r}")
            session.log_earlier = earlier
            runs = session._undo_older + session._redo_older
            runs += [[s.seq, s.seq] for s in undo + session._redo]
            if overlap(runs, session.seq):
                raise ValueError("its undo and redo stacks do not fit its sequence number")
            if any(s.kind != "do" for s in undo + session._redo):
                raise ValueError("its undo or redo stack holds an undo or redo step")
            session.source = source
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

        record = normalize_action(action, self._names(), self._groups())
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
