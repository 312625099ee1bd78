"""The encounter list: one :class:`Summary` per saved encounter, newest
first, as ``list`` and the resume picker show it.  Read from the catalogue
and, for each encounter, only the last line of its steps file (which may
be newer than the catalogue, since the catalogue is rewritten only on
compaction); nothing is written, so a reader can list while the app runs.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from rules.text import name_key
from saves.catalogue import DELETED, Catalogue
from saves.names import parse_time
from saves.step_lines import read_tail
from saves.steps import STEPS_FILE


class Summary(NamedTuple):
    """One line of the encounter list (newest first)."""

    name: str
    round: int
    active: str | None
    combatants: int
    started: bool
    updated: datetime
    save_points: int
    #: how many combats the fight has begun (0 when a fight saved before
    #: this was kept does not say)
    combat: int = 0


def summaries(catalogue: Catalogue, folders: Path) -> tuple[list[Summary], list[str]]:
    """Every encounter of *catalogue* whose folder is in *folders*, most
    recently changed first, and what the GM should be told (files missing
    or unreadable)."""
    out, notices = [], []
    for doc in catalogue.by_id.values():
        summary, updated = doc["summary"], doc["updated"]
        if not (folders / doc["id"]).is_dir():
            if not (folders / f"{DELETED}{doc['id']}").exists():
                notices.append(f"The files of {doc['name']!r} are missing; it is not shown.")
            continue  # deleted (the list is tidied by the next writer)
        path = folders / doc["id"] / STEPS_FILE
        try:
            tail = read_tail(path)
        except OSError as exc:
            notices.append(
                f"Cannot read {path} ({exc.strerror or exc}); {doc['name']!r} is "
                f"shown as it was at {updated[:16].replace('T', ' ')}."
            )
            tail = None
        if tail is not None and tail.summary is not None and tail.t >= updated:
            summary, updated = tail.summary, tail.t
        out.append(
            Summary(
                doc["name"],
                *_shaped(summary),
                parse_time(updated),
                doc.get("save_points", 0),
                _count(summary.get("combat")),
            )
        )
    out.sort(key=lambda s: (-s.updated.timestamp(), name_key(s.name)))
    return out, notices


def _shaped(summary: dict[str, Any]) -> tuple[int, str | None, int, bool]:
    """Round, active, combatants and started of a summary, each of its
    type or a blank: a hand-edited file with a valid checksum may hold
    anything there (``"round": "[bold]x"``), and it is shown, not trusted."""
    round_, active = summary.get("round"), summary.get("active")
    count, started = summary.get("combatants"), summary.get("started")
    return (
        _count(round_),
        active if isinstance(active, str) else None,
        _count(count),
        started if type(started) is bool else False,
    )


#: the most rounds, combats or combatants a summary is believed to count: a
#: fight of a million rounds is a hand edit, not a table row of 400 digits
MOST_COUNTED = 1_000_000


def _count(value: Any) -> int:
    """A count of a summary as it is shown: 0 (a blank) unless a whole
    number from 0 to :data:`MOST_COUNTED`."""
    return value if type(value) is int and 0 <= value <= MOST_COUNTED else 0


def round_shown(started: bool, round_: int, combat: int = 0) -> str:
    """The round as ``list`` and the picker show it: ``3`` in combat,
    ``ended, round 2`` after ``end`` (which keeps the count), ``—`` before;
    from a fight's second combat on (``end``, then ``start``), which one:
    ``combat 2 · round 3``, ``combat 2 · ended, round 2``."""
    if not started and not round_:
        return "—"
    if started:
        return f"combat {combat} · round {round_}" if combat > 1 else str(round_)
    return (f"combat {combat} · " if combat > 1 else "") + f"ended, round {round_}"


def round_said(started: bool, round_: int, combat: int = 0) -> str:
    """The round as a sentence says it (the picker's delete question):
    ``round 3`` in combat, ``combat ended, round 2`` after ``end``, ``not
    started`` before, ``combat 2, round 3`` and ``combat 2 ended, round 2``
    from the second combat on; the same facts as :func:`round_shown`."""
    named = f"combat {combat}" if combat > 1 else "combat"
    if started:
        return f"{named}, round {round_}" if combat > 1 else f"round {round_}"
    return f"{named} ended, round {round_}" if round_ else "not started"
