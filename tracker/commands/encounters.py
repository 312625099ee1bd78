"""Encounter subcommands: ``new``, ``list``, ``show``, ``do``, ``export``,
``delete``, ``save``, ``restore`` — the scriptable side of the tracker
(issue 3).  Every name they print is text, never markup, with control
characters made visible (issue 9); ``export`` and the ``show --json``
object live in :mod:`tracker.commands.report`, ``do``'s input in
:mod:`tracker.commands.lines`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rules.text import shorten
from tracker.commands.common import (
    CommandError,
    add_common,
    check_arg,
    check_title,
    fail,
    one_line,
    open_live,
    open_store,
    quoted,
    rng_from,
)

if TYPE_CHECKING:
    from saves.store import Store

#: the largest prepared file read (a few hundred combatants is ~100 KB):
#: ``--from /dev/zero`` must not fill the memory.
MAX_PREPARED_BYTES = 4 * 1024 * 1024


def register(sub: Any) -> None:
    p = sub.add_parser("new", help="create an encounter", description="Create an encounter.")
    p.add_argument("name")
    p.add_argument("--from", dest="from_file", metavar="FILE.toml", help="a prepared encounter")
    p.add_argument("--ruleset", choices=["core", "forge", "cinematic"], help="default: core")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one rule option (repeatable)",
    )
    add_common(p)

    p = sub.add_parser("list", help="saved encounters, newest first")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_common(p)

    p = sub.add_parser("show", help="an encounter's state")
    p.add_argument("name")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_common(p)

    p = sub.add_parser(
        "do",
        help="apply actions (argument, or one per line on stdin)",
        description="Apply one action, or read actions from stdin one per line. "
        "Prints 'ok N' after each action is durably saved, or 'error: …'.",
    )
    p.add_argument("name")
    p.add_argument("action", nargs="*", help='e.g. damage "Goblin 2" 2d6+3 fire')
    add_common(p)

    p = sub.add_parser("export", help="the fight's log as Markdown or JSON")
    p.add_argument("name")
    p.add_argument("--format", choices=["md", "json"], default="md")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    add_common(p)

    p = sub.add_parser("delete", help="delete an encounter")
    p.add_argument("name")
    add_common(p)

    p = sub.add_parser("save", help="a named save point of an encounter (beside the autosave)")
    p.add_argument("name")
    p.add_argument("label")
    p.add_argument(
        "--replace", action="store_true", help="overwrite a save point with the same label"
    )
    add_common(p)

    p = sub.add_parser(
        "restore",
        help="a new encounter from a save point",
        description="Create a new encounter from a save point; the original is left as it is.",
    )
    p.add_argument("name")
    p.add_argument("label")
    p.add_argument("--as", dest="new_name", metavar="NEW", help='default: "NAME (LABEL)"')
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from saves.store import SaveError
    from tracker.commands.report import export

    handler = {
        "new": _new,
        "list": _list,
        "show": _show,
        "do": _do,
        "export": export,
        "delete": _delete,
        "save": _save,
        "restore": _restore,
    }[args.command]
    try:
        # Looking needs no lock: list / show / export work beside an open tracker.
        store = open_store(args, read_only=args.command in ("list", "show", "export"))
    except CommandError as exc:
        fail(str(exc))
        return exc.status
    try:
        return handler(args, store)
    except CommandError as exc:
        fail(str(exc))
        return exc.status
    except SaveError as exc:  # the store refused a name or failed a write
        fail(str(exc))
        return 1
    finally:
        store.close()


# -- helpers -------------------------------------------------------------------


def _console() -> Any:
    from rich.console import Console

    return Console()


#: the longest name a table shows whole (input allows 80 characters; a
#: hand-edited file may hold megabytes)
CELL = 200


def _text(value: Any, limit: int = CELL) -> Any:
    """A table cell or title: Rich ``Text`` of the plain string — never
    markup (``[/]`` in a name would crash the table, ``[link=…]`` would be
    a hyperlink) — with control characters made visible and a huge value
    from a hand-edited file cut short."""
    from rich.text import Text

    return Text(shorten(str(value), limit))


# -- new -------------------------------------------------------------------------


def _read_prepared(path: str) -> str:
    """The prepared file's text, or one line saying why it cannot be read:
    missing, too large, or not UTF-8 (the byte and where it is)."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_PREPARED_BYTES + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_PREPARED_BYTES:
        raise CommandError(f"{path}: too large for a prepared encounter (over 4 MB)")
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is fine
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CommandError(
            f"{path}: not UTF-8 text (the byte 0x{raw[exc.start]:02X} at line {line}, "
            f"column {column}); save the file as UTF-8"
        ) from None


