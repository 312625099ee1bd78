"""Opening a long fight without parsing its undo history (issue 4, "Starts
fast"): the history is a deferred section of the snapshot file, handed to
the session unparsed and read on the first undo that reaches it.

What the GM relies on: undo at any depth, redo, prev, save points, restore,
show and export behave exactly as when the history was read at open; a
snapshot written by an older version still opens (and is rewritten in the
new layout on close); a history that turns out unreadable is one clear
message on undo, never a traceback, and the fight itself is untouched.
(Timings: ``/tmp/prof/open.py`` and ``bench/bench_startup.py``, not here.)
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine.lazy_steps import UnreadHistory
from rules.engine.session import SNAPSHOT_VERSION, Session
from rules.errors import ActionError
from saves.errors import CorruptData, NewerSchema, SaveError
from saves.journal import Deferred, seal, seal_document, unseal
from saves.live import LiveEncounter, open_store
from saves.migrations import FILE_SCHEMA_VERSION, migrate
from saves.store import Store

LINES = [
    "add Zalek player hp 38 al 15 con 17 athletics 4 dex 12",
    "add Goblin count 3 hp 2d6+2 al 13",
    "add Ogre hp 40 al 11 resist fire=5",
    "start",
    'damage "Goblin 1" 2d6',
    "next",
    "cond Zalek frightened value 2 rounds 2",
    "damage Ogre 7 fire",
    "next",
    "persist Ogre 1d4 bleed",
    "next",
]


def fight(seed: int = 5, extra: int = 6) -> Session:
    s = Session(Encounter("Ambush"), rng=random.Random(seed))
    for line in LINES:
        s.apply(line)
    for _ in range(extra):
        s.apply("roll 1d20")
    return s


def roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def state(s: Session) -> dict[str, Any]:
    """What the GM sees: the encounter and the log."""
    d = s.to_dict()
    return {"encounter": d["encounter"], "log": d["log"]}


class Loader:
    """A lazily supplied value (a history, an older log) that counts how
    often it is read; an exception given as the value is raised."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> Any:
        self.calls += 1
        if isinstance(self.value, Exception):
            raise self.value
        return copy.deepcopy(self.value)


def lazy(s: Session, steps: Any = None, rng_seed: int = 1) -> tuple[Session, Loader]:
    """*s* as a snapshot whose history is supplied lazily (by default the
    real one), and the loader."""
    data = roundtrip(s.to_dict())
    loader = Loader(data["undo"] if steps is None else steps)
    data["undo"] = loader
    return Session.from_dict(data, rng=random.Random(rng_seed)), loader


# -- the engine: a history supplied lazily ---------------------------------------


def test_the_history_is_read_only_when_undo_reaches_below_this_sessions_steps() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    assert loader.calls == 0 and resumed.can_undo
    assert resumed.to_dict(keep_unread=True)["undo_count"] == len(eager.undo_stack)
    for line in ["damage Ogre 3", "heal Ogre 1"]:
        assert resumed.apply(line).to_dict() == eager.apply(line).to_dict()
    for _ in range(2):  # this session's own steps: the history is not needed
        assert resumed.undo().to_dict() == eager.undo().to_dict()
    assert loader.calls == 0
    while eager.can_undo:  # then all the way down, through next, cond and the adds
        assert resumed.undo().to_dict() == eager.undo().to_dict()
        assert state(resumed) == state(eager)
    assert loader.calls == 1 and not resumed.can_undo
    for line in ["redo", "redo", "redo", "redo", "undo", "roll 1d20"]:
        assert resumed.apply(line).to_dict() == eager.apply(line).to_dict()
    assert resumed.to_dict() == eager.to_dict()


def test_prev_right_after_a_saved_next_still_undoes_it() -> None:
    eager = fight(extra=0)  # the last action is a next
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    step = resumed.apply("prev")
    assert step.kind == "undo" and step.to_dict() == eager.apply("prev").to_dict()
    assert state(resumed) == state(eager) and loader.calls == 1


def test_an_untouched_history_is_handed_back_unparsed_with_the_new_steps() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    for line in ["damage Ogre 3", "next"]:
        resumed.apply(line)
        eager.apply(line)
    data = resumed.to_dict(keep_unread=True)
    history = data["undo"]
    assert isinstance(history, UnreadHistory) and history.loader is loader
    assert history.tail == roundtrip(eager.to_dict()["undo"][-2:])
    assert data["undo_count"] == history.count + 2 == len(eager.undo_stack)
    assert loader.calls == 0
    # It is itself a lazy history: the round trip in memory reads nothing...
    again = Session.from_dict(data)
    assert loader.calls == 0
    # ...and reading it gives the whole history, as if it had been read at open.
    assert again.to_dict() == roundtrip(eager.to_dict())
    assert resumed.to_dict() == roundtrip(eager.to_dict())
    assert loader.calls == 2


