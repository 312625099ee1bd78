"""The live encounter: a :class:`Session` is the one mutable holder of a
fight (``.encounter``, frozen; ``.seq``, the last sequence number handed
out; ``.rng``, injected; its :class:`~rules.engine.history.History`).
What only resumes and shows a fight never imports the action language,
the verbs, the patches or the working copy."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.encounter import Encounter, LogEntry
from rules.engine.history import History, LogWindow, StepSource
from rules.engine.step import Step, renames_in
from rules.errors import ActionError

if TYPE_CHECKING:
    from rules.engine.work import Work

#: The layout :meth:`Session.to_dict` writes (nothing older was released).
SNAPSHOT_VERSION = 1


class Session:
    """The live encounter and its history.

    - A batch ``a; b; c`` is ONE step: one undo, one redo; if any part
      fails nothing changes and the message names the part.
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
        self.rng: random.Random = rng if rng is not None else random.Random()
        self.seq: int = seq
        self.history = History(log, undo, redo)

    # -- the history ---------------------------------------------------------

    @property
    def log(self) -> list[LogEntry]:
        """The log entries of the undo steps in memory, oldest first."""
        return self.history.log

    @log.setter
    def log(self, entries: list[LogEntry]) -> None:
        self.history.replace_log(entries)

    @property
    def log_earlier(self) -> int:
        """How many log entries the older undo steps (not in memory) hold."""
        return self.history.log_earlier

    def combats_earlier(self) -> int | None:
        """How many combats began in the entries older than :attr:`log`
        (None: unknown, the older steps cannot be read)."""
        return self.history.combats_earlier()

    def combats(self) -> int | None:
        """How many combats the fight has begun (None: unknown)."""
        return self.history.combats()

    @property
    def source(self) -> StepSource | None:
        """Reads the older steps (None: there are none, or nobody saved them)."""
        return self.history.source

    @source.setter
    def source(self, source: StepSource | None) -> None:
        self.history.source = source

    @property
    def can_undo(self) -> bool:
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    @property
    def undo_stack(self) -> tuple[Step, ...]:
        """The whole undo stack, bottom first (reads the older steps)."""
        return self.history.whole_undo()

    def full_log(self) -> list[LogEntry]:
        """Every log entry, oldest first (for an export)."""
        return self.history.full_log()

    def log_window(self, count: int) -> LogWindow:
        """At least the newest *count* log entries (``History.window``)."""
        return self.history.window(count)

    # -- applying actions ----------------------------------------------------

    def apply(self, line_or_action: str | Mapping[str, Any]) -> Step:
        """Validate and apply one action (or a batch); return its Step.  An
        :class:`ActionError` leaves everything unchanged, the random
        source's state too."""
        from rules.engine.parse import normalize_action

        action = normalize_action(line_or_action, self._names(), self._groups())
        verb = action["verb"]
        if verb == "undo":
            return self.undo()
        if verb == "redo":
            return self.redo()
        if verb == "prev" and self._last_is_next():
            return self._undo_last(self.history.undo_steps[-1], "prev")
        from rules.engine.verbs import run

        state = self.rng.getstate()
        try:
            work, resolved = run(self.encounter, action, self.rng)
        except BaseException:
            self.rng.setstate(state)
            raise
        return self._commit(resolved, work)

    def _names(self) -> list[str]:
        return [c.name for c in self.encounter.combatants]

    def _groups(self) -> list[str]:
        from rules.engine.targets import group_names

        return group_names(self.encounter.combatants)

    def _commit(self, resolved: dict[str, Any], work: Work) -> Step:
        from rules.engine.patch import diff

        seq = self.seq + 1
        before, after = diff(self.encounter, work.enc)
        log = tuple(LogEntry(seq, *entry) for entry in work.entries)
        step = Step(seq, "do", resolved, before, after, log)
        self.encounter = work.enc
        self.seq = seq
        self.history.did(step)
        return step

    def undo(self) -> Step:
        """Undo the most recent action still in effect (a Step of kind undo)."""
        return self._undo_last(self._top("undo"), "undo")

    def redo(self) -> Step:
        """Redo the most recently undone action (a Step of kind redo)."""
        target = self._top("redo")
        record = {"verb": "redo", "redone": target.seq, "line": target.line}
        step = Step(self.seq + 1, "redo", record, target.before, target.after, target.log)
        self._apply_back(step, target)
        return step

    def _top(self, verb: str) -> Step:
        """The step an ``undo`` or ``redo`` (*verb*) would act on."""
        try:
            top = self.history.undo_top() if verb == "undo" else self.history.redo_top()
        except ActionError as exc:
            raise ActionError(f"{verb}: {exc}") from None
        if top is None:
            raise ActionError(f"{verb}: nothing to {verb}")
        return top

    def renames(self, step: Step) -> dict[str, str]:
        """The combatants *step*, the last one applied, renamed, old name to
        new, for what follows combatants by name (the tracker's selection
        and marks): an undo reverses its target's renames, a redo repeats
        them."""
        if step.kind == "do":
            return renames_in(step.action)
        target = self.reversed_step(step)
        if target is None:
            return {}
        done = renames_in(target.action)
        return {new: old for old, new in done.items()} if step.kind == "undo" else done

    def reversed_step(self, step: Step) -> Step | None:
        """The step *step*, the last one applied, undid (``undo``, ``prev``)
        or redid, with its log entries; None for an action."""
        if step.kind == "do":
            return None
        undo = step.kind == "undo"
        # the step undone (redone) tops the other stack now, in memory
        stack = self.history.redo_steps if undo else self.history.undo_steps
        target = stack[-1] if stack else None
        if target is None or target.seq != step.action.get("undone" if undo else "redone"):
            return None
        return target

    def _last_is_next(self) -> bool:
        """Whether the last action in effect is a ``next`` (so ``prev``
        undoes it); False when the saved history cannot be read: ``prev``
        then moves the turn pointer."""
        try:
            top = self.history.undo_top()
        except ActionError:
            return False
        return top is not None and top.action.get("verb") == "next"

    def prev_refusal(self) -> str | None:
        """Why ``prev`` would be refused now (its message; None: it would
        apply), for a key to grey on every repaint, so nothing is read from
        the saved steps: a ``next`` on top of the undo stack is undone,
        else the turn moves back (``rules.engine.turns.cannot_step_back``).
        A top only in the saved steps (after undoing past those held in
        memory) counts as no ``next``, as one that cannot be read does; it
        matters only when a ``next`` landed on round 1's first turn."""
        top = self.history.undo_top_held()
        if top is not None and top.action.get("verb") == "next":
            return None
        from rules.engine.turns import cannot_step_back

        return cannot_step_back(self.encounter)

    def _undo_last(self, target: Step, verb: str) -> Step:
        record = {"verb": verb, "undone": target.seq, "line": target.line}
        step = Step(self.seq + 1, "undo", record, target.after, target.before, ())
        self._apply_back(step, target)
        return step

    def _apply_back(self, step: Step, target: Step) -> None:
        """Apply an undo or redo *step* of *target*, the top of its stack."""
        from rules.engine.patch import apply_patch

        self.encounter = apply_patch(self.encounter, step.after)
        (self.history.undid if step.kind == "undo" else self.history.redid)(target)
        self.seq = step.seq

    # -- journal -------------------------------------------------------------

    def replay(self, step_dict: Mapping[str, Any] | Step) -> Step:
        """Re-apply a journaled step exactly, by its patches (no dice, no
        rules); :class:`ActionError` if it is applied already or the session
        is not in its *before* state."""
        step = step_dict if isinstance(step_dict, Step) else Step.from_dict(step_dict)
        if step.seq <= self.seq:
            raise ActionError(f"step {step.seq} is already in this session (it is at {self.seq})")
        from rules.engine.patch import apply_patch, mismatch

        problem = mismatch(self.encounter, step.before)
        if problem:
            raise ActionError(f"cannot replay step {step.seq}: {problem}")
        if step.kind == "do":
            self.encounter = apply_patch(self.encounter, step.after)
            self.history.did(step)
            self.seq = step.seq
        else:
            undo = step.kind == "undo"
            top = self.history.undo_top() if undo else self.history.redo_top()
            if top is None or top.seq != step.action.get("undone" if undo else "redone"):
                raise ActionError(
                    f"cannot replay step {step.seq}: it {step.kind}es a step not on top of "
                    f"the {step.kind} stack"
                )
            self._apply_back(step, top)
        return step

    def to_dict(self, bounded: bool = False) -> dict[str, Any]:
        """A JSON-able snapshot: encounter, seq, and both stacks.

        Each stack is ``"undo"`` / ``"redo"`` (its top steps in full, with
        their log entries, bottom first) over ``"undo_older"`` /
        ``"redo_older"`` (the sequence numbers of the steps below, as
        ``[first, last]`` ranges), with ``"log_earlier"`` the number of log
        entries the older undo steps hold and ``"combats_earlier"`` the
        combats begun in them (``rules.engine.combats``).  The log is the entries of the
        undo steps, so it is not stored again.  ``bounded``: keep at most
        ``history.KEEP_STEPS`` steps of each stack in full (and the undo steps only
        until they hold ``KEEP_ENTRIES`` entries), so the snapshot's size
        does not grow with the fight; the rest must be in the saved steps
        (``saves`` writes every step before a snapshot).  Unbounded, every
        step in memory is kept in full.
        """
        return {
            "version": SNAPSHOT_VERSION,
            "encounter": self.encounter.to_dict(),
            "seq": self.seq,
            **self.history.to_dict(bounded),
        }

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
            encounter = Encounter.from_dict(data["encounter"])
            seq = int(data.get("seq", 0))
            redo = [Step.from_dict(s) for s in data.get("redo", ())]
            log = [e for s in undo for e in s.log]
            session = cls(encounter, rng, log=log, seq=seq, undo=undo, redo=redo)
            session.history.load_older(data, seq)
            session.source = source
            return session
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ActionError):
                raise
            raise ActionError(f"not a saved session: {exc}") from None

    # -- helpers for the UI ----------------------------------------------------

    def dice_needed(self, action: str | Mapping[str, Any]) -> list[tuple[str, int]]:
        """``(label, sides)`` of each die the program would roll for *action*
        beyond the faces it carries, by a dry run (nothing changes)."""
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
