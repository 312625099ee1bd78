"""``export``, and what it and ``show --json`` print: the documented state
object and the round-by-round Markdown report, where what a person typed is
made visible, then every character Markdown could read as syntax escaped."""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.engine.combats import begins_combat, count_combats, ends_combat, openings
from rules.kept_marks import kept_marks
from rules.text import visible
from tracker.commands.common import (
    CommandError,
    Subparsers,
    add_common,
    one_line,
    open_live,
    run_with_store,
)

if TYPE_CHECKING:
    from rules.encounter import LogEntry
    from rules.engine.history import LogWindow
    from saves.live import LiveEncounter
    from saves.store import Store


def state_json(live: LiveEncounter, window: LogWindow | None = None) -> dict[str, Any]:
    """The documented ``show --json`` object (README: CLI) with the entries
    of the log *window* (default: the whole log, read from the steps file;
    the combat count is the whole fight's either way)."""
    enc = live.encounter
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
            "visibility": c.visibility,
            "group": c.group,
            "conditions": [
                {"name": k.name, "value": k.value, "rounds_left": k.rounds_left}
                for k in c.conditions
            ],
            "persistent": [
                {"dice": p.dice, "tags": list(p.tags), "dc": p.dc} for p in c.persistent
            ],
            "endurance": endurance,
        }

    if window is None:
        window = whole_log(live)
    entries = window.entries
    return {
        "name": enc.name,
        "ruleset": enc.ruleset.to_dict(),
        "round": enc.round,
        "started": enc.started,
        # after ``end`` a later ``start`` begins combat 2 (rules.engine.combats)
        "combat": window.combats_earlier + count_combats(entries),
        "active": None if active is None else active.name,
        "view": enc.view.to_dict(),
        "combatants": [combatant(c) for c in enc.combatants],
        "log": [{"round": e.round, "actor": e.actor, "text": e.text} for e in entries],
    }


def whole_log(live: LiveEncounter) -> LogWindow:
    """Every entry of *live*'s log (the older ones read from the steps file)."""
    from rules.engine.history import LogWindow

    return LogWindow(live.full_log(), 0, 0)


def to_json(value: Any, indent: int | None = None) -> str:
    """ASCII JSON on purpose: it cannot act on a terminal and parses back to the names."""
    return json.dumps(value, indent=indent, ensure_ascii=True)


def name_shown(c: dict[str, Any], name: str | None = None) -> str:
    """*c*'s name (or *name*, the name as shown) as ``show`` and the report
    list it: ``Zalek (down)``, ``Mira (delayed)``, ``Zalek (down, delayed)``
    — what the app's row says, so a delaying combatant is not taken for
    one whose turn simply has not come."""
    notes = [word for word, on in (("down", c["down"]), ("delayed", c["delayed"])) if on]
    return (c["name"] if name is None else name) + (f" ({', '.join(notes)})" if notes else "")


def condition_text(k: dict[str, Any]) -> str:
    text = k["name"] + (f" {k['value']}" if k["value"] is not None else "")
    if k["rounds_left"] is not None:
        text += f" ({k['rounds_left']} round{'s' if k['rounds_left'] != 1 else ''} left)"
    return text


#: characters that are Markdown syntax anywhere in a line (GFM tables and
#: a heading's closing ``#`` included); CommonMark renders a backslash-escaped
#: ASCII punctuation character as itself.
_INLINE = re.compile(r"([\\`*_\[\]<>&|~#])")
#: what starts a block when it opens a list item: a bullet or a setext
#: mark, or an ordered-list number (``1.``, ``2)``).
_BLOCK_MARK = re.compile(r"^(?:[-+=]|(\d{1,9})([.)]))")


def _escape(text: str) -> str:
    return _INLINE.sub(r"\\\1", visible(text))


