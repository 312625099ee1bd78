"""Opening a long fight without parsing its older log (issue 4, "Starts
fast"): the snapshot keeps the newest log entries inline and the older ones
(``"log_head"``) as a second deferred section of the file, handed to the
session unparsed and read only when the GM reaches them.

What the GM relies on: the log reads exactly as before (the newest entries
at once, the older ones when scrolled to, exported or undone into), undo
and redo at any depth, save points, restore, show and export behave as if
the whole log had been read at open; an untouched older log is written back
byte for byte; older snapshots and files still open; an older log that
turns out unreadable is a note where its entries were, never a traceback,
and nothing else of the fight is lost.  (Timings: ``bench/bench_startup.py``
and ``LiveEncounter.open``, not here.)
"""

from __future__ import annotations

import copy
import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_lazy_history import Loader, snapshot_file

import rules.engine.session as engine
from rules.encounter import Encounter, LogEntry
from rules.engine import Session
from rules.engine.lazy_log import UnreadLogHead
from saves.errors import CorruptData, NewerSchema
from saves.journal import Deferred, seal_document, unseal
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
]
#: actions with one, two or several log entries (a ``next`` logs the turn
#: and what ends and starts), so the split falls inside a step's entries too
CYCLE = ["roll 1d20", "damage Ogre 1", "heal Ogre 1", "next", "roll 2d6"]

#: small bounds for most tests (the real ones are tested on their own)
MAX, KEEP = 40, 12


@pytest.fixture(autouse=True)
def small_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "LOG_INLINE_MAX", MAX)
    monkeypatch.setattr(engine, "LOG_INLINE_KEEP", KEEP)


def fight(entries: int = 100, seed: int = 5) -> Session:
    s = Session(Encounter("Long"), rng=random.Random(seed))
    for line in LINES:
        s.apply(line)
    i = 0
    while len(s.log) < entries:
        s.apply(CYCLE[i % len(CYCLE)])
        i += 1
    return s


def roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def state(s: Session) -> dict[str, Any]:
    """What the GM sees: the encounter and the log."""
    return {"encounter": s.encounter.to_dict(), "log": [tuple(e) for e in s.log]}


def saved_split(s: Session) -> dict[str, Any]:
    """*s* as saves writes it: split, the head as plain columns."""
    data = roundtrip(s.to_dict(keep_unread=True))
    assert data["log_head_count"] == len(data["log_head"]["seq"]) > 0
    return data


REAL: Any = object()


def lazy(s: Session, head: Any = REAL, rng_seed: int = 1) -> tuple[Session, Loader]:
    """*s* resumed with its older log supplied lazily (by default the real
    one, else what the loader returns or raises), and the loader."""
    data = saved_split(s)
    loader = Loader(data["log_head"] if head is REAL else head)
    data["log_head"] = loader
    return Session.from_dict(data, rng=random.Random(rng_seed)), loader


# -- the engine: the snapshot's split ---------------------------------------------


def test_a_long_log_is_saved_split_and_a_short_one_whole() -> None:
    s = fight(100)
    data = saved_split(s)
    assert data["version"] == engine.SNAPSHOT_VERSION == 4
    assert data["log_head_count"] == len(s.log) - KEEP and len(data["log"]["seq"]) == KEEP
    entries = [tuple(e) for e in s.log]
    head = list(zip(*(data["log_head"][k] for k in ("seq", "round", "actor", "text")), strict=True))
    tail = list(zip(*(data["log"][k] for k in ("seq", "round", "actor", "text")), strict=True))
    assert head + tail == entries
    resumed = Session.from_dict(data)  # the head inline (as columns) loads too
    assert list(resumed.log) == list(s.log) and resumed.to_dict() == s.to_dict()
    plain = s.to_dict()  # without keep_unread: everything inline, as before
    assert plain["log_head_count"] == 0 and "log_head" not in plain
    assert len(plain["log"]["seq"]) == len(s.log)
    short = fight(MAX - 5)
    kept = short.to_dict(keep_unread=True)
    assert kept["log_head_count"] == 0 and "log_head" not in kept


