"""The older part of an undo or redo stack: the sequence numbers of steps
only in the saved history, as plain lists changed by these functions."""

from __future__ import annotations

from typing import Any

#: a stack of sequence numbers, bottom first, as ``[first, last]`` runs:
#: ``[[3, 5], [9, 9]]`` is 3, 4, 5, 9 (its size does not grow with a run of
#: actions, in memory or in a snapshot)
Runs = list[list[int]]


def push(runs: Runs, seq: int) -> None:
    if runs and runs[-1][1] + 1 == seq:
        runs[-1][1] = seq
    else:
        runs.append([seq, seq])


def pop_top(runs: Runs, count: int) -> list[int]:
    """Remove the top *count* numbers of *runs*; return them bottom first."""
    taken: list[int] = []
    while runs and len(taken) < count:
        first, last = runs[-1]
        n = min(count - len(taken), last - first + 1)
        taken[:0] = range(last - n + 1, last + 1)
        if n == last - first + 1:
            runs.pop()
        else:
            runs[-1][1] = last - n
    return taken


def expand(runs: Runs) -> list[int]:
    return [q for first, last in runs for q in range(first, last + 1)]


def load_runs(data: Any) -> Runs:
    runs: Runs = []
    for first, last in data:
        if type(first) is not int or type(last) is not int or not 0 < first <= last:
            raise ValueError(f"bad range of steps [{first!r}, {last!r}]")
        runs.append([first, last])
    return runs


def overlap(runs: Runs, seq: int) -> bool:
    """Whether the runs name a number twice, or one outside 1 … *seq*."""
    ordered = sorted(runs)
    if ordered and (ordered[0][0] < 1 or ordered[-1][1] > seq):
        return True
    return any(a[1] >= b[0] for a, b in zip(ordered, ordered[1:], strict=False))