def test_the_stack_reads_like_the_list_it_was() -> None:
    eager = fight()
    resumed, _ = lazy(eager)
    assert resumed.undo_stack == eager.undo_stack
    assert [s.line for s in resumed.undo_stack] == [s.line for s in eager.undo_stack]


@pytest.mark.parametrize(
    "bad",
    [
        ValueError("boom"),
        RuntimeError("disk gremlins"),
        {"not": "a list"},
        [],  # fewer steps than saved
        [{"seq": 1, "kind": "jump", "action": {}}] * 3,  # not steps
    ],
    ids=["raises", "raises-other", "not-a-list", "wrong-count", "bad-steps"],
)
def test_an_unreadable_history_is_one_message_on_undo_and_the_fight_goes_on(bad: Any) -> None:
    eager = fight()
    resumed, loader = lazy(eager, steps=bad)
    if isinstance(bad, list) and bad:
        data = resumed.to_dict(keep_unread=True)
        data["undo_count"] = len(bad)
        resumed = Session.from_dict(data, rng=random.Random(1))
    assert state(resumed) == state(eager)  # the fight is all there
    resumed.apply("damage Ogre 3")
    assert resumed.undo().kind == "undo"  # this session's action undoes
    for _ in range(2):  # below it: one clear message each time, nothing changes
        before = state(resumed)
        with pytest.raises(ActionError, match="undo history saved with this fight is unreadable"):
            resumed.apply("undo")
        assert state(resumed) == before
    assert not resumed.can_undo and resumed.can_redo
    resumed.apply("redo")
    assert c_hp(resumed, "Ogre") == c_hp(eager, "Ogre") - 3
    resumed.undo()
    assert resumed.dice_needed("prev") == []
    turn = resumed.encounter.turn
    resumed.apply("prev")  # moves the turn pointer back, as with nothing to undo
    assert resumed.encounter.turn != turn and not resumed.can_redo
    # Saved again, it holds only what is readable, and says so consistently.
    data = roundtrip(resumed.to_dict())
    assert data["undo_count"] == len(data["undo"]) == 1  # the prev
    assert Session.from_dict(data).to_dict() == data


def c_hp(s: Session, name: str) -> int:
    return next(c.hp for c in s.encounter.combatants if c.name == name)


def test_a_lazy_history_needs_its_count_and_an_inline_one_must_match_it() -> None:
    data = roundtrip(fight().to_dict())
    assert data["version"] == SNAPSHOT_VERSION == 4
    assert data["undo_count"] == len(data["undo"])
    wrong = dict(data, undo_count=len(data["undo"]) + 1)
    with pytest.raises(ActionError, match="not a saved session.*undo_count"):
        Session.from_dict(wrong)
    for count in (None, -1, "3", 2.0):
        missing = dict(data, undo=Loader(data["undo"]), undo_count=count)
        with pytest.raises(ActionError, match="not a saved session"):
            Session.from_dict(missing)


# -- the sealed file: a deferred section --------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)
keys = st.text(max_size=6).filter(lambda k: not k.startswith("deferred"))  # reserved
json_dicts = st.dictionaries(keys, json_values, min_size=1, max_size=4)


@settings(max_examples=80)
@given(json_dicts, json_values, st.lists(keys, min_size=1, max_size=3))
def test_a_deferred_section_round_trips_at_any_place(
    doc: dict[str, Any], value: Any, path: list[str]
) -> None:
    parent = doc
    for key in path[:-1]:
        child = parent.get(key)
        if not isinstance(child, dict):
            child = parent[key] = {}
        parent = child
    parent[path[-1]] = Deferred.of(value)
    sealed = seal_document(doc)
    back = unseal(sealed)
    assert back == doc
    # the whole file is still one JSON object (an older reader can see its schema)
    assert isinstance(json.loads(b"{" + sealed[18:]), dict)


@settings(max_examples=80)
@given(json_dicts, json_values, st.data())
def test_any_changed_byte_in_a_file_with_a_section_is_detected(
    doc: dict[str, Any], value: Any, data: st.DataObject
) -> None:
    sealed = seal_document({**doc, "history": Deferred.of(value)})
    i = data.draw(st.integers(0, len(sealed) - 1))
    flipped = bytes([sealed[i] ^ data.draw(st.integers(1, 255))])
    with pytest.raises(CorruptData):
        unseal(sealed[:i] + flipped + sealed[i + 1 :])


