"""``show`` and the report say who is delaying, as the app's row does
(``Zalek (delayed)``): a GM checking the fight from the command line must
not take a held turn for one that simply has not come."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.cli import main


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, _ = capsys.readouterr()
    assert status == 0, out
    return out


def test_a_delaying_combatant_is_marked_in_show_and_in_the_report(capsys, tmp_path) -> None:
    db = tmp_path / "encounters.json"
    run(capsys, db, "new", "Crypt")
    run(capsys, db, "do", "Crypt", "add Zalek player hp 30 init 18\nadd Mira player hp 20 init 12")
    run(capsys, db, "do", "Crypt", "add Ogre hp 40 init 5\nstart\ndelay Zalek\ndamage Mira 20")
    rows = run(capsys, db, "show", "Crypt").splitlines()[2:5]
    named = [next(cell for cell in row.split("  ") if cell.strip()[:1].isalpha()) for row in rows]
    assert [n.strip() for n in named] == ["Zalek (delayed)", "Mira (down)", "Ogre"]
    run(capsys, db, "do", "Crypt", "next\ndelay Mira")
    report = run(capsys, db, "export", "Crypt")
    assert "| Zalek (delayed) |" in report and "| Mira (down, delayed) |" in report
    assert "| Ogre |" in report
