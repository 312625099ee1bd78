"""``--lan``: the players' view listens on the local network.  It is taken
before the command or after ``open NAME``, it does not make the command
line build every subcommand (the app's start stays light), and it reaches
the app; without it the app keeps what the encounter says."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tracker.cli import build_parser, command_of
from tracker.commands.tui import build_app


@pytest.mark.parametrize(
    ("argv", "command", "lan"),
    [
        (["--lan"], None, True),
        (["--lan", "open", "Crypt"], "open", True),
        (["--db", "x.json", "--lan", "open", "Crypt"], "open", True),
        (["open", "Crypt", "--lan"], "open", True),
        (["open", "Crypt"], "open", False),
        ([], None, False),
    ],
)
def test_lan_is_read_before_or_after_open(argv: list[str], command: str | None, lan: bool) -> None:
    assert command_of(argv) == command  # not "?": only the app's parser is built
    args = build_parser(command_of(argv)).parse_args(argv)
    assert args.lan is lan


def test_lan_reaches_the_app(tmp_path: Path) -> None:
    db = str(tmp_path / "encounters.json")
    for flag, expected in ((True, True), (False, None)):
        args = argparse.Namespace(db=db, seed=1, lan=flag, command=None)
        app = build_app(args, hold_gc=False)
        try:
            assert app.lan is expected  # None: as the encounter keeps it
        finally:
            assert app.store is not None
            app.store.close()
