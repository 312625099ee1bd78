"""``combat-tracker``: the command-line entry point.  Each subcommand's
module under ``tracker.commands`` is imported only when used, so ``roll``
never pays for Textual; with none (or ``open NAME``) the app starts."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

#: subcommand → its module under tracker.commands (``register`` and ``run``)
COMMANDS = {
    "roll": "roll",
    "new": "create",
    "list": "browse",
    "show": "browse",
    "do": "actions",
    "export": "report",
    "delete": "manage",
    "save": "manage",
    "restore": "manage",
    "open": "tui",
}


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and one line on stderr, and takes
    no abbreviated option: a save-point label typed as ``--d`` must not
    become ``--db``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        from tracker.commands.common import fail

        fail(message)  # quotes what the GM typed: made visible, cut short
        raise SystemExit(2)


#: the global options that take a value (``--db PATH``, ``--seed N``)
_VALUED = ("--db", "--seed")
_VALUED_JOINED = tuple(f"{option}=" for option in _VALUED)  # --db=PATH
#: the global options that take none (``--lan``)
_FLAGS = ("--lan",)


#: ``--lan``, for the app (``combat-tracker`` and ``open NAME``)
LAN_HELP = (
    "the players' view (P in the tracker) listens on the local network, not only on this computer"
)


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand past the global options; None for none, ``"?"``: the full parser's."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in _VALUED:
            i += 2
        elif word.startswith(_VALUED_JOINED) or word in _FLAGS:
            i += 1
        elif word.startswith("-") or word not in COMMANDS:
            return "?"  # help, an unknown option or command: the full parser
        else:
            return word
    return None


def build_parser(command: str | None = "?") -> argparse.ArgumentParser:
    """The parser with only *command*'s subcommand (``"?"``: all, for help and errors)."""
    from tracker.commands.common import add_common

    parser = _Parser(
        prog="combat-tracker",
        description="A keyboard-driven combat tracker for tabletop Game Masters.",
    )
    add_common(parser, default=None)
    parser.add_argument("--lan", action="store_true", help=LAN_HELP)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    if command is None:
        return parser
    wanted = dict.fromkeys(COMMANDS.values()) if command == "?" else [COMMANDS[command]]
    for module_name in wanted:
        module = importlib.import_module(f"tracker.commands.{module_name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; return the exit status.  The last resort: a bug
    is a crash report (status 70), Ctrl+C is 130, a closed pipe a quiet
    stop; never a traceback in front of the GM."""
    from tracker.commands.output import GuardedOutput, OutputError, silence_stdout

    words = list(sys.argv[1:] if argv is None else argv)
    _tolerant_output()
    stdout = sys.stdout
    if command_of(words) not in (None, "open"):  # the app draws on its own stream
        sys.stdout = GuardedOutput(stdout)
    try:
        status = _run(words)
        sys.stdout.flush()  # a closed pipe or a full disk is found here, not at exit
        return status
    except SystemExit:
        sys.stdout.flush()  # argparse: --help, a usage error (its one line is written)
        raise
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 1
    except OutputError as exc:
        from tracker.commands.common import fail

        fail(f"cannot write the output: {exc.strerror or exc}")
        silence_stdout()
        return 1
    except Exception as exc:
        from tracker.commands.crash import report_exception

        return report_exception(exc, ["combat-tracker", *words])
    finally:
        sys.stdout = stdout


def _run(words: list[str]) -> int:
    args = build_parser(command_of(words)).parse_args(words)
    module = importlib.import_module(f"tracker.commands.{COMMANDS[args.command or 'open']}")
    return int(module.run(args) or 0)


def _tolerant_output() -> None:
    """A character the terminal cannot show (``LANG=C``) is escaped, not an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a TextIOWrapper's
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