def test_the_real_bounds_keep_more_than_the_log_panes_window_inline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tracker.widgets.log import WINDOW

    monkeypatch.undo()
    assert (engine.LOG_INLINE_MAX, engine.LOG_INLINE_KEEP) == (2048, 256)
    assert engine.LOG_INLINE_KEEP > WINDOW  # scrolling to the top of the window reads no head
    s = fight(2100)
    data = roundtrip(s.to_dict(keep_unread=True))
    assert len(data["log"]["seq"]) == 256 and data["log_head_count"] == len(s.log) - 256
    resumed, loader = lazy_from(data)
    assert resumed.log[-WINDOW:] == s.log[-WINDOW:] and loader.calls == 0


def lazy_from(data: dict[str, Any]) -> tuple[Session, Loader]:
    loader = Loader(data["log_head"])
    return Session.from_dict({**data, "log_head": loader}), loader


def test_the_newest_entries_and_the_length_need_no_head() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    log = resumed.log
    assert len(log) == len(eager.log) and bool(log) and isinstance(log, list)
    assert log[-1] == eager.log[-1] and log[-KEEP] == eager.log[-KEEP]
    assert log[-KEEP:] == eager.log[-KEEP:] and log[len(log) - 3 :] == eager.log[-3:]
    newest = []
    for entry in reversed(log):  # the pane's way: newest first, stopping early
        newest.append(entry)
        if len(newest) == KEEP:
            break
    assert newest == eager.log[::-1][:KEEP]
    assert loader.calls == 0
    with pytest.raises(IndexError):
        log[len(log)]
    assert loader.calls == 0


READS = {
    "index": lambda log: log[0],
    "negative index": lambda log: log[-len(log)],
    "slice reaching it": lambda log: log[-KEEP - 1 :],
    "stepped slice": lambda log: log[::7],
    "iteration": lambda log: list(log),
    "reversed to the start": lambda log: list(reversed(log)),
    "in": lambda log: LogEntry(-1, 0, "", "") in log,
    "equality": lambda log: log == [],
    "index()": lambda log: log.index(log[-1]),
    "count": lambda log: log.count(log[-1]),
    "copy": lambda log: log.copy(),
    "copy.copy": lambda log: copy.copy(log),
    "deepcopy": lambda log: copy.deepcopy(log),
    "repr": repr,
    "pop(0)": lambda log: log.pop(0),
    "del reaching it": lambda log: log.__delitem__(slice(-KEEP - 2, None)),
    "del one": lambda log: log.__delitem__(3),
    "set": lambda log: log.__setitem__(1, LogEntry(9, 9, "x", "y")),
    "insert": lambda log: log.insert(2, LogEntry(9, 9, "x", "y")),
    "remove": lambda log: log.remove(log[-1]),
    "sort": lambda log: log.sort(key=lambda e: e.text),
    "reverse": lambda log: log.reverse(),
    "+": lambda log: log + [],
}


@pytest.mark.parametrize("read", list(READS.values()), ids=list(READS))
def test_every_way_of_reaching_the_older_entries_reads_them_once_and_acts_like_a_list(
    read: Any,
) -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    plain = list(eager.log)
    got, want = read(resumed.log), read(plain)
    assert loader.calls == 1
    assert got == want and list(resumed.log) == plain and len(resumed.log) == len(plain)
    read(resumed.log)
    assert loader.calls == 1


def test_appending_and_cutting_the_newest_entries_need_no_head() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    for line in ["roll 1d20", "next", "roll 2d6"]:
        assert resumed.apply(line).to_dict() == eager.apply(line).to_dict()
    for _ in range(3):
        assert resumed.undo().to_dict() == eager.undo().to_dict()
    del resumed.log[-2:]
    del eager.log[-2:]
    resumed.log.pop()
    eager.log.pop()
    resumed.log.extend([LogEntry(1, 1, "a", "b")])
    eager.log.extend([LogEntry(1, 1, "a", "b")])
    assert loader.calls == 0 and len(resumed.log) == len(eager.log)
    assert list(resumed.log) == list(eager.log)


