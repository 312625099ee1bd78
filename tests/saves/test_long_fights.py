"""Resuming a long fight (issue 10): the snapshot stays small however long
the fight, opening reads the snapshot and the steps after it and nothing
else, and what the GM gets back — the log, undo and redo at any depth, the
next actions — is exactly the fight as it was.  (Timings are in
``bench/``, not here.)"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saves.step_lines
import saves.steps
from rules.encounter import Encounter, LogEntry
from rules.engine.history import KEEP_ENTRIES
from rules.engine.session import Session
from rules.engine.step import Step
from rules.errors import ActionError
from saves.live import COMPACT_AFTER, LiveEncounter, open_store

CAST = ["add Zalek player hp 38 al 15 con 17 athletics 4", "add Goblin count 3 hp 2d6+2 al 13"]
ROUND = ['damage "Goblin 1" 1d4', "heal 'Goblin 1' 1", "next", "roll 1d20", "next"]


def play(live: LiveEncounter | Session, steps: int) -> None:
    do = live.do if isinstance(live, LiveEncounter) else live.apply
    for i in range(steps):
        do(ROUND[i % len(ROUND)])


def saved_fight(tmp_path: Path, steps: int, close: bool = True) -> tuple[Path, Session]:
    """A fight of *steps* actions after the cast and ``start``, saved; and
    the same fight played in memory with the same dice."""
    db = tmp_path / "encounters.json"
    with open_store(db) as store:
        live = LiveEncounter.create(store, "Ambush", rng=random.Random(2), actions=CAST)
        live.do("start")
        play(live, steps)
        if close:
            live.close()
    twin = Session(Encounter("Ambush"), rng=random.Random(2))
    for line in [*CAST, "start"]:
        twin.apply(line)
    play(twin, steps)
    return db, twin


def files(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")
    }


def state_size(db: Path) -> int:
    (state,) = Path(f"{db}.d").glob("*/state.json")
    return state.stat().st_size


def test_the_snapshot_does_not_grow_with_the_fight(tmp_path: Path) -> None:
    short, _ = saved_fight(tmp_path / "a", 400)
    long, _ = saved_fight(tmp_path / "b", 4000)
    assert state_size(long) < 1.2 * state_size(short)
    steps = next(Path(f"{long}.d").glob("*/steps.jsonl"))
    assert steps.stat().st_size > 8 * state_size(long)  # the history is in the steps file


def test_a_resumed_long_fight_gives_back_the_whole_log_and_every_undo(tmp_path: Path) -> None:
    db, twin = saved_fight(tmp_path, 1500)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.encounter == twin.encounter
        assert list(live.log) == twin.log[-len(live.log) :]
        assert KEEP_ENTRIES <= len(live.log) < len(twin.log)
        assert live.log_earlier + len(live.log) == len(twin.log)
        assert live.full_log() == twin.log
        undone = 0
        while live.can_undo:
            assert live.undo().seq == twin.undo().seq
            undone += 1
            if undone % 250 == 0:
                assert live.encounter == twin.encounter and live.full_log() == twin.log
        assert undone == 1503 and live.encounter.combatants == ()
        for _ in range(700):
            live.redo()
            twin.redo()
        assert live.encounter == twin.encounter and live.full_log() == twin.log
        live.close()
    with open_store(db) as store:  # and again, from the middle of the redo stack
        again = LiveEncounter.open(store, "Ambush")
        assert again.encounter == twin.encounter and again.full_log() == twin.log
        while again.can_redo:
            assert again.redo().action == twin.redo().action
        assert again.encounter == twin.encounter


def test_opening_reads_only_the_steps_after_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = saved_fight(tmp_path, 600)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        play(live, 7)  # seven steps after the snapshot, never compacted
    decoded: list[int] = []
    real = saves.step_lines.decode

    def counting(raw: bytes) -> saves.step_lines.Line:
        line = real(raw)
        decoded.append(line.seq)
        return line

    for module in (saves.step_lines, saves.steps):
        monkeypatch.setattr(module, "decode", counting)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        # the seven, the line the snapshot ends on, and the origin (whose id is checked)
        assert len(decoded) <= 7 + 2
        live.undo()  # the top of the undo stack is in the snapshot
        assert len(decoded) <= 10


def test_opening_writes_nothing_and_closing_writes_one_snapshot(tmp_path: Path) -> None:
    db, twin = saved_fight(tmp_path, COMPACT_AFTER + 10, close=False)
    before = files(tmp_path)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert files(tmp_path) == before  # nothing written on the way to the first frame
        assert live.compaction_due
        live.close()
        changed = {k for k in files(tmp_path) if files(tmp_path)[k] != before.get(k)}
        assert {Path(k).name for k in changed} == {"state.json", "encounters.json"}
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Ambush")
        assert again.encounter == twin.encounter and not again.compaction_due
        assert store.load("Ambush").records == []


def test_compact_if_due_writes_a_snapshot_once(tmp_path: Path) -> None:
    db, _ = saved_fight(tmp_path, COMPACT_AFTER + 1, close=False)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert live.compact_if_due()
        assert not live.compact_if_due()
        assert live.undo().kind == "undo"  # undo still reaches behind the snapshot
        assert len(store.load("Ambush").records) == 1


def test_read_only_opening_never_plans_a_compaction(tmp_path: Path) -> None:
    db, _ = saved_fight(tmp_path, COMPACT_AFTER + 1, close=False)
    before = files(tmp_path)
    with open_store(db, read_only=True) as store:
        live = LiveEncounter.open(store, "Ambush")
        assert not live.compaction_due and not live.compact_if_due()
        live.close()
    assert files(tmp_path) == before


def test_a_snapshot_whose_session_does_not_load_is_rebuilt_from_the_steps(
    tmp_path: Path,
) -> None:
    from saves.seal import seal
    from saves.storage import parse_tables

    db, twin = saved_fight(tmp_path, 300)
    (state,) = Path(f"{db}.d").glob("*/state.json")
    tables = parse_tables(state.read_bytes())
    tables["snapshot"]["1"]["session"]["undo_older"] = [[9, 2]]  # checksum fine, sense not
    state.write_bytes(seal(tables, "test") + b"\n")
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush")
        (notice,) = store.take_notices()
        assert "rebuilt from its 303 saved actions" in notice and "bad range" in notice
        assert "its save points were kept" in notice
        assert live.encounter == twin.encounter and live.full_log() == twin.log
    assert not list(state.parent.glob("state.json.corrupt-*"))  # it read: nothing moved


@pytest.mark.parametrize(
    "mangle",
    [
        {"undo_older": [[3, "4"]]},
        {"log_earlier": -1},
        {"version": 99},
        {"undo": [{"seq": 1, "kind": "sideways", "action": {}}]},
        {"seq": 1},  # the stacks name steps past it
    ],
)
def test_a_malformed_session_snapshot_is_one_clear_error(mangle: dict[str, object]) -> None:
    session = Session(Encounter("Ambush"), rng=random.Random(1))
    for line in [*CAST, "start", "next", "next"]:
        session.apply(line)
    data = {**json.loads(json.dumps(session.to_dict())), **mangle}
    with pytest.raises(ActionError, match="not a saved (session|step)"):
        Session.from_dict(data)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 99), st.text(max_size=20), st.text()),
        max_size=8,
    )
)
def test_any_log_entry_survives_the_steps_file(rows: list[tuple[int, int, str, str]]) -> None:
    log = tuple(LogEntry(*row) for row in rows)
    step = Step(7, "do", {"verb": "roll"}, {}, {}, log)
    line = saves.step_lines.step_line(7, "t", {}, {"step": step.to_dict()})
    back = saves.step_lines.decode(line.rstrip(b"\n"))
    assert Step.from_dict(back.record["step"]).log == log
