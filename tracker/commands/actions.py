"""``do``: actions on a saved encounter, each saved before its ``ok N``; a
refused line is one ``error: …`` line and the stream goes on, a failed save
stops it."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tracker.commands.common import Subparsers, add_common, one_line, open_live, run_with_store

if TYPE_CHECKING:
    from saves.store import Store


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "do",
        help="apply actions (argument, or one per line on stdin)",
        description="Apply one action, or read actions from stdin one per line. "
        "Prints 'ok N' after each action is durably saved, or 'error: …'.",
    )
    p.add_argument("name")
    p.add_argument("action", nargs="*", help='e.g. damage "Goblin 2" 2d6+3 fire')
    add_common(p)


def run(args: argparse.Namespace) -> int:
    return run_with_store(args, _do)


def _do(args: argparse.Namespace, store: Store) -> int:
    from rules.errors import ActionError
    from saves.live import close_live
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
            live.compact_if_due()  # a long script: keep the next open's replay short
    finally:
        note = close_live(live)
        if note:
            print(one_line(f"warning: {note}"), file=sys.stderr, flush=True)
    return 0 if all_ok else 1