def _edges(text: str) -> str:
    """Leading and trailing whitespace as character references: Markdown
    strips it from a heading, a list item or a cell, and four leading
    spaces would make a code block."""
    core = text.strip()
    start = len(text) - len(text.lstrip())

    def refs(run: str) -> str:
        return "".join(f"&#x{ord(ch):X};" for ch in run)

    return refs(text[:start]) + core + refs(text[start + len(core) :])


def md_cell(text: str) -> str:
    """*text* as one table cell or a heading: literal."""
    return _edges(_escape(text))


def _block_start(text: str) -> str:
    """Escape what would open a nested list or a setext heading in a list item."""
    match = _BLOCK_MARK.match(text)
    if match is None:
        return text
    if match.group(1) is not None:  # "1." → "1\." (the digits are not syntax)
        return f"{match.group(1)}\\{match.group(2)}{text[match.end() :]}"
    return "\\" + text


def _punct(ch: str) -> bool:
    # CommonMark's flanking rules treat Unicode punctuation and symbols alike
    return unicodedata.category(ch)[0] in "PS"


def _can_embolden(actor: str, rest: str) -> bool:
    """Whether ``**actor**rest`` is bold under CommonMark's flanking rules (else ``**`` shows)."""
    shown = visible(actor)
    if not shown or shown[0].isspace() or shown[-1].isspace():
        return False
    if _punct(shown[-1]):
        return not rest or rest[0].isspace() or _punct(rest[0])
    return True


class _Escaper:
    """Log text as Markdown: kept dice bold (``rules.kept_marks``: only in a
    dice breakdown, so a condition, tag or notes reading ``**5**`` is
    literal), all else literal, a name holding a breakdown too."""

    def __init__(self, names: Iterable[str]) -> None:
        known = sorted({n for n in names if n}, key=len, reverse=True)
        self._names = re.compile("|".join(map(re.escape, known))) if known else None

    def __call__(self, text: str, kept: Sequence[int] | None = None, begin: int = 0) -> str:
        """*text* from *begin* on; *kept*: ``LogEntry.kept`` (where the
        engine recorded the marks, so no name needs looking for)."""
        named = []
        if self._names is not None and kept is None:
            named = [m.span() for m in self._names.finditer(text)]
        out: list[str] = []
        last = begin
        for match in kept_marks(text, kept):
            if match.start() < begin:
                continue
            if any(start <= match.start() and match.end() <= end for start, end in named):
                continue  # in a name: escaped with the text around it
            out.append(_escape(text[last : match.start()]))
            out.append(f"**{match.group(1)}**")
            last = match.end()
        out.append(_escape(text[last:]))
        return "".join(out)


def _log_item(escaper: _Escaper, entry: LogEntry) -> str:
    """One log entry as a list item's text, the acting combatant bold."""
    actor, text, kept = entry.actor, entry.text, entry.kept
    if actor and text.startswith(actor) and _can_embolden(actor, text[len(actor) :]):
        return _edges(f"**{_escape(actor)}**{escaper(text, kept, len(actor))}")
    return _edges(_block_start(escaper(text, kept)))