@settings(max_examples=60)
@given(st.binary(max_size=60))
def test_a_damaged_section_header_is_corrupt_data_only(junk: bytes) -> None:
    import zlib

    body = b'{"deferred_len":"' + junk
    sealed = b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]
    try:
        result = unseal(sealed)
    except CorruptData:
        return
    assert isinstance(result, dict)


def test_a_section_is_read_back_unparsed_and_only_parsed_when_called() -> None:
    sealed = seal_document({"a": 1, "snapshot": {"history": Deferred(b'[1, {"b": 2}]')}})
    back = unseal(sealed)
    history = back["snapshot"]["history"]
    assert isinstance(history, Deferred) and history.raw == b'[1, {"b": 2}]'
    assert history() == [1, {"b": 2}]
    assert unseal(seal(back))["snapshot"]["history"] == [1, {"b": 2}]  # inline elsewhere
    broken = unseal(seal_document({"h": Deferred(b"[1, 2")}))["h"]  # CRC-valid, not JSON
    with pytest.raises(CorruptData, match="not JSON"):
        broken()


def test_an_older_program_refuses_a_new_file_as_newer_instead_of_losing_the_history() -> None:
    sealed = seal_document({"schema": FILE_SCHEMA_VERSION, "undo": Deferred.of([1, 2])})
    as_read_by_an_older_version = json.loads(b"{" + sealed[18:])
    with pytest.raises(NewerSchema, match="newer combat-tracker"):
        migrate("snapshot", as_read_by_an_older_version, target=1)


# -- LiveEncounter and the store ---------------------------------------------------


def saved(tmp_path: Path, extra: int = 6, name: str = "Ambush") -> tuple[Path, Session]:
    """A fight saved and compacted (its history is a deferred section), and
    the same fight played in memory."""
    db = tmp_path / "encounters.json"
    eager = fight(extra=extra)
    with open_store(db) as store:
        live = LiveEncounter.create(store, name, rng=random.Random(5))
        for line in LINES + ["roll 1d20"] * extra:
            live.do(line)
        live.compact()
    return db, eager


def snapshot_file(db: Path) -> Path:
    (path,) = db.parent.glob("encounters.json.d/*/snapshot-*.json")
    return path


def section(path: Path) -> Deferred:
    history = unseal(path.read_bytes())["snapshot"]["session"]["undo"]
    assert isinstance(history, Deferred)
    return history


def test_opening_a_saved_fight_does_not_parse_its_history(tmp_path: Path, parses: list) -> None:
    db, eager = saved(tmp_path)
    raw = snapshot_file(db).read_bytes()
    assert raw.startswith(b'{"crc":"') and b'"deferred_len":"' in raw[:40]
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert parses == [] and live.session.can_undo and not live.compaction_due
        assert state(live.session) == state(eager)
        eager.rng = random.Random(1)
        while eager.can_undo:  # undo at any depth, saved as it goes
            assert live.undo().to_dict() == eager.undo().to_dict()
        assert len(parses) == 1
        for _ in range(3):
            assert live.redo().to_dict() == eager.redo().to_dict()
    with open_store(db) as store:  # and the journal of those undos replays over it
        again = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert state(again.session) == state(eager)
        assert again.session.to_dict() == roundtrip(eager.to_dict())


def test_compaction_writes_an_untouched_history_back_as_it_was(
    tmp_path: Path, parses: list
) -> None:
    db, eager = saved(tmp_path)
    old = section(snapshot_file(db)).raw
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        eager.rng = random.Random(1)
        for line in ["damage Ogre 2", "next", "heal Ogre 1"]:
            live.do(line)
            eager.apply(line)
        live.compact()
        assert parses == []  # neither opening nor compacting parsed the history
    new = section(snapshot_file(db)).raw
    assert new.startswith(old[:-1] + b",") and json.loads(new) == roundtrip(eager.to_dict()["undo"])
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert again.session.to_dict() == roundtrip(eager.to_dict())