def test_deep_undo_and_redo_across_the_head_match_an_eager_session() -> None:
    eager = fight()
    # a split that falls inside one step's entries (its first ones in the head)
    for keep in range(KEEP, 60):
        seqs = [e.seq for e in eager.log]
        if seqs[-keep] == seqs[-keep - 1]:
            break
    else:
        pytest.fail("no step with several entries found")
    engine.LOG_INLINE_KEEP = keep  # (the fixture restores it)
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    for line in ["damage Ogre 3", "next"]:
        assert resumed.apply(line).to_dict() == eager.apply(line).to_dict()
    while eager.can_undo:  # all the way down: through the straddling step and the adds
        assert resumed.undo().to_dict() == eager.undo().to_dict()
        assert state(resumed) == state(eager)
    assert loader.calls == 1 and not resumed.log
    for line in ["redo"] * 8 + ["undo", "roll 1d20"]:
        assert resumed.apply(line).to_dict() == eager.apply(line).to_dict()
    assert resumed.to_dict() == eager.to_dict()


def test_an_undo_into_the_head_reads_it_once() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    head = len(eager.log) - KEEP
    while len(eager.log) >= head:  # until the log is shorter than the head was
        assert resumed.undo().to_dict() == eager.undo().to_dict()
    assert loader.calls == 1 and state(resumed) == state(eager)


def test_an_untouched_head_is_handed_back_unread_with_the_entries_after_it() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    for line in ["damage Ogre 2", "next", "roll 1d20"]:
        resumed.apply(line)
        eager.apply(line)
    data = resumed.to_dict(keep_unread=True)
    head = data["log_head"]
    assert isinstance(head, UnreadLogHead) and head.loader is loader
    assert head.count == data["log_head_count"] == len(eager.log) - len(data["log"]["seq"])
    assert data["log"] == {k: v[head.count :] for k, v in roundtrip(eager.to_dict())["log"].items()}
    assert loader.calls == 0
    again = Session.from_dict(data)  # the round trip in memory reads nothing...
    assert loader.calls == 0 and len(again.log) == len(eager.log)
    assert again.to_dict() == eager.to_dict()  # ...and reads as the whole log
    assert resumed.to_dict() == eager.to_dict()


def test_the_inline_part_is_bounded_by_a_fresh_split() -> None:
    eager = fight()
    resumed, loader = lazy(eager)
    eager.rng = random.Random(1)
    while len(resumed.log) - resumed.to_dict(keep_unread=True)["log_head_count"] < MAX:
        resumed.apply("roll 1d20")
        eager.apply("roll 1d20")
        assert isinstance(resumed.to_dict(keep_unread=True)["log_head"], UnreadLogHead)
    assert loader.calls == 0
    resumed.apply("roll 1d20")  # one more: the inline part would exceed the bound
    eager.apply("roll 1d20")
    data = resumed.to_dict(keep_unread=True)
    assert loader.calls == 1 and isinstance(data["log_head"], dict)
    assert data["log_head_count"] == len(eager.log) - KEEP and len(data["log"]["seq"]) == KEEP
    again = Session.from_dict(roundtrip(data))
    assert again.to_dict() == eager.to_dict()


def test_a_head_that_was_read_anyway_is_split_afresh() -> None:
    eager = fight()
    resumed, _ = lazy(eager)
    resumed.apply("undo")
    assert resumed.log[0] == eager.log[0]  # read (scrolled up to, say)
    data = resumed.to_dict(keep_unread=True)
    assert isinstance(data["log_head"], dict) and len(data["log"]["seq"]) == KEEP
    assert data["log_head_count"] + KEEP == len(resumed.log)
    few = fight(KEEP - 3)
    again, _ = lazy_from(
        roundtrip(dict(few.to_dict(), log_head={"seq": [], "round": [], "actor": [], "text": []}))
    )
    assert list(again.log) == list(few.log)
    assert again.to_dict(keep_unread=True)["log_head_count"] == 0  # too short to split


