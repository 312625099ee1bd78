"""A live encounter's history: its undo and redo stacks and the log they
hold (the undo steps' entries, kept once).  Each stack is the Steps held
in memory (its top) over the sequence numbers of steps only in the saved
history (``rules.engine.runs``), read through a :class:`StepSource`
(``saves``; no I/O here) the first time an undo or redo reaches them, so
a bounded snapshot's size does not grow with the fight."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from rules.encounter import LogEntry
from rules.engine.combats import count_combats
from rules.engine.runs import Runs, expand, load_runs, overlap, pop_top, push
from rules.engine.step import Step
from rules.errors import ActionError
from rules.text import shorten

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


class LogWindow(NamedTuple):
    """The newest entries of a fight's log, from the first entry of a step
    on (so a combat's opening is placed as in the whole log), and what is
    older than them, counted, not read."""

    #: oldest first
    entries: Sequence[LogEntry]
    #: how many entries are older than :attr:`entries`
    earlier: int
    #: how many combats began in those older entries
    combats_earlier: int


class History:
    """The undo and redo stacks of one session, and its log."""

    def __init__(
        self, log: list[LogEntry] | None, undo: list[Step] | None, redo: list[Step] | None
    ) -> None:
        self.log: list[LogEntry] = list(log or [])
        #: how many combats began in :attr:`log` (kept as it changes: the
        #: list and the picker show it after every step)
        self.combats_held = count_combats(self.log)
        #: how many log entries the older undo steps (``undo_older``) hold
        self.log_earlier = 0
        #: how many combats began in those entries (None: not counted yet, a
        #: snapshot from before the count was kept; see :meth:`combats_earlier`)
        self._combats_earlier: int | None = 0
        self._combats_unreadable = False
        #: the tops in memory, bottom first
        self.undo_steps: list[Step] = list(undo or [])
        self.redo_steps: list[Step] = list(redo or [])
        #: below the in-memory stacks: sequence numbers of saved steps, bottom first
        self.undo_older: Runs = []
        self.redo_older: Runs = []
        #: reads the older steps (None: there are none, or nobody saved them)
        self.source: StepSource | None = None

    # -- queries -------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_steps or self.undo_older)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_steps or self.redo_older)

    def whole_undo(self) -> tuple[Step, ...]:
        """The whole undo stack, bottom first (reads the older steps)."""
        self._read_older(self.undo_steps, self.undo_older, len(expand(self.undo_older)))
        return tuple(self.undo_steps)

    def combats_earlier(self) -> int | None:
        """How many combats began in the entries older than :attr:`log`, so
        the log's combats are numbered as ``export`` numbers them; None when
        that is unknown and the older steps cannot be read.  Counted from the
        saved steps once, for a snapshot that did not keep the count."""
        if self._combats_earlier is None and not self._combats_unreadable:
            try:
                self._combats_earlier = count_combats(self._older_entries())
            except ActionError:
                self._combats_unreadable = True  # asked again on every repaint
                return None
        return self._combats_earlier

    def combats(self) -> int | None:
        """How many combats the fight has begun (``rules.engine.combats``);
        None when that is unknown (:meth:`combats_earlier`)."""
        earlier = self.combats_earlier()
        return None if earlier is None else earlier + self.combats_held

    def window(self, count: int) -> LogWindow:
        """At least the newest *count* log entries (all, if the fight has
        fewer): the log in memory, which a snapshot fills, with older steps
        read only when it holds fewer; ActionError when they cannot be
        read, or the combats before them cannot be counted."""
        while len(self.log) < count and self.undo_older:
            self._read_older(self.undo_steps, self.undo_older, READ_CHUNK)
        combats = self.combats_earlier()
        if combats is None:
            raise ActionError("the older steps of this fight cannot be read to count its combats")
        return LogWindow(list(self.log), self.log_earlier, combats)

    def full_log(self) -> list[LogEntry]:
        """Every log entry, the older ones read without keeping them (an export)."""
        return [*self._older_entries(), *self.log]

    def _older_entries(self) -> Iterator[LogEntry]:
        """The entries of the older undo steps, read a chunk of steps at a
        time, so only their entries stay in memory."""
        seqs = expand(self.undo_older)
        for at in range(0, len(seqs), READ_CHUNK):
            for step in self._source().read_steps(seqs[at : at + READ_CHUNK]):
                yield from step.log

    def undo_top(self) -> Step | None:
        """The step an undo would revert, read from the saved steps if need be."""
        return self._top(self.undo_steps, self.undo_older)

    def undo_top_held(self) -> Step | None:
        """The step an undo would revert when it is in memory; None when
        there is none or it is only in the saved steps (nothing is read)."""
        return self.undo_steps[-1] if self.undo_steps else None

    def redo_top(self) -> Step | None:
        """The step a redo would re-apply, read from the saved steps if need be."""
        return self._top(self.redo_steps, self.redo_older)

    def _source(self) -> StepSource:
        if self.source is None:
            raise ActionError("the older steps of this fight were not saved")
        return self.source

    def _read_older(self, stack: list[Step], older: Runs, count: int) -> None:
        """Bring the top *count* older steps of *stack* into memory, the
        undo stack's with their log entries."""
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
        if stack is self.undo_steps:
            entries = [e for st in steps for e in st.log]
            moved = count_combats(entries)
            self.log[:0] = entries
            self.log_earlier -= len(entries)
            self.combats_held += moved
            if self._combats_earlier is not None:
                self._combats_earlier -= moved

    def _top(self, stack: list[Step], older: Runs) -> Step | None:
        if not stack and older:
            self._read_older(stack, older, READ_CHUNK)
        return stack[-1] if stack else None

    # -- changes -------------------------------------------------------------

    def replace_log(self, entries: list[LogEntry]) -> None:
        """Put *entries* in the place of the log in memory."""
        self.log = entries
        self.combats_held = count_combats(entries)

    def did(self, step: Step) -> None:
        """A new action took effect: the redo stack is gone."""
        self.log.extend(step.log)
        self.combats_held += count_combats(step.log)
        self.undo_steps.append(step)
        self.redo_steps.clear()
        self.redo_older.clear()

    def undid(self, target: Step) -> None:
        n = len(target.log)
        if n:
            del self.log[-n:]
            self.combats_held -= count_combats(target.log)
        self.undo_steps.pop()
        self.redo_steps.append(target)

    def redid(self, target: Step) -> None:
        self.log.extend(target.log)
        self.combats_held += count_combats(target.log)
        self.redo_steps.pop()
        self.undo_steps.append(target)

    # -- snapshot ------------------------------------------------------------

    def to_dict(self, bounded: bool) -> dict[str, Any]:
        """Both stacks, for ``Session.to_dict`` (which says the layout)."""
        undo, redo = self.undo_steps, self.redo_steps
        undo_keep = len(undo)
        if bounded:
            undo_keep, entries = 0, 0
            for step in reversed(undo):
                if undo_keep >= KEEP_STEPS or entries >= KEEP_ENTRIES:
                    break
                undo_keep += 1
                entries += len(step.log)
        redo_keep = min(len(redo), KEEP_STEPS) if bounded else len(redo)
        undo_cut = len(undo) - undo_keep
        redo_cut = len(redo) - redo_keep
        earlier = self.log_earlier + sum(len(s.log) for s in undo[:undo_cut])
        out = {
            "undo": [s.to_dict() for s in undo[undo_cut:]],
            "undo_older": _runs_with(self.undo_older, undo[:undo_cut]),
            "log_earlier": earlier,
            "redo": [s.to_dict() for s in redo[redo_cut:]],
            "redo_older": _runs_with(self.redo_older, redo[:redo_cut]),
        }
        if self._combats_earlier is not None:  # else counted when the log is shown
            moved = (e for st in undo[:undo_cut] for e in st.log)
            out["combats_earlier"] = self._combats_earlier + count_combats(moved)
        return out

    def load_older(self, data: Mapping[str, Any], seq: int) -> None:
        """Take the older parts of both stacks from a snapshot *data* and
        check that the stacks fit a session at *seq*; ValueError if not."""
        self.undo_older = load_runs(data.get("undo_older", ()))
        self.redo_older = load_runs(data.get("redo_older", ()))
        earlier = data.get("log_earlier", 0)
        if type(earlier) is not int or earlier < 0:
            raise ValueError(f"log_earlier is {shorten(repr(earlier), 40)}")
        self.log_earlier = earlier
        if earlier and not self.undo_older:  # no older steps, no entries in them
            raise ValueError(f"log_earlier is {shorten(repr(earlier), 40)} with no older steps")
        combats = data.get("combats_earlier", None if self.undo_older else 0)
        # each combat begins with one entry: the older ones hold no more (a
        # count beyond them, ``show`` titling "combat 1000…0", is a hand
        # edit, and the session is rebuilt from its steps)
        if combats is not None and (type(combats) is not int or not 0 <= combats <= earlier):
            raise ValueError(f"combats_earlier is {shorten(repr(combats), 40)}")
        self._combats_earlier = combats
        steps = self.undo_steps + self.redo_steps
        runs = self.undo_older + self.redo_older + [[s.seq, s.seq] for s in steps]
        if overlap(runs, seq):
            raise ValueError("its undo and redo stacks do not fit its sequence number")
        if any(s.kind != "do" for s in steps):
            raise ValueError("its undo or redo stack holds an undo or redo step")


def _runs_with(runs: Runs, steps: list[Step]) -> Runs:
    out = [list(run) for run in runs]
    for step in steps:
        push(out, step.seq)
    return out
