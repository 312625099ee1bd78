"""``combat-tracker``: the command-line entry point.

Each subcommand lives in its own module under ``tracker.commands`` and is
imported only when used, so ``combat-tracker roll`` never pays for Textual.
With no subcommand (or ``open NAME``) the Textual app starts.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: subcommand → module under tracker.commands that provides
#: ``register(subparsers)`` and ``run(args) -> int``.
COMMANDS = {
    "roll": "roll",
    "new": "encounters",
    "list": "encounters",
    "show": "encounters",
    "do": "encounters",
    "export": "encounters",
    "delete": "encounters",
    "save": "encounters",
    "restore": "encounters",
    "open": "tui",
}


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and one line on stderr."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"combat-tracker: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="combat-tracker",
        description="A keyboard-driven combat tracker for tabletop Game Masters.",
    )
    parser.add_argument(
        "--db", metavar="PATH", help="database file (default: user data dir; env COMBAT_TRACKER_DB)"
    )
    parser.add_argument("--seed", type=int, metavar="N", help="make every roll reproducible")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    seen: set[str] = set()
    for module_name in dict.fromkeys(COMMANDS.values()):
        if module_name in seen:
            continue
        seen.add(module_name)
        module = importlib.import_module(f"tracker.commands.{module_name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        module = importlib.import_module("tracker.commands.tui")
    else:
        module = importlib.import_module(f"tracker.commands.{COMMANDS[args.command]}")
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`show … | head`): stop quietly. Point stdout
        # at /dev/null so the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