@pytest.mark.parametrize("version", [1, 2])
def test_a_snapshot_of_an_older_version_opens_and_is_rewritten_lazily(
    tmp_path: Path, version: int
) -> None:
    db = tmp_path / "encounters.json"
    eager = fight()
    session = roundtrip(eager.to_dict())
    del session["undo_count"]
    session["version"] = version
    if version == 1:  # the log as a list of entries
        cols = session["log"]
        session["log"] = [
            dict(zip(("seq", "round", "actor", "text"), row, strict=True))
            for row in zip(cols["seq"], cols["round"], cols["actor"], cols["text"], strict=True)
        ]
    with Store(db) as store:
        store.create("Ambush", {"session": session, "ui": {"selected": "Ogre"}}, {"name": "x"})
    path = snapshot_file(db)
    envelope = unseal(path.read_bytes())
    envelope["schema"] = 1  # the file exactly as the previous version wrote it
    path.write_bytes(seal(envelope))
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert live.compaction_due and live.ui_state == {"selected": "Ogre"}
        assert state(live.session) == state(eager)
        live.close()  # rewritten in the new layout
    assert unseal(snapshot_file(db).read_bytes())["schema"] == FILE_SCHEMA_VERSION
    assert section(snapshot_file(db))() == roundtrip(eager.to_dict()["undo"])
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert not again.compaction_due
        eager.rng = random.Random(1)
        while eager.can_undo:
            assert again.session.undo().to_dict() == eager.undo().to_dict()


def test_save_points_keep_the_history_unparsed_and_restore_it(tmp_path: Path, parses: list) -> None:
    from tracker.restore import restore_save_point

    db, eager = saved(tmp_path)
    old = section(snapshot_file(db)).raw
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        live.save_point("before the bridge")
        live.do("damage Ogre 30")
        assert store.load_save_point("Ambush", "before the bridge")["session"]["undo"].raw == old
        restore_save_point(store, "Ambush", "before the bridge", "Retry", rng=random.Random(1))
        assert parses == []
    with open_store(db, read_only=True) as reader:
        point = reader.load_save_point("Ambush", "before the bridge")
        assert isinstance(point["session"]["undo"], Deferred)
    with open_store(db) as store:
        retry = LiveEncounter.open(store, "Retry", rng=random.Random(1))
        eager.rng = random.Random(1)
        assert state(retry.session)["log"] == state(eager)["log"]
        while eager.can_undo:
            assert retry.undo().to_dict() == eager.undo().to_dict()


def test_show_and_export_read_a_lazy_history_without_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tracker.cli import main

    db, eager = saved(tmp_path)
    before = snapshot_file(db).read_bytes()
    assert main(["--db", str(db), "show", "Ambush", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [e["text"] for e in shown["log"]] == [e.text for e in eager.log]
    assert main(["--db", str(db), "export", "Ambush"]) == 0
    assert capsys.readouterr().out.startswith("# Ambush")
    assert main(["--db", str(db), "do", "Ambush", "undo\nundo"]) == 0
    capsys.readouterr()
    with open_store(db, read_only=True) as reader:
        live = LiveEncounter.open(reader, "Ambush")
        eager.undo()
        eager.undo()
        assert state(live.session) == state(eager)
    assert snapshot_file(db).read_bytes() == before


def test_an_unreadable_saved_history_is_one_message_and_the_fight_opens(tmp_path: Path) -> None:
    db, eager = saved(tmp_path)
    path = snapshot_file(db)
    envelope = unseal(path.read_bytes())
    envelope["snapshot"]["session"]["undo"] = Deferred(b'[{"seq": 1, "kind": "do"')  # cut short
    path.write_bytes(seal_document(envelope))  # a valid checksum: found only when parsed
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Ambush", rng=random.Random(1))
        assert live.session.can_undo  # known from the count alone
        assert live.session.encounter == eager.encounter
        assert list(live.session.log) == list(eager.log)
        live.do("damage Ogre 2")
        live.undo()
        with pytest.raises(ActionError, match="unreadable.*beyond this session's actions"):
            live.undo()
        live.do("next")  # the fight goes on and is saved
        live.compact()
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Ambush")
        assert again.session.encounter == live.session.encounter
        assert list(again.session.log) == list(live.session.log)
        assert len(again.session.undo_stack) == 1  # the next


def test_a_journal_that_needs_an_unreadable_history_is_a_clear_error(tmp_path: Path) -> None:
    db, _ = saved(tmp_path)
    with open_store(db) as store:
        LiveEncounter.open(store, "Ambush").undo()  # journaled: undoes a step of the snapshot
    path = snapshot_file(db)
    envelope = unseal(path.read_bytes())
    envelope["snapshot"]["session"]["undo"] = Deferred(b'{"not": "a list"}')
    path.write_bytes(seal_document(envelope))
    with open_store(db) as store, pytest.raises(SaveError, match="does not fit its snapshot"):
        LiveEncounter.open(store, "Ambush")
