"""The loaded undo history of a resumed fight: an undo stack whose steps
are built only when read.

:class:`_LazySteps` holds the snapshot's steps as raw dicts (checked by
``rules.engine.step``, built into :class:`~rules.engine.step.Step` when
read) and a history supplied unparsed (:class:`UnreadHistory`) below them,
loaded the first time anything but its length is read.  (A later step of
the save redesign, issue 10, replaces this with plain lists.)
"""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import Any

from rules.encounter import LogEntry
from rules.engine.lazy_log import _LazyLog
from rules.engine.step import Step, check_step, is_canonical
from rules.errors import ActionError


class UnreadHistory:
    """The undo history of a session as it was supplied lazily to
    :meth:`Session.from_dict` and never read since: ``loader`` (as supplied,
    holding ``count`` steps) and ``tail``, the steps pushed since, as a
    snapshot stores them.  ``Session.to_dict(keep_unread=True)`` returns
    one as ``"undo"`` so that whoever supplied the loader can write what it
    holds back without parsing it; calling it gives the whole list, so it
    is itself a lazy ``"undo"`` for :meth:`Session.from_dict`.  (A plain
    class: it is only carried and called.)"""

    __slots__ = ("loader", "count", "tail")

    def __init__(self, loader: Callable[[], Any], count: int, tail: list[dict[str, Any]]):
        self.loader, self.count, self.tail = loader, count, tail

    def __call__(self) -> list[Any]:
        base = self.loader()
        if type(base) is not list:
            raise ValueError(f"it is a {type(base).__name__}, not a list of steps")
        return base + self.tail


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
                check_step(raw)
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
            item if is_canonical(item) else self._build(i).to_dict(with_log=False)
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
