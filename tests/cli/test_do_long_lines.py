"""``do`` reads lines as long as the action language takes
(``rules.limits.MAX_LINE`` characters, whatever their UTF-8 length): the
saves form's line on every combatant of the largest fight is ``ok``, a
line past the bound is one ``error:`` naming the bound in characters, and
the next line still runs."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from rules.engine.shell import quote_word
from rules.limits import MAX_COMBATANTS, MAX_LINE
from rules.text import MAX_NAME
from tracker.cli import main
from tracker.lines import saves_line

#: a name of MAX_NAME characters, four UTF-8 bytes each but its number
ZOMBIE = "\U0001f9df" * (MAX_NAME - 4)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def do(capsys: pytest.CaptureFixture[str], db: Path, stdin: bytes) -> tuple[int, list[str]]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        status = main(["--db", str(db), "--seed", "3", "do", "Fight"])
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    assert err == ""
    return status, out.splitlines()


def test_the_saves_forms_line_on_the_largest_fight_is_one_ok(capsys, db) -> None:
    assert main(["--db", str(db), "new", "Fight"]) == 0
    capsys.readouterr()
    adds = [f"add {quote_word(ZOMBIE)} count 100 hp 50 group Horde"] * (MAX_COMBATANTS // 100)
    names = [f"{ZOMBIE} {n}" for n in range(1, MAX_COMBATANTS + 1)]
    saves = dict.fromkeys(names[::2], "half") | dict.fromkeys(names[1::2], "none")
    line = saves_line(names, "8d6 fire", saves)
    assert len(line.encode()) > 64 * 1024  # past the old stdin bound, in bytes
    status, out = do(capsys, db, "\n".join([*adds, "start", line]).encode())
    assert status == 0 and out[-1] == f"ok {len(adds) + 2}", out[-1][:200]
    capsys.readouterr()
    main(["--db", str(db), "show", "Fight", "--json"])
    shown = json.loads(capsys.readouterr().out)
    hp = {c["name"]: c["hp"] for c in shown["combatants"]}
    assert hp[names[1]] == 50 and hp[names[0]] < 50  # none took nothing, half took some


def test_a_line_past_the_bound_is_one_error_and_the_next_line_runs(capsys, db) -> None:
    assert main(["--db", str(db), "new", "Fight"]) == 0
    capsys.readouterr()
    at_bound = "#" + "\U0001f9df" * (MAX_LINE - 1)  # a comment: read, then skipped
    past = "add Imp notes " + "x" * (MAX_LINE + 1)
    unread = "\U0001f9df" * (MAX_LINE + 1)  # more bytes than any line of MAX_LINE characters
    status, out = do(
        capsys, db, "\n".join([at_bound, "add Ogre hp 5", past, unread, "add Imp hp 3"]).encode()
    )
    assert status == 1
    assert out == [
        "ok 1",
        f"error: the line is too long ({MAX_LINE + 15:,} characters; at most {MAX_LINE:,})",
        f"error: line 4 is too long (more than {MAX_LINE:,} characters)",
        "ok 2",
    ]
