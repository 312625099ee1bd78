"""The loaded log of a resumed fight: ``Session.log`` as a list whose
entries are built only when read.

A snapshot stores the log as four columns (:class:`_Rows`), and its older
part may be handed over unparsed, as a loader (:class:`UnreadLogHead`).
:class:`_LazyLog` is the ``list`` of LogEntry every reader sees, reading a
row into its entry the first time it is read and the older part the first
time it is reached.  (A later step of the save redesign, issue 10, replaces
this with a bounded snapshot and a steps file.)
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rules.encounter import LogEntry

_LOG_KEYS = ("seq", "round", "actor", "text")


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


def log_parts(
    log: Any, keep_unread: bool, inline_max: int, inline_keep: int
) -> tuple[Any, int, dict[str, list[Any]]]:
    """``(head, head count, inline columns)`` of a snapshot (see
    :meth:`Session.to_dict`): an unread head kept as it is while the inline
    part stays within ``inline_max``; else, with ``keep_unread``, a
    fresh split when the log is longer than that or its head was read;
    else the whole log inline."""
    lazy = isinstance(log, _LazyLog)
    loader = log.head_loader if lazy else None
    if keep_unread and loader is not None and list.__len__(log) <= inline_max:
        unread = UnreadLogHead(loader, log.head_pending)
        return unread, log.head_pending, _log_columns(log)
    kept = log.kept_head if lazy else None
    if keep_unread and kept is not None and list.__len__(log) - kept[1] <= inline_max:
        # unreadable, its notes untouched: its bytes go back as they were
        return UnreadLogHead(*kept), kept[1], _log_columns(log, kept[1])
    if lazy:
        log.load_head()
    columns = _log_columns(log)
    total = len(columns["seq"])
    if not keep_unread or (total <= inline_max and not (lazy and log.head_read)):
        return None, 0, columns
    cut = max(0, total - inline_keep)
    if not cut:
        return None, 0, columns
    head = {key: column[:cut] for key, column in columns.items()}
    return head, cut, {key: column[cut:] for key, column in columns.items()}
