"""Resuming a long fight fast without changing what the GM gets back
(issue 4, "Starts fast"): the snapshot's log stored as columns, the log and
the undo history built only when read, and opening an encounter that writes
nothing.  What the GM relies on: the resumed log, undo at any depth, redo
and the next actions are exactly those of the fight as it was saved, from a
new snapshot or one written by an older version; a damaged snapshot is one
clear error at open, never a crash later in the log pane.  (Timings are in
``bench/bench_startup.py``, not here.)"""

from __future__ import annotations

import gc
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter, LogEntry
from rules.engine.session import SNAPSHOT_VERSION, Session
from rules.errors import ActionError
from saves.live import COMPACT_AFTER, LiveEncounter, open_store

LINES = [
    "add Zalek player hp 38 al 15 con 17 athletics 4 dex 12",
    "add Goblin count 3 hp 2d6+2 al 13",
    "start",
    'damage "Goblin 1" 2d6',
    "roll 1d20",
    "next",
    "cond Zalek frightened value 2 rounds 2",
    "next",
    "roll 2d6",
]


def fight(seed: int = 5, extra_rolls: int = 20) -> Session:
    s = Session(Encounter("Ambush"), rng=random.Random(seed))
    for line in LINES:
        s.apply(line)
    for _ in range(extra_rolls):
        s.apply("roll 1d20")
    return s