def _new(args: argparse.Namespace, store: Store) -> int:
    from rules.errors import ActionError
    from rules.prepared import PreparedError, parse_prepared
    from rules.rulesets import RulesetError, ruleset
    from saves.live import LiveEncounter
    from saves.store import SaveError

    name = check_title("encounter name", args.name)
    prepared = None
    if args.from_file:
        text = _read_prepared(args.from_file)
        try:
            prepared = parse_prepared(text)
        except PreparedError as exc:
            raise CommandError(f"{args.from_file}: {exc}") from None
    rules_name = args.ruleset or (prepared.ruleset if prepared else "core")
    options: dict[str, Any] = dict(prepared.options) if prepared else {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise CommandError(f"--option {quoted(item)}: write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    try:
        rules = ruleset(rules_name, **options)
    except RulesetError as exc:
        raise CommandError(str(exc)) from None
    if store.exists(name):
        raise CommandError(f"an encounter named {quoted(name)} already exists")
    try:
        live = LiveEncounter.create(store, name, rules, rng=rng_from(args))
        if prepared:
            from rules.prepared import add_actions

            for action in add_actions(prepared):
                live.do(action)
    except (ActionError, ValueError) as exc:
        store.delete(name)
        raise CommandError(f"{args.from_file}: {exc}") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    count = len(live.session.encounter.combatants)
    print(one_line(f"created {quoted(live.name)} ({rules.name} rules, {count} combatants)"))
    return 0


# -- list ------------------------------------------------------------------------


def _list(args: argparse.Namespace, store: Store) -> int:
    summaries = store.list()
    points = {
        s.name: [label for label, _ in store.save_points(s.name)] if s.save_points else []
        for s in summaries
    }
    if args.json:
        from tracker.commands.report import to_json

        print(
            to_json(
                [
                    {
                        "name": s.name,
                        "round": s.round,
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
        table.add_column(header, overflow="fold")  # a long name wraps, never loses a letter
    for s in summaries:
        table.add_row(
            _text(s.name),
            str(s.round) if s.started else "—",
            _text(s.active or "—"),
            str(s.combatants),
            s.updated.astimezone().strftime("%Y-%m-%d %H:%M"),
            _text(", ".join(shorten(label, CELL) for label in points[s.name]), 10 * CELL),
        )
    _console().print(table)
    return 0


# -- show ------------------------------------------------------------------------


def _show(args: argparse.Namespace, store: Store) -> int:
    from tracker.commands.report import condition_text, state_json, to_json

    live = open_live(args, store)
    state = state_json(live)
    if args.json:
        print(to_json(state))
        return 0
    from rich.table import Table
    from rich.text import Text

    from tracker.breakdown import styled

    console = _console()
    title = shorten(state["name"], CELL) + " — "
    if state["started"]:
        title += f"round {state['round']}, {shorten(state['active'] or '—', CELL)}'s turn"
    else:
        title += "not started"
    console.print(Text(title), highlight=False)  # not a table title: that wraps to the table
    table = Table(box=None)
    for header in ("", "init", "name", "HP", "temp", "AL", "conditions"):
        table.add_column(header, overflow="fold")  # a long name wraps, never loses a letter
    for c in state["combatants"]:
        marker = "▶" if c["name"] == state["active"] else ""
        conds = ", ".join(condition_text(k) for k in c["conditions"])
        persistent = ", ".join(
            f"{p['dice']} {' '.join(p['tags'])}".strip() for p in c["persistent"]
        )
        style = "dim" if c["down"] else None
        table.add_row(
            marker,
            "—" if c["initiative"] is None else str(c["initiative"]),
            _text(shorten(c["name"], CELL) + (" (down)" if c["down"] else "")),
            f"{c['hp']}/{c['max_hp']}",
            str(c["temp_hp"] or ""),
            str(c["al"]),
            _text(
                "; ".join(x for x in (conds, persistent and f"persistent {persistent}") if x),
                10 * CELL,
            ),
            style=style,
        )
    console.print(table)
    for entry in state["log"][-10:]:
        line = Text(f"R{entry['round']} ", style="dim")
        # visible first: the kept-dice marks survive, control characters do not
        line.append_text(styled(shorten(entry["text"], 2000)))
        console.print(line, highlight=False)
    return 0


# -- do --------------------------------------------------------------------------


def _do(args: argparse.Namespace, store: Store) -> int:
    from rules.errors import ActionError
    from saves.store import SaveError
    from tracker.commands.lines import action_lines

    live = open_live(args, store)
    all_ok = True
    try:
        for line, problem in action_lines(args.action):
            if problem is not None:  # not UTF-8, too long: this line only
                print(one_line(f"error: {problem}"), flush=True)
                all_ok = False
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                step = live.do(line)
            except ActionError as exc:
                print(one_line(f"error: {exc}"), flush=True)
                all_ok = False
                continue
            except SaveError as exc:
                print(one_line(f"error: not saved: {exc}"), flush=True)
                return 1
            print(f"ok {step.seq}", flush=True)
    finally:
        live.close()
    return 0 if all_ok else 1


# -- delete ------------------------------------------------------------------------


def _delete(args: argparse.Namespace, store: Store) -> int:
    from saves.store import EncounterNotFound

    name = check_arg("encounter name", args.name)
    try:
        store.delete(name)
    except EncounterNotFound:
        raise CommandError(f"no encounter named {quoted(name)}") from None
    print(one_line(f"deleted {quoted(name)}"))
    return 0


# -- save points ---------------------------------------------------------------------


def _save(args: argparse.Namespace, store: Store) -> int:
    from saves.errors import SavePointExists
    from saves.store import SaveError

    label = check_title("save point label", args.label)
    live = open_live(args, store)
    try:
        live.save_point(label, replace=args.replace)
    except SavePointExists as exc:
        raise CommandError(f"{exc} (--replace overwrites it)") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    print(one_line(f"saved {quoted(live.name)} as {quoted(label)}"))
    return 0


def _restore(args: argparse.Namespace, store: Store) -> int:
    """A save point becomes a new encounter (undo history included); the
    original fight is untouched (shared with the app: tracker/restore.py)."""
    from saves.store import EncounterExists, EncounterNotFound, SaveError
    from tracker.restore import default_name, restore_save_point

    name = check_arg("encounter name", args.name)
    label = check_arg("save point label", args.label)
    if args.new_name:
        new_name = check_title("name given with --as", args.new_name)
    else:
        try:
            new_name = check_title("new encounter name", default_name(name, label))
        except CommandError as exc:
            raise CommandError(f"{exc}: choose one with --as NEW") from None
    try:
        restore_save_point(store, name, label, new_name, rng=rng_from(args))
    except EncounterExists:
        raise CommandError(
            f"an encounter named {quoted(new_name)} already exists (use --as NEW)"
        ) from None
    except EncounterNotFound:
        raise CommandError(f"no encounter named {quoted(name)}") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    print(one_line(f"restored {quoted(name)} save point {quoted(label)} as {quoted(new_name)}"))
    return 0
