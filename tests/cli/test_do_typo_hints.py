"""``combat-tracker do`` prints the engine's typo hints as they are, one
``error:`` line each, and saves nothing for them."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tracker.cli import main


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--db", str(db), "--seed", "7", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_do_prints_each_typo_hint_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "e.json"
    assert run(capsys, db, "new", "Crypt")[0] == 0
    setup = "add Zalek hp 38 al 15 player\nadd 'Brother Tomas' hp 20 player\nadd Ogre hp 59"
    assert run(capsys, db, "do", "Crypt", setup)[0] == 0
    before = run(capsys, db, "show", "Crypt", "--json")[1]
    cases = {
        "damage Zalk 5": 'error: no combatant named "Zalk"; did you mean "Zalek"?',
        "hit Ogre 3": "error: unknown verb 'hit'; did you mean damage or attack?",
        "damgae Ogre 3": "error: unknown verb 'damgae'; did you mean damage?",
        "add Orc hp 10 armor 15": "error: add: unexpected 'armor'; did you mean al?",
        "damage Ogre 5 crtl": "error: damage: unexpected 'crtl'; did you mean crit?",
        "heal Brother Tom 5": (
            "error: heal: unexpected 'Tom'; a name with spaces goes in quotes "
            '(heal "Brother Tom" 5)'
        ),
    }
    for line, shown in cases.items():
        status, out, err = run(capsys, db, "do", "Crypt", line)
        printed = out + err
        assert status == 1 and len(printed.splitlines()) == 1, printed
        assert printed.startswith(shown), printed
    # the same lines from stdin: one error line each, in order
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\n".join(cases).encode())))
    status, out, err = run(capsys, db, "do", "Crypt")
    printed = (out + err).splitlines()
    assert status == 1 and len(printed) == len(cases)
    assert [p[: len(s)] for p, s in zip(printed, cases.values(), strict=True)] == list(
        cases.values()
    )
    assert run(capsys, db, "show", "Crypt", "--json")[1] == before
    # dmg is damage
    assert run(capsys, db, "do", "Crypt", "dmg Ogre 9")[1] == "ok 4\n"
