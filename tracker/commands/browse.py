"""``list`` and ``show``: the saved encounters as tables or JSON, read
without the lock, so they work beside an open tracker."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rules.text import possessive, shorten
from saves.listing import round_shown
from tracker.commands.common import Subparsers, add_common, fail, open_live, run_with_store

if TYPE_CHECKING:
    from saves.store import Store


def register(sub: Subparsers) -> None:
    p = sub.add_parser("list", help="saved encounters, newest first")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_common(p)

    p = sub.add_parser("show", help="an encounter's state")
    p.add_argument("name", help="the encounter (or a unique prefix of its name)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    handler = {"list": _list, "show": _show}[args.command]
    return run_with_store(args, handler, read_only=True)


def _console() -> Any:
    from rich.console import Console

    return Console()


#: the longest name a table shows whole (a hand-edited file may hold megabytes)
CELL = 200
#: the newest log entries ``show`` prints under its table
TEXT_ENTRIES = 10


def _text(value: Any, limit: int = CELL) -> Any:
    """A table cell: plain ``Text`` (never markup), visible and cut short."""
    from rich.text import Text

    return Text(shorten(str(value), limit))


def _list(args: argparse.Namespace, store: Store) -> int:
    summaries = store.list()
    points = {
        s.name: [label for label, _ in store.save_points(s.name)] if s.save_points else []
        for s in summaries
    }
    for notice in store.take_notices():  # an unreadable file, say
        fail(notice)
    if args.json:
        from tracker.commands.report import to_json

        print(
            to_json(
                [
                    {
                        "name": s.name,
                        "round": s.round,
                        # the table's "combat 2 · round 3" (0: not said)
                        "combat": s.combat,
                        "active": s.active,
                        "combatants": s.combatants,
                        "started": s.started,
                        "updated": s.updated.isoformat(),
                        "save_points": points[s.name],
                    }
                    for s in summaries
                ]
            )
        )
        return 0
    if not summaries:
        print("no saved encounters (create one: combat-tracker new NAME)")
        return 0
    from rich.table import Table

    table = Table(box=None)
    for header in ("encounter", "round", "turn", "combatants", "last change", "save points"):
        # a long name wraps, never loses a letter; the round stays one line
        # (wrapped at 80 columns, "combat 2 ·" / "round 1" read as two)
        table.add_column(header, overflow="fold", no_wrap=header == "round")
    for s in summaries:
        table.add_row(
            _text(s.name),
            round_shown(s.started, s.round, s.combat),
            _text(s.active or "—"),
            str(s.combatants),
            s.updated.astimezone().strftime("%Y-%m-%d %H:%M"),
            _text(", ".join(shorten(label, CELL) for label in points[s.name]), 10 * CELL),
        )
    _console().print(table)
    return 0


def _show(args: argparse.Namespace, store: Store) -> int:
    from tracker.commands.report import condition_text, name_shown, state_json, to_json

    live = open_live(args, store, prefix=True)
    if args.json:  # the documented object whole, every log entry (issue 10: as before)
        print(to_json(state_json(live)))
        return 0
    # the text prints the newest entries only, so a long fight is shown from
    # its snapshot and the steps after it (the older ones counted, not read)
    window = live.log_window(TEXT_ENTRIES)
    state = state_json(live, window)
    from rich.table import Table
    from rich.text import Text

    from rules.engine.combats import openings
    from tracker.breakdown import combat_rule, styled
    from tracker.defenses import defenses_text

    console = _console()
    title = shorten(state["name"], CELL) + " — "
    # from the second combat of a fight on (after ``end``), it is named as
    # export heads it
    named = f"combat {state['combat']}" if state["combat"] > 1 else ""
    if state["started"]:
        title += f"{named}, " if named else ""
        title += f"round {state['round']}, {possessive(shorten(state['active'] or '—', CELL))} turn"
    elif state["round"]:  # ``end`` keeps the round count
        title += f"{named or 'combat'} over after round {state['round']}"
    else:
        title += "not started"
    console.print(Text(title), highlight=False)  # a table title would wrap to the table
    enc = live.encounter
    defenses = [defenses_text(c.defenses, enc.ruleset) for c in enc.combatants]
    table = Table(box=None)
    headers = ["", "init", "name", "HP", "temp", "AL", "conditions"]
    if any(defenses):
        headers.insert(6, "defenses")
    grouped = any(c["group"] is not None for c in state["combatants"])
    if grouped:  # a column only in a fight with groups, after the name
        headers.insert(3, "group")
    for header in headers:
        table.add_column(header, overflow="fold")  # a long name wraps, never loses a letter
    for c, defense in zip(state["combatants"], defenses, strict=True):
        marker = "▶" if c["name"] == state["active"] else ""
        conds = ", ".join(condition_text(k) for k in c["conditions"])
        persistent = ", ".join(
            f"{p['dice']} {' '.join(p['tags'])}".strip() for p in c["persistent"]
        )
        style = "dim" if c["down"] else None
        cells = [
            marker,
            "—" if c["initiative"] is None else str(c["initiative"]),
            _text(name_shown(c, shorten(c["name"], CELL))),
            f"{c['hp']}/{c['max_hp']}",
            str(c["temp_hp"] or ""),
            str(c["al"]),
            _text(
                "; ".join(x for x in (conds, persistent and f"persistent {persistent}") if x),
                10 * CELL,
            ),
        ]
        if any(defenses):
            cells.insert(6, _text(defense, 10 * CELL))
        if grouped:
            cells.insert(3, _text(c["group"] or ""))
        table.add_row(*cells, style=style)
    console.print(table)
    numbered = zip(window.entries, openings(window.entries, window.combats_earlier), strict=True)
    for entry, opens in list(numbered)[-TEXT_ENTRIES:]:
        if opens > 1:  # over what its start logged, as the app's log draws it
            console.print(combat_rule(opens), highlight=False)
        # outside any round (before the first start, after end): "–", as
        # the app's log shows it; there is no round 0 to point the GM at
        line = Text(f"R{entry.round} " if entry.round else "–  ", style="dim")
        line.append_text(styled(entry.text, entry.kept, limit=2000))
        console.print(line, highlight=False)
    return 0
