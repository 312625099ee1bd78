"""``combat-tracker roll``: roll dice from the shell (RULES.md §1–§3).  The
module top stays cheap (``register`` runs on every CLI start); Rich is
imported only once the input is checked."""

from __future__ import annotations

import argparse
import re
from typing import Any

from tracker.commands.common import Subparsers, add_common, fail, rng_from

RULESETS = ("core", "forge", "cinematic")


def _whole(text: str, low: int, high: int) -> int:
    """*text* as a whole number from *low* to *high*, as the action language
    reads one (0-9 only, no ``1_0``); else an argparse error quoting an
    excerpt (a pasted page must not fill the terminal)."""
    from rules.engine.words import is_number
    from rules.text import shorten

    if not is_number(text.strip()):
        raise argparse.ArgumentTypeError(f"invalid int value: '{shorten(text, 40)}'")
    digits = text.strip().lstrip("+-")
    value = int(text) if len(digits) <= 12 else (-1 if text.strip()[0] == "-" else 1) * 10**13
    if value < 0 <= low:
        raise argparse.ArgumentTypeError(f"'{shorten(text, 40)}': the count cannot be negative")
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"'{shorten(text, 40)}' is out of range ({low:,} to {high:,})"
        )
    return value


def _count(text: str) -> int:
    from rules.engine.values import MAX_COUNT

    return _whole(text, 0, MAX_COUNT)


def _dc(text: str) -> int:
    from rules.engine.values import MAX_MODIFIER

    return _whole(text, -MAX_MODIFIER, MAX_MODIFIER)


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "roll",
        help="roll dice, e.g. 2d20kh1+5",
        description="Roll dice notation (NdM, +/-, khK/klK, d%; a trailing ! marks a term "
        "not doubled on a critical hit). With --dc/--dl prints the degree of success.",
    )
    p.add_argument("expr", nargs="*", metavar="EXPR", help="dice expression, e.g. 1d20+5")
    # ``roll -1d6+2`` is an expression: argparse takes what this matches as a number
    p._negative_number_matcher = re.compile(r"^-\d")
    p.add_argument("--adv", type=_count, default=0, metavar="N", help="advantages (§2)")
    p.add_argument("--dis", type=_count, default=0, metavar="N", help="disadvantages (§2)")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--dc", type=_dc, metavar="N", help="DC to beat (§3)")
    target.add_argument("--dl", metavar="NAME", help="named Difficulty Level, e.g. Challenging")
    target.add_argument("--flat", type=_dc, metavar="DC", help="flat check: a bare d20 vs DC")
    p.add_argument("--ruleset", choices=RULESETS, default="core", help="default: core")
    add_common(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _error(message: str) -> int:
    fail(message)
    return 2


def run(args: argparse.Namespace) -> int:
    """Roll and print; the exit status is 2 for bad input."""
    from rules.checks import (
        CheckResult,
        difficulty_level,
        flat_check,
        judge,
        roll_expression_with_advantage,
    )
    from rules.dice import DiceError
    from rules.rulesets import ruleset as named_ruleset

    text = " ".join(args.expr)
    rng = rng_from(args)
    try:
        if args.flat is not None:
            if text.strip() or args.adv or args.dis:
                return _error("--flat rolls a bare d20: give no expression, --adv or --dis")
            flat = flat_check(args.flat, rng)
            record: dict[str, Any] = {
                "expression": "1d20",
                "total": flat.face,
                "dice": [{"sides": 20, "value": flat.face, "kept": True}],
                "natural": flat.face,
                "modifier": 0,
                "degree": "success" if flat.success else "failure",
                "dc": flat.dc,
                "flat": True,
                "text": flat.text,
            }
            return _print(args, record, None, None)
        if not args.expr:
            return _error("give a dice expression, e.g. 2d6+3 (or --flat DC)")
        dc = args.dc if args.dl is None else difficulty_level(args.dl)
        rules = named_ruleset(args.ruleset)
        d20 = roll_expression_with_advantage(text, args.adv, args.dis, rules, rng)
    except DiceError as exc:
        return _error(str(exc))
    verdict: CheckResult | None = None if dc is None else judge(d20, dc, rules)
    record = {
        "expression": d20.result.expression,
        "total": d20.total,
        "dice": [{"sides": d.sides, "value": d.value, "kept": d.kept} for d in d20.result.dice],
        "natural": d20.natural,
        "modifier": d20.modifier,
        "degree": None if verdict is None else verdict.degree.label,
        "dc": dc,
        "text": d20.result.render() if verdict is None else verdict.text,
    }
    return _print(args, record, d20.result.render(), verdict)


def _print(
    args: argparse.Namespace, record: dict[str, Any], breakdown: str | None, verdict: Any
) -> int:
    if args.json:
        import json
        import sys

        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    if breakdown is None:  # a flat check
        colour = "green" if record["degree"] == "success" else "red"
        console.print(
            Text(f"flat check d20 ({record['total']}) vs DC {record['dc']}: ").append(
                str(record["degree"]), style=colour
            )
        )
        return 0
    line = Text()
    body, _, total = breakdown.rpartition(" = ")
    for i, piece in enumerate(re.split(r"\*\*(\d+)\*\*", body)):
        line.append(piece, style="bold green" if i % 2 else "")
    line.append(" = ")
    line.append(total, style="bold")
    if verdict is not None:
        colour = {
            "critical success": "bold green",
            "success": "green",
            "failure": "red",
            "critical failure": "bold red",
        }[verdict.degree.label]
        line.append(f" vs DC {verdict.dc}: ")
        line.append(verdict.degree.label, style=colour)
        note = verdict.text.partition(f": {verdict.degree.label}")[2]
        if note:
            line.append(note, style="dim")
    console.print(line)
    return 0
