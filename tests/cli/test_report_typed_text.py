"""Every field of the Markdown report that holds typed text reads as typed:
combatant names (current, renamed away and removed), group names,
condition names, damage tags and notes, in the log's list items and in the
table.  ``**5**`` typed as a condition once came out as a bold 5: only a
dice breakdown's kept die is bold (``rules.kept_marks``).  Save-point
labels are not in the report (nothing logs them)."""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from rules.text import visible
from tests.cli.test_hostile import PROPERTY, assert_safe, blocks, names, run, table_rows

#: a token per typed field, swapped for the typed text in the saved fight
#: (lower case: the engine folds tags)
FIELDS = {
    "condition": "zq1c",
    "tag": "zq2t",
    "group": "zq3g",
    "notes": "zq4n",
    "removed": "zq5r",
    "renamed": "zq6o",
}


def plant(db: Path, typed: dict[str, str]) -> list[str]:
    """A fight with each typed field holding *typed*'s text, written through
    the saves API as a hand-edited file could hold it; returns what each
    log entry must read as in the report."""
    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.store import Store

    f = FIELDS
    session = Session(Encounter("Fight"), rng=random.Random(3))
    for line in (
        "add Gob hp 30 al 12 init 12",
        f"add Imp count 2 hp 5 init 3 group {f['group']}",
        f"add {f['removed']} hp 5 init 1",
        f"add {f['renamed']} hp 5 init 2",
        "start",
        f"cond Gob {f['condition']} value 1 rounds 2",
        f"persist Gob 1d6 {f['tag']}",
        f"damage Gob 3 {f['tag']}",
        f"set Gob notes {f['notes']}",
        f"remove {f['removed']}",
        f"set {f['renamed']} name Orc",
        "roll 2d20kh1+3",
    ):
        session.apply(line)

    def swap(text: str) -> str:
        for field, token in f.items():
            text = text.replace(token, typed[field])
        return text

    def swapped(obj: Any) -> Any:
        text = json.dumps(obj)
        for field, token in f.items():
            text = text.replace(token, json.dumps(typed[field])[1:-1])
        return json.loads(text)

    origin = {"encounter": Encounter("Fight").to_dict()}
    steps = [swapped({"step": step.to_dict()}) for step in session.undo_stack]
    snapshot = {"session": swapped(session.to_dict()), "ui": {}}
    with Store(db) as store:
        store.create("Fight", origin, snapshot, {"round": 1}, records=steps)
    # the engine's own marks are only its kept dice: the tokens hold none
    return [
        visible(swap(re.sub(r"\*\*(\d+)\*\*", r"\1", e.text)))
        for e in session.log
        if e.text != f"Round {e.round}"
    ]


def typed_fields(**texts: str) -> dict[str, str]:
    return {field: texts.get(field, "x") for field in FIELDS}


@PROPERTY
@given(
    st.fixed_dictionaries({field: names for field in FIELDS}).filter(
        # the fight keeps two of them apart only if they differ
        lambda d: d["removed"] != d["renamed"] and "Orc" not in (d["removed"], d["renamed"])
    )
)
@example(typed_fields(condition="**4**", tag="**6**", group="**7**", notes="**1**"))
@example(typed_fields(removed="**3**", renamed="**8**", condition="x **5**"))
@example(typed_fields(tag="*it*|x", group="<b>", notes="`c` # 1. ", condition="~~\\_"))
@example(  # whole breakdowns rules.dice could not have written (one die kept of one, …)
    typed_fields(
        condition="1d20kh1 (**5**)",
        tag="x 2d20kh1 (**9**)",
        group="1d20kh1 (**4**)",
        renamed="2d20kh1 (**3**, 14)",
        notes="3d6kh1 (**5**, 2)",
    )
)
def test_typed_text_in_every_field_reads_as_typed(capsys, monkeypatch, typed) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        log = plant(db, typed)
        status, report, err = run(capsys, db, "export", "Fight")
        assert status == 0, err
        assert_safe(report)
    assert [text for kind, text in blocks(report) if kind == "li"] == log
    header, *rows = table_rows(report)
    assert header[:2] == ["Combatant", "Group"]
    by_name = {row[0]: row for row in rows}
    gob = by_name["Gob"]
    assert gob[5] == f"{visible(typed['condition'])} 1 (2 rounds left)"
    assert gob[6] == f"1d6 {visible(typed['tag'])} (DC 20)"
    # a group a hand edit named "" is no group to show: the cell says so
    group = visible(typed["group"]) or "—"
    assert by_name["Imp 1"][1] == by_name["Imp 2"][1] == group
    assert set(by_name) == {"Gob", "Imp 1", "Imp 2", "Orc"}


def test_a_condition_typed_as_a_breakdown_reads_as_typed_once_saved(capsys, tmp_path) -> None:
    # the GM's line, through do, the steps file and back: export and show
    # read where the kept dice are from the journal, not from the text
    db = tmp_path / "encounters.json"
    assert run(capsys, db, "new", "Fight")[0] == 0
    line = "add Ogre hp 30; roll 2d20kh1; cond Ogre '2d20kh1 (5, **14**)'"
    assert run(capsys, db, "do", "Fight", line)[:2] == (0, "ok 1\n")
    status, report, _ = run(capsys, db, "export", "Fight")
    assert status == 0
    items = [text for text in report.splitlines() if text.startswith("- ")]
    assert items[1:] == [
        "- Roll: 2d20kh1 (**11**, 5) = 11",
        "- **Ogre** is 2d20kh1 (5, \\*\\*14\\*\\*)",
    ]
    assert [text for kind, text in blocks(report) if kind == "li"][
        2
    ] == "Ogre is 2d20kh1 (5, **14**)"
    status, shown, _ = run(capsys, db, "show", "Fight")
    assert shown.splitlines()[-2:] == [
        "–  Roll: 2d20kh1 (11, 5) = 11",
        "–  Ogre is 2d20kh1 (5, **14**)",
    ]