@pytest.mark.parametrize("version", [1, 2, 3])
def test_snapshots_of_versions_1_to_3_load_and_are_split_when_saved(version: int) -> None:
    eager = fight()
    data = roundtrip(eager.to_dict())
    del data["log_head_count"]
    data["version"] = version
    if version < 3:
        del data["undo_count"]
    if version == 1:
        cols = data["log"]
        data["log"] = [
            dict(zip(("seq", "round", "actor", "text"), row, strict=True))
            for row in zip(cols["seq"], cols["round"], cols["actor"], cols["text"], strict=True)
        ]
    resumed = Session.from_dict(data, rng=random.Random(1))
    assert list(resumed.log) == list(eager.log)
    eager.rng = random.Random(1)
    assert resumed.to_dict() == eager.to_dict()
    split = resumed.to_dict(keep_unread=True)
    assert split["log_head_count"] == len(eager.log) - KEEP
    while eager.can_undo:
        assert resumed.undo().to_dict() == eager.undo().to_dict()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"log_head_count": None}, "length"),
        ({"log_head_count": -1}, "length"),
        ({"log_head_count": "3"}, "length"),
        ({"log_head_count": 2.0}, "length"),
        ({"log_head": None, "log_head_count": 5}, "without a log_head"),
        ({"log_head": {"seq": [1], "round": [1], "actor": ["a"], "text": ["b"]}}, "entries"),
        ({"log_head": {"seq": [1], "round": [1]}}, "'actor'"),
    ],
)
def test_a_malformed_split_is_one_clear_error_at_open(change: dict[str, Any], why: str) -> None:
    data = saved_split(fight())
    data["log_head"] = Loader(data["log_head"])
    data.update(change)
    with pytest.raises(engine.ActionError, match=f"not a saved session.*{why}"):
        Session.from_dict(data)


# -- an unreadable older log -------------------------------------------------------

BAD_HEADS = {
    "raises": ValueError("boom"),
    "raises CorruptData": CorruptData("its deferred section is not JSON"),
    "not columns": ["not", "columns"],
    "missing column": {"seq": [], "round": []},
    "wrong count": {"seq": [1], "round": [1], "actor": ["GM"], "text": ["hi"]},
    "unequal columns": {"seq": [1, 2], "round": [1], "actor": ["a"], "text": ["b"]},
    "bad values": {"seq": [[1]], "round": [{}], "actor": [None], "text": [3]},
    "None": None,
}


@pytest.mark.parametrize("bad", list(BAD_HEADS.values()), ids=list(BAD_HEADS))
def test_an_unreadable_head_is_a_note_where_it_was_and_nothing_else_is_lost(bad: Any) -> None:
    eager = fight()
    resumed, loader = lazy(eager, head=bad)
    count = len(eager.log) - KEEP
    assert resumed.log[-KEEP:] == eager.log[-KEEP:] and resumed.log_problem is None
    first = resumed.log[0]  # read where it is asked for: never a traceback
    assert isinstance(first, LogEntry) and "older log" in first.text and "unreadable" in first.text
    assert resumed.log_problem == first.text and resumed.read_log() == first.text
    assert f"{count} entries cannot be shown" in first.text
    # the length stays, so a reader that counted first reads what it counted
    assert len(resumed.log) == len(eager.log) and len(list(resumed.log)) == len(eager.log)
    assert resumed.log[:count] == [first] * count
    assert resumed.log[count:] == eager.log[count:]  # the newest entries
    assert resumed.encounter == eager.encounter
    # the history is all there (its steps' entries in the head are what was readable)
    assert [(s.seq, s.action) for s in resumed.undo_stack] == [
        (s.seq, s.action) for s in eager.undo_stack
    ]
    eager.rng = random.Random(1)
    resumed.apply("damage Ogre 2")
    eager.apply("damage Ogre 2")
    while eager.can_undo:  # the history is all there: the encounter follows it down
        resumed.undo()
        eager.undo()
        assert resumed.encounter == eager.encounter
    # Saved again, the unreadable head goes back as it was (nothing saved is
    # lost) while its notes are untouched...
    kept = resumed.to_dict(keep_unread=True)
    assert isinstance(kept["log_head"], UnreadLogHead) and kept["log_head"].loader is loader
    assert kept["log_head_count"] == count
    assert kept["log"] == {k: v[count:] for k, v in resumed.to_dict()["log"].items()}
    # ...and once they were changed, what the log reads as is saved.
    del resumed.log[count - 1]
    data = roundtrip(resumed.to_dict(keep_unread=True))
    assert data["log_head_count"] == len(resumed.log) - KEEP
    again = Session.from_dict(data)
    assert list(again.log) == list(resumed.log) and again.encounter == eager.encounter