def roundtrip(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


def as_v1(data: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as version 1 wrote it: the log as a list of entries."""
    old = roundtrip(data)
    cols = old["log"]
    old["log"] = [
        {"seq": q, "round": r, "actor": a, "text": t}
        for q, r, a, t in zip(cols["seq"], cols["round"], cols["actor"], cols["text"], strict=True)
    ]
    old["version"] = 1
    return old


def texts(log: Any) -> list[str]:
    return [e.text for e in log]


def test_snapshot_stores_the_log_as_columns_and_resumes_the_same_log() -> None:
    s = fight()
    data = s.to_dict()
    assert data["version"] == SNAPSHOT_VERSION
    assert set(data["log"]) == {"seq", "round", "actor", "text"}
    assert len(data["log"]["text"]) == len(s.log)
    restored = Session.from_dict(roundtrip(data))
    assert list(restored.log) == list(s.log)
    assert restored.to_dict() == data


def test_a_version_1_snapshot_resumes_identically() -> None:
    s = fight(seed=9)
    restored = Session.from_dict(as_v1(s.to_dict()), rng=random.Random(3))
    assert list(restored.log) == list(s.log)
    s.rng = random.Random(3)
    assert restored.to_dict() == s.to_dict()  # and is written back as version 2


def test_the_resumed_log_reads_like_a_list_of_entries() -> None:
    s = fight()
    log = Session.from_dict(roundtrip(s.to_dict())).log
    eager = list(s.log)
    assert isinstance(log, list) and len(log) == len(eager) and bool(log)
    assert log[-1] == eager[-1] and isinstance(log[-1], LogEntry)
    assert log[0] == eager[0] and log[5] == eager[5]
    assert log[-4:] == eager[-4:] and log[3:10:2] == eager[3:10:2] and log[::-1] == eager[::-1]
    assert list(reversed(log)) == eager[::-1]
    assert log == eager and eager == log and log != eager[:-1]
    assert eager[7] in log and log.index(eager[7]) == eager.index(eager[7])
    assert log.count(eager[0]) == 1
    assert log.copy() == eager and log + [] == eager and [] + log == eager
    assert repr(log) == repr(eager)
    assert [e.to_dict() for e in log] == [e.to_dict() for e in eager]
    last = log.pop()
    assert last == eager[-1] and len(log) == len(eager) - 1
    del log[-2:]
    assert log == eager[:-3]


def test_undo_deep_into_the_resumed_history_then_redo_matches_the_live_fight() -> None:
    live = fight(seed=13)
    resumed = Session.from_dict(roundtrip(live.to_dict()), rng=random.Random(1))
    live.rng = random.Random(1)
    while live.can_undo:  # all the way down, through next, cond and the adds
        a, b = live.undo(), resumed.undo()
        assert a.to_dict() == b.to_dict()
        assert texts(resumed.log) == texts(live.log)
    assert not resumed.can_undo and not resumed.log
    for line in ["redo", "redo", "redo", "next", "undo", "redo", "roll 1d20"]:
        a, b = live.apply(line), resumed.apply(line)
        assert a.to_dict() == b.to_dict()
    assert resumed.to_dict() == live.to_dict()
    assert Session.from_dict(roundtrip(resumed.to_dict())).to_dict() == live.to_dict()


def test_a_resumed_snapshot_saved_again_without_reading_it_is_unchanged() -> None:
    data = roundtrip(fight().to_dict())
    again = Session.from_dict(data).to_dict()
    assert roundtrip(again) == data


@pytest.mark.parametrize(
    ("mangle", "why"),
    [
        (lambda d: d["log"].update(seq=d["log"]["seq"][:-1]), "columns of unequal length"),
        (lambda d: d["log"]["seq"].__setitem__(3, "three"), "a sequence number that is text"),
        (lambda d: d["log"].pop("text"), "a missing column"),
        (lambda d: d.__setitem__("log", {"seq": 1, "round": 1, "actor": 1, "text": 1}), "scalars"),
        (lambda d: d["undo"][2].__setitem__("kind", ["do"]), "a step kind that is a list"),
        (lambda d: d["undo"][2].__setitem__("kind", "jump"), "an unknown step kind"),
        (lambda d: d["undo"][2].pop("seq"), "a step without its number"),
        (lambda d: d["undo"][2].__setitem__("action", 7), "an action that is a number"),
    ],
)
def test_a_damaged_snapshot_is_one_clear_error_at_open(mangle: Any, why: str) -> None:
    data = roundtrip(fight().to_dict())
    mangle(data)
    with pytest.raises(ActionError, match="not a"):
        Session.from_dict(data)


def test_old_style_values_that_convert_still_load() -> None:
    s = fight()
    data = as_v1(s.to_dict())
    data["log"][0]["seq"] = str(data["log"][0]["seq"])  # "1": converted as before
    data["undo"][0]["seq"] = str(data["undo"][0]["seq"])
    restored = Session.from_dict(data)
    assert restored.log[0] == s.log[0]
    assert restored.to_dict()["undo"][0]["seq"] == s.to_dict()["undo"][0]["seq"]


def test_a_column_value_that_converts_loads_and_is_saved_back_as_it_should_be() -> None:
    s = fight()
    data = roundtrip(s.to_dict())
    data["log"]["seq"][3] = str(data["log"]["seq"][3])  # "4": converted, like a version 1 entry
    restored = Session.from_dict(data)
    assert list(restored.log) == list(s.log)
    assert restored.to_dict() == s.to_dict()
    while restored.can_undo:  # the loaded steps find their entries in the converted log
        assert restored.undo().to_dict() == s.undo().to_dict()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 50),
            st.text(max_size=12),
            st.text(max_size=40),
        ),
        max_size=30,
    )
)
def test_any_log_survives_the_column_format(rows: list[tuple[int, int, str, str]]) -> None:
    rows.sort(key=lambda r: r[0])
    entries = [LogEntry(q, r, a, t) for q, r, a, t in rows]
    s = Session(Encounter("Log"), log=entries, seq=5)
    data = roundtrip(s.to_dict())
    restored = Session.from_dict(data)
    assert list(restored.log) == entries
    assert restored.log[::-1] == entries[::-1]
    assert Session.from_dict(as_v1(data)).log == entries


# -- LiveEncounter.open: reading only ------------------------------------------------


def files(root: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.name.endswith(".lock"):
            st_ = path.stat()
            out[str(path.relative_to(root))] = (st_.st_size, st_.st_mtime_ns)
    return out


def saved_fight(tmp_path: Path, records: int) -> Path:
    db = tmp_path / "encounters.json"
    store = open_store(db)
    try:
        live = LiveEncounter.create(store, "Ambush", rng=random.Random(2))
        for line in LINES:
            live.do(line)
        for _ in range(records - len(LINES)):
            live.do("roll 1d20")
    finally:
        store.close()
    return db


def test_opening_a_long_journal_writes_nothing_and_closing_compacts(tmp_path: Path) -> None:
    db = saved_fight(tmp_path, COMPACT_AFTER + 10)
    before = files(tmp_path)
    store = open_store(db)
    try:
        live = LiveEncounter.open(store, "Ambush")
        assert files(tmp_path) == before  # nothing compacted on the way to the first frame
        assert live.compaction_due and len(live.session.log) > COMPACT_AFTER
        log = [e.to_dict() for e in live.session.log]
        live.close()
        assert files(tmp_path) != before
        assert not live.compaction_due
    finally:
        store.close()
    store = open_store(db)
    try:
        again = LiveEncounter.open(store, "Ambush")
        assert [e.to_dict() for e in again.session.log] == log
        assert not again.compaction_due
        assert not again.compact_if_due()
    finally:
        store.close()


def test_compact_if_due_folds_the_journal_once(tmp_path: Path) -> None:
    db = saved_fight(tmp_path, COMPACT_AFTER + 1)
    store = open_store(db)
    try:
        live = LiveEncounter.open(store, "Ambush")
        assert live.compact_if_due()
        assert not live.compact_if_due()
        step = live.do("undo")  # undo still reaches the folded history
        assert step.kind == "undo"
        assert len(store.load("Ambush").records) == 1
    finally:
        store.close()


def test_an_old_format_snapshot_is_rewritten_on_close_not_on_open(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    store = open_store(db)
    try:
        session = fight(seed=4)
        store.create("Ambush", {"session": as_v1(session.to_dict()), "ui": {}}, {"name": "Ambush"})
    finally:
        store.close()
    before = files(tmp_path)
    store = open_store(db)
    try:
        live = LiveEncounter.open(store, "Ambush")
        assert files(tmp_path) == before and live.compaction_due
        assert list(live.session.log) == list(session.log)
        live.close()
        assert store.load("Ambush").snapshot["session"]["version"] == SNAPSHOT_VERSION
    finally:
        store.close()


def test_read_only_opening_never_plans_a_compaction(tmp_path: Path) -> None:
    db = saved_fight(tmp_path, COMPACT_AFTER + 1)
    before = files(tmp_path)
    store = open_store(db, read_only=True)
    try:
        live = LiveEncounter.open(store, "Ambush")
        assert not live.compaction_due and not live.compact_if_due()
        live.close()
    finally:
        store.close()
    assert files(tmp_path) == before


@pytest.mark.parametrize("enabled", [True, False])
def test_opening_leaves_the_garbage_collector_as_it_was(tmp_path: Path, enabled: bool) -> None:
    db = saved_fight(tmp_path, len(LINES))
    store = open_store(db)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        LiveEncounter.open(store, "Ambush")
        assert gc.isenabled() is enabled
        with pytest.raises(Exception, match="Nope"):
            LiveEncounter.open(store, "Nope")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
        store.close()
    assert os.path.exists(db)