def markdown_report(live: LiveEncounter) -> str:
    """A round-by-round report a GM can paste into session notes."""
    window = whole_log(live)
    log = window.entries
    state = state_json(live, window)
    escaper = _Escaper([c["name"] for c in state["combatants"]] + [state["name"]])
    lines = [f"# {md_cell(state['name'])}", ""]
    rules = _escape(state["ruleset"]["name"])
    headings, combats = _sections(log)
    count = len(state["combatants"])
    played = _played(state["started"], state["round"], combats)
    lines.append(f"*{rules} rules · {played} · {count} combatant{'s' if count != 1 else ''}*")
    current: int | None = None
    for entry, heading in zip(log, headings, strict=True):
        if heading:
            current = entry.round
            lines += ["", heading, ""]
        if entry.text == f"Round {current}":
            continue  # the heading says it
        lines.append(f"- {_log_item(escaper, entry)}")
    grouped = any(c["group"] is not None for c in state["combatants"])
    lines += [
        "",
        "## Where things stand",
        "",
        "| Combatant |"
        + (" Group |" if grouped else "")
        + " HP | Temp | AL | Conditions | Persistent damage |",
        "|---|---|---|---|---|---|" + ("---|" if grouped else ""),
    ]
    for c in state["combatants"]:
        conds = ", ".join(condition_text(k) for k in c["conditions"]) or "—"
        persistent = [
            f"{' '.join([p['dice'], *p['tags']])} (DC {p['dc']})" for p in c["persistent"]
        ]
        name = name_shown(c)
        hp = f"{c['hp']}/{c['max_hp']}"
        cells = [name, hp, str(c["temp_hp"]), str(c["al"]), conds, ", ".join(persistent) or "—"]
        if grouped:  # a column only in a fight with groups
            cells.insert(1, c["group"] or "—")
        lines.append("| " + " | ".join(md_cell(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _played(started: bool, round_: int, combats: list[int]) -> str:
    """How much was fought, for the report's header: ``3 rounds`` (``ended
    after 3 rounds``, ``not started``), or with several combats ``2
    combats, 5 rounds`` (every combat's rounds; ``ended after …``)."""
    if len(combats) > 1:
        played = f"{_plural(len(combats), 'combat')}, {_plural(sum(combats), 'round')}"
    elif round_:  # ``end`` keeps the round count
        played = _plural(round_, "round")
    else:
        return "not started"
    return played if started else f"ended after {played}"


def _sections(log: Sequence[LogEntry]) -> tuple[list[str], list[int]]:
    """The section heading each log entry opens ("" for none): ``Before
    combat`` and ``Round N`` for the first combat; ``Before combat 2`` for
    what is logged after ``end``, ``Combat 2`` for what the next ``start``
    logged before its round 1 (initiative, Dash checks: the app's log draws
    that combat's rule over them) and ``Combat 2, round N``; ``After combat
    N`` for what is logged after the last ``end`` with no new combat; and
    the rounds each combat reached."""
    opens = list(openings(log))
    to_begin = sum(1 for number in opens if number)  # combats opening at or after the entry
    out: list[str] = []
    rounds: list[int] = []
    fighting, opening, shown = False, False, ""
    for entry, number in zip(log, opens, strict=True):
        if number:
            fighting, opening, to_begin = True, True, to_begin - 1
            rounds.append(0)
        if begins_combat(entry.actor, entry.text):
            opening = False
        # outside a combat, and before its round 1, is round 0 (fights saved
        # before that rule logged the ended combat's round after ``end``)
        rnd = entry.round if fighting and not opening else 0
        if fighting:
            rounds[-1] = max(rounds[-1], rnd)
        combat = len(rounds)
        if rnd:
            heading = f"## Round {rnd}" if combat <= 1 else f"## Combat {combat}, round {rnd}"
        elif combat == 0 or (combat == 1 and fighting):
            heading = "## Before combat"  # the first combat's start, as the log shows it
        elif fighting:
            heading = f"## Combat {combat}"
        else:
            heading = f"## Before combat {combat + 1}" if to_begin else f"## After combat {combat}"
        out.append("" if heading == shown else heading)
        shown = heading
        if ends_combat(entry.actor, entry.text):
            fighting = False
    return out, rounds


def register(sub: Subparsers) -> None:
    p = sub.add_parser("export", help="the fight's log as Markdown or JSON")
    p.add_argument("name", help="the encounter (or a unique prefix of its name)")
    p.add_argument("--format", choices=["md", "json"], default="md")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    return run_with_store(args, export, read_only=True)


def export(args: argparse.Namespace, store: Store) -> int:
    live = open_live(args, store, prefix=True)
    if args.format == "json":
        text = to_json(state_json(live), indent=2) + "\n"
    else:
        text = markdown_report(live)
    if args.output:
        if store.holds(args.output):
            raise CommandError(
                f"{args.output} is one of the database's own files; "
                "export to a file outside it (nothing was written)"
            )
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(one_line(f"wrote {args.output}"))
    else:
        sys.stdout.write(text)
    return 0