# -- the sealed file: several deferred sections ------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)
keys = st.text(max_size=6).filter(lambda k: not k.startswith("deferred"))  # reserved
json_dicts = st.dictionaries(keys, json_values, min_size=1, max_size=4)
placements = st.lists(st.tuples(st.lists(keys, min_size=1, max_size=3), json_values), max_size=3)


def place(doc: dict[str, Any], path: list[str], value: Any) -> None:
    parent = doc
    for key in path[:-1]:
        child = parent.get(key)
        if not isinstance(child, dict):
            child = parent[key] = {}
        parent = child
    parent[path[-1]] = value


def deferred_paths(obj: Any, above: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for key, value in obj.items():
        if isinstance(value, Deferred):
            found.append((*above, key))
        elif isinstance(value, dict):
            found += deferred_paths(value, (*above, key))
    return found


def with_sections(doc: dict[str, Any], placed: list[tuple[list[str], Any]]) -> dict[str, Any]:
    for path, value in placed:
        place(doc, path, Deferred.of(value))
    return doc


@settings(max_examples=120)
@given(json_dicts, placements)
def test_several_deferred_sections_round_trip_at_any_places(
    doc: dict[str, Any], placed: list[tuple[list[str], Any]]
) -> None:
    doc = with_sections(doc, placed)
    sealed = seal_document(doc)
    back = unseal(sealed)
    assert back == doc
    assert sorted(deferred_paths(back)) == sorted(deferred_paths(doc))  # back as Deferred
    assert sealed.count(b'"deferred_len":"') >= len(deferred_paths(doc))
    # the whole file is still one JSON object (an older reader can see its schema)
    assert isinstance(json.loads(b"{" + sealed[18:]), dict)


@settings(max_examples=120)
@given(json_dicts, placements, st.data())
def test_any_changed_byte_in_a_file_with_sections_is_detected(
    doc: dict[str, Any], placed: list[tuple[list[str], Any]], data: st.DataObject
) -> None:
    sealed = seal_document(with_sections(doc, placed))
    i = data.draw(st.integers(0, len(sealed) - 1))
    flipped = bytes([sealed[i] ^ data.draw(st.integers(1, 255))])
    with pytest.raises(CorruptData):
        unseal(sealed[:i] + flipped + sealed[i + 1 :])


def reseal(body: bytes) -> bytes:
    """A file with a valid checksum around *body* (damage only parsing finds)."""
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]


@settings(max_examples=80)
@given(st.binary(max_size=60))
def test_a_damaged_second_header_is_corrupt_data_only(junk: bytes) -> None:
    first = seal_document({"a": Deferred.of([1]), "b": 2})
    body = b"{" + first[18:].split(b',"b"')[0] + b',"deferred_len":"' + junk
    try:
        result = unseal(reseal(body))
    except CorruptData:
        return
    assert isinstance(result, dict)


