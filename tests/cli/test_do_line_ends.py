"""Line ends as a GM's files have them, alike in ``do`` and ``new --from``
(README, Decisions): a Windows CR LF, or a carriage return left at the end
of a line, reads as the line's end; a carriage return anywhere else is one
``error:`` naming it (the character, and where), nothing of that line is
applied, and ``do``'s next line still runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_do_long_lines import do
from tests.cli.test_hostile import run

REFUSED = "a carriage return belongs only at the end of a line (a Windows CR LF)"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def combatants(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, int]:
    status, out, _ = run(capsys, db, "show", "Fight", "--json")
    assert status == 0
    return {c["name"]: c["hp"] for c in json.loads(out)["combatants"]}


def test_do_reads_crlf_and_trailing_returns_and_refuses_one_inside_a_line(capsys, db) -> None:
    assert run(capsys, db, "new", "Fight")[0] == 0
    stdin = (
        b"add Ogre hp 30\r\n"  # a Windows file
        b"add Gob\rhp 5\r\n"  # a CR for a space: refused, not "add Gob hp 5"
        b"add Imp hp 4\r\r\n"  # two before the newline: still the line's end
        b"damage Ogre 3\rdamage Imp 1\r\n"  # an old Mac line end joining two lines
        b"# a comment\rstill the comment\r\n"
        b"damage Ogre 2\r"  # the last line, its newline missing
    )
    status, out = do(capsys, db, stdin)
    assert status == 1
    assert out == [
        "ok 1",
        f"error: the line contains U+000D CARRIAGE RETURN at character 8: {REFUSED}",
        "ok 2",
        f"error: the line contains U+000D CARRIAGE RETURN at character 14: {REFUSED}",
        "ok 3",
    ]
    assert combatants(capsys, db) == {"Ogre": 28, "Imp": 4}


def test_do_with_the_line_as_an_argument_reads_it_alike(capsys, db) -> None:
    assert run(capsys, db, "new", "Fight")[0] == 0
    assert run(capsys, db, "do", "Fight", "add Ogre hp 30\r\nadd Imp hp 4\r")[1] == "ok 1\nok 2\n"
    status, out, _ = run(capsys, db, "do", "Fight", "add", "Gob\r", "hp", "5")
    assert status == 1
    assert out == f"error: the line contains U+000D CARRIAGE RETURN at character 9: {REFUSED}\n"
    assert combatants(capsys, db) == {"Ogre": 30, "Imp": 4}


def test_new_from_a_file_reads_crlf_and_names_a_stray_return(capsys, db, tmp_path) -> None:
    windows = tmp_path / "windows.toml"
    windows.write_bytes(
        b'[[combatant]]\r\nname = "Ogre"\r\nhp = 30\r\n\r\n[[combatant]]\r\nname = "Imp"\r\nhp = 4\r'
    )
    assert run(capsys, db, "new", "Fight", "--from", str(windows))[0] == 0
    assert combatants(capsys, db) == {"Ogre": 30, "Imp": 4}
    mac = tmp_path / "mac.toml"
    mac.write_bytes(b'[[combatant]]\nname = "Gob"\rhp = 5\n')
    status, _, err = run(capsys, db, "new", "Other", "--from", str(mac))
    assert status == 1
    assert err.strip().endswith(f"line 2: U+000D CARRIAGE RETURN at character 13: {REFUSED}")
    assert [e["name"] for e in json.loads(run(capsys, db, "list", "--json")[1])] == ["Fight"]
