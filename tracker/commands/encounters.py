"""Encounter subcommands: ``new``, ``list``, ``show``, ``do``, ``export``,
``delete`` — the scriptable side of the tracker (issue 3)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.commands.common import CommandError, add_common, fail, open_store, rng_from

if TYPE_CHECKING:
    from saves.live import LiveEncounter
    from saves.store import Store


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
    handler = {
        "new": _new,
        "list": _list,
        "show": _show,
        "do": _do,
        "export": _export,
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
    finally:
        store.close()


# -- helpers -------------------------------------------------------------------


def _open_live(args: argparse.Namespace, store: Store) -> LiveEncounter:
    from saves.live import LiveEncounter
    from saves.store import EncounterNotFound, SaveError

    try:
        live = LiveEncounter.open(store, args.name, rng=rng_from(args))
    except EncounterNotFound:
        raise CommandError(f"no encounter named {args.name!r} (see: combat-tracker list)") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    # What loading found (a damaged journal, say) is told once, here.
    for notice in store.take_notices():
        fail(notice)
    return live


def _console() -> Any:
    from rich.console import Console

    return Console()


# -- new -------------------------------------------------------------------------


def _new(args: argparse.Namespace, store: Store) -> int:
    from rules.actions import ActionError
    from rules.prepared import PreparedError, parse_prepared
    from rules.rulesets import RulesetError, ruleset
    from saves.live import LiveEncounter
    from saves.store import SaveError

    prepared = None
    if args.from_file:
        try:
            text = Path(args.from_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {args.from_file}: {exc.strerror or exc}") from None
        try:
            prepared = parse_prepared(text)
        except PreparedError as exc:
            raise CommandError(f"{args.from_file}: {exc}") from None
    name = args.ruleset or (prepared.ruleset if prepared else "core")
    options: dict[str, Any] = dict(prepared.options) if prepared else {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise CommandError(f"--option {item!r}: write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    try:
        rules = ruleset(name, **options)
    except RulesetError as exc:
        raise CommandError(str(exc)) from None
    if not args.name.strip():
        raise CommandError("an encounter needs a name")
    if store.exists(args.name):
        raise CommandError(f"an encounter named {args.name!r} already exists")
    try:
        live = LiveEncounter.create(store, args.name.strip(), rules, rng=rng_from(args))
        if prepared:
            from rules.prepared import add_actions

            for action in add_actions(prepared):
                live.do(action)
    except (ActionError, ValueError) as exc:
        store.delete(args.name.strip())
        raise CommandError(f"{args.from_file}: {exc}") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    count = len(live.session.encounter.combatants)
    print(f"created {live.name!r} ({rules.name} rules, {count} combatants)")
    return 0


# -- list ------------------------------------------------------------------------


def _list(args: argparse.Namespace, store: Store) -> int:
    summaries = store.list()
    points = {
        s.name: [label for label, _ in store.save_points(s.name)] if s.save_points else []
        for s in summaries
    }
    if args.json:
        print(
            json.dumps(
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

    table = Table(
        "encounter", "round", "turn", "combatants", "last change", "save points", box=None
    )
    for s in summaries:
        table.add_row(
            s.name,
            str(s.round) if s.started else "—",
            s.active or "—",
            str(s.combatants),
            s.updated.astimezone().strftime("%Y-%m-%d %H:%M"),
            ", ".join(points[s.name]),
        )
    _console().print(table)
    return 0


# -- show ------------------------------------------------------------------------


def state_json(live: LiveEncounter) -> dict[str, Any]:
    """The documented ``show --json`` object (README: CLI)."""
    enc = live.session.encounter
    active = enc.active

    def combatant(c: Any) -> dict[str, Any]:
        endurance = None
        if c.endurance is not None:
            endurance = {
                "points": c.endurance.points,
                "max": c.endurance.max_points,
                "passive": c.endurance.passive,
                "dash_rounds_left": c.endurance.active.get("dash"),
            }
        return {
            "name": c.name,
            "initiative": c.initiative,
            "hp": c.hp,
            "max_hp": c.max_hp,
            "temp_hp": c.temp_hp,
            "al": c.al,
            "down": c.down,
            "player": c.player,
            "delayed": c.name in enc.delayed,
            "conditions": [
                {"name": k.name, "value": k.value, "rounds_left": k.rounds_left}
                for k in c.conditions
            ],
            "persistent": [
                {"dice": p.dice, "tags": list(p.tags), "dc": p.dc} for p in c.persistent
            ],
            "endurance": endurance,
        }

    return {
        "name": enc.name,
        "ruleset": enc.ruleset.to_dict(),
        "round": enc.round,
        "started": enc.started,
        "active": None if active is None else active.name,
        "combatants": [combatant(c) for c in enc.combatants],
        "log": [{"round": e.round, "actor": e.actor, "text": e.text} for e in live.session.log],
    }


def _show(args: argparse.Namespace, store: Store) -> int:
    live = _open_live(args, store)
    state = state_json(live)
    if args.json:
        print(json.dumps(state))
        return 0
    from rich.table import Table

    console = _console()
    title = f"{state['name']} — " + (
        f"round {state['round']}, {state['active']}'s turn" if state["started"] else "not started"
    )
    table = Table("", "init", "name", "HP", "temp", "AL", "conditions", title=title, box=None)
    for c in state["combatants"]:
        marker = "▶" if c["name"] == state["active"] else ""
        conds = ", ".join(_condition_text(k) for k in c["conditions"])
        persistent = ", ".join(
            f"{p['dice']} {' '.join(p['tags'])}".strip() for p in c["persistent"]
        )
        style = "dim" if c["down"] else None
        table.add_row(
            marker,
            "—" if c["initiative"] is None else str(c["initiative"]),
            c["name"] + (" (down)" if c["down"] else ""),
            f"{c['hp']}/{c['max_hp']}",
            str(c["temp_hp"] or ""),
            str(c["al"]),
            "; ".join(x for x in (conds, persistent and f"persistent {persistent}") if x),
            style=style,
        )
    console.print(table)
    from rich.text import Text

    from tracker.breakdown import styled

    for entry in state["log"][-10:]:
        line = Text(f"R{entry['round']} ", style="dim")
        line.append_text(styled(entry["text"]))
        console.print(line, highlight=False)
    return 0


# -- do --------------------------------------------------------------------------


def _do(args: argparse.Namespace, store: Store) -> int:
    from rules.actions import ActionError
    from saves.store import SaveError

    live = _open_live(args, store)
    if len(args.action) == 1:
        lines: Iterable[str] = args.action[0].splitlines()
    elif args.action:
        # The shell removed the quotes: put them back where a word has spaces.
        lines = [shlex.join(args.action)]
    else:
        lines = (line.rstrip("\n") for line in sys.stdin)
    all_ok = True
    try:
        for line in lines:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                step = live.do(line)
            except ActionError as exc:
                print(f"error: {exc}", flush=True)
                all_ok = False
                continue
            except SaveError as exc:
                print(f"error: not saved: {exc}", flush=True)
                return 1
            print(f"ok {step.seq}", flush=True)
    finally:
        live.close()
    return 0 if all_ok else 1


# -- export ------------------------------------------------------------------------


def markdown_report(live: LiveEncounter) -> str:
    """A round-by-round report a GM can paste into session notes."""
    state = state_json(live)
    lines = [f"# {state['name']}", ""]
    rules = state["ruleset"]["name"]
    rounds = state["round"]
    played = f"{rounds} round{'s' if rounds != 1 else ''}" if state["started"] else "not started"
    count = len(state["combatants"])
    lines.append(f"*{rules} rules · {played} · {count} combatant{'s' if count != 1 else ''}*")
    current: int | None = None
    for entry in state["log"]:
        if entry["round"] != current:
            current = entry["round"]
            lines += ["", f"## Round {current}" if current else "## Before combat", ""]
        text = entry["text"]
        if text == f"Round {current}":
            continue  # the heading says it
        actor = entry["actor"]
        if actor and text.startswith(actor):
            text = f"**{actor}**{text[len(actor) :]}"
        lines.append(f"- {text}")
    lines += [
        "",
        "## Where things stand",
        "",
        "| Combatant | HP | Temp | AL | Conditions | Persistent damage |",
        "|---|---|---|---|---|---|",
    ]
    for c in state["combatants"]:
        conds = ", ".join(_condition_text(k) for k in c["conditions"]) or "—"
        persistent = (
            ", ".join(
                f"{' '.join([p['dice'], *p['tags']])} (DC {p['dc']})" for p in c["persistent"]
            )
            or "—"
        )
        name = c["name"] + (" (down)" if c["down"] else "")
        hp = f"{c['hp']}/{c['max_hp']}"
        lines.append(f"| {name} | {hp} | {c['temp_hp']} | {c['al']} | {conds} | {persistent} |")
    return "\n".join(lines) + "\n"


def _condition_text(k: dict[str, Any]) -> str:
    text = k["name"] + (f" {k['value']}" if k["value"] is not None else "")
    if k["rounds_left"] is not None:
        text += f" ({k['rounds_left']} round{'s' if k['rounds_left'] != 1 else ''} left)"
    return text


def _export(args: argparse.Namespace, store: Store) -> int:
    live = _open_live(args, store)
    text = (
        json.dumps(state_json(live), indent=2) + "\n"
        if args.format == "json"
        else markdown_report(live)
    )
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


# -- delete ------------------------------------------------------------------------


def _delete(args: argparse.Namespace, store: Store) -> int:
    from saves.store import EncounterNotFound

    try:
        store.delete(args.name)
    except EncounterNotFound:
        raise CommandError(f"no encounter named {args.name!r}") from None
    print(f"deleted {args.name!r}")
    return 0


# -- save points ---------------------------------------------------------------------


def _save(args: argparse.Namespace, store: Store) -> int:
    from saves.store import SaveError

    live = _open_live(args, store)
    try:
        live.save_point(args.label)
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    print(f"saved {args.name!r} as {args.label!r}")
    return 0


def _restore(args: argparse.Namespace, store: Store) -> int:
    """A save point becomes a new encounter (undo history included); the
    original fight is untouched (shared with the app: tracker/restore.py)."""
    from saves.store import EncounterExists, EncounterNotFound, SaveError
    from tracker.restore import default_name, restore_save_point

    new_name = (args.new_name or default_name(args.name, args.label)).strip()
    try:
        restore_save_point(store, args.name, args.label, new_name, rng=rng_from(args))
    except EncounterExists:
        raise CommandError(
            f"an encounter named {new_name!r} already exists (use --as NEW)"
        ) from None
    except EncounterNotFound:
        raise CommandError(f"no encounter named {args.name!r}") from None
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    print(f"restored {args.name!r} save point {args.label!r} as {new_name!r}")
    return 0