def test_one_section_is_written_exactly_as_before_and_two_name_their_places() -> None:
    one = seal_document({"schema": 3, "s": {"undo": Deferred.of([1])}})
    assert one.endswith(b',"deferred_at":["s","undo"]}') and b"deferred_also_at" not in one
    two = seal_document({"s": {"head": Deferred.of({"x": 1}), "undo": Deferred.of([1])}})
    assert two.endswith(b',"deferred_at":["s","head"],"deferred_also_at":[["s","undo"]]}')
    assert two[18:].startswith(b'"deferred_len":"000000000007","deferred":{"x":1},"deferred_len"')
    head = unseal(two)["s"]["head"]
    assert isinstance(head, Deferred) and head.raw == b'{"x":1}'


@pytest.mark.parametrize(
    ("tail", "why"),
    [
        (b'"deferred_at":["h"]}', "2 deferred sections"),
        (b'"deferred_at":["h"],"deferred_also_at":[["u"],["v"]]}', "3 places for 2"),
        (b'"deferred_at":["h"],"deferred_also_at":["u"]}', "no place"),
        (b'"deferred_at":["h"],"deferred_also_at":[["h"]]}', "place is taken"),
        (b'"deferred_at":["h"],"deferred_also_at":[["h","x"]]}', "place is missing"),
    ],
)
def test_sections_and_places_that_do_not_match_are_corrupt_data(tail: bytes, why: str) -> None:
    body = (
        b'{"deferred_len":"000000000003","deferred":[1],'
        b'"deferred_len":"000000000003","deferred":[2],' + tail
    )
    with pytest.raises(CorruptData, match=why.replace("[", r"\[")):
        unseal(reseal(body))


def previous_unseal(data: bytes) -> dict[str, Any]:
    """How the previous version (file schema 2, one deferred section) read a
    sealed file: the first section split off by its header, the rest parsed,
    the section put at the one path ``deferred_at`` names."""
    assert zlib.crc32(b"{" + data[18:]) == int(data[8:16], 16)
    if data.startswith(b'"deferred_len":"', 18):
        start = 18 + 16 + 12 + len(b'","deferred":')
        end = start + int(data[34:46])
        obj = json.loads(b"{" + data[end + 1 :])
        path = obj.pop("deferred_at")
        if not (isinstance(path, list) and path and all(isinstance(k, str) for k in path)):
            raise CorruptData("its deferred section has no place")
        parent = obj
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = data[start:end]
        return obj
    result: dict[str, Any] = json.loads(b"{" + data[18:])
    return result


def test_the_previous_version_refuses_a_new_file_as_newer_instead_of_losing_the_older_log(
    tmp_path: Path,
) -> None:
    db, _ = saved_long(tmp_path)
    raw = snapshot_file(db).read_bytes()
    assert raw.count(b'"deferred_len":"') >= 2  # the older log and the history
    doc = previous_unseal(raw)  # it reads far enough to see the schema...
    assert doc["schema"] == FILE_SCHEMA_VERSION == 3
    with pytest.raises(NewerSchema, match="newer combat-tracker"):  # ...and refuses it
        migrate("snapshot", doc, target=2)


# -- LiveEncounter and the store ---------------------------------------------------


def saved_long(tmp_path: Path, entries: int = 100, name: str = "Long") -> tuple[Path, Session]:
    """A long fight saved and compacted (its older log and its history are
    deferred sections), and the same fight played in memory."""
    db = tmp_path / "encounters.json"
    eager = fight(entries)
    with open_store(db) as store:
        live = LiveEncounter.create(store, name, rng=random.Random(5))
        for line in LINES:
            live.do(line)
        i = 0
        while len(live.session.log) < entries:
            live.do(CYCLE[i % len(CYCLE)])
            i += 1
        live.compact()
    assert state(live.session) == state(eager)
    return db, eager


def body(entry: LogEntry) -> str:
    """An entry's text after its actor (export writes the actor in bold)."""
    return entry.text.removeprefix(entry.actor)


def head_section(path: Path) -> Deferred:
    head = unseal(path.read_bytes())["snapshot"]["session"]["log_head"]
    assert isinstance(head, Deferred)
    return head


