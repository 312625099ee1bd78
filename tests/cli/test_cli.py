"""The command line's entry: only the subcommand used is set up.

``combat-tracker open NAME`` (and a bare ``combat-tracker``) starts the
tracker without importing or registering the other subcommands' parsers
(issue 4, "Starts fast"); ``--help``, a typo or an unknown option still get
the full parser's message, listing every command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tracker.cli import COMMANDS, command_of, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        ([], None),
        (["--db", "x.json"], None),
        (["--db", "list", "--seed", "3"], None),  # option values are not commands
        (["open", "Big fight"], "open"),
        (["--db", "x.json", "--seed", "7", "open", "Big"], "open"),
        (["--db=x.json", "roll", "-1d6"], "roll"),
        (["--seed=2", "list"], "list"),
        (["--help"], "?"),
        (["rol", "1d20"], "?"),
        (["--bogus", "open", "x"], "?"),
    ],
)
def test_the_command_word_is_found_past_the_global_options(
    argv: list[str], command: str | None
) -> None:
    assert command_of(argv) == command


def test_help_and_typos_still_get_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(name in out for name in COMMANDS)
    with pytest.raises(SystemExit) as exit_:
        main(["rol", "1d20"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'rol'" in err and "'roll'" in err


def test_opening_the_tracker_sets_up_no_other_subcommand() -> None:
    code = (
        "import json, sys\n"
        "from tracker.cli import build_parser, command_of\n"
        "argv = ['--db', 'x.json', 'open', 'Big fight']\n"
        "args = build_parser(command_of(argv)).parse_args(argv)\n"
        "print(json.dumps([args.command, args.name, sorted(sys.modules)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    command, name, modules = json.loads(out.stdout)
    assert (command, name) == ("open", "Big fight")
    assert "tracker.commands.tui" in modules
    others = {f"tracker.commands.{m}" for m in COMMANDS.values()} - {"tracker.commands.tui"}
    assert not others & set(modules)


@pytest.mark.parametrize("command", ["new", "list", "do", "export", "save", "roll"])
def test_a_subcommand_sets_up_only_its_own_module(command: str) -> None:
    code = (
        "import json, sys\n"
        "from tracker.cli import build_parser\n"
        f"build_parser({command!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(out.stdout))
    modules = {f"tracker.commands.{m}" for m in COMMANDS.values()}
    assert loaded & modules == {f"tracker.commands.{COMMANDS[command]}"}
