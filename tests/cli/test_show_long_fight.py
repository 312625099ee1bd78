"""``show`` of a fight longer than its snapshot holds: what it prints comes
from the snapshot and the steps after it, never from the older history,
and reads the same however much of the fight was compacted — the title
names the combat, the log's last entries and the rule over a combat's
opening are the whole log's; ``show --json`` has every entry, as
``export`` does."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules.engine.history import KEEP_ENTRIES
from saves.live import LiveEncounter, open_store
from tests.cli.test_encounters import run

CAST = ["add Zalek player hp 38 al 15 init 14", "add Goblin count 2 hp 9 al 13"]
#: a first combat whose start is far older than a snapshot's log, then a
#: second one whose opening is among the last entries ``show`` prints
FIGHT = [
    "start",
    *["next", "damage 'Goblin 1' 1", "heal 'Goblin 1' 1"] * 120,
    "end",
    "damage 'Goblin 2' 2",
    "start",
    "next",
]


def saved(db: Path, compact_at: int | None = None, close: bool = True) -> None:
    """The fight saved, a snapshot written after *compact_at* of its
    actions (and on closing when *close*), the rest replayed on opening."""
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Fight", rng=random.Random(5), actions=CAST)
        for i, line in enumerate(FIGHT):
            if i == compact_at:
                live.compact()
            live.do(line)
        if close:
            live.close()


def shown(capsys: pytest.CaptureFixture[str], db: Path, *flags: str) -> str:
    status, out, err = run(capsys, db, "show", "Fight", *flags)
    assert status == 0 and err == "", err
    return out


@pytest.fixture(scope="module")
def fights(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same fight saved three ways: every action replayed from the
    first snapshot (the whole log in memory, as ``show`` used to read it),
    a snapshot halfway, and a snapshot at the end."""
    root = tmp_path_factory.mktemp("fights")
    out = {
        "replayed": root / "replayed" / "encounters.json",
        "halfway": root / "halfway" / "encounters.json",
        "compacted": root / "compacted" / "encounters.json",
    }
    saved(out["replayed"], close=False)
    saved(out["halfway"], compact_at=len(FIGHT) // 2, close=False)
    saved(out["compacted"])
    return out


def test_show_reads_the_same_before_and_after_compaction(capsys, fights) -> None:
    texts = {how: shown(capsys, db) for how, db in fights.items()}
    jsons = {how: shown(capsys, db, "--json") for how, db in fights.items()}
    assert len(set(texts.values())) == 1 and len(set(jsons.values())) == 1
    text, state = texts["compacted"], json.loads(jsons["compacted"])
    status, exported, _ = run(capsys, fights["compacted"], "export", "Fight", "--format", "json")
    everything = json.loads(exported)
    assert status == 0 and len(everything["log"]) > KEEP_ENTRIES + 100
    assert state["combat"] == everything["combat"] == 2
    assert state == everything  # every entry, as export has them
    lines = text.splitlines()
    assert lines[0] == "Fight — combat 2, round 1, Goblin 1's turn"
    # the second combat's rule over its opening, numbered from the first
    # combat's start, which only the older history holds
    assert lines.count("── Combat 2 ──") == 1 and "── Combat 1 ──" not in text
    assert lines[-1] == "R1 Goblin 1's turn"


def test_show_does_not_read_the_history_older_than_the_snapshot(
    capsys, fights, tmp_path: Path
) -> None:
    import shutil

    db = tmp_path / "encounters.json"
    shutil.copytree(fights["compacted"].parent, tmp_path, dirs_exist_ok=True)
    text = shown(capsys, db)
    (steps,) = Path(f"{db}.d").glob("*/steps.jsonl")
    lines = steps.read_bytes().splitlines(keepends=True)
    assert len(lines) == len(CAST) + len(FIGHT) + 1
    # every action before the last (the line the snapshot ends on) made
    # unreadable, newlines kept: the origin and the snapshot still fit
    garbled = [b"x" * (len(line) - 1) + b"\n" for line in lines[1:-1]]
    steps.write_bytes(b"".join([lines[0], *garbled, lines[-1]]))
    assert shown(capsys, db) == text
    for which in (["export", "Fight"], ["show", "Fight", "--json"]):  # which do need them
        status, _, err = run(capsys, db, *which)
        assert status == 1 and "cannot be read" in err, which


def test_a_short_fight_is_listed_whole_as_before(capsys, tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nstart\nnext")
    state = json.loads(shown(capsys, db, "--json"))
    status, exported, _ = run(capsys, db, "export", "Fight", "--format", "json")
    assert status == 0 and "log_earlier" not in state
    assert state == json.loads(exported)