def test_opening_does_not_parse_the_older_log_and_reaching_it_does_once(
    tmp_path: Path, parses: list[bytes]
) -> None:
    db, eager = saved_long(tmp_path)
    head = head_section(snapshot_file(db)).raw
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        log = live.session.log
        assert parses == [] and not live.compaction_due
        assert len(log) == len(eager.log) and log[-KEEP:] == eager.log[-KEEP:]
        assert live.session.encounter == eager.encounter
        assert parses == []
        assert log[:5] == eager.log[:5]  # the GM scrolls up to the oldest entries
        assert parses == [head]
        assert list(log) == list(eager.log) and parses == [head]


def test_export_deep_undo_and_redo_across_the_older_log_match_the_eager_fight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tracker.cli import main

    db, eager = saved_long(tmp_path)
    before = snapshot_file(db).read_bytes()
    assert main(["--db", str(db), "show", "Long", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [e["text"] for e in shown["log"]] == [e.text for e in eager.log]
    assert main(["--db", str(db), "export", "Long"]) == 0
    exported = capsys.readouterr().out
    assert body(eager.log[0]) in exported and body(eager.log[-1]) in exported
    assert snapshot_file(db).read_bytes() == before  # read-only: nothing written
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        eager.rng = random.Random(1)
        while eager.can_undo:  # undo at any depth, saved as it goes
            assert live.undo().to_dict() == eager.undo().to_dict()
        for _ in range(6):
            assert live.redo().to_dict() == eager.redo().to_dict()
        assert state(live.session) == state(eager)
    with open_store(db) as store:  # the journal of those undos replays over the snapshot
        again = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert state(again.session) == state(eager)
        assert again.session.to_dict() == eager.to_dict()


def test_compaction_writes_an_untouched_older_log_back_byte_for_byte(
    tmp_path: Path, parses: list[bytes]
) -> None:
    db, eager = saved_long(tmp_path)
    old = head_section(snapshot_file(db)).raw
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        eager.rng = random.Random(1)
        for line in ["damage Ogre 2", "next", "undo", "heal Ogre 1"]:
            live.do(line)
            eager.apply(line)
        live.compact()
        assert parses == []  # neither opening nor compacting parsed the older log
    assert head_section(snapshot_file(db)).raw == old
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert again.session.to_dict() == eager.to_dict()


def test_a_growing_fight_is_split_afresh_on_compaction(tmp_path: Path) -> None:
    db, eager = saved_long(tmp_path)
    count = unseal(snapshot_file(db).read_bytes())["snapshot"]["session"]["log_head_count"]
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        eager.rng = random.Random(1)
        while len(live.session.log) - count <= MAX:
            live.do("roll 1d20")
            eager.apply("roll 1d20")
        live.close()
        assert not live.compaction_due
        live.compact()
    session = unseal(snapshot_file(db).read_bytes())["snapshot"]["session"]
    assert session["log_head_count"] == len(eager.log) - KEEP and len(session["log"]["seq"]) == KEEP
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert again.session.to_dict() == eager.to_dict()


def test_save_points_keep_the_older_log_unparsed_and_restore_it(
    tmp_path: Path, parses: list[bytes]
) -> None:
    from tracker.restore import restore_save_point

    db, eager = saved_long(tmp_path)
    old = head_section(snapshot_file(db)).raw
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        live.save_point("before the bridge")
        live.do("damage Ogre 30")
        point = store.load_save_point("Long", "before the bridge")["session"]
        assert point["log_head"].raw == old
        restore_save_point(store, "Long", "before the bridge", "Retry", rng=random.Random(1))
        assert parses == []
    with open_store(db) as store:
        retry = LiveEncounter.open(store, "Retry", rng=random.Random(1))
        assert list(retry.session.log) == list(eager.log)
        eager.rng = random.Random(1)
        while eager.can_undo:
            assert retry.undo().to_dict() == eager.undo().to_dict()


def test_an_unreadable_older_log_in_a_file_is_a_note_and_the_fight_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tracker.cli import main

    db, eager = saved_long(tmp_path)
    path = snapshot_file(db)
    envelope = unseal(path.read_bytes())
    envelope["snapshot"]["session"]["log_head"] = Deferred(b'{"seq": [1, 2')  # cut short
    path.write_bytes(seal_document(envelope))  # a valid checksum: found only when read
    count = envelope["snapshot"]["session"]["log_head_count"]
    assert main(["--db", str(db), "export", "Long"]) == 0  # one note per lost entry, no crash
    exported = capsys.readouterr().out
    assert "older log saved with this fight could not be read" in exported
    assert body(eager.log[-1]) in exported
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        session = live.session
        assert session.encounter == eager.encounter
        assert session.log[count:] == eager.log[count:]  # the newest entries
        assert "not JSON" in session.log[0].text and session.log_problem == session.log[0].text
        assert session.undo_stack[-1] == eager.undo_stack[-1]  # the history is all there
        live.do("damage Ogre 2")
        live.compact()  # the unreadable bytes are written back as they were
    assert head_section(snapshot_file(db)).raw == b'{"seq": [1, 2'
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert list(again.session.log) == list(live.session.log)
        assert again.session.encounter == live.session.encounter
        while len(again.session.log) - count <= MAX:  # the fight goes on past the bound
            again.do("roll 1d20")
        again.compact()  # split afresh: now what the log reads as is saved, notes included
        shown = list(again.session.log)
    with open_store(db) as store:
        last = LiveEncounter.open(store, "Long")
        assert list(last.session.log) == shown and "unreadable" in shown[0].text


async def test_the_log_pane_shows_an_unreadable_older_log_as_notes_without_crashing() -> None:
    from tracker.app import CombatTrackerApp
    from tracker.config import Config
    from tracker.widgets.log import LogPane

    eager = fight(150)
    resumed, loader = lazy(eager, head=ValueError("boom"))
    app = CombatTrackerApp(live=LiveEncounter.in_memory(resumed), config=Config())
    async with app.run_test(size=(120, 40)) as pilot:  # the tail is taller than KEEP entries
        pane = app.screen.query_one(LogPane)
        await pilot.pause()
        lines = [strip.text for strip in pane.lines]
        assert loader.calls == 1 and any("unreadable" in line for line in lines)
        assert lines[-1].endswith(eager.log[-1].text[-20:])  # the newest at the bottom
        pane.scroll_to(y=0, animate=False, immediate=True)  # the GM scrolls up
        await pilot.pause()
        await pilot.pause()
        await pilot.press("n")  # and the fight goes on
        assert app.live.session.encounter.turn != eager.encounter.turn


def test_a_schema_2_file_with_a_version_3_snapshot_opens_and_is_rewritten_split(
    tmp_path: Path,
) -> None:
    db = tmp_path / "encounters.json"
    eager = fight()
    session = roundtrip(eager.to_dict())
    del session["log_head_count"]
    session["version"] = 3
    with Store(db) as store:
        store.create("Long", {"session": session, "ui": {"selected": "Ogre"}}, {"name": "x"})
    path = snapshot_file(db)
    envelope = unseal(path.read_bytes())
    envelope["schema"] = 2  # the file exactly as the previous version wrote it
    envelope["snapshot"]["session"]["undo"] = Deferred.of(session["undo"])
    raw = seal_document(envelope)
    assert raw.count(b'"deferred_len":"') == 1 and b"deferred_also_at" not in raw
    path.write_bytes(raw)
    with open_store(db) as store:
        live = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert live.compaction_due and live.ui_state == {"selected": "Ogre"}
        assert state(live.session) == state(eager)
        live.close()  # rewritten in the new layout
    envelope = unseal(snapshot_file(db).read_bytes())
    assert envelope["schema"] == FILE_SCHEMA_VERSION
    assert envelope["snapshot"]["session"]["log_head_count"] == len(eager.log) - KEEP
    with open_store(db) as store:
        again = LiveEncounter.open(store, "Long", rng=random.Random(1))
        assert not again.compaction_due
        assert again.session.to_dict() == eager.to_dict()
