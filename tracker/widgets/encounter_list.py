"""The resume picker's columns for a width, without Textual.  What tells
one fight from another — its name — and when it was last played stay at
every width; a narrow screen gives up, in this order, the save points'
long header, the save points, the combatants, the date's year, the
round's long header and whose turn it is, and only then cuts names (in the
middle, so ``Crypt 2`` and ``Crypt 12`` stay apart)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from rich.cells import cell_len

from rules.text import visible
from saves.listing import round_shown
from tracker.widgets.initiative_rows import fit_name

#: A column's padding: the DataTable's one cell on each side.
PADDING = 2
#: A name shorter than this is never cut while a column can still go.
NAME_FLOOR = 24
#: Whose turn it is: at most this many cells (``Goblin Archer 12`` cut in the middle).
TURN_MAX = 14


class Listed(NamedTuple):
    """What the picker lists of one saved encounter."""

    name: str
    started: bool
    round: int
    active: str | None
    combatants: int
    save_points: int
    updated: datetime | str
    #: how many combats the fight has begun (its second on: "combat 2 · round 3")
    combat: int = 0


class Plan(NamedTuple):
    """How much the picker shows at one width."""

    #: (key, header) of each column shown, in order
    columns: tuple[tuple[str, str], ...]
    #: the date without its year (``4 Dec 22:34``)
    short_date: bool
    #: an ended fight's round as ``ended 2``
    short_round: bool
    #: the name column's cells
    name: int


def when(value: object, short: bool = False, now: datetime | None = None) -> str:
    """``2026-11-30 07:15`` in local time from a datetime (as ``list``
    shows it), or an ISO string's first minutes; *short*: ``30 Nov 07:15``,
    or ``30 Nov 2025`` when not this year."""
    if not isinstance(value, datetime):
        return str(value or "")[:16].replace("T", " ")
    local = value.astimezone()
    if not short:
        return local.strftime("%Y-%m-%d %H:%M")
    this_year = (now or datetime.now().astimezone()).year
    return f"{local.day} " + local.strftime("%b %H:%M" if local.year == this_year else "%b %Y")


def round_cell(row: Listed, short: bool = False) -> str:
    """``3``, ``—``, or ``ended, round 2`` (``ended 2`` when *short*);
    from a second combat on ``combat 2 · round 3`` (``C2 · R3``) and
    ``combat 2 · ended, round 2`` (``C2 · ended 2``)."""
    if not short:
        return round_shown(row.started, row.round, row.combat)
    text = round_shown(row.started, row.round).replace(", round", "")
    if row.combat > 1 and text != "—":
        return f"C{row.combat} · " + (f"R{text}" if row.started else text)
    return text


#: (key, long header, short header) in the order shown.
COLUMNS = (
    ("name", "Name", "Name"),
    ("round", "Round", "Rnd"),
    ("turn", "Turn", "Turn"),
    ("combatants", "Combatants", "Combatants"),
    ("save_points", "Save points", "Saves"),
    ("updated", "Last change", "Last change"),
)

#: Fullest first: (columns given up, short headers, short date).
STEPS: tuple[tuple[frozenset[str], frozenset[str], bool], ...] = (
    (frozenset(), frozenset(), False),
    (frozenset(), frozenset({"save_points"}), False),
    (frozenset({"save_points"}), frozenset(), False),
    (frozenset({"save_points", "combatants"}), frozenset(), False),
    (frozenset({"save_points", "combatants"}), frozenset(), True),
    (frozenset({"save_points", "combatants"}), frozenset({"round"}), True),
    (frozenset({"save_points", "combatants", "turn"}), frozenset({"round"}), True),
)


def cell(row: Listed, key: str, short_date: bool, short_round: bool = False) -> str:
    """The text of *row*'s *key* column (names made visible, not yet cut)."""
    if key == "name":
        return visible(row.name)
    if key == "round":
        return round_cell(row, short_round)
    if key == "turn":
        return visible(row.active or "—")
    if key == "combatants":
        return str(row.combatants)
    if key == "save_points":
        return str(row.save_points or "—")
    return visible(when(row.updated, short_date))  # a hand-edited file's text


def plan(width: int, rows: Sequence[Listed]) -> Plan:
    """The columns for a table *width* cells wide: the first of :data:`STEPS`
    (but the last: whose turn it is goes only for a name's first letters)
    that shows every name whole, else the first leaving the names
    :data:`NAME_FLOOR` cells, else the last, the names cut to what is left."""
    longest = max((cell_len(visible(r.name)) for r in rows), default=0)
    floor = max(len("Name"), min(longest, NAME_FLOOR))
    for steps, need in ((STEPS[:-1], max(longest, len("Name"))), (STEPS, floor)):
        for gone, short, short_date in steps:
            columns = tuple(
                (key, brief if key in short else header)
                for key, header, brief in COLUMNS
                if key not in gone
            )
            used = sum(
                PADDING + column_width(key, header, rows, short_date, "round" in short)
                for key, header in columns
                if key != "name"
            )
            room = width - used - PADDING
            if room >= need:
                return Plan(columns, short_date, "round" in short, min(longest, room))
    return Plan(columns, short_date, "round" in short, max(len("Name"), room))


def column_width(
    key: str, header: str, rows: Sequence[Listed], short_date: bool, short_round: bool
) -> int:
    """The cells column *key* takes: its header or its widest cell."""
    widest = max((cell_len(cell(r, key, short_date, short_round)) for r in rows), default=0)
    if key == "turn":
        widest = min(widest, TURN_MAX)
    return max(cell_len(header), widest)


def row_cells(row: Listed, shown: Plan) -> list[str]:
    """*row*'s cells for the columns of *shown*, names cut to their columns."""
    out = []
    for key, _ in shown.columns:
        text = cell(row, key, shown.short_date, shown.short_round)
        if key == "name":
            text = fit_name(text, shown.name)
        elif key == "turn":
            text = fit_name(text, TURN_MAX)
        out.append(text)
    return out
